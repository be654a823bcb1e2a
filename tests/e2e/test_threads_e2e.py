"""Threads play at their channel's table (characters, clock, initiative, history), found from
the `parent_id` Discord sends with the interaction (no extra request), unless the channel lets
its threads keep tables of their own (`/settings set threads:own`)."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.settings import IN_THREAD
from tests.e2e.helpers import hero, refused, seed

pytestmark = pytest.mark.asyncio


async def test_a_thread_plays_at_its_channels_table(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    asked = len(d.requests)
    listed = await d.slash("character list", user=d.player, channel=d.scene)
    assert "Aria" in listed.text
    # Nothing but the answer: no request to look the thread or its channel up.
    assert [r for r in d.requests[asked:] if "/channels/" in r] == []

    await d.slash("fatigue spend", user=d.player, channel=d.scene, amount=4)
    assert (await env.table()).get("Aria").fatigue.fp == 4  # #table's Aria
    await d.slash("init add", user=d.gm, channel=d.scene, name="Orc", score="3", other=True)
    shown = await d.slash("init show", user=d.player)  # in #table
    assert "Orc" in shown.text
    history = await d.slash("history", user=d.player, channel=d.scene)
    assert "fatigue spend" in history.text and "init add" in history.text
    undone = await d.slash("undo", user=d.gm, channel=d.scene)
    assert "init add" in undone.text
    assert (await env.table()).initiative.combatants == ()


async def test_a_channel_may_let_its_threads_keep_their_own_table(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    assert IN_THREAD in await refused(env, "settings set", d.gm, channel=d.scene, threads="own")
    await d.slash("settings set", user=d.gm, threads="own")
    shown = await d.slash("settings show", user=d.player)
    assert "each keeps its own table" in shown.text
    alone = await d.slash("character list", user=d.player, channel=d.scene)
    assert "Aria" not in alone.text
    await d.slash("character create", user=d.player, channel=d.scene, name="Scout", level=2)
    assert (await env.table(d.scene)).find("Scout") is not None
    assert (await env.table()).find("Scout") is None
    await d.slash("settings set", user=d.gm, threads="shared")
    together = await d.slash("character list", user=d.player, channel=d.scene)
    assert "Aria" in together.text and "Scout" not in together.text


async def test_a_secret_roll_in_a_thread_is_for_the_channels_gm(env: Any) -> None:
    d = env.discord
    rolled = await d.settle(await d.slash("roll", user=d.player, channel=d.scene, secret=True))
    assert rolled.channel_id == d.scene.id
    peek = await d.click(rolled, "See the roll (GM)", user=d.gm)
    await d.click(peek, "Reveal to the channel", user=d.gm)
    assert "revealed" in d.latest(rolled).text
    assert f"PATCH /channels/{d.scene.id}/messages/{rolled.message_id}" in d.requests
