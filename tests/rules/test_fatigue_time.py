"""Fatigue over game time (docs/rules.md#3-fatigue): every span counts once per character, caps
set again after a rest, the VP damage tally, and the wording of a rest's conversions."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.fatigue import (
    BANDS,
    FatigueSettings,
    FatigueState,
    Transition,
    advance,
    band_name,
    band_width,
    clear_vp,
    recover,
    rest,
    rest_minutes,
    spend,
    temp,
)
from rules.gametime import round_number

TWENTY = Fraction(20)  # the worked check's FL: bands of 20, maximum 100
DEFAULTS = FatigueSettings()
KINDS = ("break", "short", "long", "minutes")
EXHAUSTED_NAME, SHATTERED_NAME = BANDS[3], BANDS[4]


def texts(t: Transition, kind: str) -> list[str]:
    return [e.text for e in t.events if e.kind == kind]


# --- the worked check -----------------------------------------------------------------------


def test_worked_check_a_characters_own_break_is_not_faded_again_by_the_clock() -> None:
    """docs/rules.md#36-every-span-of-game-time-counts-once: FL 20, spend 60, Temporary FP 80
    for 1 minute → FP 0, 20 Temporary; the character's own Break → 10 Temporary; the clock then
    passing 10 minutes → still 10."""
    state = spend(FatigueState(), TWENTY, 60).state
    state = temp(state, TWENTY, 80, now=0, settings=DEFAULTS, minutes=1).state
    assert (state.fp, state.temp, state.temp_expires) == (0, 20, 60)

    rested = rest(state, TWENTY, "break", DEFAULTS, now=0, alone=True)
    assert (rested.state.fp, rested.state.temp) == (0, 10)
    assert rested.state.settled == 600  # rested through Day 1, 00:10; the clock is still at 0
    assert texts(rested, "temp_decay") == ["10 Temporary FP converted while resting (10 left)"]

    passed = advance(rested.state, TWENTY, 0, 600, DEFAULTS)
    assert passed.events == ()
    assert (passed.state.fp, passed.state.temp, passed.state.settled) == (0, 10, 0)
    # from there on, one a round: the round ending at 660 (expiry 60 + 10 rounds) fades one
    assert advance(passed.state, TWENTY, 600, 660, DEFAULTS).state.temp == 9


def test_the_same_span_in_another_order_gives_the_same_character() -> None:
    """A Break of one character then the clock passing its 10 minutes is the party's Break."""
    state = FatigueState(fp=70, temp=15, temp_expires=30, exhausted_cap=True)
    alone = rest(state, TWENTY, "break", DEFAULTS, now=120, alone=True).state
    caught_up = advance(alone, TWENTY, 120, 720, DEFAULTS).state
    party = rest(state, TWENTY, "break", DEFAULTS, now=120).state
    assert caught_up == party == FatigueState(fp=50, temp=5, temp_expires=30)


def test_a_party_rest_counts_only_the_minutes_after_a_characters_own_rest() -> None:
    state = FatigueState(fp=40, temp=30, temp_expires=6000)
    alone = rest(state, TWENTY, "minutes", DEFAULTS, 4, now=0, alone=True)  # through 00:04
    assert alone.state == FatigueState(fp=32, temp=26, temp_expires=6000, settled=240)
    party = rest(alone.state, TWENTY, "break", DEFAULTS, now=0)  # 10 minutes, 6 of them new
    assert party.state == FatigueState(fp=20, temp=20, temp_expires=6000)
    assert texts(party, "recovered") == [
        "Took a Break (10 min, 6 counted: rested alone until Day 1, 00:04): FP 32 → 20"
    ]
    assert texts(party, "temp_decay") == ["6 Temporary FP converted while resting (20 left)"]


def test_a_second_rest_alone_follows_the_first() -> None:
    state = FatigueState(fp=50)
    first = rest(state, TWENTY, "break", DEFAULTS, now=60, alone=True)
    second = rest(first.state, TWENTY, "break", DEFAULTS, now=60, alone=True)
    assert (first.state.settled, second.state.settled) == (660, 1260)
    assert second.state.fp == 30
    assert texts(second, "recovered") == [
        "Took a Break (10 min alone, Day 1, 00:11 → Day 1, 00:21): FP 40 → 30"
    ]


def test_temporary_fp_granted_to_a_character_ahead_starts_at_its_own_time() -> None:
    ahead = rest(FatigueState(), TWENTY, "break", DEFAULTS, now=0, alone=True).state
    t = temp(ahead, TWENTY, 5, now=0, settings=DEFAULTS, minutes=1)
    assert t.state.temp_expires == 660  # after its Break ends at 600, not at the clock's 0
    assert advance(t.state, TWENTY, 0, 660, DEFAULTS).state.temp == 5
    assert advance(t.state, TWENTY, 0, 720, DEFAULTS).state.temp == 4


