"""Game-clock ticks for a chart's x axis: a few round times (every 10 minutes, every hour, …)
across the span, each labelled with its time, and with its day where the day changes."""

from __future__ import annotations

from lang import _
from rules.gametime import DAY

# Tick steps in game seconds, finest first: one is picked so that the axis has few labels.
STEPS = (60, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, DAY, 2 * DAY, 7 * DAY)
MOST_TICKS = 6


def step_for(span: int) -> int:
    for step in STEPS:
        if span / step <= MOST_TICKS:
            return step
    return -(-span // MOST_TICKS // DAY) * DAY  # whole days, however many it takes


def ticks(start: int, end: int) -> list[int]:
    """Round game times from `start` to `end` (at least one)."""
    step = step_for(max(end - start, 1))
    first = -(-start // step) * step
    return list(range(first, end + 1, step)) or [start]


def labels(times: list[int]) -> list[str]:
    """`08:00` under each tick; `Day 2` above the time where a day begins or is first shown."""
    out: list[str] = []
    day = None
    for seconds in times:
        today, rest = divmod(seconds, DAY)
        hours, minutes = rest // 3600, rest % 3600 // 60
        time = f"{hours:02}:{minutes:02}"
        out.append(time if today == day else _("Day {day}", day=today + 1) + "\n" + time)
        day = today
    return out
