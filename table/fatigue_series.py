"""The session's fatigue over game time, for `/party chart`: each character's FP in bands, their
Temporary FP, where VP damage was taken, and the rests, from the channel's table and the history
it keeps. Pure: the store reads the log (`store.chart`), `pictures.fatigue` draws.

The log is walked backwards from the table as it is now: each change's `before` snapshot is the
table just before it (what `/undo` restores), so a chart needs nothing from before its window.
A change that was undone is not in the picture, nor is the undo that took it back: the picture
shows the session as if it had never happened.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from fractions import Fraction
from typing import Any

from lang import N_, _
from rules.errors import RulesError
from rules.fatigue import band_width
from rules.gametime import DAY

from table.evening import evening_start
from table.event import Event
from table.model import NO_CHARACTERS, Character, Table, fatigue_level
from table.snapshot import character_from_dict

SINCE_EVENING, SINCE_LONG_REST, SINCE_DAY, SINCE_ALL = "evening", "long_rest", "day", "all"
SINCE_WORDS = {  # what a chart from each start shows, in words
    SINCE_EVENING: N_("this evening's play"),
    SINCE_LONG_REST: N_("since the last Long Rest"),
    SINCE_DAY: N_("since the start of the day"),
    SINCE_ALL: N_("everything this channel keeps"),
}
LONG_REST = "rest long"
CLOCK_SET = "clock set"  # the GM's `/clock set`: where an evening's scene may be marked
REST = "rest "  # every rest's action starts so: "rest break", "rest short", "rest long", …

NO_LONG_REST = N_(
    "There is no Long Rest in the history this channel keeps (its latest {keep} changes): "
    "`since:all` charts all of it"
)
DAY_PRUNED = N_(
    "The history this channel keeps (its latest {keep} changes) doesn't reach back to the start "
    "of the day: `since:all` charts all of it"
)
NOBODY_WITH_FL = N_(
    "Nobody here has a Fatigue Level yet, so there is nothing to chart: give one with "
    "`/character set`"
)


@dataclass(frozen=True)
class Mark:
    """What choosing a chart's start needs of one logged change (newest first from the store):
    no snapshot is decoded for it but a Long Rest's, to know whom it rested."""

    id: int
    action: str
    clock: int  # the game clock after the change
    seq: int  # its number among the channel's changes: 1 is the channel's first
    standing: bool  # neither undone nor an undo
    rested: frozenset[str] | None = None  # a Long Rest: its characters' keys; None for the party
    at: datetime | None = None  # when it was made, in real time (this evening's start)

    @classmethod
    def of(cls, event: Event) -> Mark:
        """A logged change's mark, from the change read whole."""
        return cls(
            event.id,
            event.action,
            event.clock,
            event.seq,
            event.undone_by is None and event.undoes is None,
            rested_keys(event.before) if event.action == LONG_REST else None,
            event.created_at,
        )


def rested_keys(before: Mapping[str, Any]) -> frozenset[str] | None:
    """Whom a rest rested, from its `before` snapshot: None for the party (a party rest moves
    the clock, so its snapshot has the channel), else the keys of the characters it changed."""
    return None if "channel" in before else frozenset(before.get("characters", {}))


@dataclass(frozen=True)
class Start:
    """Where a chart begins: after the change `after_id` (0: the oldest kept), at game time
    `clock` (None: wherever the clock stood before the first change drawn)."""

    after_id: int
    clock: int | None = None
    # From its first point that shows anything (`_first_shown`), not the clock before the
    # first change: this evening's play, whose first change may be the clock moved to it.
    first_shown: bool = False


