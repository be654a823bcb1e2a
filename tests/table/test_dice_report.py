"""The dice's report from the roll log (table.dice_report): each character's saves against the
sum of their chances and their verdict, the count save by save with its band, the first d100s,
one character, and nothing to report."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest

from rules.dice import OpenEndedRoll
from rules.errors import RulesError
from rules.luck import Flatness, Luck, SuccessCount, bins, luck
from table.dice_expr import roll_expression
from table.dice_report import ALL, EVENING, dice_report
from table.roll_log import LoggedRoll, Rolled, d100_rolled, dice_rolled

START = datetime(2026, 3, 6, 19, 0, tzinfo=UTC)


def save(name: str | None, chance: Fraction, success: bool, first: int = 50) -> Rolled:
    return Rolled("tsr", name, (first,), first + 30, None, 80, chance, success)


def log(*rolled: Rolled) -> list[LoggedRoll]:
    return [
        LoggedRoll(10**18 + i, 0, START + timedelta(minutes=i), 0, 44, False, r)
        for i, r in enumerate(rolled)
    ]


def test_each_character_against_the_sum_of_their_chances() -> None:
    half, most = Fraction(1, 2), Fraction(9, 10)
    rolls = log(
        save("Aria", most, False, 12),
        save("Bórin", half, True, 77),
        save("aria", most, False, 5),  # the same character, as names are compared
        save(None, half, True),
        save("Aria", most, True, 96),
        d100_rolled(OpenEndedRoll.from_dice((33,))),
    )
    report = dice_report(rolls, EVENING, START)
    aria, borin, plain = report.characters
    assert (aria.name, aria.saves, aria.successes) == ("Aria", 3, 1)
    assert aria.expected == pytest.approx(2.7)
    count = SuccessCount([0.9] * 3)
    assert aria.at_most == pytest.approx(count.at_most(1))  # 0.028: unlucky
    assert aria.at_least == pytest.approx(count.at_least(1))
    assert aria.luck is luck(1, count) is Luck.UNLUCKY
    assert (borin.name, borin.saves, borin.luck) == ("Bórin", 1, Luck.TOO_FEW)
    assert plain.name is None and plain.saves == 1  # numbers given: after the characters
    assert report.overall is not None and report.overall.saves == 5
    assert report.rolls == 6 and report.d100s.counts == bins([12, 77, 5, 50, 96, 33])
    assert report.d100s.flatness is Flatness.TOO_FEW  # six, of the 50 the test needs


def test_the_count_save_by_save_with_its_band() -> None:
    rng = random.Random(4)
    chances = [Fraction(rng.randint(5, 95), 100) for _ in range(60)]
    outcomes = [rng.random() < p for p in chances]
    report = dice_report(
        log(*(save("Aria", p, s) for p, s in zip(chances, outcomes, strict=True))), ALL
    )
    assert len(report.steps) == 60
    assert [s.successes for s in report.steps][-1] == sum(outcomes)
    assert report.steps[9].expected == pytest.approx(float(sum(chances[:10])))
    for index, step in enumerate(report.steps):
        band = SuccessCount(float(p) for p in chances[: index + 1]).band()
        assert (step.low, step.high) == (band.low, band.high)
        assert step.low <= step.expected + 1 and step.high >= step.expected - 1
    assert report.coverage == pytest.approx(SuccessCount(float(p) for p in chances).band().coverage)


def test_the_first_d100s_of_saves_d100_rolls_and_plain_d100s_only() -> None:
    rolls = log(
        save("Aria", Fraction(1, 2), True, 97),
        d100_rolled(OpenEndedRoll.from_dice((3, 98, 40))),
        dice_rolled(roll_expression("d100", random.Random(2))),
        dice_rolled(roll_expression("2d6", random.Random(2))),
    )
    report = dice_report(rolls, ALL)
    plain = rolls[2].rolled.dice[0]
    assert report.d100s.counts == bins([97, 3, plain])  # not the 2d6


def test_one_character() -> None:
    rolls = log(save("Aria", Fraction(1, 2), True, 20), save("Bórin", Fraction(1, 2), False, 30))
    report = dice_report(rolls, EVENING, START, whose="BÓRIN")
    assert report.whose == "Bórin" and report.title() == "Bórin's dice"
    assert [c.name for c in report.characters] == ["Bórin"] and report.d100s.dice == 1
    with pytest.raises(RulesError, match="No saves of Cleo"):
        dice_report(rolls, EVENING, START, whose="Cleo")


def test_nothing_to_report() -> None:
    with pytest.raises(RulesError, match="this evening"):
        dice_report([], EVENING, START)
    only_dice = log(dice_rolled(roll_expression("2d6", random.Random(2))))
    with pytest.raises(RulesError, match="everything this channel keeps"):
        dice_report(only_dice, ALL)
    d100s = dice_report(log(d100_rolled(OpenEndedRoll.from_dice((40,)))), ALL)
    assert d100s.overall is None and d100s.steps == () and d100s.characters == ()
