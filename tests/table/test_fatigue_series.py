"""The data behind `/party chart` (`table.fatigue_series`), on sessions played through the
table's own operations and logged as the store logs them (`docs.examples.Session`)."""

from __future__ import annotations

import dataclasses
import functools
from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from docs.examples import Session, party
from pictures.words import fatigue_alt
from rules._fatigue_level import HD_SIZES
from rules.errors import RulesError
from rules.fatigue import FatigueState
from rules.gametime import DAY
from table import partyops
from table.event import Event
from table.fatigue_series import (
    SINCE_ALL,
    SINCE_DAY,
    SINCE_EVENING,
    SINCE_LONG_REST,
    FatigueSeries,
    Mark,
    Start,
    _Drawn,
    chart_start,
    fatigue_series,
    rested_keys,
)
from table.model import Character, Table
from table.snapshot import character_from_dict, character_to_dict, diff

NAMES = ("Aria", "Bórin", "Cael")
OPS = st.lists(
    st.tuples(
        st.sampled_from(("spend", "temp", "pass", "party", "rest", "alone", "rename")),
        st.integers(0, 2),
        st.integers(1, 40),
    ),
    max_size=40,
)


def rename(table: Table, name: str) -> tuple[Table, None]:
    character = table.get(name)
    renamed = dataclasses.replace(character, name=character.name + "x")
    return table.without(name).with_character(renamed), None


def play(ops: list[tuple[str, int, int]]) -> Session:
    session = Session(party(3))
    for kind, who, amount in ops:
        name = session.table.characters[who].name
        if kind == "spend":
            session.play(
                "fatigue spend", functools.partial(partyops.spend, name=name, amount=amount)
            )
        elif kind == "temp":
            give = functools.partial(partyops.temp, name=name, amount=amount, minutes=10)
            session.play("fatigue temp", give)
        elif kind == "pass":
            session.play("clock pass", functools.partial(partyops.pass_minutes, minutes=amount))
        elif kind == "party":
            session.play("party spend", functools.partial(partyops.party_spend, amount=amount))
        elif kind == "rest":
            rest = ("break", "short", "long")[amount % 3]
            session.play(f"rest {rest}", functools.partial(partyops.party_rest, kind=rest))
        elif kind == "alone":
            session.play(
                "rest break", functools.partial(partyops.rest_one, name=name, kind="break")
            )
        else:  # a rename logs as one gone and one come: the line follows it
            session.play("character set", functools.partial(rename, name=name))
    return session


@settings(max_examples=60, deadline=None)
@given(OPS)
def test_each_line_replays_the_log(ops: list[tuple[str, int, int]]) -> None:
    """Every step is the character as the log left them at that point, oldest first, in game
    time order; the last is the table now; the first the table before the first change."""
    session = play(ops)
    series = fatigue_series(session.table, session.newest_first(), Start(0), SINCE_ALL)
    start = party(3)
    assert series.start == start.clock and series.end == session.table.clock
    assert series.changes == len(session.events)
    for line, first, now in zip(
        series.lines, start.characters, session.table.characters, strict=True
    ):
        assert line.name == now.name
        clocks = [step.clock for step in line.steps]
        assert clocks == sorted(clocks)
        assert (line.steps[0].fp, line.steps[0].temp) == (first.fatigue.fp, first.fatigue.temp)
        assert (line.now.fp, line.now.temp) == (now.fatigue.fp, now.fatigue.temp)
        assert line.now.width == int(now.require_fl())
        hurt = sum(step.vp_taken for step in line.steps)
        assert hurt <= now.fatigue.vp_damage  # each point where VP damage rose is marked


@settings(max_examples=40, deadline=None)
@given(OPS, st.integers(0, 2), st.integers(1, 30))
def test_an_undone_change_is_not_in_the_picture(
    ops: list[tuple[str, int, int]], who: int, amount: int
) -> None:
    session = play(ops)
    before = fatigue_series(session.table, session.newest_first(), Start(0), SINCE_ALL)
    name = session.table.characters[who].name
    table = session.table
    after, _ = partyops.spend(table, name, amount)
    old, new = diff(table, after)
    n = len(session.events)
    when = datetime(2025, 1, 1, tzinfo=UTC)
    change = Event(n + 1, 1, "fatigue spend", when, old, new, 1, after.clock, n + 2, seq=n + 1)
    undo = Event(n + 2, 1, "undo", when, new, old, 1, table.clock, undoes=n + 1, seq=n + 2)
    with_undone = fatigue_series(
        table, [undo, change, *session.newest_first()], Start(0), SINCE_ALL
    )
    assert with_undone == before


