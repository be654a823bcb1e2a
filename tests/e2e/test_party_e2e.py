"""`/party show|spend|reset` through the real client and a local Discord."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import pytest

from render.common import band_colour
from rules.fatigue import FatigueState
from tests.e2e.helpers import accent, beside, card_ok, hero, seed, snapshot


async def seed_party(env: Any) -> None:
    d = env.discord
    await seed(
        env,
        hero("Amy", d.player, fp=5),
        hero("Bree", d.player, fp=45, temp=3, temp_expires=600),
        hero("Cid", d.player2, fp=70, exhausted_cap=True, vp_damage=1),
        hero("Nobody", d.player2, fl=None),
    )


async def test_board_shows_everyone_in_band_colours(env: Any) -> None:
    d = env.discord
    await seed_party(env)
    reply = await d.slash("party show", user=d.player2)
    card_ok(reply)
    assert [label for label in beside(reply)] == [
        "**🟢 Amy — Fresh**",
        "**🟠 Bree — Tired**",
        "**🔴 Cid — Exhausted**",
    ]
    assert accent(reply) == band_colour("Exhausted").value  # the worst band present
    amy, bree, cid, nobody = reply.texts()[1:5]
    assert amy.splitlines()[1].startswith("▰▱▱▱▱▱▱▱▱▱ 5/100 FP")
    assert "3 Temporary FP (until Day 1, 00:10)" in bree
    assert "Exhausted cap: FP ≥ 61" in cid
    assert "1 VP damage" in cid
    assert nobody.startswith("**⚪ Nobody**") and "/character set" in nobody  # no Spend 1


async def test_board_pages(env: Any) -> None:
    d = env.discord
    await seed(env, *(hero(f"Hero {i:02}", d.player) for i in range(12)))
    reply = await d.slash("party show", user=d.player, page=2)
    assert list(beside(reply)) == ["**🟢 Hero 10 — Fresh**", "**🟢 Hero 11 — Fresh**"]
    assert "-# Page 2/2 · Day 1, 00:00" in reply.texts()[0]
    reply = await d.slash("party show", user=d.player, page=3)
    assert reply.ephemeral and "2 pages" in reply.content


async def test_an_empty_board_says_how_to_start(env: Any) -> None:
    d = env.discord
    reply = await d.slash("party show", user=d.player)
    assert "/character create" in reply.text


async def test_party_spend_raises_everyones_fp(env: Any) -> None:
    d = env.discord
    await seed_party(env)
    reply = await d.slash("party spend", user=d.gm, amount=20)
    table = await env.table()
    fp = {c.name: (c.fatigue.fp, c.fatigue.temp) for c in table.characters}
    # Bree's 3 Temporary FP absorb part of the cost; Cid goes Shattered; Nobody is skipped.
    assert fp == {"Amy": (25, 0), "Bree": (62, 0), "Cid": (90, 0), "Nobody": (0, 0)}
    assert table.get("Cid").fatigue.shattered_cap
    assert "Temporary FP absorbed 3" in reply.text
    assert "Entered Shattered: FP can't drop below 81 until a Short Rest" in reply.text
    assert "left alone: Nobody" in reply.text
    assert reply.embed["color"] == band_colour("Shattered").value


async def test_only_the_gm_spends_for_the_party(env: Any) -> None:
    d = env.discord
    await seed_party(env)
    before = await snapshot(env)
    reply = await d.slash("party spend", user=d.player, amount=5)
    assert reply.ephemeral and "Only the GM" in reply.content
    assert await snapshot(env) == before


async def test_reset_after_the_gm_confirms_and_no_one_else_may_click(env: Any) -> None:
    d = env.discord
    await seed_party(env)
    before = await snapshot(env)
    ask = await d.slash("party reset", user=d.gm)
    assert not ask.ephemeral
    assert "Amy, Bree, Cid, Nobody" in ask.text
    assert await snapshot(env) == before  # asking changes nothing

    refused = await d.click(ask, "Reset everyone", user=d.player)
    assert refused.ephemeral and "Only the GM who asked" in refused.content
    assert await snapshot(env) == before

    done = await d.click(ask, "Reset everyone", user=d.gm)
    assert done.buttons() == []
    assert "Party reset" in done.text
    assert "**Cid** FP 70 → 0, caps cleared, VP damage 1 → 0" in done.text
    table = await env.table()
    assert all(c.fatigue == FatigueState() for c in table.characters)


async def test_cancelling_a_reset_changes_nothing(env: Any) -> None:
    d = env.discord
    await seed_party(env)
    before = await snapshot(env)
    ask = await d.slash("party reset", user=d.gm)
    done = await d.click(ask, "Cancel", user=d.gm)
    assert "cancelled" in done.text and done.buttons() == []
    assert await snapshot(env) == before


async def test_reset_buttons_are_disabled_when_they_time_out(
    env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = env.discord
    await seed_party(env)
    before = await snapshot(env)
    # The bot loaded its own copy of the module as an extension: patch that one.
    monkeypatch.setattr(sys.modules["cogs.party"], "CONFIRM_SECONDS", 0.2)
    ask = await d.slash("party reset", user=d.gm)
    for _ in range(50):
        await asyncio.sleep(0.1)
        now = d.latest(ask)
        if now.buttons() and all(b.get("disabled") for b in now.buttons()):
            break
    else:
        pytest.fail("the reset buttons were never disabled")
    assert "timed out" in now.text
    assert await snapshot(env) == before


async def test_only_the_gm_may_ask_for_a_reset(env: Any) -> None:
    d = env.discord
    await seed_party(env)
    before = await snapshot(env)
    reply = await d.slash("party reset", user=d.player)
    assert reply.ephemeral and "Only the GM" in reply.content
    assert reply.buttons() == []
    assert await snapshot(env) == before


async def test_nothing_to_reset_in_an_empty_channel(env: Any) -> None:
    d = env.discord
    reply = await d.slash("party reset", user=d.gm)
    assert reply.ephemeral and "no characters" in reply.content


async def test_the_board_survives_a_restart(env: Any) -> None:
    d = env.discord
    await seed_party(env)
    await d.slash("party spend", user=d.gm, amount=2)
    first = await d.slash("party show", user=d.player)
    await env.restart()
    again = await d.slash("party show", user=d.player)
    assert again.texts() == first.texts()
    assert "7/100 FP" in again.text


async def test_every_party_command_says_the_same_in_an_empty_channel(env: Any) -> None:
    d = env.discord
    said = {
        (await d.type(line, user=d.gm)).content
        for line in ("/party spend", "/party reset", "/save party kind:wsr vs:3")
    }
    assert said == {
        "There are no characters in this channel yet: make one with `/character create`"
    }


async def test_a_gm_who_lost_the_gm_role_cannot_confirm_a_reset(env: Any) -> None:
    d = env.discord
    await seed_party(env)
    await d.slash("settings set", user=d.gm, gm_role=d.guild.role("GM"))
    ask = await d.slash("party reset", user=d.named_gm)  # a GM by the channel's GM role
    await d.slash("settings set", user=d.gm, clear_gm_role=True)
    before = await snapshot(env)
    late = await d.click(ask, "Reset everyone", user=d.named_gm)
    assert late.ephemeral and "Only the GM" in late.content
    assert await snapshot(env) == before
    cancelled = await d.click(ask, "Cancel", user=d.named_gm)  # the prompt can still be closed
    assert "cancelled" in cancelled.text


async def test_the_reset_prompt_names_ten_then_counts_the_rest(env: Any) -> None:
    d = env.discord
    await seed(env, *(hero(f"Hero {i:02d}", d.player, fp=5) for i in range(14)))
    ask = await d.slash("party reset", user=d.gm)
    listed = ", ".join(f"Hero {i:02d}" for i in range(10))
    assert ask.embed["description"].endswith(f"for: {listed}, and 4 more")
    await d.click(ask, "Reset everyone", user=d.gm)  # still resets all fourteen
    table = await env.table()
    assert len(table.characters) == 14
    assert all(c.fatigue == FatigueState() for c in table.characters)
