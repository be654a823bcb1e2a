"""Colours and number formats every render shares."""

from __future__ import annotations

import discord

from lang import _
from rules.fatigue import BANDS
from rules.text import MINUS as MINUS  # re-exported: renders take number formats from here
from rules.text import plain as plain
from rules.text import signed as signed

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
