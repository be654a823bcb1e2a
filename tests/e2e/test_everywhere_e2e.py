"""User install and DMs through the real client and the local Discord: what each command
declares at sync, what runs in the bot's DM and in a group DM, and the bot's own refusal of a
command that needs a server when one arrives without it."""

from __future__ import annotations

from typing import Any

import pytest

from bot.contexts import IN_A_SERVER, NOT_INSTALLED
from cogs.saves import IN_A_DM
from tests.e2e.helpers import hero, seed, snapshot
from tests.localdiscord.commands import CommandLineError

pytestmark = pytest.mark.asyncio

ANYWHERE = {"roll", "save", "monster-build", "help", "about"}
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
GUILD_INSTALL, USER_INSTALL = 0, 1


async def test_synced_contexts_and_installs(env: Any) -> None:
    synced = env.discord.server.commands[None]
    assert {c["name"] for c in synced} >= ANYWHERE
    for command in synced:
        if command["name"] in ANYWHERE:
            assert command["contexts"] == [GUILD, BOT_DM, PRIVATE_CHANNEL], command["name"]
            assert command["integration_types"] == [GUILD_INSTALL, USER_INSTALL], command["name"]
        else:  # every stateful command: a server, installed on the server
            assert command["contexts"] == [GUILD], command["name"]
            assert command["integration_types"] == [GUILD_INSTALL], command["name"]
    assert env.discord.synced("monster")["contexts"] == [GUILD]


@pytest.mark.parametrize("where", ["dm", "group"])
async def test_roll_and_help_in_private_channels(env: Any, where: str) -> None:
    d = env.discord
    channel = d.dm(d.player) if where == "dm" else d.group_dm(d.player, d.outsider)
    rolled = await d.type("/roll dice:2d6+3", user=d.player, channel=channel)
    assert not rolled.ephemeral
    assert rolled.embed["title"].startswith("2d6+3: ")
    assert rolled.channel_id == channel.id
    helped = await d.type("/help command:roll", user=d.player, channel=channel)
    assert helped.embed["title"] == "/roll"


async def test_save_with_numbers_in_a_dm_and_roll_again(env: Any) -> None:
    d = env.discord
    dm = d.dm(d.player)
    before = await snapshot(env)
    reply = await d.type("/save wsr level:5 vs:7", user=d.player, channel=dm)
    assert not reply.ephemeral
    assert "85" in reply.text  # difficulty 85 against an attack level 7
    again = await d.click(reply, "Roll again", user=d.player)
    assert again.embed["title"].startswith("Willpower Save Roll")
    assert "85" in again.text
    assert await snapshot(env) == before


async def test_save_without_numbers_in_a_dm_says_characters_live_in_a_server(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bórin", d.player))  # a character in #table: not reachable from a DM
    dm = d.dm(d.player)
    for line in ("/save wsr vs:7", "/save tsr level:3 vs:2 character:Bórin"):
        reply = await d.type(line, user=d.player, channel=dm)
        assert reply.ephemeral and not reply.embeds
        assert reply.text == IN_A_DM
        assert "server channel" in reply.text


async def test_monster_build_anywhere_the_same(env: Any) -> None:
    """`/monster-build` is the one build command: the same block in a group DM and a server;
    the server's `/monster` keeps the bestiary (no twin `build` under it, room for its own)."""
    d = env.discord
    group = d.group_dm(d.player, d.player2)
    built = await d.type("/monster-build rank:3 armor:heavy trade:2", user=d.player, channel=group)
    in_guild = await d.type("/monster-build rank:3 armor:heavy trade:2", user=d.player)
    assert built.embed["title"] == in_guild.embed["title"] == "Rank 3 Heavy monster"
    assert built.embed["fields"] == in_guild.embed["fields"]
    with pytest.raises(CommandLineError, match="Unknown command /monster"):
        await d.type("/monster list", user=d.player, channel=group)
    with pytest.raises(CommandLineError, match="build"):
        await d.type("/monster build rank:3 armor:heavy", user=d.player)


async def test_discords_client_offers_no_stateful_command_in_a_dm(env: Any) -> None:
    d = env.discord
    offered = {c["name"] for c in d.commands(d.dm(d.player))}
    assert offered == ANYWHERE
    with pytest.raises(CommandLineError, match="Unknown command /fatigue"):
        await d.type("/fatigue spend amount:3", user=d.player, channel=d.dm(d.player))


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("fatigue spend", {"amount": 3}),
        ("character create", {"name": "Ghost", "level": 2}),
        ("settings set", {"ties": "succeed"}),
        ("undo", {}),
        ("save party", {"kind": "wsr", "vs": 3}),
        ("monster list", {}),
    ],
)
@pytest.mark.parametrize("where", ["dm", "group"])
async def test_a_stateful_command_from_outside_a_server_is_refused(
    env: Any, command: str, options: dict[str, Any], where: str
) -> None:
    """A stale or forged client sends it anyway: the bot refuses, names a server channel, and
    writes nothing anywhere."""
    d = env.discord
    channel = d.dm(d.gm) if where == "dm" else d.group_dm(d.gm, d.player)
    before = await snapshot(env)
    reply = await d.slash(command, user=d.gm, channel=channel, offered=False, **options)
    assert reply.ephemeral and not reply.embeds
    assert reply.text == IN_A_SERVER
    assert "server channel" in reply.text
    assert await snapshot(env) == before
    assert await env.store.history(channel.id) == []


