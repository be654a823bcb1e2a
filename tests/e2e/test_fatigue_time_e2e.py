"""docs/rules.md#3-fatigue through the real client: every span of game time counts once per
character, caps set again after a rest, the VP damage tally and `/fatigue clear_vp`, and a new
round length."""

from __future__ import annotations

from typing import Any

from tests.e2e.helpers import fatigue_of, hero, refused, seed


async def test_worked_check_own_break_then_the_clock(env: Any) -> None:
    """FL 20, spend 60, Temporary FP 80 for 1 minute → FP 0, 20 Temporary; A's own Break → 10
    Temporary; the clock then passing 10 minutes → still 10. Each step undoes."""
    d = env.discord
    await seed(env, hero("Aria", d.player), hero("Odo", d.player2))
    await d.slash("fatigue spend", user=d.player, amount=60, character="Aria")
    await d.slash("fatigue temp", user=d.gm, amount=80, minutes=1, character="Aria")
    state = await fatigue_of(env, "Aria")
    assert (state.fp, state.temp) == (0, 20)

    reply = await d.slash("rest break", user=d.player, character="Aria")
    assert "FP **0** / 100 · Fresh · Temporary FP 20 → 10" in reply.text
    assert (await fatigue_of(env, "Aria")).temp == 10

    reply = await d.slash("clock pass", user=d.gm, minutes=10)
    assert "**Aria**" not in reply.text  # her 10 minutes were counted by her Break
    state = await fatigue_of(env, "Aria")
    assert (state.fp, state.temp, state.settled) == (0, 10, 0)
    reply = await d.slash("clock round", user=d.gm)
    assert "Temporary FP −1 (9 left)" in reply.text  # and from here, one a round

    for _ in range(3):  # the round, the minutes, the Break: the latest first
        await d.slash("undo", user=d.gm)
    state = await fatigue_of(env, "Aria")
    assert (state.fp, state.temp, state.settled) == (0, 20, 0)
    assert (await env.table()).clock == 0


async def test_a_party_break_after_a_characters_own_rest_counts_only_new_minutes(
    env: Any,
) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player, fp=50), hero("Odo", d.player2, fp=50))
    await d.slash("rest minutes", user=d.player, minutes=4, character="Aria")
    board = await d.slash("party show", user=d.player)
    assert "rested alone until Day 1, 00:04" in board.text
    clock = await d.slash("clock show", user=d.player)
    assert "Ahead of the clock" in clock.text and "**Aria** rested alone until" in clock.text
    reply = await d.slash("rest break", user=d.gm)
    assert "6 counted: rested alone until Day 1, 00:04" in reply.text
    table = await env.table()
    assert (table.get("Aria").fatigue.fp, table.get("Odo").fatigue.fp) == (40, 40)
    assert table.clock == 600


async def test_still_exhausted_after_a_break_a_spend_caps_again(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player, fp=75, exhausted_cap=True))
    reply = await d.slash("rest break", user=d.player, character="Aria")
    assert "caps cleared" in reply.text
    assert not (await fatigue_of(env, "Aria")).exhausted_cap
    reply = await d.slash("fatigue spend", user=d.player, amount=1, character="Aria")
    assert "Exhausted cap: FP ≥ 61 until a Break" in reply.text  # capped again
    reply = await d.slash("fatigue recover", user=d.gm, amount=20, character="Aria")
    assert "FP 66 → **61** / 100 · Exhausted\nExhausted cap: FP ≥ 61" in reply.text  # it holds
    assert (await fatigue_of(env, "Aria")).fp == 61


async def test_still_shattered_after_a_short_rest_a_spend_caps_again(env: Any) -> None:
    d = env.discord
    aria = hero("Aria", d.player, fp=90, exhausted_cap=True, shattered_cap=True)
    await seed(env, aria, rest_rate=0)
    await d.slash("rest short", user=d.player, character="Aria")
    reply = await d.slash("fatigue spend", user=d.player, amount=1, character="Aria")
    assert "Shattered cap: FP ≥ 81 until a Short Rest" in reply.text  # capped again
    assert (await fatigue_of(env, "Aria")).shattered_cap


async def test_vp_damage_stays_through_rests_until_the_gm_clears_it(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player, fp=100))
    await d.slash("fatigue spend", user=d.player, amount=1, character="Aria")
    await d.slash("rest long", user=d.gm)
    assert (await fatigue_of(env, "Aria")).vp_damage == 1
    board = await d.slash("party show", user=d.player)
    assert "1 VP damage (to apply on the sheet)" in board.text

    text = await refused(env, "fatigue clear_vp", d.player, character="Aria")
    assert "Only the GM can clear VP damage" in text
    reply = await d.slash("fatigue clear_vp", user=d.gm, character="Aria")
    assert "VP damage 1 → 0" in reply.text
    assert "FP **0** / 100" in reply.text  # FP didn't move: no "0 → 0" arrow
    assert (await fatigue_of(env, "Aria")).vp_damage == 0
    text = await refused(env, "fatigue clear_vp", d.gm, character="Aria")
    assert "Aria has no VP damage to clear" in text

    await d.slash("undo", user=d.gm)
    assert (await fatigue_of(env, "Aria")).vp_damage == 1
    history = await d.slash("history", user=d.player)
    assert "fatigue clear_vp" in history.text

    help_reply = await d.slash("help", user=d.player, options={"command": "fatigue clear_vp"})
    assert "/fatigue clear_vp character:" in help_reply.text
    assert "no rest clears it" in help_reply.text
    help_reply = await d.slash("help", user=d.player, options={"command": "rest long"})
    assert "VP damage stays" in help_reply.text


async def test_a_new_round_length_keeps_round_531(env: Any) -> None:
    d = env.discord
    await seed(env, clock=530 * 60)
    assert (await env.table()).round_number == 531
    # Outside a fight the clock shows the time of day, not the clock's own round count.
    shown = await d.slash("clock show", user=d.player)
    assert "Day 1, 08:50 (60 s rounds)" in shown.text and "531" not in shown.text
    changed = await d.slash("settings set", user=d.gm, round_seconds=6)
    assert "The clock stays at Day 1, 08:50 (6 s rounds)" in changed.text
    assert (await env.table()).round_number == 531
    shown = await d.slash("clock show", user=d.player)
    assert shown.embed["title"] == "🕰️ Day 1, 08:50"
    assert "Day 1, 08:50 (6 s rounds)" in shown.text
    reply = await d.slash("clock round", user=d.gm, count=2)
    assert "Day 1, 08:50:12 (6 s rounds)" in reply.text
    table = await env.table()
    assert (table.clock, table.round_number) == (530 * 60 + 12, 533)

    await d.slash("undo", user=d.gm)  # the rounds
    await d.slash("undo", user=d.gm)  # the new length
    shown = await d.slash("clock show", user=d.player)
    assert "Day 1, 08:50 (60 s rounds)" in shown.text
    assert (await env.table()).round_number == 531
