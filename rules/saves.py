"""Save Rolls (docs/rules.md#2-save-rolls): SR Bonus and Difficulty, sources, odds, resolution."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from lang import N_, _

from rules.dice import OpenEndedRoll, chance_at_least
from rules.errors import NoSaveError, RulesError
from rules.text import plain

DC_MIN = 1  # a number Difficulty ("dc") must lie in DC_MIN..DC_MAX
DC_MAX = 1000
MODIFIER_LIMIT = 100  # stat, kin, special and situational modifiers lie in −100..100
LEVEL_LIMIT = 1000  # levels and Attack Levels lie in 1..1000: the table goes on, typos don't
CASTING_LIMIT = 1000  # a Spell Casting total lies in −1000..1000 (open-ended rolls go below 0)
PER_MAX = 1000  # points of failure are counted per 1..1000

# Spell Casting Table (Against the Darkmaster table 2.6): (lowest casting total, Difficulty),
# highest band first. Totals of 50 or less give no save.
_SPELL_BANDS: tuple[tuple[int, int], ...] = (
    (176, 150),
    (171, 140),
    (166, 130),
    (161, 120),
    (156, 110),
    (151, 105),
    (146, 100),
    (141, 95),
    (136, 90),
    (131, 85),
    (121, 80),
    (111, 75),
    (106, 70),
    (96, 65),
    (81, 60),
    (51, 50),
)
SPELL_FAILURE_MAX = 25  # casting totals up to here: spell failure
PARTIAL_SUCCESS_MAX = 50  # 26..50: partial success, the caster picks an effect


def _by_level(level: int, what: str, base: int) -> int:
    """The Save Rolls Table's shape: +5/level to 10, +2/level to 20, +1/level after."""
    _check_whole(what, level, 1, LEVEL_LIMIT)
    if level <= 10:
        return base + 5 * level
    if level <= 20:
        return base + 50 + 2 * (level - 10)
    return base + 70 + (level - 20)


def sr_bonus(level: int) -> int:
    """SR Bonus of a defender of `level` (≥ 1)."""
    return _by_level(level, N_("Level"), 0)


def sr_difficulty(attack_level: int) -> int:
    """SR Difficulty of an effect of Attack Level `attack_level` (≥ 1)."""
    return _by_level(attack_level, N_("Attack Level"), 50)


def spell_difficulty(casting_total: int) -> int | None:
    """SR Difficulty set by a Spell Casting total; None when the cast gives no save (≤ 50)."""
    _check_whole(N_("A Spell Casting total"), casting_total, -CASTING_LIMIT, CASTING_LIMIT)
    for lowest, difficulty in _SPELL_BANDS:
        if casting_total >= lowest:
            return difficulty
    return None


