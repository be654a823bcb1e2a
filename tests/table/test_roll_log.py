"""The roll log's records (table.roll_log): what each kind of roll keeps, and an export's roll
read back only when it is one the rules could have rolled."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import OpenEndedRoll, open_ended
from rules.errors import RulesError
from rules.saves import Difficulty, SaveKind, resolve
from table.dice_expr import roll_expression
from table.roll_log import (
    NUMBER_MAX,
    LoggedRoll,
    Rolled,
    d100_rolled,
    dice_rolled,
    roll_from_dict,
    roll_to_dict,
    save_rolled,
)

AT = datetime(2026, 3, 6, 20, 15, 1, 250000, tzinfo=UTC)


def logged(rolled: Rolled, place: int = 0, secret: bool = False) -> LoggedRoll:
    return LoggedRoll(1234567890123456789, place, AT, 600, 44, secret, rolled)


def a_save(dice: tuple[int, ...], vs: int = 7, level: int = 5, ties: bool = False) -> Rolled:
    result = resolve(
        SaveKind.WSR,
        level=level,
        stat=10,
        difficulty=Difficulty.attack_level(vs),
        roll=OpenEndedRoll.from_dice(dice),
        ties_succeed=ties,
    )
    return save_rolled(result, "Aria")


def test_a_save_keeps_its_chain_difficulty_exact_chance_and_outcome() -> None:
    rolled = a_save((97, 99, 43))
    assert rolled.kind == "wsr" and rolled.character == "Aria"
    assert rolled.dice == (97, 99, 43) and rolled.total == 97 + 99 + 43 + 35
    assert rolled.difficulty == 85 and rolled.success is True
    assert rolled.chance == Fraction(1, 2)  # 51–95, and 96–100 rolling on
    assert rolled.first_d100 == 97 and rolled.is_save


def test_a_d100_and_a_dice_roll() -> None:
    d100 = d100_rolled(OpenEndedRoll.from_dice((3, 98, 40)), 25)
    assert (d100.kind, d100.dice, d100.total, d100.first_d100) == ("d100", (3, 98, 40), -110, 3)
    dice = dice_rolled(roll_expression("4d6kh3+2", random.Random(1)))
    assert dice.kind == "dice" and len(dice.dice) == 4 and dice.expression == "4d6kh3+2"
    assert dice.total == sum(sorted(dice.dice)[1:]) + 2 and dice.first_d100 is None
    plain = dice_rolled(roll_expression("d100+5", random.Random(1)))
    assert plain.first_d100 == plain.dice[0] and not plain.is_save
    huge = dice_rolled(roll_expression("1d100000000000000000000", random.Random(1)))
    assert huge.dice == () and huge.total is None and huge.expression is not None


@given(st.integers(0, 2**32), st.integers(1, 40), st.integers(1, 30), st.booleans())
def test_every_save_reads_back_as_it_was(seed: int, level: int, vs: int, ties: bool) -> None:
    roll = open_ended(random.Random(seed))
    rolled = a_save(roll.dice, vs=vs, level=level, ties=ties)
    assert roll_from_dict(roll_to_dict(logged(rolled))) == logged(rolled)


def test_each_kind_reads_back() -> None:
    for rolled in (
        d100_rolled(OpenEndedRoll.from_dice((50,)), -1000),
        dice_rolled(roll_expression("2d6", random.Random(5))),
        dice_rolled(roll_expression("1d100000000000000000000", random.Random(1))),
    ):
        assert roll_from_dict(roll_to_dict(logged(rolled, 3, True))) == logged(rolled, 3, True)
    other_zone = roll_to_dict(logged(a_save((40,))))
    other_zone["at"] = AT.astimezone(timezone(timedelta(hours=-5))).isoformat()
    assert roll_from_dict(other_zone).at == AT and roll_from_dict(other_zone).at.tzinfo == UTC


def changed(rolled: Rolled, **fields: Any) -> dict[str, Any]:
    return {**roll_to_dict(logged(rolled)), **fields}


SAVE = a_save((60,))  # 60 + 35 = 95 against 85: a success, with a chance of 1/2


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (changed(SAVE, dice=[97]), "rolls again"),
        (changed(SAVE, dice=[60, 3]), "does not roll again"),
        (changed(SAVE, chance="1/3"), "not the chance"),
        (changed(SAVE, success=False), "outcome"),
        (changed(SAVE, total=95 + 2000, dice=[60]), "bonus"),
        (changed(SAVE, difficulty=5000), "difficulty"),
        (changed(SAVE, chance=None), "keeps its total"),
        (changed(SAVE, expression="1d6"), "expression"),
        (changed(SAVE, at="2026-03-06T20:15:01"), "UTC offset"),
        (changed(d100_rolled(OpenEndedRoll.from_dice((50,))), total=1051), "±1,000"),
        (changed(d100_rolled(OpenEndedRoll.from_dice((50,))), success=True), "only a save"),
        (changed(dice_rolled(roll_expression("2d6", random.Random(1))), total=None), "neither"),
        (
            changed(dice_rolled(roll_expression("2d6", random.Random(1))), dice=[NUMBER_MAX + 1]),
            "at most",
        ),
    ],
)
def test_a_roll_no_command_could_make_is_refused(data: dict[str, Any], problem: str) -> None:
    with pytest.raises(RulesError, match=problem):
        roll_from_dict(data)


def test_a_tie_reads_either_way_when_its_chance_says_which() -> None:
    failed_tie = a_save((50,), vs=7)  # 50 + 35 = 85 against 85: a tie, failing
    assert failed_tie.success is False
    assert roll_from_dict(changed(failed_tie)).rolled == failed_tie
    won_tie = a_save((50,), vs=7, ties=True)
    assert won_tie.success is True and won_tie.chance != failed_tie.chance
    assert roll_from_dict(changed(won_tie)).rolled == won_tie
    with pytest.raises(RulesError, match="outcome"):  # ties failing, yet a success
        roll_from_dict(changed(replace(failed_tie, success=True)))
