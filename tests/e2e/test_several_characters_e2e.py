"""`character:` naming several characters (`Aria, Bórin`) on `/fatigue spend` and `/rest`:
one change to each, in one transaction, one `/history` line, undone by one `/undo`."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import fatigue_of, hero, refused, seed, snapshot
from tests.localdiscord.world import speaking

pytestmark = pytest.mark.asyncio


async def party(env: Any) -> None:
    d = env.discord
    await seed(
        env, hero("Aria", d.player, fp=10), hero("Bórin", d.player2, fp=50), hero("Cato", d.player)
    )


async def test_the_gm_spends_for_several_as_one_change(env: Any) -> None:
    d = env.discord
    await party(env)
    before = await env.store.history(d.table.id)
    reply = await d.type("/fatigue spend amount:3 character:Aria, bórin", user=d.gm)
    assert not reply.ephemeral
    assert reply.embed["title"] == "Aria and Bórin spend 3 FP"
    assert "Aria" in reply.embed["description"] and "Bórin" in reply.embed["description"]
    assert "Cato" not in reply.embed["description"]
    assert [(await fatigue_of(env, n)).fp for n in ("Aria", "Bórin", "Cato")] == [13, 53, 0]
    history = await env.store.history(d.table.id)
    assert len(history) == len(before) + 1  # one change, one line
    shown = await d.slash("history", user=d.gm)
    newest = shown.embed["description"].splitlines()[0]
    assert (
        "fatigue spend" in newest and "Aria FP 10 → 13" in newest and "Bórin FP 50 → 53" in newest
    )
    undone = await d.slash("undo", user=d.gm)
    assert not undone.ephemeral
    assert [(await fatigue_of(env, n)).fp for n in ("Aria", "Bórin")] == [10, 50]


async def test_the_gm_rests_several_without_moving_the_clock(env: Any) -> None:
    d = env.discord
    await party(env)
    clock = (await env.table()).clock
    reply = await d.type("/rest minutes minutes:5 character:Aria, Bórin, Cato", user=d.gm)
    assert reply.embed["title"] == "Aria, Bórin and Cato rest"
    assert [(await fatigue_of(env, n)).fp for n in ("Aria", "Bórin", "Cato")] == [5, 45, 0]
    assert (await env.table()).clock == clock  # each rests alone, as one character does
    await d.slash("undo", user=d.gm)
    assert [(await fatigue_of(env, n)).fp for n in ("Aria", "Bórin")] == [10, 50]


async def test_one_unknown_or_foreign_name_changes_nobody(env: Any) -> None:
    d = env.discord
    await party(env)
    text = await refused(env, "fatigue spend", d.gm, character="Aria, Nobody", amount=2)
    assert "Nobody" in text
    text = await refused(env, "rest long", d.gm, character="Aria, aria")
    assert "Aria is named twice" in text
    # A player lists only their own: Bórin is another player's.
    text = await refused(env, "fatigue spend", d.player, character="Aria, Bórin")
    assert "only change your own characters" in text
    mine = await d.slash("fatigue spend", user=d.player, character="Aria, Cato", amount=1)
    assert mine.embed["title"] == "Aria and Cato spend 1 FP"


async def test_a_name_with_a_comma_is_one_character(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bob, the Brave", d.player, fp=0), hero("Bob", d.player2, fp=0))
    reply = await d.slash("fatigue spend", user=d.gm, character="bob, the brave", amount=2)
    assert reply.embed["title"].startswith("🟢 Bob, the Brave spends 2 FP")
    assert (await fatigue_of(env, "Bob")).fp == 0


async def test_the_list_is_offered_as_it_is_typed(env: Any) -> None:
    d = env.discord
    await party(env)
    offered = await d.autocomplete("rest long", "character", "Aria, b", user=d.gm)
    assert [c["value"] for c in offered] == ["Aria, Bórin"]
    offered = await d.autocomplete("fatigue spend", "character", "Aria,", user=d.gm)
    assert {c["value"] for c in offered} == {"Aria, Bórin", "Aria, Cato"}


async def test_several_in_spanish(env: Any) -> None:
    d = env.discord
    await party(env)
    before = await snapshot(env)
    reply = await d.type("/rest break character:Aria, Bórin", user=speaking(d.gm, "es-ES"))
    assert reply.embed["title"] == "Aria y Bórin hacen una Pausa"
    assert await snapshot(env) != before