def chart_start(
    marks: Sequence[Mark], since: str, now: int, keep: int, key: str | None = None
) -> Start:
    """Where the chart of `since` begins, from the kept changes (`marks`, newest first) and the
    clock `now`; `key` charts one character. A start the kept history no longer reaches is a
    RulesError that says so (the channel keeps `keep` changes)."""
    complete = not marks or marks[-1].seq <= 1  # the channel's first change is still kept
    if since == SINCE_ALL:
        return Start(0)
    if since == SINCE_EVENING:
        return evening(marks)
    if since == SINCE_DAY:
        day_start = now - now % DAY
        for mark in marks:
            if mark.clock <= day_start:
                return Start(mark.id, day_start)
        if complete:
            return Start(0, day_start)
        raise RulesError(_(DAY_PRUNED, keep=keep))
    if since != SINCE_LONG_REST:
        raise ValueError(f"unknown start {since!r}")
    for mark in marks:
        ours = mark.rested is None or (key is not None and key in mark.rested)
        if mark.standing and mark.action == LONG_REST and ours:
            return Start(mark.id, mark.clock)
    if complete:
        return Start(0)
    raise RulesError(_(NO_LONG_REST, keep=keep))


def evening(marks: Sequence[Mark]) -> Start:
    """This evening's play (`table.evening`): after the GM's latest standing `/clock set`, at
    the clock it set, when it marks the evening's start; else from the first change of the
    evening, whatever the clock read before it. Nothing kept: everything (there is nothing)."""
    clock_set = next((m for m in marks if m.standing and m.action == CLOCK_SET), None)
    times = [m.at for m in marks if m.at is not None]
    begun = evening_start(times, clock_set=None if clock_set is None else clock_set.at)
    if begun is None:
        return Start(0)
    if clock_set is not None and begun == clock_set.at:
        return Start(clock_set.id, clock_set.clock)
    tonight = [i for i, m in enumerate(marks) if m.at is not None and m.at >= begun]
    before = max(tonight, default=-1) + 1  # newest first: the change just before the evening
    return Start(marks[before].id if before < len(marks) else 0, first_shown=True)


@dataclass(frozen=True)
class Step:
    """A character's fatigue from game time `clock` on. `width` is the band width then (⌊FL⌋,
    at least 1: FP ÷ width is the band, 0–5), None while they had no Fatigue Level or were not
    in the channel (the line breaks)."""

    clock: int
    fp: int
    temp: int
    width: int | None
    vp_taken: bool = False  # VP damage was taken at this point
    ramp_from: int | None = None  # reached over a rest that began then (not all at once)

    @property
    def bands(self) -> float:
        """FP in bands: 0–1 Fresh, 1–2 Fatigued, … 4–5 Shattered, 5 the Maximum."""
        return self.fp / self.width if self.width else 0.0

    @property
    def shielded(self) -> float:
        """FP and Temporary FP, in bands: Temporary FP is spent before FP rises."""
        return (self.fp + self.temp) / self.width if self.width else 0.0


@dataclass(frozen=True)
class FatigueLine:
    name: str
    steps: tuple[Step, ...]  # oldest first; the last holds until the chart's end

    @property
    def now(self) -> Step:
        return self.steps[-1]

    def runs(self) -> list[list[Step]]:
        """The line's runs of steps with a Fatigue Level (it breaks where there was none)."""
        runs: list[list[Step]] = [[]]
        for step in self.steps:
            if step.width is None:
                if runs[-1]:
                    runs.append([])
            else:
                runs[-1].append(step)
        return [run for run in runs if run]


@dataclass(frozen=True)
class RestMark:
    """A rest: the party's spans the game time it took; one character's (`name`) leaves the
    clock where it is (start == end)."""

    kind: str  # break, short, long, minutes
    start: int
    end: int
    name: str | None = None


