"""The embeds that carry a picture: a title, a line of what it shows, and the picture itself
(`attachment://…`: the PNG goes with the reply as a file, its alt text as the file's
description)."""

from __future__ import annotations

from fractions import Fraction

import discord

from lang import _, n_
from render.common import NEUTRAL, band_colour
from rules.fatigue import BANDS, band_index
from rules.gametime import game_time
from table.fatigue_series import SINCE_ALL, SINCE_WORDS, FatigueSeries

TITLE_MAX = 256


def with_picture(embed: discord.Embed, filename: str) -> discord.Embed:
    """The embed showing the attached file `filename` as its image."""
    return embed.set_image(url=f"attachment://{filename}")


def span_text(series: FatigueSeries) -> str:
    """`Day 2, 18:00 → Day 2, 20:50 · 12 changes`: the game time a chart spans."""
    return _(
        "{start} → {end} · {changes}",
        start=game_time(series.start),
        end=game_time(series.end),
        changes=n_("{n} change", "{n} changes", series.changes),
    )


def chart_caption(series: FatigueSeries) -> str:
    """The line under a chart in a card's gallery: what it charts and over which span."""
    return f"-# 📈 {series.title()} · {span_text(series)}"


def fatigue_chart_embed(series: FatigueSeries) -> discord.Embed:
    """`/party chart`: whose fatigue, over which game time, from how many changes."""
    lines = series.lines
    title = series.title()
    worst = max(
        (band_index(line.now.fp, Fraction(line.now.width)) for line in lines if line.now.width),
        default=None,
    )
    embed = discord.Embed(
        title=title[:TITLE_MAX],
        description=span_text(series),
        colour=NEUTRAL if worst is None else band_colour(BANDS[worst]),
    )
    if series.skipped:
        embed.add_field(
            name=_("Not charted"),
            value=_("No Fatigue Level: {names}", names=", ".join(series.skipped))[:1024],
        )
    embed.set_footer(text=_(SINCE_WORDS.get(series.since, SINCE_WORDS[SINCE_ALL])))
    return embed
