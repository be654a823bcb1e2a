"""`/clock show|round|pass` and `/rest break|short|long|minutes` through the real client."""

from __future__ import annotations

from typing import Any

from rules.fatigue import FatigueState
from tests.e2e.helpers import fatigue_of, hero, seed, snapshot

# --- the clock -----------------------------------------------------------------------------


async def test_clock_show_starts_at_day_one(env: Any) -> None:
    d = env.discord
    reply = await d.slash("clock show", user=d.player)
    assert reply.embed["title"] == "🕰️ Day 1, 00:00"
    assert "Day 1, 00:00 (60 s rounds)" in reply.embed["description"]


async def test_clock_show_lists_running_temporary_fp(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, temp=2, temp_expires=30_000), clock=8 * 3600 + 900)
    reply = await d.slash("clock show", user=d.player)
    assert reply.embed["title"] == "🕰️ Day 1, 08:15"
    assert "Bree" in reply.text and "until Day 1, 08:20" in reply.text


async def test_rounds_fade_expired_temporary_fp(env: Any) -> None:
    d = env.discord
    # Expired at 0:01; the rounds that end at 0:02, 0:03, 0:04 each take 1 point and 1 FP.
    await seed(
        env,
        hero("Bree", d.player, fp=10, temp=5, temp_expires=60),
        hero("Odo", d.player2, fp=10),
        clock=60,
    )
    reply = await d.slash("clock round", user=d.gm, count=3)
    assert "3 rounds pass" in reply.text
    assert "Day 1, 00:01 → **Day 1, 00:04** (+3 min)" in reply.text
    assert "Temporary FP −3 (2 left)" in reply.text
    assert "FP 10 → 7 as Temporary FP fades" in reply.text
    assert "**Odo**" not in reply.text  # nothing happened to Odo
    table = await env.table()
    assert table.clock == 240
    bree = table.get("Bree").fatigue
    assert (bree.fp, bree.temp) == (7, 2)
    assert table.get("Odo").fatigue.fp == 10


async def test_a_round_is_the_channels_round_length(env: Any) -> None:
    d = env.discord
    await seed(env, round_seconds=6)
    reply = await d.slash("clock round", user=d.gm)
    assert "1 round passes" in reply.text
    assert (await env.table()).clock == 6


async def test_passing_minutes_before_and_after_the_expiry(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=3))
    await d.slash("fatigue temp", user=d.gm, amount=6, character="Bree")  # FP 0, 3 pooled
    state = await fatigue_of(env, "Bree")
    assert (state.fp, state.temp, state.temp_expires) == (0, 3, 600)

    reply = await d.slash("clock pass", user=d.gm, minutes=10)  # up to the expiry: nothing
    assert "nobody's fatigue changed" in reply.text
    assert (await fatigue_of(env, "Bree")).temp == 3

    reply = await d.slash("clock pass", user=d.gm, minutes=5)  # 5 rounds after it: 3 fade
    assert "Temporary FP gone" in reply.text
    state = await fatigue_of(env, "Bree")
    assert (state.fp, state.temp, state.temp_expires) == (0, 0, None)
    assert (await env.table()).clock == 15 * 60


async def test_only_the_gm_moves_the_clock(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=10, temp=5, temp_expires=0))
    before = await snapshot(env)
    for command, options in (("clock round", {"count": 2}), ("clock pass", {"minutes": 5})):
        reply = await d.slash(command, user=d.player, **options)
        assert reply.ephemeral and "Only the GM" in reply.content
    assert await snapshot(env) == before


async def test_the_clock_survives_a_restart(env: Any) -> None:
    d = env.discord
    await d.slash("clock pass", user=d.gm, minutes=495)
    await env.restart()
    reply = await d.slash("clock show", user=d.player)
    assert reply.embed["title"] == "🕰️ Day 1, 08:15"


# --- resting -------------------------------------------------------------------------------


