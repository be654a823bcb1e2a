"""The session's fatigue chart on the page: the series `/party chart` draws
(`table.fatigue_series`), laid out as an inline SVG by a template (`chart.html`).

An SVG in the board, not the PNG `/party chart` sends: it is built with the board, once per
change and language for every page of a channel, and arrives in the same event (no request a
page, no drawing process, no token to guard); it scales to any screen; and the template escapes
every name as it does the rest of the board, under the same strict Content-Security-Policy (its
colours are page.css's classes, the bands' as the board's bars have them, never inline style).

The series covers this evening's play among the page's latest `CHART_CHANGES` changes, as
`/party chart` frames it (all of them when the evening began before them). Undone changes and
their undos are not in it, as in `/party chart`.
Everything here is geometry in the SVG's units (`WIDTH` × `HEIGHT`) and words in the reader's
language (built inside `lang.speaking`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from lang import _, n_
from pictures.clock import labels, ticks
from pictures.layout import spread
from pictures.words import fatigue_alt, rest_name, since_words
from rules.errors import RulesError
from rules.fatigue import BANDS
from table.event import Event
from table.fatigue_series import (
    SINCE_ALL,
    SINCE_EVENING,
    FatigueLine,
    FatigueSeries,
    Mark,
    Step,
    chart_start,
    fatigue_series,
)
from table.model import Table

CHART_CHANGES = 100  # the latest changes the page's chart covers, at most (the most one read gives)
RECENT = "recent"  # a chart of the latest changes only: no Long Rest among them
WIDTH, HEIGHT = 720, 300
# The plot's edges: room at its left for the longest band's name (Spanish `Destrozado`), at
# its right for a name, in the phone's type (page.css: 19 units), which a 390-pixel screen
# shows at half the SVG's size (a test measures it there), and above it for rests' names
# (never on a line of the chart).
LEFT, RIGHT, TOP, BOTTOM = 128, 562, 32, 250
NAME_GAP = 17  # units between two names at the right edge
NAME_CHARS = 12  # a longer name is cut at the edge (whole in its tooltip)
MIN_SPAN = 600  # game seconds: a chart of one moment still shows ten minutes
LINES = 10  # line colours in page.css (.line-0 … .line-9)


def page_series(table: Table, events: Sequence[Event]) -> FatigueSeries | None:
    """The chart's data from the table and its latest changes (newest first): this evening's
    play among them, as `/party chart` frames it; None when nobody has a Fatigue Level."""
    marks = [Mark.of(e) for e in events]
    since = SINCE_EVENING
    start = chart_start(marks, since, table.clock, len(events))
    if start.after_id == 0 and events and events[-1].seq > 1:  # more evening than was read
        since = RECENT
    try:
        return fatigue_series(table, events, start, since)
    except RulesError:  # no characters, or none with a Fatigue Level
        return None


@dataclass(frozen=True)
class Band:
    css: str  # the band's class: its colour in page.css
    name: str
    y: float
    height: float
    middle: float  # where its name is written


@dataclass(frozen=True)
class Tick:
    x: float
    time: str
    day: str | None  # above the time where a day begins or is first shown


@dataclass(frozen=True)
class Rest:
    x: float
    width: float  # 0: one character's rest, or one too short to see, drawn as a line
    title: str


@dataclass(frozen=True)
class Trace:
    colour: int  # its line class: .line-N
    name: str
    short: str  # as it fits at the right edge
    runs: tuple[str, ...]  # polyline points, a run for each stretch with a Fatigue Level
    shields: tuple[str, ...]  # polygon points: Temporary FP over the line
    stars: tuple[tuple[float, float], ...]  # where VP damage was taken
    end_y: float  # where the line ends at the right edge
    label_y: float  # where its name is written


@dataclass(frozen=True)
class Chart:
    since: str  # what the chart covers, in words
    alt: str  # the whole chart in words
    bands: tuple[Band, ...]
    above: tuple[float, float]  # y and height of the strip above the Maximum
    maximum: float  # the Maximum's y
    ticks: tuple[Tick, ...]
    rests: tuple[Rest, ...]
    traces: tuple[Trace, ...]
    width: ClassVar[int] = WIDTH
    height: ClassVar[int] = HEIGHT
    left: ClassVar[int] = LEFT
    right: ClassVar[int] = RIGHT
    top: ClassVar[int] = TOP
    bottom: ClassVar[int] = BOTTOM


class _Scale:
    def __init__(self, start: int, end: int, top: float) -> None:
        self.start, self.span, self.top = start, max(end - start, 1), top

    def x(self, clock: int) -> float:
        return round(LEFT + (clock - self.start) / self.span * (RIGHT - LEFT), 1)

    def y(self, bands: float) -> float:
        return round(BOTTOM - bands / self.top * (BOTTOM - TOP), 1)


def _staircase(run: Sequence[Step], end: int, value: str, s: _Scale) -> list[tuple[float, float]]:
    """Each value held until the next step (or the chart's end); a rest's change comes over
    its minutes, a slope."""
    points: list[tuple[float, float]] = []
    for step, after in zip(run, [*run[1:], None], strict=True):
        y = s.y(getattr(step, value))
        held = end if after is None else after.clock if after.ramp_from is None else after.ramp_from
        points += [(s.x(step.clock), y), (s.x(held), y)]
    return _thin(points)


def _thin(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The same drawing in fewer points: repeats go, and so does a point in the middle of a
    straight run along x or y (many changes at one game time are one vertical stroke)."""
    kept: list[tuple[float, float]] = []
    for point in points:
        if kept and kept[-1] == point:
            continue
        if len(kept) >= 2:
            (ax, ay), (bx, by) = kept[-2], kept[-1]
            on_x = ax == bx == point[0] and min(ay, point[1]) <= by <= max(ay, point[1])
            on_y = ay == by == point[1] and min(ax, point[0]) <= bx <= max(ax, point[0])
            if on_x or on_y:
                kept[-1] = point
                continue
        kept.append(point)
    return kept


def _svg_points(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{x:g},{y:g}" for x, y in points)


def _short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


def _trace(index: int, line: FatigueLine, end: int, s: _Scale) -> Trace:
    runs, shields = [], []
    for run in line.runs():
        low = _staircase(run, end, "bands", s)
        runs.append(_svg_points(low))
        if any(step.temp for step in run):
            high = _staircase(run, end, "shielded", s)
            shields.append(_svg_points([*high, *reversed(low)]))
    stars = tuple((s.x(p.clock), s.y(p.bands)) for p in line.steps if p.vp_taken and p.width)
    last = s.y(line.now.bands)
    short = _short(line.name)
    return Trace(index % LINES, line.name, short, tuple(runs), tuple(shields), stars, last, last)


def chart(series: FatigueSeries) -> Chart:
    """The chart's layout and words, in the language spoken now."""
    end = max(series.end, series.start + MIN_SPAN)
    top = max(5.35, *(p.shielded + 0.2 for line in series.lines for p in line.steps if p.width))
    s = _Scale(series.start, end, top)
    bands = tuple(
        Band(
            name.lower(),
            _(name),
            s.y(i + 1),
            round(s.y(i) - s.y(i + 1), 1),
            round((s.y(i) + s.y(i + 1)) / 2, 1),
        )
        for i, name in enumerate(BANDS)
    )
    times = ticks(series.start, end)
    marks = []
    for x, label in zip(times, labels(times), strict=True):
        day, _newline, time = label.rpartition("\n")
        marks.append(Tick(s.x(x), time, day or None))
    rests = []
    for r in series.rests:
        title = rest_name(r.kind) if r.name is None else f"{rest_name(r.kind)} · {r.name}"
        left, right = s.x(max(r.start, series.start)), s.x(r.end)
        wide = r.name is None and right - left >= 2
        rests.append(Rest(left if wide else right, round(right - left, 1) if wide else 0, title))
    traces = [_trace(i, line, end, s) for i, line in enumerate(series.lines)]
    order = sorted(range(len(traces)), key=lambda i: traces[i].end_y)
    labelled = spread([traces[i].end_y for i in order], NAME_GAP, TOP + 6, BOTTOM)
    for i, y in zip(order, labelled, strict=True):
        traces[i] = replace(traces[i], label_y=round(y, 1))
    if series.since == RECENT:
        since = n_("the latest change", "the latest {n} changes", series.changes)
    else:
        since = since_words(series.since)
    return Chart(
        since=since,
        alt=fatigue_alt(series) if series.since != RECENT else _alt_recent(series, since),
        bands=bands,
        above=(TOP, round(s.y(5) - TOP, 1)),
        maximum=s.y(5),
        ticks=tuple(marks),
        rests=tuple(rests),
        traces=tuple(traces),
    )


def _alt_recent(series: FatigueSeries, since: str) -> str:
    """`fatigue_alt`, its start in words said as the page's chart covers it."""
    return fatigue_alt(series).replace(since_words(SINCE_ALL), since, 1)
