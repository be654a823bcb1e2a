"""`table.evening`: when this evening's play began, from the real times of the changes."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from table.evening import QUIET, evening_start

NIGHT = datetime(2026, 3, 6, 19, 0, tzinfo=UTC)


def at(*minutes: int) -> list[datetime]:
    return [NIGHT + timedelta(minutes=m) for m in minutes]


def test_the_evening_begins_after_the_last_quiet_stretch() -> None:
    last_week = [NIGHT - timedelta(days=7, minutes=m) for m in range(0, 200, 10)]
    tonight = at(0, 5, 50, 170, 175, 230)  # a meal break of two hours in it
    assert evening_start([*last_week, *tonight]) == NIGHT
    assert evening_start(reversed([*last_week, *tonight])) == NIGHT  # any order
    assert evening_start(at(0, 239, 478)) == NIGHT  # each gap just under four hours
    assert evening_start(at(0, 240)) == NIGHT + QUIET  # four hours: the evening ended
    assert evening_start([]) is None


def test_a_clock_set_later_in_the_evening_marks_its_start_never_an_earlier_one() -> None:
    times = at(0, 10, 60, 90)
    assert evening_start(times, clock_set=NIGHT + timedelta(minutes=60)) == at(60)[0]
    assert evening_start(times, clock_set=NIGHT - timedelta(days=2)) == NIGHT
    assert evening_start([], clock_set=NIGHT) == NIGHT


@given(st.lists(st.integers(0, 10 * 24 * 60), min_size=1, max_size=40))
def test_no_gap_of_four_hours_inside_it_and_one_before_it(minutes: list[int]) -> None:
    times = at(*minutes)
    start = evening_start(times)
    assert start is not None and start in times
    inside = sorted(t for t in times if t >= start)
    assert all(b - a < QUIET for a, b in itertools.pairwise(inside))
    before = [t for t in times if t < start]
    assert not before or start - max(before) >= QUIET
