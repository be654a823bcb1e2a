"""When this evening's play began, for `/party chart` and `/dice report` alike: the first change
or roll after the table was last quiet for `QUIET` of real time, or the GM's latest `/clock set`
when that came later (docs/rules.md, "The evening").

A session runs three to five hours with its breaks, a meal included; a table that made no change
and no roll for four hours has stopped for the night, while the next session is a day or a week
away. So the evening is the latest run of activity with no gap of four hours in it. It is real
time, not game time: a Long Rest the characters take inside it (eight hours of the game in one
command) doesn't cut it, and asked the next morning it is still last night's session. A GM who
sets the clock for the evening's scene marks its start: the evening begins there if that came
later, never earlier. Pure: the store hands over the times.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from itertools import pairwise

QUIET = timedelta(hours=4)  # real time without a change or a roll that ends an evening


def evening_start(
    times: Iterable[datetime], *, quiet: timedelta = QUIET, clock_set: datetime | None = None
) -> datetime | None:
    """The start of the latest evening among `times` (the real times of the channel's changes
    and rolls, in any order): the first of them after the last gap of at least `quiet`; the
    later of that and `clock_set` (the latest standing `/clock set`'s time) when one is given.
    With no times, `clock_set` (None when there is none either)."""
    newest_first = sorted(times, reverse=True)
    if not newest_first:
        return clock_set
    start = newest_first[0]
    for later, earlier in pairwise(newest_first):
        if later - earlier >= quiet:
            break
        start = earlier
    return start if clock_set is None else max(start, clock_set)
