"""The odds (the "Odds" button on a `/save` reply, or `chart:True`): the exact chance to succeed
against each Attack Level, Spell Casting total or Difficulty, one curve per character, with the
difficulty just rolled marked and each chance there labelled."""

from __future__ import annotations

from matplotlib.axes import Axes
from matplotlib.ticker import FixedLocator, MaxNLocator

from lang import _
from pictures import Picture
from pictures._canvas import (
    BASE,
    GRID,
    INK,
    LINE_COLOURS,
    MARKERS,
    MUTED,
    edge_names,
    figure,
    font,
    plain,
    png,
)
from pictures.layout import spread
from pictures.words import AXIS_WORDS, odds_alt, percent
from rules.saves import SaveKind
from rules.text import signed
from table.odds_series import OddsSeries

FILENAME = "odds.png"
LABELLED = 4  # up to this many curves, each chance at the rolled difficulty is written out
GAP = 0.075  # the least height between two names at the right edge (0–1 of the axis)
LABEL_GAP = 0.1  # ... between two chances written at the difficulty rolled


def _curves(ax: Axes, series: OddsSeries) -> None:
    many = len(series.xs) > 30
    for index, curve in enumerate(series.curves):
        colour = LINE_COLOURS[index % len(LINE_COLOURS)]
        ax.plot(
            series.xs,
            curve.chances,
            color=colour,
            linewidth=3,
            marker=None if many else MARKERS[index % len(MARKERS)],
            markersize=6,
            drawstyle="steps-mid" if series.axis == "spell" else "default",
            zorder=3,
        )
        ax.plot(
            [series.rolled],
            [curve.marked],
            marker="o",
            markersize=13,
            markerfacecolor="white",
            markeredgecolor=colour,
            markeredgewidth=3,
            zorder=5,
        )


def _mark(ax: Axes, series: OddsSeries) -> None:
    """The difficulty rolled: a line, its name, and each chance there."""
    ax.axvline(series.rolled, color=INK, linewidth=1.5, linestyle=(0, (5, 3)), zorder=2)
    axis = _(AXIS_WORDS[series.axis])
    ax.annotate(
        _(
            "{axis} {value} → {difficulty}",
            axis=axis,
            value=series.rolled,
            difficulty=series.difficulty,
        ),
        xy=(series.rolled, 1.0),
        xycoords=("data", "axes fraction"),
        xytext=(0, 6),
        textcoords="offset points",
        ha="center",
        va="bottom",
        color=INK,
        fontproperties=font(BASE - 2, bold=True),
        annotation_clip=False,
    )
    if len(series.curves) > LABELLED:
        return
    place_right = series.rolled <= (series.xs[0] + series.xs[-1]) / 2
    marked = [curve.marked for curve in series.curves]
    order = sorted(range(len(marked)), key=lambda i: marked[i])
    heights = spread([marked[i] for i in order], LABEL_GAP, 0.04, 0.96)
    shift = (series.xs[-1] - series.xs[0]) * (0.06 if place_right else -0.06)
    for i, y in zip(order, heights, strict=True):
        colour = LINE_COLOURS[i % len(LINE_COLOURS)]
        ax.annotate(
            percent(marked[i]),
            xy=(series.rolled, marked[i]),
            xytext=(series.rolled + shift, y),
            ha="left" if place_right else "right",
            va="center",
            color=colour,
            fontproperties=font(BASE + 1, bold=True),
            bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": colour, "lw": 1.5},
            arrowprops={"arrowstyle": "-", "color": colour, "linewidth": 1.5},
            zorder=6,
        )


def _names(ax: Axes, series: OddsSeries) -> None:
    named = [
        (
            f"{plain(curve.name or _('This save'))} {signed(curve.bonus)}",
            curve.chances[-1],
            LINE_COLOURS[i % len(LINE_COLOURS)],
        )
        for i, curve in enumerate(series.curves)
    ]
    edge_names(ax, named, GAP, 0.02, 0.98)


def draw_odds(series: OddsSeries) -> Picture:
    fig = figure()
    longest = max(len(c.name or _("This save")) for c in series.curves) + 4
    right = 0.97 - min(0.32, 0.012 * min(longest, 20) + 0.03)
    ax = fig.add_axes((0.12, 0.15, right - 0.12, 0.6))
    ax.set_ylim(0, 1)
    ax.set_xlim(series.xs[0] - 0.5, series.xs[-1] + 0.5)
    ticks = [0, 0.25, 0.5, 0.75, 1]
    ax.set_yticks(ticks, [f"{int(t * 100)}%" for t in ticks], fontproperties=font(BASE - 2))
    ax.grid(axis="y", color=GRID, linewidth=1, zorder=0)
    if series.axis == "level" and len(series.xs) <= 20:
        ax.xaxis.set_major_locator(FixedLocator([x for x in series.xs if x == 1 or x % 2 == 0]))
    else:
        ax.xaxis.set_major_locator(MaxNLocator(nbins=7, integer=True))
    for label in ax.get_xticklabels():
        label.set_fontproperties(font(BASE - 2))
    ax.tick_params(colors=MUTED, labelcolor=INK)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.set_xlabel(_(AXIS_WORDS[series.axis]), fontproperties=font(BASE - 1), color=INK)
    _curves(ax, series)
    _mark(ax, series)
    _names(ax, series)
    title = _(SaveKind(series.kind).full_name)
    fig.text(
        0.03, 0.955, title, ha="left", va="top", color=INK, fontproperties=font(BASE + 5, True)
    )
    note = _("Chance to succeed before the roll")
    if series.ties_succeed:
        note += " · " + _("ties succeed")
    fig.text(0.03, 0.875, note, ha="left", va="top", color=MUTED, fontproperties=font(BASE - 1))
    return Picture(FILENAME, png(fig), odds_alt(series))