def mark(id_: int, action: str, clock: int, rested: frozenset[str] | None = None) -> Mark:
    return Mark(id_, action, clock, id_, True, rested)


def test_the_chart_starts_at_the_last_long_rest_that_counts() -> None:
    marks = [  # newest first
        mark(5, "fatigue spend", 900),
        mark(4, "rest long", 900, frozenset({"aria"})),  # Aria alone
        mark(3, "fatigue spend", 600),
        mark(2, "rest long", 600),  # the party's
        mark(1, "character create", 0),
    ]
    assert chart_start(marks, SINCE_LONG_REST, 900, 1000) == Start(2, 600)
    assert chart_start(marks, SINCE_LONG_REST, 900, 1000, "aria") == Start(4, 900)
    assert chart_start(marks, SINCE_LONG_REST, 900, 1000, "bo") == Start(2, 600)
    undone = [dataclasses.replace(m, standing=m.id != 2) for m in marks]
    assert chart_start(undone, SINCE_LONG_REST, 900, 1000) == Start(0)  # from the first change
    assert chart_start(marks, SINCE_ALL, 900, 1000) == Start(0)


def test_a_start_past_the_kept_history_is_refused() -> None:
    pruned = [mark(40, "fatigue spend", DAY + 60), mark(31, "fatigue spend", DAY + 30)]
    with pytest.raises(RulesError, match="its latest 10 changes"):
        chart_start(pruned, SINCE_LONG_REST, DAY + 60, 10)
    with pytest.raises(RulesError, match="start of the day"):
        chart_start(pruned, SINCE_DAY, DAY + 60, 10)
    kept = [*pruned, mark(30, "clock pass", DAY - 5)]
    assert chart_start(kept, SINCE_DAY, DAY + 60, 10) == Start(30, DAY)


def test_whom_a_rest_rested() -> None:
    assert rested_keys({"channel": {"clock": 0}, "characters": {"aria": {}}}) is None
    assert rested_keys({"characters": {"aria": {}}}) == frozenset({"aria"})


def test_what_cannot_be_charted() -> None:
    empty = party(0)
    with pytest.raises(RulesError, match="no characters"):
        fatigue_series(empty, [], Start(0), SINCE_ALL)
    nobody = party(2)
    nobody = dataclasses.replace(
        nobody,
        characters=tuple(dataclasses.replace(c, fl_override=None) for c in nobody.characters),
    )
    with pytest.raises(RulesError, match="Nobody here has a Fatigue Level"):
        fatigue_series(nobody, [], Start(0), SINCE_ALL)
    with pytest.raises(RulesError, match="no Fatigue Level"):
        fatigue_series(nobody, [], Start(0), SINCE_ALL, "Aria")


# --- this evening's play --------------------------------------------------------------------

TONIGHT = datetime(2026, 3, 6, 19, 0, tzinfo=UTC)


def timed(session: Session, *real_minutes: int) -> list[Event]:
    """The session's changes made at these minutes of real time from TONIGHT, newest first."""
    made = [
        dataclasses.replace(e, created_at=TONIGHT + timedelta(minutes=m))
        for e, m in zip(session.events, real_minutes, strict=True)
    ]
    return made[::-1]


def evening_chart(session: Session, *real_minutes: int) -> FatigueSeries:
    events = timed(session, *real_minutes)
    start = chart_start([Mark.of(e) for e in events], SINCE_EVENING, session.table.clock, 1000)
    return fatigue_series(session.table, events, start, SINCE_EVENING)