@dataclass(frozen=True)
class FatigueSeries:
    lines: tuple[FatigueLine, ...]
    rests: tuple[RestMark, ...]
    start: int  # game time at the chart's left edge
    end: int  # ... and its right edge: the clock now
    since: str
    changes: int  # changes drawn (undone ones and their undos left out)
    skipped: tuple[str, ...] = ()  # characters with no Fatigue Level now

    def title(self) -> str:
        """`Party fatigue`, or `Aria's fatigue` for one character, in the reader's language."""
        if len(self.lines) == 1:
            return _("{name}'s fatigue", name=self.lines[0].name)
        return _("Party fatigue")

    def as_now(self) -> FatigueSeries:
        """The series with each line cut to where it stands now, and no rests: all a chart's
        embed says, in a small part of the whole, for the worker that drew it to send back."""
        lines = tuple(replace(line, steps=line.steps[-1:]) for line in self.lines)
        return replace(self, lines=lines, rests=())


@dataclass(frozen=True)
class _Drawn:
    """What the chart draws of a character at one moment."""

    fp: int
    temp: int
    vp_damage: int
    width: int | None  # a band's width in FP; None without a Fatigue Level

    @classmethod
    def of(cls, character: Character) -> _Drawn:
        fl, state = character.fl, character.fatigue
        return cls(state.fp, state.temp, state.vp_damage, None if fl is None else band_width(fl))

    @classmethod
    def logged(cls, data: dict[str, Any]) -> _Drawn:
        """From a logged snapshot (`table.snapshot.character_to_dict`), read for these four
        numbers alone: a big table's chart walks thousands of them, and a whole Character,
        checked field by field, costs ten times as much. A snapshot was checked as a
        Character when it was logged (or imported); one logged before a field it needs
        existed is read whole, its defaults filled in."""
        try:
            override, classes, state = data["fl_override"], data["classes"], data["fatigue"]
            fp, temp, vp_damage = state["fp"], state["temp"], state["vp_damage"]
            inputs = (data["combine"], data["toughness"], data["base_hd"], data["kin_hd_size"])
        except KeyError:
            return cls.of(character_from_dict(data))
        fl: Fraction | None = None
        if override is not None:
            fl = Fraction(override)
        elif classes:
            pairs = tuple((size, level) for size, level in classes)
            fl = fatigue_level(pairs, *inputs)
        return cls(fp, temp, vp_damage, None if fl is None else band_width(fl))


def _step(clock: int, drawn: _Drawn | None) -> Step:
    if drawn is None:
        return Step(clock, 0, 0, None)
    return Step(clock, drawn.fp, drawn.temp, drawn.width)


def _renamed(event: Event) -> tuple[str, str] | None:
    """(old key, new key) when the change is one character renamed: one gone, one come."""
    before, after = event.before.get("characters", {}), event.after.get("characters", {})
    gone = [k for k, v in before.items() if v is not None and after.get(k) is None]
    come = [k for k, v in before.items() if v is None and after.get(k) is not None]
    return (gone[0], come[0]) if len(gone) == 1 and len(come) == 1 else None


@dataclass
class _Frame:
    """The charted characters as they stood from game time `clock` on (keyed by their key now);
    `ramp_from`: a party rest that began then brought them here."""

    clock: int
    standing: dict[str, _Drawn | None]
    ramp_from: int | None = None


def _walk(
    table: Table, events: Sequence[Event], start: Start, names: Mapping[str, str]
) -> tuple[list[_Frame], list[RestMark], int]:
    """Backwards from now: the frames, newest first; the rests; the changes walked over."""
    characters = {c.key: _Drawn.of(c) for c in table.characters}
    who = {key: key for key in names}  # key in the walk's table -> key now
    clock = table.clock
    frames = [_Frame(clock, {key: characters.get(key) for key in names})]
    rests: list[RestMark] = []
    walked = 0
    for event in events:  # newest first
        if event.id <= start.after_id:
            break
        if event.undone_by is not None or event.undoes is not None:
            continue  # an undone change and its undo: as if neither happened
        walked += 1
        before = event.before
        earlier = before["channel"]["clock"] if "channel" in before else clock
        if event.action.startswith(REST):
            kind = event.action.removeprefix(REST)
            lone = rested_keys(before)
            if lone is None:
                rests.append(RestMark(kind, earlier, clock))
                frames[-1].ramp_from = earlier
            for key in sorted(lone or ()):
                if key in who:
                    rests.append(RestMark(kind, clock, clock, names[who[key]]))
        renamed = _renamed(event)
        if renamed is not None and renamed[1] in who:
            who[renamed[0]] = who.pop(renamed[1])
        for key, data in before.get("characters", {}).items():
            if data is None:
                characters.pop(key, None)
            else:
                characters[key] = _Drawn.logged(data)
        clock = earlier
        frames.append(_Frame(clock, {now: characters.get(key) for key, now in who.items()}))
    return frames, rests, walked