async def test_in_a_group_dm_only_the_roller_rolls_again(env: Any) -> None:
    d = env.discord
    group = d.group_dm(d.player, d.player2)
    reply = await d.type("/save tsr level:2 dc:50", user=d.player, channel=group)
    other = await d.click(reply, "Roll again", user=d.player2)
    assert other.ephemeral and not other.embeds
    mine = await d.click(reply, "Roll again", user=d.player)
    assert mine.embed["title"].startswith("Toughness Save Roll")


async def test_autocomplete_of_a_server_command_outside_a_server_offers_nothing(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bórin", d.player))
    dm = d.dm(d.player)
    assert await d.autocomplete("save wsr", "character", "B", user=d.player, channel=dm) == []
    assert await d.autocomplete("save wsr", "character", "B", user=d.player) != []


async def test_through_a_users_own_install_in_a_server(env: Any) -> None:
    """In a server that didn't install the bot, the user's own install runs what works
    anywhere; a command that keeps a table there is not offered, and refused if sent."""
    d = env.discord
    rolled = await d.slash("roll", user=d.player, user_install=True, dice="1d6")
    assert rolled.embed["title"].startswith("1d6: ")
    with pytest.raises(CommandLineError, match="not installable on a user's account"):
        await d.slash("fatigue spend", user=d.player, user_install=True, amount=1)
    before = await snapshot(env)
    refused = await d.slash(
        "character create", user=d.player, user_install=True, offered=False, name="Ghost"
    )
    assert refused.ephemeral and refused.text == NOT_INSTALLED
    assert "server channel" in refused.text
    assert await snapshot(env) == before


async def test_help_in_a_dm_lists_what_works_there(env: Any) -> None:
    d = env.discord
    reply = await d.slash("help", user=d.player, channel=d.dm(d.player))
    listed = {f["name"].lstrip("/") for f in reply.embed["fields"]}
    assert listed == ANYWHERE
    assert "server channel" in reply.embed["description"]
    in_guild = await d.slash("help", user=d.player)
    assert {"fatigue", "settings", "monster"} <= {
        f["name"].lstrip("/") for f in in_guild.embed["fields"]
    }
    dm = d.dm(d.player)
    detail = await d.slash("help", user=d.player, channel=dm, options={"command": "fatigue spend"})
    assert detail.embed["fields"][-1] == {
        "name": "Where",
        "value": "In a server channel: it uses that channel's table",
        "inline": False,
    }


async def test_a_secret_roll_in_a_dm_asks_for_a_server_channel(env: Any) -> None:
    d = env.discord
    before = await snapshot(env)
    reply = await d.type("/roll secret:true", user=d.player, channel=d.dm(d.player))
    assert reply.ephemeral and not reply.embeds
    assert reply.text == IN_A_SERVER
    assert await snapshot(env) == before
