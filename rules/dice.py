"""The open-ended d100 roll (docs/rules.md#1-the-open-ended-roll) and its exact distribution.

A roll keeps every die so a reply can show the chain. Randomness is injected: pass a
`random.Random` or anything with `randint(a, b)`; the module-level generator is never used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal, Protocol

from lang import N_, _

from rules.errors import RulesError
from rules.text import MINUS, plain

FACES = 100
HIGH_FACES = range(96, 101)  # first die here: roll again and add; any die here: keep rolling
LOW_FACES = range(1, 6)  # first die here: roll again and subtract
MAX_EXTRA_DICE = 100  # safety cap on a chain (docs/rules.md#12-the-100-die-cap)
MAX_TOTAL = HIGH_FACES[-1] + FACES * MAX_EXTRA_DICE  # 100 followed by 100 hundreds
MIN_TOTAL = LOW_FACES[0] - FACES * MAX_EXTRA_DICE  # 01 followed by 100 hundreds subtracted

Direction = Literal["none", "high", "low"]
# How a direction reads in an error (the Literal values are what code compares).
_DIRECTIONS: dict[str, str] = {"none": N_("none"), "high": N_("high"), "low": N_("low")}


class DieSource(Protocol):
    """What `open_ended` needs from a random source (`random.Random` fits)."""

    def randint(self, a: int, b: int) -> int: ...


def _direction_of(first: int) -> Direction:
    if first in HIGH_FACES:
        return "high"
    if first in LOW_FACES:
        return "low"
    return "none"


def _read_chain(dice: tuple[int, ...]) -> tuple[Direction, int]:
    """The direction and total of a chain of dice, or a RulesError saying what is wrong."""
    if not dice:
        raise RulesError(_("A roll needs at least one die."))
    for die in dice:
        if not 1 <= die <= FACES:
            raise RulesError(_("A d100 shows 1 to 100, not {die}.", die=die))
    if len(dice) > 1 + MAX_EXTRA_DICE:
        raise RulesError(_("A roll has at most {most} extra dice.", most=MAX_EXTRA_DICE))
    direction = _direction_of(dice[0])
    if direction == "none":
        if len(dice) > 1:
            raise RulesError(_("A first die of {die:02d} does not roll again.", die=dice[0]))
        return direction, dice[0]
    if len(dice) == 1:
        raise RulesError(_("A first die of {die:02d} rolls again.", die=dice[0]))
    # Every extra die but the last continued the chain; the last stopped it, unless the cap did.
    for die in dice[1:-1]:
        if die not in HIGH_FACES:
            raise RulesError(_("The chain stops after a {die:02d}.", die=die))
    if dice[-1] in HIGH_FACES and len(dice) < 1 + MAX_EXTRA_DICE:
        raise RulesError(_("The chain goes on after a {die:02d}.", die=dice[-1]))
    sign = -1 if direction == "low" else 1
    return direction, dice[0] + sign * sum(dice[1:])


@dataclass(frozen=True)
class OpenEndedRoll:
    """One open-ended d100 roll: every die in order, the direction and the total.

    Construction checks that the dice form a valid chain and match direction and total.
    """

    dice: tuple[int, ...]
    direction: Direction
    total: int

    def __post_init__(self) -> None:
        direction, total = _read_chain(self.dice)
        if (self.direction, self.total) != (direction, total):
            raise RulesError(
                _(
                    "Those dice make a roll going {direction} for {total}, "
                    "not {claimed} for {claimed_total}.",
                    direction=_(_DIRECTIONS.get(direction, direction)),
                    total=plain(total),
                    claimed=_(_DIRECTIONS.get(self.direction, str(self.direction))),
                    claimed_total=plain(self.total),
                )
            )

    @classmethod
    def from_dice(cls, dice: Sequence[int]) -> OpenEndedRoll:
        """Build a roll from dice already rolled (e.g. at the table), checking the chain."""
        dice = tuple(dice)
        direction, total = _read_chain(dice)
        return cls(dice, direction, total)

    @property
    def first(self) -> int:
        """The unmodified first die."""
        return self.dice[0]

    def describe(self) -> str:
        """`97 → +99 → +43 = 239`, `03 → −98 → −40 = −135`, or `42` for a plain roll."""
        if self.direction == "none":
            return f"{self.first:02d}"
        sign = MINUS if self.direction == "low" else "+"
        chain = " → ".join([f"{self.first:02d}", *(f"{sign}{die:02d}" for die in self.dice[1:])])
        return f"{chain} = {plain(self.total)}"


def _roll_die(rng: DieSource) -> int:
    die = rng.randint(1, FACES)
    if not 1 <= die <= FACES:
        raise ValueError(f"rng.randint(1, {FACES}) returned {die}")
    return die


def open_ended(rng: DieSource) -> OpenEndedRoll:
    """Roll an open-ended d100 with `rng`."""
    dice = [_roll_die(rng)]
    if _direction_of(dice[0]) != "none":
        for __ in range(MAX_EXTRA_DICE):
            dice.append(_roll_die(rng))
            if dice[-1] not in HIGH_FACES:
                break
    return OpenEndedRoll.from_dice(dice)


# --- Exact distribution ------------------------------------------------------------------------
# Counts are kept as integers over a fixed power of FACES so memoised values stay exact and cheap;
# Fractions are made only at the edge.


@lru_cache(maxsize=65536)
def _chain_at_least(extra: int, x: int) -> int:
    """Ways, out of FACES**extra, that a chain of at most `extra` dice sums to x or more.

    A chain rolls a die and rolls again while the die shows 96–100, up to `extra` dice.
    Kept for at most 65,536 pairs of (extra, x).
    """
    if x <= 1:
        return _outcomes(extra)
    if x > FACES * extra:
        return 0
    if extra == 1:
        return FACES - x + 1
    # Faces 1–95 stop the chain; each stands for FACES**(extra-1) equally likely futures.
    stopping = max(0, HIGH_FACES[0] - x) * _outcomes(extra - 1)
    return stopping + sum(_chain_at_least(extra - 1, x - die) for die in HIGH_FACES)


def _outcomes(dice: int) -> int:
    """FACES**dice, typed: to mypy int ** int is Any, as a negative power would make a float."""
    return int(FACES**dice)


_ALL_OUTCOMES = _outcomes(1 + MAX_EXTRA_DICE)


@lru_cache(maxsize=8192)
def chance_at_least(x: int) -> Fraction:
    """Exact P(open-ended total ≥ x), honouring the 100-extra-dice cap; kept for at most
    8,192 totals."""
    if x <= MIN_TOTAL:
        return Fraction(1)
    if x > MAX_TOTAL:
        return Fraction(0)
    extra = MAX_EXTRA_DICE
    every = _outcomes(extra)
    count = 0
    for first in range(1, FACES + 1):
        if first in HIGH_FACES:
            count += _chain_at_least(extra, x - first)
        elif first in LOW_FACES:
            # first − chain ≥ x  ⇔  chain ≤ first − x  ⇔  not (chain ≥ first − x + 1)
            count += every - _chain_at_least(extra, first - x + 1)
        elif first >= x:
            count += every
    return Fraction(count, _ALL_OUTCOMES)


def chance_exactly(x: int) -> Fraction:
    """Exact P(open-ended total == x)."""
    return chance_at_least(x) - chance_at_least(x + 1)
