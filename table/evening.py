"""When this evening's play began: the first change after the table was last quiet for
`QUIET` of real time, or the GM's latest `/clock set` when that came later.

A table that changed nothing for four hours has stopped for the night (a session, its breaks and
a meal included, runs three to five hours; the next one is a day or a week away), so the evening
is the latest run of changes with no such gap in it. It is real time, not game time: a Long
Rest the characters take inside the evening (eight hours of the game in one command) doesn't
cut it. A GM who sets the clock for the evening's scene marks its start: the evening begins
there if that came later, never earlier. Pure: the store hands over the times.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

QUIET = timedelta(hours=4)  # real time without a change that ends an evening


def evening_start(
    times: Iterable[datetime], *, quiet: timedelta = QUIET, clock_set: datetime | None = None
) -> datetime | None:
    """The start of the latest evening among `times` (when the channel's changes were made,
    in any order): the earliest of the newest run with no gap of `quiet` or more; the later of
    that and `clock_set` (the latest `/clock set`'s time) when one is given. With no times,
    `clock_set` (None when there is none either)."""
    start: datetime | None = None
    for moment in sorted(times, reverse=True):  # newest first
        if start is not None and start - moment >= quiet:
            break
        start = moment
    if start is None or clock_set is None:
        return start or clock_set
    return max(start, clock_set)
