"""table.dice_expr: dice expressions through d20, with our random source and a size cap."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RulesError
from table.dice_expr import DICE_MAX, EXPRESSION_MAX, WORKING_MAX, bare_modifier, roll_expression


class Scripted:
    """Dice that come up as written, checking each is a face of the die asked for."""

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)
        self.asked: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        self.asked.append((a, b))
        face = self.faces.pop(0)
        assert a <= face <= b, f"{face} is not on a {a}..{b} die"
        return face


def test_scripted_dice_show_in_the_working() -> None:
    rolled = roll_expression(" 2d6+3 ", Scripted([2, 6]))
    assert (rolled.expression, rolled.total) == ("2d6+3", 11)
    assert rolled.working == "2d6 (2, **6**) + 3 = `11`"


def test_keep_highest_drops_the_lowest() -> None:
    rolled = roll_expression("4d6kh3", Scripted([4, 1, 5, 3]))
    assert rolled.total == 12
    assert "~~**1**~~" in rolled.working


def test_exploding_dice_roll_again_with_our_source() -> None:
    dice = Scripted([6, 6, 2])
    rolled = roll_expression("1d6e6", dice)
    assert rolled.total == 14
    assert dice.asked == [(1, 6)] * 3


def test_percentile_die_is_a_tens_die() -> None:
    assert roll_expression("d%", Scripted([7])).total == 70


@given(seed=st.integers(0, 2**32 - 1))
def test_same_seed_same_roll(seed: int) -> None:
    first = roll_expression("3d8+1d4", random.Random(seed))
    again = roll_expression("3d8+1d4", random.Random(seed))
    assert first == again
    assert 4 <= first.total <= 28


@pytest.mark.parametrize(
    ("expression", "says"),
    [
        ("abc", "I can't read `abc` as dice: 'abc' at character 1"),
        ("2d6 +", "it stops too soon"),
        ("1/0", "Cannot divide by zero"),
        ("1d0", "0-sided"),
        (f"{DICE_MAX + 1}d6", "too many dice"),
        ("1d1e1", "too many dice"),  # explodes forever
        ("1d6rr<7", "too many dice"),  # rerolls forever
        ("", "1 to 100 characters"),
        ("1+" * 50 + "1", "1 to 100 characters"),
    ],
)
def test_bad_expressions_are_polite_errors(expression: str, says: str) -> None:
    with pytest.raises(RulesError) as caught:
        roll_expression(expression, random.Random(0))
    assert says in str(caught.value)


def test_the_longest_allowed_expression_rolls() -> None:
    expression = ("1d4+" * 25)[:-1]
    assert len(expression) <= EXPRESSION_MAX
    rolled = roll_expression(expression, Scripted([1] * 25))
    assert rolled.total == 25


def test_the_module_level_generator_is_not_used() -> None:
    before = random.getstate()
    roll_expression("10d10", random.Random(5))
    assert random.getstate() == before


def test_a_long_working_shows_each_dice_term_as_its_total() -> None:
    rolled = roll_expression("2d6+3 [fire] + 500d4", Scripted([2, 6] + [1] * 500))
    assert rolled.total == 511
    assert rolled.working == (
        "2d6 (total 8) + 3 [fire] + 500d4 (total 500) = `511`\n"
        "*502 dice: too many to show each one*"
    )
    assert len(rolled.working) <= WORKING_MAX


def test_a_working_that_fits_lists_every_die() -> None:
    rolled = roll_expression("20d6", Scripted([3] * 20))
    assert rolled.working == f"20d6 ({', '.join(['3'] * 20)}) = `60`"


def test_a_dropped_term_shows_what_it_rolled() -> None:
    rolled = roll_expression("(300d4, 2d6)kh1", Scripted([1] * 300 + [6, 5]))
    assert rolled.working.startswith("(300d4 (total 300), ~~2d6 (total 11)~~)kh1 = `300`")


@pytest.mark.parametrize(
    ("typed", "working"),
    [
        ("D20", "1d20 (7) = `7`"),  # a phone capitalises the first letter
        ("1D20+2", "1d20 (7) + 2 = `9`"),
        ("1d20 [To Hit]", "1d20 (7) [To Hit] = `7`"),  # the annotation stays as typed
    ],
)
def test_capital_dice_roll_as_lower_case(typed: str, working: str) -> None:
    rolled = roll_expression(typed, Scripted([7]))
    assert rolled.expression == typed and rolled.working == working


def test_capital_keep_highest() -> None:
    assert roll_expression("4D6KH3", Scripted([4, 1, 5, 3])).total == 12


@given(
    number=st.integers(-1000, 1000),
    sign=st.sampled_from(["", "+"]),
    pad=st.sampled_from(["", " ", "  "]),
)
def test_a_plain_number_is_the_d100s_modifier(number: int, sign: str, pad: str) -> None:
    typed = f"{pad}{sign if number >= 0 else ''}{number}{pad}"
    assert bare_modifier(typed, 1000) == number


@given(number=st.integers(1, 1000))
def test_a_phones_minus_sign_and_a_space_after_a_sign_read_as_typed(number: int) -> None:
    assert bare_modifier(f"\u2212{number}", 1000) == -number
    assert bare_modifier(f"- {number}", 1000) == -number
    assert bare_modifier(f"+ {number}", 1000) == number


@given(number=st.integers(1001, 10**7 - 1), negative=st.booleans())
def test_a_modifier_past_the_limit_is_refused_politely(number: int, negative: bool) -> None:
    with pytest.raises(RulesError, match="between −1000 and \\+1000"):
        bare_modifier(f"-{number}" if negative else str(number), 1000)


@pytest.mark.parametrize(
    "typed", ["2d6+3", "d20", "1d6e6", "25+3", "2*3", "1.5", "--2", "+", "", "25d", "1e3", "(5)"]
)
def test_anything_but_a_plain_number_is_dice(typed: str) -> None:
    assert bare_modifier(typed, 1000) is None