def _line(name: str, key: str, frames: Sequence[_Frame]) -> FatigueLine:
    """One character's steps, oldest first: a step where anything drawn changed."""
    steps: list[Step] = []
    vp: int | None = None
    last: tuple[int, int, int | None] | None = None
    for frame in frames:
        drawn = frame.standing.get(key)
        shown = (0, 0, None) if drawn is None else (drawn.fp, drawn.temp, drawn.width)
        now_vp = None if drawn is None else drawn.vp_damage
        taken = vp is not None and now_vp is not None and now_vp > vp
        vp = now_vp if now_vp is not None else vp
        if last is None or taken or shown != last:
            ramp = frame.ramp_from if last is not None else None
            steps.append(Step(frame.clock, *shown, vp_taken=taken, ramp_from=ramp))
            last = shown
    return FatigueLine(name, tuple(steps))


def _first_shown(
    frames: Sequence[_Frame], rests: Sequence[RestMark], names: Mapping[str, str]
) -> int:
    """Where a chart asked for no moment begins: at its first point that shows anything, the
    clock from which the state the first change left holds (or a rest begins), once a line is
    drawn at all. Time the clock was only moved over before it (an evening set up with `/clock
    pass 1080`) is left out, so the axis never starts at a midnight before the play."""

    def seen(frame: _Frame) -> tuple[Any, ...]:
        return tuple(_step(0, frame.standing.get(key)) for key in names)

    drawn = next(
        (i for i, f in enumerate(frames) if any(s.width for s in seen(f))), len(frames) - 1
    )
    first = seen(frames[drawn])
    changed = next((i for i in range(drawn, len(frames)) if seen(frames[i]) != first), len(frames))
    left = frames[changed - 1].clock
    rested = [r.start for r in rests if r.start >= frames[drawn].clock]
    return min([left, *rested])


def fatigue_series(
    table: Table,
    events: Sequence[Event],
    start: Start,
    since: str,
    character: str | None = None,
) -> FatigueSeries:
    """The chart's data: `events` are the kept changes after `start.after_id`, newest first (any
    older ones are ignored); `character` charts one (by name), else everyone with a Fatigue
    Level now."""
    if character is not None:
        chosen = table.get(character)
        chosen.require_fl()  # a clear error for a character without one
        charted = [chosen]
    else:
        if not table.characters:
            raise RulesError(_(NO_CHARACTERS))
        charted = [c for c in table.characters if c.fl is not None]
        if not charted:
            raise RulesError(_(NOBODY_WITH_FL))
    skipped = tuple(c.name for c in table.characters if c.fl is None and character is None)
    names = {c.key: c.name for c in charted}
    frames, rests, walked = _walk(table, events, start, names)
    frames.reverse()
    rests.reverse()
    left = frames[0].clock if start.clock is None else start.clock
    if start.first_shown:
        left = _first_shown(frames, rests, names)
    for frame in frames:
        frame.clock = max(frame.clock, left)
        if frame.ramp_from is not None:
            frame.ramp_from = max(frame.ramp_from, left)
    lines = tuple(_line(names[key], key, frames) for key in names)
    kept = tuple(r for r in rests if r.end >= left)
    return FatigueSeries(lines, kept, left, table.clock, since, walked, skipped)
