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


def round_number(seconds: int, round_seconds: int, since: int = 0, first: int = 0) -> int:
    """The round the clock is in, counted from 1: `first` rounds had gone by at game time `since`
    (when the round length last changed), and rounds of `round_seconds` run on from there. So a
    new length keeps the round number the clock is in and changes only later rounds."""
    return max(1, first + (seconds - since) // round_seconds + 1)
