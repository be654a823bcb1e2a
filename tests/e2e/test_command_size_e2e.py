"""`python -m bot sync` refuses a command over Discord's 4,000 characters before Discord does:
nothing is sent, and the one line says which command and by how much. The bot's own commands
fit, `/monster` included, in every language."""

from __future__ import annotations

from typing import Any

import pytest
from discord import app_commands

from bot.__main__ import sync_commands
from bot.command_size import COMMAND_CHARACTERS_MAX, CommandsTooLarge, characters
from tests.localdiscord import limits


async def test_a_command_over_the_limit_is_refused_before_anything_is_sent(env: Any) -> None:
    d = env.discord

    async def huge(interaction: Any, pick: str) -> None:
        raise AssertionError("never run")

    choices = [app_commands.Choice(name=f"{'y' * 90}{n:02}", value=f"{n:02}") for n in range(25)]
    group = app_commands.Group(name="hoard", description="z" * 100)
    for n in range(2):
        group.add_command(
            app_commands.Command(name=f"huge{n}", description="x" * 100, callback=huge)
        )
        group.get_command(f"huge{n}")._params["pick"].choices = choices  # type: ignore[union-attr]
    env.bot.tree.add_command(group)
    sent = len(d.requests)
    with pytest.raises(CommandsTooLarge) as refused:
        await sync_commands(env.bot, None)
    assert str(refused.value).startswith("Not synced: Discord allows 4,000 characters")
    # As the local Discord counts it too (tests.localdiscord.limits, written from Discord's docs).
    payload = await group.get_translated_payload(env.bot.tree, env.bot.tree.translator)
    assert limits._characters(payload) == characters(payload) == 5025
    assert "/hoard has 5,025 (1,025 too many)" in str(refused.value)
    assert not [r for r in d.requests[sent:] if "commands" in r]  # nothing reached Discord
    env.bot.tree.remove_command("hoard")
    assert await sync_commands(env.bot, None)  # the bot's own tree passes


async def test_every_command_fits_in_its_longest_language(env: Any) -> None:
    tree = env.bot.tree
    sizes = {
        c.name: characters(await c.get_translated_payload(tree, tree.translator))
        for c in tree.get_commands()
    }
    assert max(sizes.values()) <= COMMAND_CHARACTERS_MAX, sizes
    assert sizes["monster"] <= COMMAND_CHARACTERS_MAX - 400  # room to grow