def test_the_evening_is_framed_on_its_play_not_on_the_midnight_before_it() -> None:
    """Last week's session is left out; the evening's first change moved the clock over
    eighteen hours (`/clock pass 1080`): the axis starts where the play does, at 18:00; a Long
    Rest inside the evening doesn't cut it."""
    session = Session(party(2, clock=0))
    s = session.play
    s("fatigue spend", lambda t: partyops.spend(t, "Aria", 9))  # last week
    s("clock pass", lambda t: partyops.pass_minutes(t, 1080))  # tonight: to Day 1, 18:00
    s("fatigue spend", lambda t: partyops.spend(t, "Aria", 5))
    s("rest long", lambda t: partyops.party_rest(t, "long"))
    s("fatigue spend", lambda t: partyops.spend(t, "Bórin", 3))
    series = evening_chart(session, -7 * 24 * 60, 0, 20, 90, 140)
    assert series.start == 18 * 3600 and series.end == session.table.clock
    assert series.changes == 4 and [r.kind for r in series.rests] == ["long"]
    aria = next(line for line in series.lines if line.name == "Aria")
    assert [step.fp for step in aria.steps][:2] == [9, 14]  # last week's 9, then tonight's
    assert "from Day 1, 18:00 to Day 2, 02:00" in fatigue_alt(series)


def test_a_clock_set_later_in_the_evening_starts_it_at_the_time_it_set() -> None:
    session = Session(party(2, clock=0))
    s = session.play
    s("fatigue spend", lambda t: partyops.spend(t, "Aria", 4))  # setting up
    s("clock set", lambda t: partyops.set_clock(t, 2, "18:00"))
    s("fatigue spend", lambda t: partyops.spend(t, "Aria", 5))
    s("clock pass", lambda t: partyops.pass_minutes(t, 170))
    series = evening_chart(session, 0, 15, 30, 40)
    assert series.start == DAY + 18 * 3600 and series.changes == 2
    assert "from Day 2, 18:00 to 20:50, this evening's play." in fatigue_alt(series)
    # Set in an earlier session, it marks nothing tonight: the evening's play does.
    week = Session(party(2, clock=0))
    week.play("clock set", lambda t: partyops.set_clock(t, 2, "18:00"))
    week.play("clock pass", lambda t: partyops.pass_minutes(t, 60))
    week.play("fatigue spend", lambda t: partyops.spend(t, "Aria", 5))
    tonight = evening_chart(week, -7 * 24 * 60, -7 * 24 * 60 + 5, 0)
    assert tonight.start == DAY + 19 * 3600 and tonight.changes == 1


def test_an_evening_of_clock_moves_alone_shows_its_last_moment() -> None:
    session = Session(party(1, clock=0))
    session.play("clock pass", lambda t: partyops.pass_minutes(t, 600))
    series = evening_chart(session, 0)
    assert series.start == series.end == 600 * 60


@st.composite
def logged_characters(draw: st.DrawFn) -> Character:
    """Characters of every kind of Fatigue Level: none, computed, overridden."""
    classes = tuple(
        draw(
            st.lists(
                st.tuples(st.sampled_from(HD_SIZES), st.integers(1, 20)), min_size=0, max_size=3
            )
        )
    )
    combine = "single" if len(classes) < 2 else draw(st.sampled_from(("multi", "dual")))
    override = draw(st.none() | st.fractions(min_value=Fraction(1, 2), max_value=60))
    temp = draw(st.integers(0, 30))
    try:
        return Character(
            "Aria",
            7,
            classes=classes,
            combine=combine,
            toughness=draw(st.integers(-3, 4)),
            base_hd=draw(st.none() | st.sampled_from(("4+1", "2", "8+3"))),
            kin_hd_size=draw(st.none() | st.sampled_from(HD_SIZES)),
            fl_override=override,
            fatigue=FatigueState(
                fp=draw(st.integers(0, 300)),
                temp=temp,
                temp_expires=100 if temp else None,
                vp_damage=draw(st.integers(0, 20)),
            ),
        )
    except RulesError:
        assume(False)
        raise


@settings(max_examples=300, deadline=None)
@given(character=logged_characters(), missing=st.sampled_from((None, "toughness", "vp_damage")))
def test_a_logged_character_is_drawn_as_the_whole_character_is(
    character: Character, missing: str | None
) -> None:
    """The chart reads a snapshot for what it draws alone: the same as the whole character it
    logged, one logged before a field existed included."""
    data = character_to_dict(character)
    if missing == "toughness":
        del data["toughness"]
    elif missing == "vp_damage":
        del data["fatigue"]["vp_damage"]
    whole = character_from_dict(data)
    assert _Drawn.logged(data) == _Drawn.of(whole)
    if missing is None:
        assert _Drawn.of(whole) == _Drawn.of(character)
