"""Open-ended rolls (docs/rules.md#1-the-open-ended-roll): scripted dice, properties, odds."""

from __future__ import annotations

import random
from collections.abc import Iterable
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import (
    OpenEndedRoll,
    chance_at_least,
    chance_exactly,
    open_ended,
)
from rules.errors import RulesError


class ScriptedDice:
    """A die source that returns a fixed sequence and records what was asked of it."""

    def __init__(self, dice: Iterable[int]) -> None:
        self.left = list(dice)
        self.used = 0

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 100), "an open-ended roll uses d100s"
        assert self.left, "rolled more dice than scripted"
        self.used += 1
        return self.left.pop(0)


def roll(*dice: int) -> OpenEndedRoll:
    source = ScriptedDice(dice)
    result = open_ended(source)
    assert not source.left, f"dice left unrolled: {source.left}"
    return result


# --- Scripted rolls ---------------------------------------------------------------------------


@pytest.mark.parametrize("die", [6, 42, 50, 95])
def test_plain_roll_is_the_die(die: int) -> None:
    result = roll(die)
    assert result.dice == (die,)
    assert result.direction == "none"
    assert result.total == die
    assert result.first == die


def test_plain_roll_describes_as_on_a_d100() -> None:
    assert roll(42).describe() == "42"
    assert roll(7).describe() == "07"


def test_high_chain_adds_until_a_die_below_96() -> None:
    result = roll(96, 100, 43)
    assert result.dice == (96, 100, 43)
    assert result.direction == "high"
    assert result.total == 239
    assert result.first == 96
    assert result.describe() == "96 → +100 → +43 = 239"


def test_high_roll_described_as_in_the_rules() -> None:
    assert roll(97, 99, 43).describe() == "97 → +99 → +43 = 239"


def test_high_roll_followed_by_a_low_die_just_adds_it() -> None:
    result = roll(100, 3)
    assert (result.direction, result.total) == ("high", 103)


def test_low_roll_subtracts() -> None:
    result = roll(3, 98, 40)
    assert result.direction == "low"
    assert result.total == -135
    assert result.first == 3
    assert result.describe() == "03 → −98 → −40 = −135"


def test_low_roll_then_high_chain_keeps_subtracting() -> None:
    result = roll(3, 98, 97, 12)
    assert result.dice == (3, 98, 97, 12)
    assert result.total == 3 - 98 - 97 - 12
    assert result.describe() == "03 → −98 → −97 → −12 = −204"


def test_low_roll_with_a_small_second_die_stops_and_can_stay_positive() -> None:
    result = roll(5, 2)
    assert (result.direction, result.total) == ("low", 3)
    assert result.describe() == "05 → −02 = 3"


def test_low_roll_described_with_positive_total_and_edges() -> None:
    assert roll(1, 95).total == -94
    assert roll(5, 1).total == 4


def test_high_chain_stops_at_100_extra_dice() -> None:
    source = ScriptedDice([97] + [99] * 150)
    result = open_ended(source)
    assert source.used == 101
    assert len(result.dice) == 101
    assert result.total == 97 + 100 * 99


def test_low_chain_stops_at_100_extra_dice() -> None:
    source = ScriptedDice([2] + [100] * 150)
    result = open_ended(source)
    assert source.used == 101
    assert result.total == 2 - 100 * 100


def test_a_chain_one_short_of_the_cap_still_rolls_on() -> None:
    result = roll(96, *[96] * 99, 50)
    assert len(result.dice) == 101
    assert result.total == 96 * 100 + 50


def test_out_of_range_die_source_is_refused() -> None:
    with pytest.raises(ValueError):
        open_ended(ScriptedDice([101]))


# --- Building rolls from dice -----------------------------------------------------------------


def test_from_dice_matches_rolling() -> None:
    assert OpenEndedRoll.from_dice([3, 98, 40]) == roll(3, 98, 40)


@pytest.mark.parametrize(
    "dice",
    [(), (0,), (101,), (50, 10), (97,), (4,), (97, 50, 20), (97, 98), [97] + [99] * 101],
)
def test_invalid_chains_are_refused(dice: tuple[int, ...]) -> None:
    with pytest.raises(RulesError):
        OpenEndedRoll.from_dice(dice)


def test_inconsistent_roll_is_refused() -> None:
    with pytest.raises(RulesError):
        OpenEndedRoll((97, 43), "high", 100)
    with pytest.raises(RulesError):
        OpenEndedRoll((3, 43), "high", 46)


# --- Properties -------------------------------------------------------------------------------


