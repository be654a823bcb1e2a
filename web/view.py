"""What the page shows, from a channel's table and its latest changes: pure values, in the
reader's language (built inside `lang.speaking`), for the templates to lay out.

Only what the channel's own table says, and only what its players may see: characters'
fatigue (now, and over game time since the last Long Rest: `web.chart`), the turn order
(names, scores, and how hurt a monster looks; never its HP, build or spots), the clock and
the changes `/history` lists. No Discord id reaches the page: history's mentions become words
(`web.words`), and who made a change is left out. Secret rolls are not in the table at all."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

from lang import _, words
from rules.fatigue import BANDS, band_name, band_width, max_fp
from rules.gametime import game_time
from table.actions import REDO_ACTION
from table.event import Event
from table.fatigue_series import FatigueSeries
from table.initiative import defeated
from table.model import Character, Table
from table.sight import channel_sight
from web.chart import Chart, chart
from web.words import cap_text, change_text, rested_text, temp_text

HISTORY_SHOWN = 20  # the latest changes on the page
NO_BAND = "none"  # the CSS class of a character without a Fatigue Level


def band_class(band: str) -> str:
    """A band's CSS class: `fresh`, `fatigued`, … (its colour is in page.css)."""
    return band.lower()


@dataclass(frozen=True)
class Segment:
    """One band's stretch of a character's FP bar, in FP: `x` to `x + width`; `filled` up to
    `fill` (the character's FP, within the band)."""

    band: str
    x: int
    width: int
    fill: int


@dataclass(frozen=True)
class Member:
    """A character on the party board."""

    name: str
    band: str  # CSS class
    band_name: str | None  # in the reader's language; None without a Fatigue Level
    fp: int
    top: int | None  # Maximum FP
    segments: tuple[Segment, ...]
    notes: tuple[str, ...]  # Temporary FP, a cap, a rest ahead of the clock, VP damage


@dataclass(frozen=True)
class Turn:
    name: str
    score: int
    kind: str  # character, monster or other
    current: bool
    down: bool  # a defeated monster (0 HP or below)
    looks: str | None  # how hurt a tracked monster looks (never its numbers)


@dataclass(frozen=True)
class Line:
    """A change as `/history` lists it: when (game clock and wall time), what, whether it was
    taken back (an undo: redone), and whether it is an undo or a redo."""

    game_time: str
    at: datetime
    action: str
    what: str
    undone: bool
    undo: bool
    redo: bool


@dataclass(frozen=True)
class Board:
    party: tuple[Member, ...]
    order: tuple[Turn, ...]
    round: int  # the turn order's round, 0 before `/init start`
    whose: str | None
    clock: str  # the time of day (the fight's round is the turn order's)
    lines: tuple[Line, ...]
    chart: Chart | None  # the session's fatigue over game time (`web.chart`)


def segments(fp: int, fl: Fraction) -> tuple[Segment, ...]:
    """The five bands side by side over 0 … Maximum FP, each filled as far as `fp` reaches."""
    width = band_width(fl)
    return tuple(
        Segment(band_class(name), i * width, width, max(0, min(fp - i * width, width)))
        for i, name in enumerate(BANDS)
    )


def member(character: Character, clock: int) -> Member:
    state, fl = character.fatigue, character.fl
    if fl is None:
        note = _("No Fatigue Level yet")
        return Member(character.name, NO_BAND, None, state.fp, None, (), (note,))
    band = band_name(state.fp, fl)
    notes = [temp_text(state, clock), cap_text(state, fl), rested_text(state, clock)]
    if state.vp_damage:
        notes.append(_("{vp} VP damage (to apply on the sheet)", vp=state.vp_damage))
    return Member(
        character.name,
        band_class(band),
        _(band),
        state.fp,
        max_fp(fl),
        segments(state.fp, fl),
        tuple(note for note in notes if note),
    )


def order(table: Table) -> tuple[Turn, ...]:
    """The turn order as `/init show` has it: a monster's look, never its HP."""
    initiative = table.initiative
    turns = []
    for c in initiative.combatants:
        monster = table.find_monster(c.name) if c.kind == "monster" else None
        wounds = None if monster is None or monster.down else monster.wounds
        looks = None if wounds is None else _(wounds)
        turns.append(
            Turn(c.name, c.score, c.kind, c == initiative.current, defeated(table, c), looks)
        )
    return tuple(turns)


# A page's lines are said again after every change to its channel, all but the newest for the
# same events: each is kept by the event and the language (an Event is immutable, and the one
# kept is used only for an equal one). Bounded: emptied when full.
_LINES: dict[tuple[int, int, bool, object], tuple[Event, Line]] = {}
LINES_KEPT = 4096


def line(event: Event, numbers: bool) -> Line:
    """`event`'s line on the page, in the current language: at most 4,096 kept (LINES_KEPT),
    emptied when full."""
    key = (event.channel_id, event.id, numbers, words())
    kept = _LINES.get(key)
    if kept is not None and (kept[0] is event or kept[0] == event):
        return kept[1]
    made = _line(event, numbers)
    if len(_LINES) >= LINES_KEPT:
        _LINES.clear()
    _LINES[key] = event, made
    return made


def _line(event: Event, numbers: bool) -> Line:
    action, what = change_text(event, numbers)
    return Line(
        game_time(event.clock),
        event.created_at,
        action,
        what,
        event.undone_by is not None,
        event.undoes is not None,
        event.action == REDO_ACTION,
    )


def board(table: Table, events: Sequence[Event], series: FatigueSeries | None = None) -> Board:
    """The page's content: party, turn order, clock, the latest changes, newest first, and
    the chart of `series` (`web.chart.page_series`: none without one)."""
    current = table.initiative.current
    numbers = channel_sight(table.settings).numbers  # the page is the channel's: its sight
    return Board(
        party=tuple(member(c, table.clock) for c in table.characters),
        order=order(table),
        round=table.initiative.round,
        whose=None if current is None else current.name,
        clock=game_time(table.clock),
        lines=tuple(line(e, numbers) for e in events[:HISTORY_SHOWN]),
        chart=None if series is None else chart(series),
    )
