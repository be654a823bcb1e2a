"""The session's fatigue (`/party chart`): each character's FP over game time, in bands.

FP ÷ band width puts every character, whatever their Fatigue Level, on the same five rows,
shaded in the bands' colours, with the Maximum as the top line. Temporary FP is a lighter strip
over the line it shields; a star marks VP damage taken; rests are grey spans (the party's) or
dotted lines (one character's)."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from lang import _
from pictures import Picture
from pictures._canvas import (
    BAND_HEX,
    BASE,
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
from pictures.clock import labels, ticks
from pictures.words import fatigue_alt, rest_name, since_words
from rules.fatigue import BANDS
from table.fatigue_series import FatigueLine, FatigueSeries, RestMark, Step

FILENAME = "fatigue.png"
REST_GREY = "#9ca3af"
VP_COLOUR = "#dc2626"
LABEL_GAP = 0.34  # bands between two names at the right edge
ROWS = 2  # rows of rest names above the plot
ROW_HEIGHT = 0.085  # of the plot's height, between two rows of rest names
MIN_SPAN = 600  # game seconds: a chart of one moment still shows ten minutes
PLOT_HEIGHT = 0.56  # of the figure: room above it for the title and two rows of rest names


def _xy(run: Sequence[Step], end: int, value: str) -> tuple[list[int], list[float]]:
    """A run as a staircase: each value holds until the next step (or the chart's end)."""
    xs: list[int] = []
    ys: list[float] = []
    for step, after in zip(run, [*run[1:], None], strict=True):
        y = getattr(step, value)
        # Held until the next step; a rest's change comes over its minutes: a slope.
        held = end if after is None else after.clock if after.ramp_from is None else after.ramp_from
        xs += [step.clock, held]
        ys += [y, y]
    return xs, ys


def _bands(ax: Axes, top: float) -> None:
    for index, colour in enumerate(BAND_HEX):
        ax.axhspan(index, index + 1, color=colour, alpha=0.22, linewidth=0, zorder=0)
    ax.axhspan(5, top, color=BAND_HEX[-1], alpha=0.32, linewidth=0, zorder=0)
    ax.axhline(5, color=INK, linewidth=1.6, linestyle=(0, (6, 3)), zorder=1)
    names = [_(band) for band in BANDS]
    ax.set_yticks([i + 0.5 for i in range(5)], names, fontproperties=font(BASE - 1))
    ax.set_yticks([5], [_("Maximum")], minor=True, fontproperties=font(BASE - 3, bold=True))
    ax.tick_params(axis="y", length=0, pad=6)
    ax.set_ylim(0, top)


def _rests(ax: Axes, rests: Sequence[RestMark], span: int) -> None:
    """Grey spans for the party's rests, dotted lines for one character's, each named above
    the plot, over what it names (a row higher when it would cover the one before): never on a
    line of the chart, its own included."""
    width = ax.get_position().width * 1000  # the axes in pixels, near enough
    rows: list[float] = []  # where each row's last label ends (in game seconds)
    for rest in rests:
        word = rest_name(rest.kind)
        if rest.name is None and rest.end - rest.start >= span / 150:
            ax.axvspan(rest.start, rest.end, color=REST_GREY, alpha=0.45, linewidth=0, zorder=1)
            text, x = word, (rest.start + rest.end) / 2
        else:
            ax.axvline(rest.end, color=REST_GREY, linewidth=2, linestyle=":", zorder=1)
            text = word if rest.name is None else f"{word} · {plain(rest.name)}"
            x = rest.end
        half = len(text) * 0.6 * (BASE - 3) * 1.8 / width * span / 2  # the label's half width
        row = next((i for i, right in enumerate(rows) if x - half > right), len(rows))
        if row == ROWS:
            continue  # no room for its name: the grey says enough
        if row == len(rows):
            rows.append(0)
        rows[row] = x + half
        ax.text(
            x,
            1.02 + ROW_HEIGHT * row,
            text,
            transform=ax.get_xaxis_transform(),
            ha="center",
            va="bottom",
            color=INK,
            fontproperties=font(BASE - 3),
            clip_on=False,
            zorder=6,
        )


def _draw_line(ax: Axes, line: FatigueLine, index: int, end: int) -> None:
    colour = LINE_COLOURS[index % len(LINE_COLOURS)]
    marker = MARKERS[index % len(MARKERS)]
    for run in line.runs():
        xs, ys = _xy(run, end, "bands")
        top_xs, tops = _xy(run, end, "shielded")
        if any(step.temp for step in run):
            ax.fill_between(top_xs, ys, tops, color=colour, alpha=0.28, linewidth=0, zorder=2)
        ax.plot(xs, ys, color=colour, linewidth=3, solid_joinstyle="miter", zorder=3)
        ax.plot(
            [s.clock for s in run],
            [s.bands for s in run],
            linestyle="none",
            marker=marker,
            markersize=6,
            color=colour,
            zorder=4,
        )
        hurt = [s for s in run if s.vp_taken]
        if hurt:
            ax.plot(
                [s.clock for s in hurt],
                [s.bands for s in hurt],
                linestyle="none",
                marker="*",
                markersize=20,
                color=VP_COLOUR,
                markeredgecolor="white",
                markeredgewidth=1.2,
                zorder=5,
            )


def _names(ax: Axes, lines: Sequence[FatigueLine], top: float) -> None:
    named = [
        (plain(line.name), line.now.bands, LINE_COLOURS[i % len(LINE_COLOURS)])
        for i, line in enumerate(lines)
    ]
    edge_names(ax, named, LABEL_GAP, 0.15, top - 0.15)


def draw_fatigue(series: FatigueSeries) -> Picture:
    """The chart as a PNG, with its alt text."""
    return Picture(FILENAME, png(chart_figure(series)), fatigue_alt(series))


def chart_figure(series: FatigueSeries) -> Figure:
    """The chart before it becomes a PNG (its texts and lines, for the tests to measure)."""
    lines = series.lines
    end = max(series.end, series.start + MIN_SPAN)
    top = max(5.35, *(s.shielded + 0.2 for line in lines for s in line.steps if s.width))
    longest = max(len(line.name) for line in lines)
    fig = figure()
    right = 0.97 - min(0.3, 0.012 * min(longest, 18) + 0.03)
    ax = fig.add_axes((0.19, 0.2, right - 0.19, PLOT_HEIGHT))
    _bands(ax, top)
    ax.set_xlim(series.start, end)
    _rests(ax, series.rests, end - series.start)
    for index, line in enumerate(lines):
        _draw_line(ax, line, index, end)
    _names(ax, lines, top)
    times = ticks(series.start, end)
    ax.set_xticks(times, labels(times), fontproperties=font(BASE - 2), color=INK)
    ax.tick_params(axis="x", colors=MUTED, labelcolor=INK)
    ax.grid(axis="x", color="white", linewidth=1.2, alpha=0.9, zorder=1)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    heading = font(BASE + 5, bold=True)
    fig.text(
        0.03, 0.955, plain(series.title()), ha="left", va="top", color=INK, fontproperties=heading
    )
    fig.text(
        0.03,
        0.893,
        since_words(series.since),
        ha="left",
        va="top",
        color=MUTED,
        fontproperties=font(BASE - 1),
    )
    fig.text(
        0.03,
        0.025,
        _("Lighter: Temporary FP · ★ VP damage · grey: rests"),
        ha="left",
        va="bottom",
        color=MUTED,
        fontproperties=font(BASE - 3),
    )
    return fig