def test_a_rest_that_converts_nothing_says_nothing_about_temporary_fp() -> None:
    assert texts(rest(FatigueState(fp=5), TWENTY, "break", DEFAULTS), "temp_decay") == []
    long = rest(FatigueState(fp=5, temp=4, temp_expires=60), TWENTY, "long", DEFAULTS)
    assert texts(long, "temp_expired") == ["Temporary FP gone while resting"]


def test_a_long_rest_over_minutes_rested_alone_does_not_say_how_many_counted() -> None:
    # A Long Rest sets FP to 0 whatever counted: "480 min, 380 counted" would suggest less.
    ahead = rest(FatigueState(fp=30), TWENTY, "short", DEFAULTS, now=0, alone=True).state
    long = rest(ahead, TWENTY, "long", DEFAULTS, now=0)
    assert long.state.fp == 0
    assert texts(long, "recovered") == ["Took a Long Rest (480 min): FP stays 0"]
    assert "counted" in texts(rest(ahead, TWENTY, "break", DEFAULTS, now=0), "recovered")[0]


def test_settled_must_be_a_game_time() -> None:
    with pytest.raises(RulesError, match="Settled game time"):
        FatigueState(settled=-1)


# --- caps set again ---------------------------------------------------------------------------


def test_still_shattered_after_a_short_rest_is_capped_again() -> None:
    rates = FatigueSettings(rest_rate=0)  # a Short Rest that leaves FP where it was
    state = FatigueState(fp=90, exhausted_cap=True, shattered_cap=True)
    rested = rest(state, TWENTY, "short", rates).state
    assert rested == FatigueState(fp=90)  # the rest itself never sets a cap
    t = spend(rested, TWENTY, 1)
    assert t.state.shattered_cap and not t.state.exhausted_cap
    assert texts(t, "cap_set") == [
        "Still Shattered, capped again: FP can't drop below 81 until a Short Rest"
    ]


def test_a_recover_or_grant_that_leaves_fp_in_exhausted_sets_the_cap() -> None:
    after_break = FatigueState(fp=75)  # a Break cleared the cap
    assert recover(after_break, TWENTY, 5).state == FatigueState(fp=70, exhausted_cap=True)
    assert recover(after_break, TWENTY, 20).state == FatigueState(fp=55)  # left Exhausted
    granted = temp(after_break, TWENTY, 3, 0, DEFAULTS).state
    assert granted == FatigueState(fp=72, exhausted_cap=True)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_an_action_never_leaves_fp_in_a_capped_band_without_its_cap(seed: int) -> None:
    rng = random.Random(seed)
    fl = Fraction(rng.randint(1, 30), rng.choice([1, 2]))
    width = band_width(fl)
    rates = FatigueSettings(rest_rate=rng.randint(0, 2), break_minutes=rng.randint(1, 15))
    state, now = FatigueState(), 0
    for _ in range(30):
        op = rng.choice(["spend", "recover", "temp", "rest"])
        if op == "rest":
            kind = rng.choice(KINDS)
            minutes = rng.randint(1, 20) if kind == "minutes" else None
            before = state
            state = rest(state, fl, kind, rates, minutes, now=now).state
            now += 60 * rest_minutes(kind, rates, minutes)
            assert state.exhausted_cap == (before.exhausted_cap and kind == "minutes")
            continue
        if op == "spend":
            state = spend(state, fl, rng.randint(1, 2 * width)).state
        elif op == "recover":
            state = recover(state, fl, rng.randint(1, width)).state
        else:
            state = temp(state, fl, rng.randint(1, width), now, rates).state
        band = band_name(state.fp, fl)
        assert state.exhausted_cap or band != EXHAUSTED_NAME
        assert state.shattered_cap or band != SHATTERED_NAME


# --- VP damage is a tally ---------------------------------------------------------------------


def test_only_clear_vp_clears_the_tally() -> None:
    state = FatigueState(fp=100)
    hurt = spend(state, TWENTY, 3).state
    assert hurt.vp_damage == 1
    for kind in ("break", "short", "long"):
        assert rest(hurt, TWENTY, kind, DEFAULTS).state.vp_damage == 1
    cleared = clear_vp(hurt)
    assert cleared.state == FatigueState(fp=103, shattered_cap=True)
    assert texts(cleared, "vp_cleared") == ["VP damage tally cleared (1 → 0)"]
    with pytest.raises(RulesError, match="no VP damage"):
        clear_vp(cleared.state)


# --- every span once, for any order -----------------------------------------------------------


def _rounds_ending(expires: int | None, round_seconds: int, start: int, end: int) -> int:
    """Round ends E + k·R (k ≥ 1) in (start, end], counted by brute force."""
    if expires is None:
        return 0
    return sum(
        1 for t in range(start + 1, end + 1) if t > expires and (t - expires) % round_seconds == 0
    )