@given(st.integers(min_value=0, max_value=2**32))
def test_rolled_chain_is_consistent(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(50):
        result = open_ended(rng)
        first, extra = result.dice[0], result.dice[1:]
        assert all(1 <= die <= 100 for die in result.dice)
        if 96 <= first <= 100:
            assert result.direction == "high"
            assert result.total == first + sum(extra)
        elif 1 <= first <= 5:
            assert result.direction == "low"
            assert result.total == first - sum(extra)
        else:
            assert result.direction == "none"
            assert result.dice == (first,)
            assert result.total == first
        if extra:
            # The chain goes on only after a 96–100 and stops on anything else.
            assert all(96 <= die <= 100 for die in extra[:-1])
            assert not 96 <= extra[-1] <= 100 or len(extra) == 100
        assert OpenEndedRoll.from_dice(result.dice) == result


@given(st.integers(min_value=0, max_value=2**32))
def test_rolling_uses_one_die_per_entry(seed: int) -> None:
    counted = _CountingRandom(seed)
    result = open_ended(counted)
    assert counted.calls == len(result.dice)


class _CountingRandom(random.Random):
    calls = 0

    def randint(self, a: int, b: int) -> int:
        self.calls += 1
        return super().randint(a, b)


# --- Exact distribution -----------------------------------------------------------------------


def test_plain_total_is_one_face() -> None:
    assert chance_exactly(50) == Fraction(1, 100)
    assert chance_exactly(6) == Fraction(1, 100)


def test_total_of_100_only_from_96_to_99_then_a_small_die() -> None:
    # 100 on the first die rolls on; 96+4, 97+3, 98+2, 99+1 stop.
    assert chance_exactly(100) == Fraction(4, 100**2)


def test_total_of_196_needs_three_dice() -> None:
    # Two high dice then a die that stops: d + e + f = 196 with d, e in 96..100.
    paths = sum(1 for d in range(96, 101) for e in range(96, 101) if 1 <= 196 - d - e <= 95)
    assert paths == 10
    assert chance_exactly(196) == Fraction(paths, 100**3)


def test_upper_tail_above_100() -> None:
    # Over 100 needs a first die d of 96–100 and a second die of 101 − d or more.
    expected = sum(Fraction(1, 100) * Fraction(100 - (101 - d) + 1, 100) for d in range(96, 101))
    assert chance_at_least(101) == expected == Fraction(490, 100**2)


def test_cap_bounds_the_distribution_exactly() -> None:
    # The largest total is 100 then a hundred 100s; the smallest is 01 minus a hundred 100s.
    assert chance_at_least(100 + 100 * 100) == Fraction(1, 100**101)
    assert chance_at_least(100 + 100 * 100 + 1) == 0
    assert chance_at_least(1 - 100 * 100) == 1
    assert 1 - chance_at_least(1 - 100 * 100 + 1) == Fraction(1, 100**101)


def test_far_tails() -> None:
    assert chance_at_least(-(10**9)) == 1
    assert chance_at_least(10**9) == 0


@given(st.integers(min_value=-3000, max_value=3000))
def test_at_least_is_a_probability_and_non_increasing(x: int) -> None:
    here, next_up = chance_at_least(x), chance_at_least(x + 1)
    assert 0 <= next_up <= here <= 1
    assert chance_exactly(x) == here - next_up


def test_window_sums_to_nearly_one() -> None:
    # Outside −1000..1100 lies less than 1e-12 of the mass.
    mass = sum(chance_exactly(x) for x in range(-1000, 1101))
    assert 1 - Fraction(1, 10**12) < mass <= 1


def _chain_sums_up_to(limit: int) -> dict[int, Fraction]:
    """P(chain sum == s) for s ≤ limit, by rolling forward die by die (no recursion on tails)."""
    finished: dict[int, Fraction] = {}
    rolling = {0: Fraction(1)}
    while rolling:
        next_rolling: dict[int, Fraction] = {}
        for partial, p in rolling.items():
            for die in range(1, 101):
                s = partial + die
                if s > limit:
                    continue  # every continuation only grows
                if die >= 96:
                    next_rolling[s] = next_rolling.get(s, Fraction(0)) + p / 100
                else:
                    finished[s] = finished.get(s, Fraction(0)) + p / 100
        rolling = next_rolling
    return finished


def test_exact_distribution_matches_forward_enumeration_near_the_middle() -> None:
    chain = _chain_sums_up_to(700)
    pmf: dict[int, Fraction] = {}
    for first in range(1, 101):
        if 6 <= first <= 95:
            pmf[first] = pmf.get(first, Fraction(0)) + Fraction(1, 100)
            continue
        sign = 1 if first >= 96 else -1
        for c, p in chain.items():
            total = first + sign * c
            pmf[total] = pmf.get(total, Fraction(0)) + p / 100
    # Totals in −500..500 come only from chain sums ≤ 600, all enumerated above.
    for x in range(-500, 501):
        assert chance_exactly(x) == pmf.get(x, 0), x
