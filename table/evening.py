"""When "this evening" began: the first change or roll after the table was last quiet for
`QUIET` of real time (docs/rules.md#15-the-dices-own-report).

A session runs three to five hours with its breaks, a meal included; a table that made no change
and no roll for four hours has stopped for the night, while the next session is a day or a week
away. So the evening is the latest run of activity with no gap of four hours in it: a Long Rest
the characters take inside it doesn't cut it (game time is not real time), and asked the next
morning it is still last night's session. A GM who marks the start (a "clock set" moment) moves
it later, never earlier.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from itertools import pairwise

QUIET = timedelta(hours=4)


def evening_start(
    times: Iterable[datetime], *, quiet: timedelta = QUIET, clock_set: datetime | None = None
) -> datetime | None:
    """The start of the latest evening among `times` (the real times of the channel's changes
    and rolls, in any order): the first of them after the last gap of at least `quiet`; the
    later of that and `clock_set` when one is given. With no times, `clock_set` (None if none)."""
    newest_first = sorted(times, reverse=True)
    if not newest_first:
        return clock_set
    start = newest_first[0]
    for later, earlier in pairwise(newest_first):
        if later - earlier >= quiet:
            break
        start = earlier
    return start if clock_set is None else max(start, clock_set)
