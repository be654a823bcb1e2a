"""Game time, not wall time: the channel clock counts game seconds from Day 1, 00:00."""

from lang import _

DAY = 24 * 60 * 60


def game_time(seconds: int) -> str:
    """Game seconds as `Day 1, 08:15`; `:SS` only when a round length leaves seconds over."""
    day, rest = divmod(seconds, DAY)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if secs:
        return _(
            "Day {day}, {hours:02}:{minutes:02}:{seconds:02}",
            day=day + 1,
            hours=hours,
            minutes=minutes,
            seconds=secs,
        )
    return _("Day {day}, {hours:02}:{minutes:02}", day=day + 1, hours=hours, minutes=minutes)


def time_of_day(seconds: int) -> str:
    """Game seconds as the time of day alone, `08:15` (`:SS` as in `game_time`)."""
    hours, rest = divmod(seconds % DAY, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours:02}:{minutes:02}:{secs:02}" if secs else f"{hours:02}:{minutes:02}"


def span_text(start: int, end: int) -> str:
    """`from Day 2, 18:00 to 20:50`; the day said again only when it changed
    (`from Day 2, 18:00 to Day 3, 01:10`)."""
    if start // DAY == end // DAY:
        return _("from {start} to {end}", start=game_time(start), end=time_of_day(end))
    return _("from {start} to {end}", start=game_time(start), end=game_time(end))


def round_number(seconds: int, round_seconds: int, since: int = 0, first: int = 0) -> int:
    """The round the clock is in, counted from 1: `first` rounds had gone by at game time `since`
    (when the round length last changed), and rounds of `round_seconds` run on from there. So a
    new length keeps the round number the clock is in and changes only later rounds."""
    return max(1, first + (seconds - since) // round_seconds + 1)