async def test_a_party_break_moves_the_clock_and_clears_only_the_exhausted_cap(env: Any) -> None:
    d = env.discord
    await seed(
        env,
        hero("Bree", d.player, fp=70, exhausted_cap=True),
        hero("Cid", d.player2, fp=90, exhausted_cap=True, shattered_cap=True),
        clock=300,
    )
    reply = await d.slash("rest break", user=d.gm)
    assert "The party takes a Break" in reply.text
    assert "Day 1, 00:05 → **Day 1, 00:15** (+10 min)" in reply.text
    assert "Exhausted cap cleared" in reply.text
    table = await env.table()
    assert table.clock == 300 + 600
    bree, cid = table.get("Bree").fatigue, table.get("Cid").fatigue
    assert (bree.fp, bree.exhausted_cap) == (60, False)
    assert (cid.fp, cid.exhausted_cap, cid.shattered_cap) == (81, False, True)


async def test_a_short_rest_clears_the_shattered_cap(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Cid", d.player2, fp=90, exhausted_cap=True, shattered_cap=True))
    await d.slash("rest short", user=d.gm)
    cid = await fatigue_of(env, "Cid")
    assert (cid.fp, cid.exhausted_cap, cid.shattered_cap) == (30, False, False)
    assert (await env.table()).clock == 3600


async def test_a_long_rest_empties_fp_and_temporary_fp(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Cid", d.player2, fp=95, temp=4, temp_expires=100, shattered_cap=True))
    await d.slash("rest long", user=d.gm)
    cid = await fatigue_of(env, "Cid")
    assert cid == FatigueState()
    assert (await env.table()).clock == 480 * 60


async def test_rest_lengths_are_channel_settings(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=40), break_minutes=25, rest_rate=2)
    await d.slash("rest break", user=d.gm)
    assert (await fatigue_of(env, "Bree")).fp == 0  # 25 minutes at 2 FP a minute
    assert (await env.table()).clock == 25 * 60


async def test_a_party_rest_in_minutes(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=70, exhausted_cap=True, temp=2, temp_expires=9000))
    reply = await d.slash("rest minutes", user=d.gm, minutes=4)
    assert "The party rests" in reply.text
    bree = await fatigue_of(env, "Bree")
    # No cap is cleared by resting minutes: FP stops at the Exhausted floor, 61.
    assert (bree.fp, bree.temp, bree.exhausted_cap) == (64, 0, True)
    assert (await env.table()).clock == 240


async def test_one_character_resting_leaves_the_clock_alone(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=30), hero("Odo", d.player2, fp=30), clock=120)
    reply = await d.slash("rest break", user=d.player, character="Bree")
    assert "Bree takes a Break" in reply.text
    assert "Took a Break (10 min alone, Day 1, 00:02 → Day 1, 00:12): FP 30 → 20" in reply.text
    assert "rested alone until Day 1, 00:12" in reply.text
    table = await env.table()
    assert table.clock == 120
    assert (table.get("Bree").fatigue.fp, table.get("Odo").fatigue.fp) == (20, 30)


async def test_who_may_rest_whom(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=30), hero("Odo", d.player2, fp=30))
    before = await snapshot(env)
    reply = await d.slash("rest short", user=d.named_gm)  # no character of theirs: the party's
    assert reply.ephemeral and "Only the GM can rest the whole party" in reply.content
    reply = await d.slash("rest short", user=d.player, character="Odo")
    assert reply.ephemeral and "only change your own characters" in reply.content
    assert await snapshot(env) == before
    await d.slash("rest short", user=d.gm, character="Odo")
    assert (await fatigue_of(env, "Odo")).fp == 0


async def test_a_rest_survives_a_restart(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=70, exhausted_cap=True))
    await d.slash("rest break", user=d.gm)
    await env.restart()
    reply = await d.slash("party show", user=d.player)
    assert "60/100 FP" in reply.text and "Exhausted cap" not in reply.text
    assert "Day 1, 00:10" in reply.text
