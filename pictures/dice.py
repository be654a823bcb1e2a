"""The dice's own report (`/dice report`): on the left the successes counted save by save
against the line the exact odds expected and the band a fair count stays in (its 5th to 95th
percentile after each save); on the right the first d100s in ten bins of ten against flat."""

from __future__ import annotations

from matplotlib.axes import Axes
from matplotlib.ticker import MaxNLocator

from lang import _, n_
from pictures import Picture
from pictures._canvas import (
    BASE,
    GRID,
    INK,
    LINE_COLOURS,
    MUTED,
    edge_names,
    figure,
    font,
    plain,
    png,
)
from rules.luck import BINS, FACES
from table.dice_report import LUCK_WORDS, DiceReport, flatness_words, tally

FILENAME = "dice.png"
BAND = "#c7d2fe"  # a pale blue: where a fair count stays
ACTUAL = LINE_COLOURS[0]
EXPECTED = LINE_COLOURS[1]
BARS = "#93c5fd"
MARKED = 40  # up to this many saves, each is marked
NAME_GAP = 0.09  # the least height between the two names at the right edge (of the axis)


def _successes(ax: Axes, report: DiceReport) -> None:
    steps = report.steps
    if not steps:
        ax.set_axis_off()
        say = font(BASE + 2)
        ax.text(0.5, 0.5, _("No saves"), ha="center", va="center", color=MUTED, fontproperties=say)
        return
    xs = list(range(len(steps) + 1))
    low = [0, *(s.low for s in steps)]
    high = [0, *(s.high for s in steps)]
    ax.fill_between(xs, low, high, step="pre", color=BAND, linewidth=0, zorder=1)
    expected = [0.0, *(s.expected for s in steps)]
    ax.plot(xs, expected, color=EXPECTED, linewidth=2, linestyle=(0, (5, 3)), zorder=2)
    counted = [0, *(s.successes for s in steps)]
    ax.step(xs, counted, where="pre", color=ACTUAL, linewidth=3, zorder=3)
    if len(steps) <= MARKED:
        ax.plot(xs[1:], counted[1:], "o", color=ACTUAL, markersize=5, zorder=4)
    last = steps[-1]
    top = max(last.high, last.successes, last.expected, 1) * 1.08
    ax.set_xlim(0, len(steps))
    ax.set_ylim(0, top)
    named = [
        (_("Succeeded: {n}", n=last.successes), last.successes, ACTUAL),
        (_("Expected: {n}", n=f"{last.expected:.1f}"), last.expected, EXPECTED),
    ]
    edge_names(ax, named, top * NAME_GAP, 0, top)  # heights in the axis's own units
    ax.set_xlabel(_("Saves, in the order made"), fontproperties=font(BASE - 2), color=INK)
    _style(ax)


def _d100s(ax: Axes, report: DiceReport) -> None:
    test = report.d100s
    width = FACES // BINS
    starts = [1 + i * width for i in range(BINS)]
    ax.bar(starts, test.counts, width=width * 0.85, align="edge", color=BARS, zorder=2)
    if test.dice:
        ax.axhline(test.dice / BINS, color=EXPECTED, linewidth=2, linestyle=(0, (5, 3)), zorder=3)
    ax.set_xlim(1, FACES + 1)
    ax.set_xticks([1, 51, 101], ["1", "51", "100"], fontproperties=font(BASE - 3))
    ax.set_ylim(0, max(max(test.counts), test.dice / BINS, 1) * 1.15)
    ax.set_xlabel(
        n_("{n} first d100", "{n} first d100s", test.dice), fontproperties=font(BASE - 2), color=INK
    )
    _style(ax)


def _style(ax: Axes) -> None:
    for label in ax.get_yticklabels():
        label.set_fontproperties(font(BASE - 3))
    for label in ax.get_xticklabels():
        label.set_fontproperties(font(BASE - 3))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(axis="y", color=GRID, linewidth=1, zorder=0)
    ax.tick_params(colors=MUTED, labelcolor=INK)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def draw_dice(report: DiceReport) -> Picture:
    """The report's picture as a PNG, with its alt text."""
    fig = figure()
    _successes(fig.add_axes((0.08, 0.17, 0.48, 0.6)), report)
    _d100s(fig.add_axes((0.8, 0.17, 0.17, 0.6)), report)
    title = f"{report.title()} · {report.since_words()}"
    fig.text(
        0.03,
        0.955,
        plain(title),
        ha="left",
        va="top",
        color=INK,
        fontproperties=font(BASE + 4, bold=True),
    )
    fig.text(
        0.03,
        0.875,
        _("Band: where 90% of fair evenings end · dashed: what the exact odds expect"),
        ha="left",
        va="top",
        color=MUTED,
        fontproperties=font(BASE - 2),
    )
    return Picture(FILENAME, png(fig), dice_alt(report))


def dice_alt(report: DiceReport) -> str:
    """What the picture shows, in words: the count against the odds and its band, each
    character's verdict, and the first d100s."""
    parts = [f"{report.title()}, {report.since_words()}."]
    if report.overall is not None and report.steps:
        last = report.steps[-1]
        parts.append(
            _(
                "{tally}; a fair count ends between {low} and {high} at least 90% of the time.",
                tally=tally(report.overall),
                low=last.low,
                high=last.high,
            )
        )
    for luck in report.characters:
        name = luck.name or _("Saves with numbers given")
        parts.append(f"{plain(name)}: {_(LUCK_WORDS[luck.luck])} ({tally(luck)}).")
    if report.d100s.dice:
        parts.append(flatness_words(report.d100s) + ".")
    return " ".join(parts)  # a Picture cuts it to what Discord takes