def _random_state(rng: random.Random, fl: Fraction) -> FatigueState:
    temp = rng.randint(0, 40)
    return FatigueState(
        fp=rng.randint(0, 5 * band_width(fl) + 5),
        temp=temp,
        temp_expires=rng.randint(0, 900) if temp else None,
    )


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_temporary_fp_falls_at_most_one_a_round_or_a_minute_of_rest(seed: int) -> None:
    """Any sequence of party rests, rests alone, `/clock round` and `/clock pass`: Temporary FP
    falls by at most one per round after its expiry (clock moves) or per minute of rest, the
    state stays canonical (settled 0 or ahead of the clock), and the clock passing over a span
    the character already rested through changes nothing of theirs."""
    rng = random.Random(seed)
    fl = Fraction(rng.randint(1, 25))
    rates = FatigueSettings(
        round_seconds=rng.choice([6, 10, 60]),
        rest_rate=rng.randint(0, 2),
        break_minutes=rng.randint(1, 15),
        short_minutes=rng.randint(10, 60),
    )
    state, clock = _random_state(rng, fl), rng.randint(0, 600)
    for _ in range(30):
        op = rng.choice(["party", "alone", "round", "pass", "temp"])
        before = state
        if op in ("party", "alone"):
            kind = rng.choice(KINDS)
            minutes = rng.randint(1, 20) if kind == "minutes" else None
            length = rest_minutes(kind, rates, minutes)
            t = rest(state, fl, kind, rates, minutes, now=clock, alone=op == "alone")
            # with the party, only the minutes that end after the character's own rests count
            fresh = (
                length
                if op == "alone"
                else sum(1 for k in range(1, length + 1) if clock + 60 * k > before.settled)
            )
            if kind != "long":
                assert before.temp - t.state.temp <= fresh
                assert before.fp - t.state.fp <= fresh * (1 + rates.rest_rate)
            if op == "party":
                clock += 60 * length
        elif op == "temp":
            t = temp(state, fl, rng.randint(1, 20), clock, rates, rng.randint(1, 3))
        else:
            step = (
                rates.round_seconds * rng.randint(1, 5)
                if op == "round"
                else 60 * rng.randint(1, 12)
            )
            t = advance(state, fl, clock, clock + step, rates)
            faded = before.temp - t.state.temp
            assert (
                0
                <= faded
                <= _rounds_ending(before.temp_expires, rates.round_seconds, clock, clock + step)
            )
            if clock + step < before.settled:  # all of it rested through already
                assert t.state == before and t.events == ()
            clock += step
        state = t.state
        assert state.settled == 0 or state.settled > clock
        assert state.fp >= state.floor(fl)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_rests_alone_then_the_clock_equal_the_same_rests_taken_by_the_party(seed: int) -> None:
    """Whatever order the GM advances things in, the same span counts the same: rests alone
    (the clock standing still) and then the clock passing over them, in any pieces, end where
    the party taking those rests does; every piece inside the rested span changes nothing."""
    rng = random.Random(seed)
    fl = Fraction(rng.randint(1, 25))
    rates = FatigueSettings(round_seconds=rng.choice([6, 60]), rest_rate=rng.randint(0, 2))
    state, clock = _random_state(rng, fl), rng.randint(0, 600)
    rests = [rng.choice(KINDS) for _ in range(rng.randint(1, 3))]
    minutes = [rng.randint(1, 15) if kind == "minutes" else None for kind in rests]

    alone, party, party_clock = state, state, clock
    for kind, length in zip(rests, minutes, strict=True):
        alone = rest(alone, fl, kind, rates, length, now=clock, alone=True).state
        party = rest(party, fl, kind, rates, length, now=party_clock).state
        party_clock += 60 * rest_minutes(kind, rates, length)
    assert alone.settled == party_clock

    cuts = sorted({clock, party_clock, *(rng.randint(clock, party_clock) for _ in range(3))})
    for start, end in itertools.pairwise(cuts):
        moved = advance(alone, fl, start, end, rates)
        if end < party_clock:
            assert moved.state == alone and moved.events == ()
        alone = moved.state
    assert alone == party


def test_rounds_keep_counting_from_where_the_length_changed() -> None:
    assert round_number(530 * 60, 60) == 531
    assert round_number(530 * 60, 6, since=530 * 60, first=530) == 531
    assert round_number(530 * 60 + 6, 6, since=530 * 60, first=530) == 532
    assert round_number(0, 6, since=600, first=10) == 1  # before the change (an undo): never 0


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_new_round_length_keeps_the_round_and_counts_on_from_it(seed: int) -> None:
    """docs/rules.md#38-the-game-clock: anchored where the length changes, the round number is
    the same there, goes up by one per round of the new length, and never runs backwards."""
    rng = random.Random(seed)
    clock, length, since, first = 0, rng.choice([6, 60]), 0, 0
    for _ in range(20):
        if rng.random() < 0.3:
            new = rng.choice([1, 6, 10, 30, 60, 3600])
            here = round_number(clock, length, since, first)
            since, first, length = clock, here - 1, new
            assert round_number(clock, length, since, first) == here
        else:
            before = round_number(clock, length, since, first)
            rounds = rng.randint(0, 40)
            clock += rounds * length + rng.randint(0, length - 1) * (rounds == 0)
            after = round_number(clock, length, since, first)
            assert after >= before
            if rounds:
                assert after == before + rounds
