"""`/clock set`: a day and a time of the game, read as GMs type them; the clock only moves
forward, by the step `/clock pass` takes."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.fatigue import FatigueState
from rules.gametime import DAY
from table import partyops
from table.model import Character, Table
from table.partyops import clock_target, parse_time_of_day, set_clock


@pytest.mark.parametrize(
    ("typed", "minutes"),
    [
        ("18:00", 18 * 60),
        ("6:30 pm", 18 * 60 + 30),
        ("6pm", 18 * 60),
        ("6 P.M.", 18 * 60),
        ("12 am", 0),
        ("12:15 pm", 12 * 60 + 15),
        ("18h", 18 * 60),
        ("18h30", 18 * 60 + 30),
        ("07.45", 7 * 60 + 45),
        (" 0:00 ", 0),
        ("23:59", 23 * 60 + 59),
    ],
)
def test_times_as_gms_type_them(typed: str, minutes: int) -> None:
    assert parse_time_of_day(typed) == minutes


@pytest.mark.parametrize("typed", ["24:00", "18:60", "13 pm", "0 am", "noon", "18:0", "6 p"])
def test_what_is_no_time_is_refused_with_the_way_to_write_one(typed: str) -> None:
    with pytest.raises(RulesError, match="`18:00`, `6:30 pm` or `6pm`"):
        parse_time_of_day(typed)


@given(st.integers(0, 23), st.integers(0, 59))
def test_every_time_of_day_reads_back_in_24_hours_and_12(hours: int, minutes: int) -> None:
    expected = 60 * hours + minutes
    assert parse_time_of_day(f"{hours:02}:{minutes:02}") == expected
    half = "pm" if hours >= 12 else "am"
    assert parse_time_of_day(f"{(hours - 1) % 12 + 1}:{minutes:02} {half}") == expected


def test_a_day_and_a_time_and_either_alone() -> None:
    table = Table(1, None, clock=DAY + 20 * 3600)  # Day 2, 20:00
    assert clock_target(table, 3, "18:00") == 2 * DAY + 18 * 3600
    assert clock_target(table, None, "22:00") == DAY + 22 * 3600  # later today
    assert clock_target(table, None, "6:00") == 2 * DAY + 6 * 3600  # earlier: tomorrow's
    assert clock_target(table, None, "20:00") == 2 * DAY + 20 * 3600  # now: tomorrow's
    assert clock_target(table, 4, None) == 3 * DAY + 20 * 3600  # the same time of day
    with pytest.raises(RulesError, match="Say when"):
        clock_target(table, None, None)


@given(st.integers(0, 10 * DAY), st.integers(1, 12), st.integers(0, 24 * 60 - 1))
def test_setting_the_clock_is_passing_the_time_up_to_it(clock: int, day: int, at: int) -> None:
    aria = Character(
        "Aria", 7, fl_override=Fraction(20), fatigue=FatigueState(fp=9, temp=4, temp_expires=0)
    )
    table = Table(1, None, clock=clock, characters=(aria,))
    text = f"{at // 60}:{at % 60:02}"
    target = (day - 1) * DAY + 60 * at
    if target <= clock:
        with pytest.raises(RulesError, match="only moves forward"):
            set_clock(table, day, text)
        return
    set_, report = set_clock(table, day, text)
    passed, _same = partyops.pass_seconds(table, target - clock)
    assert set_ == passed and set_.clock == target and report.seconds == target - clock
