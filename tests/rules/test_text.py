"""Numbers in player-facing text carry a true minus sign (U+2212), never a hyphen: the shared
formatter, and the rules errors that name a negative number."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.defense import build_monster
from rules.errors import RulesError
from rules.fatigue import fatigue_level
from rules.saves import Difficulty
from rules.text import MINUS, plain, signed


def test_minus_is_the_unicode_minus_sign() -> None:
    assert MINUS == "\u2212"


@pytest.mark.parametrize(
    ("number", "as_plain", "as_signed"),
    [(0, "0", "+0"), (5, "5", "+5"), (-3, "\u22123", "\u22123"), (-120, "\u2212120", "\u2212120")],
)
def test_plain_and_signed(number: int, as_plain: str, as_signed: str) -> None:
    assert (plain(number), signed(number)) == (as_plain, as_signed)


@given(st.integers(-(10**9), 10**9))
def test_no_hyphen_and_the_number_reads_back(number: int) -> None:
    for text in (plain(number), signed(number)):
        assert "-" not in text
        assert int(text.replace(MINUS, "-")) == number


def _error(make: Callable[[], object]) -> str:
    with pytest.raises(RulesError) as caught:
        make()
    return str(caught.value)


@pytest.mark.parametrize(
    ("make", "says"),
    [
        # Heavy Rank 3: Defense 13, Evasion modifier −4, so a trade may go down to −4.
        (lambda: build_monster(3, "heavy", trade=-50), "Trade \u221250 goes too far"),
        (lambda: build_monster(3, "heavy", trade=-50), "down to \u22124 at most"),
        (lambda: build_monster(3, "light", trade=-2), "(trade \u22122)"),
        (lambda: build_monster(3, "impervious", trade=-1), "(trade \u22121)"),
        (lambda: build_monster(2, "heavy", armor_enchantments=(-1,)), "(got \u22121)"),
        (lambda: build_monster(2, "heavy", extra_defense=-3), "(got \u22123)"),
        (lambda: fatigue_level([(10, 5)], toughness=-6), "between \u22125 and 7"),
        (lambda: Difficulty.spell(-7), "A Spell Casting total of \u22127 is a spell failure"),
    ],
)
def test_rules_errors_write_negative_numbers_with_a_true_minus(
    make: Callable[[], object], says: str
) -> None:
    text = _error(make)
    assert says in text
    assert re.search(r"-\d", text) is None  # no hyphen as a minus anywhere in it
