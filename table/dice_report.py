"""`/dice report`: the table's luck held against the exact odds, from the roll log
(`table.roll_log`). Pure: the store reads the rolls of the report's window (`store.roll_log`),
`pictures.dice` draws, `render.dice` says it.

For each character, the saves made, how many succeeded, how many their exact chances expected
(the sum of them) and a verdict from the Poisson-binomial distribution of those very chances
(`rules.luck`); for the whole window (or the one character asked for) the same count save by
save, with the 5th–95th percentile band after each; and the first d100 of every save and d100
roll against a flat die.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from lang import N_, _, n_
from rules.errors import RulesError
from rules.luck import Flatness, FlatTest, Luck, SuccessCount, flat_test, luck

from table.names import name_key
from table.roll_log import LoggedRoll

EVENING, ALL = "evening", "all"
SINCE_WORDS = {  # what a report from each start counts, in words
    EVENING: N_("this evening"),
    ALL: N_("everything this channel keeps"),
}
NOTHING = N_(
    "No saves or d100 rolls to report here ({since}): the report counts `/save` and `/roll`"
)
NOTHING_OF = N_("No saves of {name} to report here ({since})")
LUCK_WORDS = {
    Luck.TOO_FEW: N_("Too few saves to tell"),
    Luck.VERY_UNLUCKY: N_("Very unlucky"),
    Luck.UNLUCKY: N_("Unlucky"),
    Luck.AS_EXPECTED: N_("As the odds said"),
    Luck.LUCKY: N_("Lucky"),
    Luck.VERY_LUCKY: N_("Very lucky"),
}
FLATNESS_WORDS = {
    Flatness.TOO_FEW: N_("too few to tell whether they are flat"),
    Flatness.FLAT: N_("as flat as a fair die's"),
    Flatness.UNEVEN: N_("uneven, as a fair die rarely is"),
}


@dataclass(frozen=True)
class CharacterLuck:
    name: str | None  # None: saves rolled with numbers given, no character's
    saves: int
    successes: int
    expected: float  # the sum of the saves' chances
    at_most: float  # P(X ≤ successes) under those chances
    at_least: float  # P(X ≥ successes)
    luck: Luck

    @classmethod
    def of(cls, name: str | None, successes: int, count: SuccessCount) -> CharacterLuck:
        """`successes` read against the distribution `count` of their saves' chances."""
        at_most, at_least = count.at_most(successes), count.at_least(successes)
        verdict = luck(successes, count)
        return cls(name, count.saves, successes, count.expected, at_most, at_least, verdict)


@dataclass(frozen=True)
class Step:
    """After a save: how many had succeeded so far, how many the odds expected, and the band
    the count falls in 90% of fair evenings or more (its 5th to 95th percentile)."""

    successes: int
    expected: float
    low: int
    high: int


@dataclass(frozen=True)
class DiceReport:
    since: str  # EVENING or ALL
    start: datetime | None  # the window's start (None: everything kept)
    secret: bool  # secret rolls counted (the GM's own report)
    whose: str | None  # the one character asked for
    characters: tuple[CharacterLuck, ...]  # in the order each first saved
    overall: CharacterLuck | None  # every save counted (None: no saves)
    steps: tuple[Step, ...]  # save by save, for `overall`
    coverage: float  # the chance a fair count ends inside the last step's band
    d100s: FlatTest
    rolls: int  # rolls counted, of every kind

    def title(self) -> str:
        if self.whose is not None:
            return _("{name}'s dice", name=self.whose)
        return _("The table's dice")

    def since_words(self) -> str:
        return _(SINCE_WORDS[self.since])


def tally(luck: CharacterLuck) -> str:
    """`3 of 10 saves succeeded; the odds expected 6.1`."""
    return n_(
        "{successes} of {n} save succeeded; the odds expected {expected}",
        "{successes} of {n} saves succeeded; the odds expected {expected}",
        luck.saves,
        successes=luck.successes,
        expected=f"{luck.expected:.1f}",
    )


def flatness_words(test: FlatTest) -> str:
    """`80 first d100s, as flat as a fair die's`."""
    return n_(
        "{n} first d100, {flatness}",
        "{n} first d100s, {flatness}",
        test.dice,
        flatness=_(FLATNESS_WORDS[test.flatness]),
    )


def dice_report(
    rolls: Sequence[LoggedRoll],
    since: str,
    start: datetime | None = None,
    whose: str | None = None,
    secret: bool = False,
) -> DiceReport:
    """The report of `rolls` (the window's, oldest first; secret ones already left out of a
    table's report), for one character (`whose`) or all. A RulesError when there is nothing to
    say: no save and no first d100."""
    if whose is not None:
        key = name_key(whose)
        rolls = [r for r in rolls if r.rolled.character and name_key(r.rolled.character) == key]
    saves = [r for r in rolls if r.rolled.is_save]
    d100s = [d for r in rolls if (d := r.rolled.first_d100) is not None]
    words = _(SINCE_WORDS[since])
    if not saves and (whose is not None or not d100s):
        if whose is not None:
            raise RulesError(_(NOTHING_OF, name=whose, since=words))
        raise RulesError(_(NOTHING, since=words))
    steps, overall, coverage = _overall(saves)
    if whose is not None and saves:
        whose = saves[-1].rolled.character  # as the log names them, not as typed
    return DiceReport(
        since,
        start,
        secret,
        whose,
        _by_character(saves),
        overall,
        steps,
        coverage,
        flat_test(d100s),
        len(rolls),
    )


def _chance(roll: LoggedRoll) -> float:
    assert roll.rolled.chance is not None  # a save's always is
    return float(roll.rolled.chance)


def _luck(name: str | None, saves: Sequence[LoggedRoll], count: SuccessCount) -> CharacterLuck:
    return CharacterLuck.of(name, sum(bool(r.rolled.success) for r in saves), count)


def _overall(
    saves: Sequence[LoggedRoll],
) -> tuple[tuple[Step, ...], CharacterLuck | None, float]:
    count, successes, steps = SuccessCount(), 0, []
    coverage = 1.0
    for roll in saves:
        count.add(_chance(roll))
        successes += bool(roll.rolled.success)
        band = count.band()
        steps.append(Step(successes, count.expected, band.low, band.high))
        coverage = band.coverage
    overall = _luck(None, saves, count) if saves else None
    return tuple(steps), overall, coverage


def _by_character(saves: Sequence[LoggedRoll]) -> tuple[CharacterLuck, ...]:
    groups: dict[str | None, list[LoggedRoll]] = {}
    for roll in saves:
        name = roll.rolled.character
        groups.setdefault(None if name is None else name_key(name), []).append(roll)
    found = [
        _luck(group[-1].rolled.character, group, SuccessCount(_chance(r) for r in group))
        for key, group in groups.items()
        if key is not None
    ]
    if None in groups:  # saves with numbers given: after the characters
        plain = groups[None]
        found.append(_luck(None, plain, SuccessCount(_chance(r) for r in plain)))
    return tuple(found)
