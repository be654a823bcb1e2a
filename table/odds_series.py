"""The odds of a Save Roll as its difficulty moves, for the "Odds" picture: the exact chance to
succeed against each Attack Level 1–20, across the Spell Casting totals, or across Difficulty
numbers, one curve per character. Pure: `pictures.odds` draws it.

Each chance comes from the same code as the reply's "Chance before the roll": the save's own
working (`SaveInputs.resolve`, whose bonus and odds don't depend on the dice) and
`rules.saves.success_chance`, so the curve passes exactly through the figure the reply prints.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rules.dice import OpenEndedRoll
from rules.saves import spell_difficulty as _spell_difficulty
from rules.saves import sr_difficulty, success_chance

from table.savecalc import SaveInputs

ATTACK_LEVELS = range(1, 21)  # the Save Rolls Table as players meet it
SPELL_TOTALS = range(51, 181)  # 51 is the first casting total that allows a save; 176+ tops out
DC_SPAN = 50  # a Difficulty number is charted this far either side (from 1)
_ANY_ROLL = OpenEndedRoll.from_dice((50,))  # the working's bonus and odds don't depend on it


@dataclass(frozen=True)
class OddsCurve:
    name: str | None  # the character's, if any
    bonus: int
    chances: tuple[float, ...]  # one per x of the series
    marked: float  # the chance at the difficulty rolled: the reply's own figure


@dataclass(frozen=True)
class OddsSeries:
    axis: str  # "level" (Attack Level), "spell" (casting total) or "dc" (Difficulty number)
    xs: tuple[int, ...]
    rolled: int  # the x of the difficulty rolled
    difficulty: int  # its Difficulty number
    curves: tuple[OddsCurve, ...]
    ties_succeed: bool
    kind: str  # "tsr" or "wsr"


def _spell(total: int) -> int:
    value = _spell_difficulty(total)
    assert value is not None  # SPELL_TOTALS start where a save is allowed
    return value


def _axis(inputs: SaveInputs, given: int) -> tuple[str, tuple[int, ...], Callable[[int], int]]:
    """The x axis for the difficulty rolled (`given`: the option's own value)."""
    source = inputs.difficulty.source
    if source == "level":
        top = max(ATTACK_LEVELS.stop - 1, given)
        return "level", tuple(range(1, top + 1)), sr_difficulty
    if source == "spell":
        low = min(SPELL_TOTALS.start, given)
        high = max(SPELL_TOTALS.stop - 1, given)
        return "spell", tuple(range(low, high + 1)), _spell
    low = max(1, given - DC_SPAN)
    return "dc", tuple(range(low, given + DC_SPAN + 1)), lambda dc: dc


def odds_series(everyone: Sequence[SaveInputs], given: int) -> OddsSeries:
    """The chance to succeed for each save in `everyone` (one, or a party's: the same
    difficulty), against each x of the difficulty's axis; `given` is the rolled difficulty's own
    option (`vs:`, `spell:` or `dc:`)."""
    if not everyone:
        raise ValueError("no save to chart")
    first = everyone[0]
    axis, xs, difficulty_of = _axis(first, given)
    difficulties = [difficulty_of(x) for x in xs]
    curves = []
    for inputs in everyone:
        working = inputs.resolve(_ANY_ROLL)  # the reply's bonus and odds, from its own code
        chances = tuple(success_chance(working.bonus, d, inputs.ties_succeed) for d in difficulties)
        curves.append(OddsCurve(inputs.name, working.bonus, chances, working.odds))
    return OddsSeries(
        axis,
        xs,
        given,
        first.difficulty.value,
        tuple(curves),
        first.ties_succeed,
        first.kind.value,
    )
