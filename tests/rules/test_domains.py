"""Values outside a rules function's domain are refused with a RulesError, whatever the caller
(a forged interaction, a stale button, a test): never an OverflowError in the store later,
a ValueError from Fraction, or a number too long for a custom_id."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.fatigue import FP_AT_ONCE_MAX, FatigueSettings, FatigueState, recover, spend, temp
from rules.saves import (
    CASTING_LIMIT,
    DC_MAX,
    LEVEL_LIMIT,
    PER_MAX,
    Difficulty,
    points_of_failure,
    spell_difficulty,
    sr_bonus,
    sr_difficulty,
)
from table.model import Table
from table.sheet import parse_fl

HUGE = st.one_of(st.integers(min_value=LEVEL_LIMIT + 1), st.just(2**63), st.just(2**64 + 1))
NOT_WHOLE = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.text(max_size=3)
)


@given(HUGE)
def test_levels_and_attack_levels_past_the_limit_are_refused(level: int) -> None:
    for function in (sr_bonus, sr_difficulty, Difficulty.attack_level):
        with pytest.raises(RulesError):
            function(level)


@given(NOT_WHOLE)
def test_levels_must_be_whole_numbers(level: object) -> None:
    for function in (sr_bonus, sr_difficulty):
        with pytest.raises(RulesError):
            function(level)  # type: ignore[arg-type]


@given(st.integers().filter(lambda n: abs(n) > CASTING_LIMIT))
def test_spell_casting_totals_past_the_limit_are_refused(total: int) -> None:
    with pytest.raises(RulesError):
        spell_difficulty(total)


@given(st.one_of(st.integers(max_value=0), st.integers(min_value=PER_MAX + 1), NOT_WHOLE))
def test_per_outside_its_domain_is_refused(per: int) -> None:
    with pytest.raises(RulesError):
        points_of_failure(10, 50, per)


@given(st.one_of(st.integers(max_value=0), st.integers(min_value=DC_MAX + 1), NOT_WHOLE))
def test_a_dc_outside_its_domain_is_refused(dc: int) -> None:
    with pytest.raises(RulesError):
        Difficulty.number(dc)


@given(st.one_of(st.integers(max_value=0), st.integers(min_value=FP_AT_ONCE_MAX + 1), NOT_WHOLE))
def test_fp_amounts_outside_their_domain_are_refused(amount: int) -> None:
    state, fl = FatigueState(), Fraction(20)
    with pytest.raises(RulesError):
        spend(state, fl, amount)
    with pytest.raises(RulesError):
        recover(state, fl, amount)
    with pytest.raises(RulesError):
        temp(state, fl, amount, 0, FatigueSettings())


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 1e300, -1.0, 0.0])
def test_a_fatigue_level_must_be_a_finite_number_in_range(value: float) -> None:
    with pytest.raises(RulesError):
        parse_fl(value)


@given(st.one_of(st.integers(), st.none(), st.floats(), st.lists(st.text(max_size=2))))
def test_a_name_that_is_not_text_is_refused(name: object) -> None:
    with pytest.raises(RulesError, match="name is text"):
        Table(1, None).get(name)  # type: ignore[arg-type]
