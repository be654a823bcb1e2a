"""No reply can ping: every message the bot sends forbids mentions (checked after every e2e
test by the `env` fixture; here, that the check itself would catch a reply that could ping)."""

import discord
import pytest

from tests.e2e.conftest import Env, assert_nothing_could_ping


async def test_a_reply_allowed_to_ping_would_be_caught(env: Env) -> None:
    d = env.discord
    await d.slash("character create", user=d.gm, name="Aria", owner=d.player)
    assert_nothing_could_ping(d)  # the sheet says "played by <@player>", and can't ping

    env.bot.allowed_mentions = discord.AllowedMentions.all()
    loud = await d.slash("character create", user=d.gm, name="Bo", owner=d.player2)
    with pytest.raises(AssertionError, match="could ping"):
        assert_nothing_could_ping(d)
    # Put the bot back and forget the loud reply, so the fixture's own check passes.
    env.bot.allowed_mentions = discord.AllowedMentions.none()
    assert loud.message_id is not None
    del d.server.messages[loud.message_id]
