"""What every render shares: colours, number formats, Discord's embed limits, and fitting a
list of lines into one."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import discord

from lang import _
from rules.fatigue import BANDS
from rules.text import MINUS, plain

# Fatigue bands, calm to alarming: Fresh green … Shattered dark purple.
# zip(strict=True) fails at import if the rules ever gain or lose a band.
BAND_COLOURS: dict[str, discord.Colour] = dict(
    zip(
        BANDS,  # Fresh, Fatigued, Tired, Exhausted, Shattered
        (
            discord.Colour(0x2ECC71),  # green
            discord.Colour(0xF1C40F),  # yellow
            discord.Colour(0xE67E22),  # orange
            discord.Colour(0xE74C3C),  # red
            discord.Colour(0x71368A),  # dark purple
        ),
        strict=True,
    )
)

# Discord's limits on an embed's description, title and a field's value, in characters.
DESCRIPTION_MAX, TITLE_MAX, FIELD_MAX = 4096, 256, 1024
LINE_WIDTH = 80  # characters: the widest line a short public reply sends (a phone's screen)

SUCCESS = discord.Colour(0x2ECC71)
FAILURE = discord.Colour(0xE74C3C)
NEUTRAL = discord.Colour(0x5865F2)  # Discord blurple: a roll with no pass or fail
MIXED = discord.Colour(0xF1C40F)  # some passed, some failed (a party save)


def band_colour(band: str) -> discord.Colour:
    """The colour of a fatigue band by name ("Fresh" … "Shattered")."""
    return BAND_COLOURS[band]


def outcome_colour(success: bool) -> discord.Colour:
    return SUCCESS if success else FAILURE


def percent(chance: float) -> str:
    """`63.45%`; never shows 0.00% or 100.00% for a chance that is not 0 or 1."""
    if 0 < chance < 0.00005:
        return "<0.01%"
    if 0.99995 <= chance < 1:
        return ">99.99%"
    return f"{chance * 100:.2f}%"


def points(low: int, high: int) -> str:
    """A band's FP: `21–40`, or `2` for a band of one point (FL below 2)."""
    return str(low) if low == high else f"{low}–{high}"


def more_text(count: int) -> str:
    """`…and 3 more`: the lines a long list leaves out."""
    return _("…and {count} more", count=count)


def fl_text(fl: Fraction) -> str:
    """`20`, `20.5`, `61/3 (≈20.33)`: exact, as a decimal when it has a short one."""
    if fl.denominator == 1:
        return plain(fl.numerator)
    for places in (1, 2, 3):
        if (fl * 10**places).denominator == 1:  # a short decimal: the float prints it exactly
            return f"{float(fl):.{places}f}".replace("-", MINUS)
    return f"{fl.numerator}/{fl.denominator} (≈{float(fl):.2f})".replace("-", MINUS)


def fit_lines(lines: Sequence[str], limit: int = DESCRIPTION_MAX) -> str:
    """As many lines as fit in `limit`, then `…and N more` for the rest."""
    whole = "\n".join(lines)
    if all(lines) and len(whole) + 1 + len(more_text(len(lines))) <= limit:
        return whole  # room for all, even beside the longest "…and N more": nothing is cut
    return fit_one_by_one(lines, limit)


def fit_one_by_one(lines: Sequence[str], limit: int) -> str:
    """`fit_lines` the long way: each line while the rest's `…and N more` still fits."""
    text = ""
    for index, line in enumerate(lines):
        left = len(lines) - index - 1
        tail = f"\n{more_text(left)}" if left else ""
        joined = f"{text}\n{line}" if text else line
        if len(joined) + len(tail) > limit:
            return f"{text}\n{more_text(len(lines) - index)}" if text else more_text(len(lines))
        text = joined
    return text