def points_of_failure(total: int, difficulty: int, per: int) -> int:
    """Points of failure for an effect "per `per`": 0 on a success or a failed tie."""
    _check_per(per)
    if total >= difficulty:
        return 0
    return -((total - difficulty) // per)  # ceil((difficulty − total) / per)


def success_probability(bonus: int, difficulty: int, ties_succeed: bool = False) -> Fraction:
    """Exact P(open-ended d100 + bonus beats difficulty); a tie counts when `ties_succeed`."""
    needed = difficulty - bonus if ties_succeed else difficulty - bonus + 1
    return chance_at_least(needed)


def success_chance(bonus: int, difficulty: int, ties_succeed: bool = False) -> float:
    """`success_probability` as a float, for display."""
    return float(success_probability(bonus, difficulty, ties_succeed))


@dataclass(frozen=True)
class Difficulty:
    """A Save Roll Difficulty and where it came from; `label` reads well in a reply."""

    value: int
    source: Literal["level", "dc", "spell"]
    label: str

    @classmethod
    def attack_level(cls, attack_level: int) -> Difficulty:
        value = sr_difficulty(attack_level)
        label = _("Attack Level {level} → {value}", level=attack_level, value=value)
        return cls(value, "level", label)

    @classmethod
    def number(cls, dc: int) -> Difficulty:
        _check_whole(N_("A DC"), dc, DC_MIN, DC_MAX)
        return cls(dc, "dc", _("DC {dc}", dc=dc))

    @classmethod
    def spell(cls, casting_total: int) -> Difficulty:
        value = spell_difficulty(casting_total)
        if value is None:
            raise NoSaveError(_no_save_text(casting_total))
        label = _("Spell cast {total} → {value}", total=casting_total, value=value)
        return cls(value, "spell", label)


def _no_save_text(casting_total: int) -> str:
    if casting_total <= SPELL_FAILURE_MAX:
        return _(
            "A Spell Casting total of {total} is a spell failure ({most} or less), so there is "
            "no Save Roll. If a save is still called for, give its Difficulty with `dc`.",
            total=plain(casting_total),
            most=SPELL_FAILURE_MAX,
        )
    return _(
        "A Spell Casting total of {total} is a partial success ({low}–{high}): the caster "
        "picks an effect, so there is no Save Roll. If a save is still called for, give its "
        "Difficulty with `dc`.",
        total=plain(casting_total),
        low=SPELL_FAILURE_MAX + 1,
        high=PARTIAL_SUCCESS_MAX,
    )


class SaveKind(enum.Enum):
    TSR = "tsr"
    WSR = "wsr"

    @property
    def stat_name(self) -> str:
        """The stat added to this save (English, a marked message: show it with `_()`)."""
        return N_("Fortitude") if self is SaveKind.TSR else N_("Wisdom")

    @property
    def full_name(self) -> str:
        """English, a marked message: show it with `_()`."""
        return N_("Toughness Save Roll") if self is SaveKind.TSR else N_("Willpower Save Roll")


Pieces = tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class SaveResult:
    kind: SaveKind
    roll: OpenEndedRoll
    pieces: tuple[tuple[str, int], ...]  # the Level piece always, then the non-zero others
    bonus: int
    total: int
    difficulty: Difficulty
    success: bool
    margin: int  # total − difficulty, shown whatever the outcome
    per: int | None
    points_of_failure: int | None  # None when no "per" was given
    odds: float  # chance this save succeeds, before the roll
    ties_succeed: bool


def _check_whole(name: str, value: object, low: int, high: int) -> None:
    """A whole number (not a bool, a float or 2**63) between low and high, or a RulesError.
    `name` is a marked message, translated here."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(_("{name} must be a whole number.", name=_(name)))
    if not low <= value <= high:
        raise RulesError(
            _(
                "{name} must be between {low} and {high}.",
                name=_(name),
                low=plain(low),
                high=plain(high),
            )
        )


def _check_modifier(name: str, value: int) -> None:
    _check_whole(name, value, -MODIFIER_LIMIT, MODIFIER_LIMIT)


def _check_per(per: int) -> None:
    if isinstance(per, bool) or not isinstance(per, int) or not 1 <= per <= PER_MAX:
        raise RulesError(_("Points of failure are counted per 1 to {most}.", most=PER_MAX))


def resolve(
    kind: SaveKind,
    *,
    level: int,
    stat: int = 0,
    kin: int = 0,
    special: int = 0,
    mod: int = 0,
    difficulty: Difficulty,
    roll: OpenEndedRoll,
    per: int | None = None,
    ties_succeed: bool = False,
) -> SaveResult:
    """Resolve a Save Roll of `kind` for a defender of `level` against `difficulty`."""
    sr_bonus(level)  # refuses a bad level first, as the working would
    for name, value in _others(kind, stat, kin, special, mod):
        _check_modifier(name, value)
    if per is not None:
        _check_per(per)
    pieces, bonus, odds = _working(
        kind, level, stat, kin, special, mod, difficulty.value, ties_succeed
    )
    total = roll.total + bonus
    success = total >= difficulty.value if ties_succeed else total > difficulty.value
    failure_points = None if per is None else points_of_failure(total, difficulty.value, per)
    return SaveResult(
        kind=kind,
        roll=roll,
        pieces=pieces,
        bonus=bonus,
        total=total,
        difficulty=difficulty,
        success=success,
        margin=total - difficulty.value,
        per=per,
        points_of_failure=failure_points,
        odds=odds,
        ties_succeed=ties_succeed,
    )


def _others(kind: SaveKind, stat: int, kin: int, special: int, mod: int) -> Pieces:
    """The pieces besides the level, named by marked messages."""
    return (
        (kind.stat_name, stat),
        (N_("Kin"), kin),
        (N_("Special"), special),
        (N_("Modifier"), mod),
    )


def _working(
    kind: SaveKind,
    level: int,
    stat: int,
    kin: int,
    special: int,
    mod: int,
    difficulty: int,
    ties_succeed: bool,
) -> tuple[Pieces, int, float]:
    """The bonus's pieces (named in the reader's language), the bonus, and the odds."""
    level_piece = _("Level {level}", level=level)
    others = _others(kind, stat, kin, special, mod)
    pieces = ((level_piece, sr_bonus(level)), *((_(n), v) for n, v in others if v != 0))
    bonus = sum(value for ignored, value in pieces)
    return pieces, bonus, success_chance(bonus, difficulty, ties_succeed)
