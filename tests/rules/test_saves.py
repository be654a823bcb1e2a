"""Save Rolls (docs/rules.md#2-save-rolls)."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import TypedDict

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import OpenEndedRoll, open_ended
from rules.errors import NoSaveError, RulesError
from rules.saves import (
    Difficulty,
    SaveKind,
    points_of_failure,
    resolve,
    spell_difficulty,
    sr_bonus,
    sr_difficulty,
    success_chance,
    success_probability,
)

# The Save Rolls Table as printed (docs/rules.md#21-the-save-rolls-table):
# (Defender Level, SR Bonus, Attack Level, SR Difficulty).
SAVE_ROLLS_TABLE = [
    (1, 5, 1, 55),
    (2, 10, 2, 60),
    (3, 15, 3, 65),
    (4, 20, 4, 70),
    (5, 25, 5, 75),
    (6, 30, 6, 80),
    (7, 35, 7, 85),
    (8, 40, 8, 90),
    (9, 45, 9, 95),
    (10, 50, 10, 100),
    (11, 52, 11, 102),
    (12, 54, 12, 104),
    (13, 56, 13, 106),
    (14, 58, 14, 108),
    (15, 60, 15, 110),
    (16, 62, 16, 112),
    (17, 64, 17, 114),
    (18, 66, 18, 116),
    (19, 68, 19, 118),
    (20, 70, 20, 120),
]

# Spell Casting Table (docs/rules.md#24-spell-casting-table): (lowest total, highest, Difficulty).
SPELL_CASTING_TABLE = [
    (51, 80, 50),
    (81, 95, 60),
    (96, 105, 65),
    (106, 110, 70),
    (111, 120, 75),
    (121, 130, 80),
    (131, 135, 85),
    (136, 140, 90),
    (141, 145, 95),
    (146, 150, 100),
    (151, 155, 105),
    (156, 160, 110),
    (161, 165, 120),
    (166, 170, 130),
    (171, 175, 140),
]


def fixed(*dice: int) -> OpenEndedRoll:
    return OpenEndedRoll.from_dice(dice)


# --- Save Rolls Table -------------------------------------------------------------------------


@pytest.mark.parametrize(("level", "bonus", "attack_level", "difficulty"), SAVE_ROLLS_TABLE)
def test_save_rolls_table_row(level: int, bonus: int, attack_level: int, difficulty: int) -> None:
    assert sr_bonus(level) == bonus
    assert sr_difficulty(attack_level) == difficulty


@pytest.mark.parametrize("level", [21, 22, 25, 30, 50, 100])
def test_past_20_each_level_adds_one(level: int) -> None:
    # "21+ | +1/level" on both sides of the table, counted from the level-20 row.
    _, bonus_20, _, difficulty_20 = SAVE_ROLLS_TABLE[-1]
    assert sr_bonus(level) == bonus_20 + (level - 20)
    assert sr_difficulty(level) == difficulty_20 + (level - 20)


@pytest.mark.parametrize("level", [0, -1, -20])
def test_level_below_one_is_refused(level: int) -> None:
    with pytest.raises(RulesError, match="Level must be between 1 and 1000"):
        sr_bonus(level)
    with pytest.raises(RulesError, match="Attack Level must be between 1 and 1000"):
        sr_difficulty(level)
    with pytest.raises(RulesError, match="Attack Level must be between 1 and 1000"):
        Difficulty.attack_level(level)


# --- Spell Casting Table ----------------------------------------------------------------------


@pytest.mark.parametrize(("low", "high", "difficulty"), SPELL_CASTING_TABLE)
def test_spell_casting_band_edges(low: int, high: int, difficulty: int) -> None:
    assert spell_difficulty(low) == difficulty
    assert spell_difficulty(high) == difficulty


@pytest.mark.parametrize("total", [176, 177, 200, 1000])
def test_spell_casting_top_band(total: int) -> None:
    assert spell_difficulty(total) == 150


@pytest.mark.parametrize("total", [50, 26, 25, 1, 0, -40])
def test_spell_casting_of_50_or_less_gives_no_difficulty(total: int) -> None:
    assert spell_difficulty(total) is None


@pytest.mark.parametrize("total", [25, 0, -12])
def test_spell_failure_gives_no_save_and_asks_for_dc(total: int) -> None:
    with pytest.raises(NoSaveError) as caught:
        Difficulty.spell(total)
    text = str(caught.value)
    assert "spell failure" in text
    assert "dc" in text
    shown = str(total).replace("-", "\u2212")  # a true minus sign
    assert f"total of {shown} is" in text


@pytest.mark.parametrize("total", [26, 40, 50])
def test_partial_success_gives_no_save_and_asks_for_dc(total: int) -> None:
    with pytest.raises(NoSaveError) as caught:
        Difficulty.spell(total)
    text = str(caught.value)
    assert "partial success" in text
    assert "caster picks an effect" in text
    assert "dc" in text


def test_no_save_is_a_rules_error() -> None:
    with pytest.raises(RulesError):
        Difficulty.spell(50)


# --- Difficulty sources -----------------------------------------------------------------------


def test_difficulty_from_attack_level() -> None:
    assert Difficulty.attack_level(7) == Difficulty(85, "level", "Attack Level 7 → 85")


def test_difficulty_from_number() -> None:
    assert Difficulty.number(80) == Difficulty(80, "dc", "DC 80")
    assert Difficulty.number(1).value == 1
    assert Difficulty.number(1000).value == 1000


@pytest.mark.parametrize("dc", [0, -5, 1001])
def test_difficulty_number_out_of_range(dc: int) -> None:
    with pytest.raises(RulesError, match="between 1 and 1000"):
        Difficulty.number(dc)


def test_difficulty_from_spell() -> None:
    assert Difficulty.spell(123) == Difficulty(80, "spell", "Spell cast 123 → 80")
    assert Difficulty.spell(51).value == 50


def test_difficulty_is_frozen() -> None:
    with pytest.raises(AttributeError):
        Difficulty.number(80).value = 10  # type: ignore[misc]


def test_save_kinds() -> None:
    assert SaveKind("tsr") is SaveKind.TSR
    assert SaveKind("wsr") is SaveKind.WSR
    assert SaveKind.TSR.stat_name == "Fortitude"
    assert SaveKind.WSR.stat_name == "Wisdom"


# --- Points of failure ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "difficulty", "per", "expected"),
    [
        (70, 85, 5, 3),  # 15 / 5
        (71, 85, 5, 3),  # 14 / 5 rounds up
        (84, 85, 10, 1),  # any failure counts at least one
        (60, 85, 1, 25),
        (-100, 85, 10, 19),  # 185 / 10 rounds up
        (85, 85, 5, 0),  # a failed tie
        (86, 85, 5, 0),  # a success
        (300, 85, 5, 0),
    ],
)
def test_points_of_failure(total: int, difficulty: int, per: int, expected: int) -> None:
    assert points_of_failure(total, difficulty, per) == expected


@pytest.mark.parametrize("per", [0, -1])
def test_points_of_failure_per_below_one(per: int) -> None:
    with pytest.raises(RulesError, match="per 1 to 1000"):
        points_of_failure(50, 85, per)


# --- Odds -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bonus", "difficulty"), [(25, 75), (50, 100), (0, 100), (70, 55), (-30, 60)]
)
def test_success_chance_matches_simulation(bonus: int, difficulty: int) -> None:
    rng = random.Random(f"{bonus}/{difficulty}")
    n = 200_000
    hits = sum(open_ended(rng).total + bonus > difficulty for _ in range(n))
    p = success_chance(bonus, difficulty)
    standard_error = math.sqrt(max(p * (1 - p), 1e-9) / n)
    assert abs(hits / n - p) <= 5 * standard_error


def test_odds_with_a_bonus_so_high_only_the_low_tail_fails() -> None:
    # Bonus 100 against 100: a failure is a total of 0 or less, i.e. a first die d of 01–05
    # and a subtracted second die of d or more.
    fail = sum(Fraction(1, 100) * Fraction(101 - d, 100) for d in range(1, 6))
    assert fail == Fraction(490, 10_000)
    assert success_probability(100, 100) == 1 - fail
    assert success_chance(100, 100) == pytest.approx(0.951, abs=1e-12)


def test_odds_deep_in_the_low_tail() -> None:
    # Bonus 200 against 100: fail on a total of −100 or less. That needs d of 01–05 and a
    # subtracted chain of d + 100 or more: a second die e of 96–100, then a third of d + 100 − e.
    fail = Fraction(0)
    for d in range(1, 6):
        for e in range(96, 101):
            third_at_least = d + 100 - e
            fail += Fraction(1, 100) * Fraction(1, 100) * Fraction(101 - third_at_least, 100)
    assert success_probability(200, 100) == 1 - fail


def test_odds_in_the_high_tail() -> None:
    # Bonus 0 against 150: beat it with 151+, which needs a first die of 96–100 then a second
    # die of 151 − d or more (a 96+ second die always gets there).
    win = sum(Fraction(1, 100) * Fraction(100 - (151 - d) + 1, 100) for d in range(96, 101))
    assert success_probability(0, 150) == win


def test_ties_differ_by_exactly_the_chance_of_a_tie() -> None:
    # A total of exactly 50 is a plain first die of 50 (1 in 100).
    assert success_probability(0, 50, True) - success_probability(0, 50) == Fraction(1, 100)
    # A roll of exactly 100: 96+4, 97+3, 98+2 or 99+1.
    assert success_probability(20, 120, True) - success_probability(20, 120) == Fraction(4, 10_000)


def test_middle_odds_count_faces() -> None:
    # Bonus 40 against 90: beat it with a roll of 51+; 51–95 are 45 plain faces, 96–100 all win,
    # and a low roll never reaches 51.
    assert success_probability(40, 90) == Fraction(50, 100)


@given(st.integers(-1000, 1000), st.integers(-1000, 1000), st.booleans())
def test_odds_are_probabilities_and_grow_with_bonus(
    bonus: int, difficulty: int, ties_succeed: bool
) -> None:
    p = success_chance(bonus, difficulty, ties_succeed)
    assert 0.0 <= p <= 1.0
    assert success_chance(bonus + 1, difficulty, ties_succeed) >= p
    assert success_probability(bonus, difficulty, True) >= success_probability(bonus, difficulty)


# --- resolve ----------------------------------------------------------------------------------


def test_resolve_wsr_example() -> None:
    result = resolve(
        SaveKind.WSR,
        level=5,
        stat=3,
        kin=5,
        difficulty=Difficulty.attack_level(7),
        roll=fixed(52),
    )
    assert result.kind is SaveKind.WSR
    assert result.pieces == (("Level 5", 25), ("Wisdom", 3), ("Kin", 5))
    assert result.bonus == 33
    assert result.total == 85
    assert result.margin == 0
    assert result.success is False  # a tie fails by default
    assert result.points_of_failure is None
    assert result.per is None
    assert result.odds == success_chance(33, 85)


def test_resolve_tie_succeeds_when_the_table_says_so() -> None:
    result = resolve(
        SaveKind.WSR,
        level=5,
        stat=3,
        kin=5,
        difficulty=Difficulty.attack_level(7),
        roll=fixed(52),
        per=5,
        ties_succeed=True,
    )
    assert result.success is True
    assert result.points_of_failure == 0
    assert result.ties_succeed is True
    assert result.odds == success_chance(33, 85, True)


def test_resolve_failed_tie_has_no_points_of_failure() -> None:
    result = resolve(SaveKind.TSR, level=1, difficulty=Difficulty.number(55), roll=fixed(50), per=5)
    assert (result.success, result.margin, result.points_of_failure) == (False, 0, 0)


def test_resolve_tsr_failure_counts_points() -> None:
    result = resolve(
        SaveKind.TSR,
        level=2,
        stat=-2,
        special=4,
        mod=-10,
        difficulty=Difficulty.spell(123),
        roll=fixed(3, 98, 40),
        per=10,
    )
    assert result.pieces == (("Level 2", 10), ("Fortitude", -2), ("Special", 4), ("Modifier", -10))
    assert result.bonus == 2
    assert result.total == -133
    assert result.margin == -213
    assert result.success is False
    assert result.points_of_failure == 22  # 213 / 10 rounded up


def test_resolve_success_has_no_points_of_failure() -> None:
    result = resolve(
        SaveKind.TSR, level=10, difficulty=Difficulty.number(80), roll=fixed(97, 99, 43), per=5
    )
    assert result.pieces == (("Level 10", 50),)
    assert (result.total, result.margin, result.success) == (289, 209, True)
    assert result.points_of_failure == 0


def test_resolve_with_spell_of_50_or_less_has_no_save() -> None:
    with pytest.raises(NoSaveError):
        resolve(SaveKind.WSR, level=3, difficulty=Difficulty.spell(40), roll=fixed(50))


class SaveInputs(TypedDict, total=False):
    """The numbers `resolve` takes, for tests that change one of them."""

    level: int
    stat: int
    kin: int
    special: int
    mod: int
    per: int


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"level": 0}, "Level must be between 1 and 1000"),
        ({"level": -3}, "Level must be between 1 and 1000"),
        ({"stat": 101}, "Fortitude must be between −100 and 100"),
        ({"kin": -101}, "Kin must be between −100 and 100"),
        ({"special": 500}, "Special must be between −100 and 100"),
        ({"mod": -1000}, "Modifier must be between −100 and 100"),
        ({"per": 0}, "per 1 to 1000"),
        ({"per": -5}, "per 1 to 1000"),
    ],
)
def test_resolve_refuses_bad_input(changes: SaveInputs, message: str) -> None:
    arguments: SaveInputs = {"level": 5, **changes}
    with pytest.raises(RulesError, match=message):
        resolve(SaveKind.TSR, difficulty=Difficulty.number(80), roll=fixed(50), **arguments)


@given(
    seed=st.integers(0, 2**32),
    kind=st.sampled_from(SaveKind),
    level=st.integers(1, 40),
    stat=st.integers(-100, 100),
    kin=st.integers(-100, 100),
    special=st.integers(-100, 100),
    mod=st.integers(-100, 100),
    dc=st.integers(1, 1000),
    per=st.none() | st.integers(1, 20),
    ties_succeed=st.booleans(),
)
def test_resolve_properties(
    seed: int,
    kind: SaveKind,
    level: int,
    stat: int,
    kin: int,
    special: int,
    mod: int,
    dc: int,
    per: int | None,
    ties_succeed: bool,
) -> None:
    roll = open_ended(random.Random(seed))
    result = resolve(
        kind,
        level=level,
        stat=stat,
        kin=kin,
        special=special,
        mod=mod,
        difficulty=Difficulty.number(dc),
        roll=roll,
        per=per,
        ties_succeed=ties_succeed,
    )
    assert result.pieces[0] == (f"Level {level}", sr_bonus(level))
    assert all(value != 0 for _, value in result.pieces[1:])
    assert sum(value for _, value in result.pieces) == result.bonus
    assert result.bonus == sr_bonus(level) + stat + kin + special + mod
    assert result.total == roll.total + result.bonus
    assert result.margin == result.total - dc
    assert result.success == (result.margin > 0 or (ties_succeed and result.margin == 0))
    if per is None:
        assert result.points_of_failure is None
    elif result.margin >= 0:
        assert result.points_of_failure == 0
    else:
        points = result.points_of_failure
        assert points is not None
        # The smallest count of "per" steps that covers the whole shortfall.
        assert (points - 1) * per < -result.margin <= points * per
