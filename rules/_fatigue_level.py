"""Fatigue Level and Fatigue Bands (docs/rules.md#3-fatigue): arithmetic on a character's numbers.

Public names are re-exported by `rules.fatigue`; import them from there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

from lang import N_, _

from rules.errors import RulesError
from rules.text import plain

HD_SIZES: tuple[int, ...] = (4, 6, 8, 10, 12, 20)
COMBINES: tuple[str, ...] = ("single", "multi", "dual")
# English names, the keys code compares and events keep: shown through `_()`.
BANDS: tuple[str, ...] = (
    N_("Fresh"),
    N_("Fatigued"),
    N_("Tired"),
    N_("Exhausted"),
    N_("Shattered"),
)
EXHAUSTED = BANDS.index("Exhausted")
SHATTERED = BANDS.index("Shattered")
LEVEL_CAP = 10  # "1 FP per Level up to and including Level 10"
TOUGHNESS_MIN, TOUGHNESS_MAX = -5, 7  # the ends of the Constitution table

# Constitution → Toughness, as (highest Constitution of the row, Toughness).
_CON_ROWS: tuple[tuple[int, int], ...] = (
    (0, -5),
    (1, -3),
    (3, -2),
    (6, -1),
    (14, 0),
    (15, 1),
    (16, 2),
    (17, 3),
    (18, 4),
    (20, 5),
    (23, 6),
    (25, 7),
)

_BASE_HD = re.compile(r"\s*(\d+)\s*(?:\+\s*(\d+)\s*)?")
_BASE_HD_SHAPE = N_("Base HD must look like 4+1")
BASE_HD_MAX = 999  # not a rule: a bound on both parts of D+P that keeps typos out


def check_int(value: object, what: str, low: int | None = None, high: int | None = None) -> int:
    """Return `value` if it is an int in [low, high]; otherwise raise a readable RulesError.
    `what` is a marked message (`N_`), translated here."""
    # bool is an int subclass, but True FP is never what anyone meant
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(_("{what} must be a whole number", what=_(what)))
    if low is not None and high is not None and not low <= value <= high:
        raise RulesError(
            _(
                "{what} must be between {low} and {high}",
                what=_(what),
                low=plain(low),
                high=plain(high),
            )
        )
    if low is not None and value < low:
        raise RulesError(_("{what} must be {low} or more", what=_(what), low=plain(low)))
    if high is not None and value > high:
        raise RulesError(_("{what} must be {high} or less", what=_(what), high=plain(high)))
    return value


def check_fl(fl: object) -> Fraction:
    """A Fatigue Level must be exact (an int or a Fraction); floats would lose the .5."""
    if type(fl) is Fraction:  # already exact, and immutable: no copy (band lookups call this)
        return fl
    if isinstance(fl, bool) or not isinstance(fl, int | Fraction):
        raise RulesError(_("Fatigue Level must be a whole number or a fraction"))
    return Fraction(fl)


def toughness_from_con(con: int) -> int:
    """Toughness for a Constitution of 0..25 (docs/rules.md#31-fatigue-level)."""
    check_int(con, N_("Constitution"), 0, 25)
    return next(toughness for highest, toughness in _CON_ROWS if con <= highest)


def parse_base_hd(text: str) -> tuple[int, int]:
    """Split Base HD written `D+P` (or just `D`) into (D, P): D is 1 to 999, P 0 to 999."""
    if not isinstance(text, str):
        raise RulesError(_(_BASE_HD_SHAPE))
    match = _BASE_HD.fullmatch(text)
    if match is None:
        raise RulesError(_(_BASE_HD_SHAPE))
    dice, plus = (_bounded(digits) for digits in (match.group(1), match.group(2) or "0"))
    if not 1 <= dice <= BASE_HD_MAX:
        raise RulesError(_("Base HD must be 1 to {most} HD (the 4 of 4+1)", most=BASE_HD_MAX))
    if plus > BASE_HD_MAX:
        raise RulesError(_("Base HD's plus must be 0 to {most} (the 1 of 4+1)", most=BASE_HD_MAX))
    return dice, plus


def _bounded(digits: str) -> int:
    """The number, or BASE_HD_MAX + 1 for any longer run of digits (no huge int() parses)."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= len(str(BASE_HD_MAX)) else BASE_HD_MAX + 1


def base_hd_bonus(text: str) -> int:
    """Effective HD = D + ⌊P/3⌋ (every +3 is one HD); it counts only from 2 (i.e. 1+3) up."""
    dice, plus = parse_base_hd(text)
    effective = dice + plus // 3
    return effective if effective >= 2 else 0


def _check_hd(size: object, what: str) -> int:
    if isinstance(size, bool) or size not in HD_SIZES:
        sizes = ", ".join(f"d{s}" for s in HD_SIZES)
        raise RulesError(_("{what} must be one of {sizes}", what=_(what), sizes=sizes))
    assert isinstance(size, int)
    return size


def _check_classes(classes: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    try:
        entries = list(classes)
    except TypeError:
        raise RulesError(_("Classes must be a list of (HD size, level) pairs")) from None
    for entry in entries:
        try:
            size, level = entry
        except (TypeError, ValueError):
            raise RulesError(_("Each class needs an HD size and a level")) from None
        pairs.append((_check_hd(size, N_("Class HD size")), check_int(level, N_("Level"), 1)))
    if not pairs:
        raise RulesError(_("A character needs at least one class"))
    return pairs


def fatigue_level(
    classes: Sequence[tuple[int, int]],
    combine: str = "single",
    toughness: int = 0,
    base_hd: str | None = None,
    kin_hd_size: int | None = None,
) -> Fraction:
    """FL = HD Size + Toughness + Level part + Base HD bonus, kept exact (20.5 stays 41/2).

    `classes` are (HD size, level) pairs; `combine` is "single", "multi" or "dual".
    """
    pairs = _check_classes(classes)
    if combine not in COMBINES:
        raise RulesError(_("Classes combine as single, multi or dual"))
    if combine == "single" and len(pairs) != 1:
        raise RulesError(_("A single-class character has exactly one class"))
    if combine != "single" and len(pairs) < 2:
        if combine == "multi":
            raise RulesError(_("Multiclass needs two or more classes"))
        raise RulesError(_("Dualclass needs two or more classes"))
    check_int(toughness, N_("Toughness"), TOUGHNESS_MIN, TOUGHNESS_MAX)

    sizes = [size for size, ignored in pairs]
    levels = [min(level, LEVEL_CAP) for ignored, level in pairs]
    if combine == "multi":
        hd_size = Fraction(sum(sizes), len(sizes))
        level_part = Fraction(sum(levels), len(levels))
    else:  # single has one class; dual uses the largest HD and the highest level
        hd_size = Fraction(max(sizes))
        level_part = Fraction(max(levels))
    if kin_hd_size is not None:
        hd_size = max(hd_size, Fraction(_check_hd(kin_hd_size, N_("Kin HD size"))))
    bonus = 0 if base_hd is None else base_hd_bonus(base_hd)
    return hd_size + toughness + level_part + bonus


def band_width(fl: Fraction) -> int:
    """W = max(1, ⌊FL⌋): every band holds W points."""
    exact = check_fl(fl)
    # ⌊FL⌋ as Fraction.__floor__ works it out, without the dispatch through math.floor: a
    # single change asks for it several times over.
    return max(1, exact.numerator // exact.denominator)


def max_fp(fl: Fraction) -> int:
    """Maximum FP = 5·W (the top of Shattered); FP may still rise above it."""
    return 5 * band_width(fl)


def band_lower(index: int, fl: Fraction) -> int:
    """Lowest FP of band `index` (0 for Fresh, k·W + 1 for the others)."""
    return 0 if index == 0 else index * band_width(fl) + 1


def band_index(fp: int, fl: Fraction) -> int:
    """0 (Fresh) .. 4 (Shattered); FP above Maximum stays Shattered."""
    check_int(fp, N_("FP"), 0)
    width = band_width(fl)
    return 0 if fp <= width else min(SHATTERED, (fp - 1) // width)


def band_name(fp: int, fl: Fraction) -> str:
    return BANDS[band_index(fp, fl)]


def band_ranges(fl: Fraction) -> list[tuple[str, int, int]]:
    """(name, lowest FP, highest FP) per band; Shattered ends at Maximum FP as the text shows
    (81–100 in the worked example), though FP above Maximum still counts as Shattered."""
    width = band_width(fl)
    return [(name, band_lower(i, fl), (i + 1) * width) for i, name in enumerate(BANDS)]
