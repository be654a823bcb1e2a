"""`/settings server` through the real client and the local Discord: Manage Server (from the
interaction's member permissions) changes every channel of the server that sets nothing of its
own; a channel's GM without it is refused; `/settings show` says where each value comes from;
history and undo cover it; another server is untouched."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.settings import MANAGE_SERVER
from table.model import ChannelSettings
from tests.e2e.helpers import seed, snapshot

pytestmark = pytest.mark.asyncio


async def everything(env: Any) -> list[Any]:
    """Every table and log this test can reach, to show a refusal changed nothing anywhere."""
    d = env.discord
    channels = (d.table, d.ooc, d.side_table, d.other_table)
    return [await env.table(c) for c in channels] + [await snapshot(env)]


async def test_manage_server_sets_every_channel_that_sets_none(env: Any) -> None:
    d = env.discord
    reply = await d.slash("settings server", user=d.owner, ties="succeed", round_seconds=6)
    assert not reply.ephemeral
    assert reply.embed["title"] == "Server settings changed"
    assert "**Round length**: 60 s → **6 s**" in reply.text
    for channel in (d.table, d.ooc, d.side_table):
        settings = (await env.table(channel)).settings
        assert (settings.ties, settings.round_seconds) == ("succeed", 6), channel.name
    assert (await env.table(d.other_table)).settings == ChannelSettings()  # another server
    shown = await d.slash("settings show", user=d.player, channel=d.ooc)
    assert "**Ties**: succeed · *the server's*" in shown.text
    assert "**Rest rate**: 1 FP per minute · *default*" in shown.text


async def test_a_channels_own_value_comes_first_and_show_says_so(env: Any) -> None:
    d = env.discord
    await d.slash("settings server", user=d.owner, rest_rate=3, long_minutes=240)
    await d.slash("settings set", user=d.gm, rest_rate=2)
    shown = await d.slash("settings show", user=d.player)
    assert "**Rest rate**: 2 FP per minute · *set here*" in shown.text
    assert "**Long Rest**: 240 min · *the server's*" in shown.text
    assert "**Ties**: fail (the text: a tie fails) · *default*" in shown.text
    # Forgetting its own value, the channel follows the server again.
    await d.slash("settings set", user=d.gm, reset="rest_rate")
    assert (await env.table()).settings.rest_rate == 3


@pytest.mark.parametrize("who", ["gm", "named_gm", "player"])
async def test_a_channel_gm_without_manage_server_is_refused(env: Any, who: str) -> None:
    d = env.discord
    named = d.world.guild.role("GM")
    await d.slash("settings set", user=d.gm, gm_role=named)  # nim is a GM here by role
    before = await everything(env)
    reply = await d.slash("settings server", user=getattr(d, who), ties="succeed")
    assert reply.ephemeral and not reply.embeds
    assert reply.text == MANAGE_SERVER
    assert await everything(env) == before


async def test_server_scope_has_the_channel_scopes_limits(env: Any) -> None:
    d = env.discord
    before = await everything(env)
    at_server = await d.slash("settings server", user=d.owner, round_seconds=0)
    at_channel = await d.slash("settings set", user=d.owner, round_seconds=0)
    assert at_server.ephemeral and at_channel.ephemeral
    assert at_server.text == at_channel.text
    nothing = await d.slash("settings server", user=d.owner)
    assert nothing.ephemeral and "give at least one setting" in nothing.text
    everyone = await d.slash(
        "settings server", user=d.owner, gm_role=d.world.guild.role("@everyone")
    )
    assert "@everyone can't be the GM role" in everyone.text
    assert await everything(env) == before


async def test_history_and_undo_cover_it(env: Any) -> None:
    d = env.discord
    await d.slash("settings server", user=d.owner, break_minutes=5)
    page = await d.slash("history", user=d.player)
    assert "settings server" in page.text
    assert "server settings: Break none → 5 min" in page.text
    refused = await d.slash("undo", user=d.gm)  # the channel's GM, without Manage Server
    assert refused.ephemeral and "Manage Server" in refused.text
    assert (await env.table(d.ooc)).settings.break_minutes == 5
    undone = await d.slash("undo", user=d.owner)
    assert not undone.ephemeral
    assert (await env.table(d.ooc)).settings.break_minutes == 10


async def test_a_server_round_length_keeps_each_channels_round(env: Any) -> None:
    """The round each channel is in stays when the server's round length changes, as it does
    for a channel's own change; later rounds take the new length."""
    d = env.discord
    await seed(env, clock=600)  # round 11 of 60 s in #table
    assert (await env.table()).round_number == 11
    await d.slash("settings server", user=d.owner, channel=d.ooc, round_seconds=6)
    table = await env.table()
    assert (table.settings.round_seconds, table.round_number, table.clock) == (6, 11, 600)
    await d.slash("clock round", user=d.gm, count=2)
    table = await env.table()
    assert (table.round_number, table.clock) == (13, 612)
