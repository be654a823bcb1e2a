"""When this evening began (table.evening): the first change or roll after four hours of quiet,
never earlier than a GM's "clock set" moment."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from table.evening import QUIET, evening_start

NIGHT = datetime(2026, 3, 6, 19, 0, tzinfo=UTC)


def at(hours: float) -> datetime:
    return NIGHT + timedelta(hours=hours)


def test_the_evening_starts_after_the_last_quiet_spell() -> None:
    last_week = [at(-24 * 7), at(-24 * 7 + 1), at(-24 * 7 + 3.5)]
    tonight = [at(0), at(0.5), at(2), at(3.9), at(4.5)]  # a long dinner, no four hours
    times = last_week + tonight
    random.Random(3).shuffle(times)
    assert evening_start(times) == at(0)


def test_a_long_rest_in_game_time_does_not_cut_it() -> None:
    """Only real time counts: the log's times are when things were done at the table."""
    assert evening_start([at(0), at(1), at(3.99), at(7.98)]) == at(0)


def test_asked_the_next_morning_it_is_last_nights_session() -> None:
    assert evening_start([at(0), at(3)]) == at(0)  # whatever the time now


def test_four_hours_of_quiet_exactly_starts_a_new_evening() -> None:
    assert evening_start([at(0), at(0) + QUIET]) == at(0) + QUIET
    assert evening_start([at(0), at(0) + QUIET - timedelta(seconds=1)]) == at(0)


def test_a_clock_set_moment_moves_it_later_never_earlier() -> None:
    times = [at(0), at(1), at(2)]
    assert evening_start(times, clock_set=at(1.5)) == at(1.5)
    assert evening_start(times, clock_set=at(-30)) == at(0)
    assert evening_start([], clock_set=at(1)) == at(1)
    assert evening_start([]) is None


def test_another_quiet_spell_can_be_chosen() -> None:
    times = [at(0), at(1.5), at(2)]
    assert evening_start(times, quiet=timedelta(hours=1)) == at(1.5)


@given(st.lists(st.integers(0, 10_000), min_size=1, max_size=50))
def test_no_gap_inside_and_a_gap_before(minutes: list[int]) -> None:
    times = [NIGHT + timedelta(minutes=m * 3) for m in minutes]
    start = evening_start(times)
    assert start is not None and start in times
    inside = sorted(t for t in times if t >= start)
    assert all(b - a < QUIET for a, b in pairwise(inside))
    before = [t for t in times if t < start]
    assert not before or start - max(before) >= QUIET
