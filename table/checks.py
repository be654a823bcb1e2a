"""The checks the table's values make on their fields."""

from __future__ import annotations

import re

from lang import _
from rules.errors import RulesError
from rules.text import plain

# Text a user types never needs these, and each can make what is shown differ from what is
# stored: control characters (a bare CR starts a new line, and a new event in a web page's
# stream), line and paragraph separators, and the bidirectional overrides and isolates that
# make text read backwards ("Trojan Source").
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def control_character(text: str) -> str | None:
    """The first control character in `text` (Unicode's Cc, Zl, Zp, and the bidirectional
    controls), as `U+000D`; None if it has none."""
    found = _CONTROL.search(text)
    return None if found is None else f"U+{ord(found[0]):04X}"


def check_int(value: object, what: str, low: int, high: int | None = None) -> int:
    """`value` if a whole number in range, else a RulesError naming `what` (a marked message)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(_("{what} must be a whole number", what=_(what)))
    if high is None and value < low:
        raise RulesError(_("{what} must be {low} or more", what=_(what), low=plain(low)))
    if high is not None and not low <= value <= high:
        raise RulesError(
            _(
                "{what} must be between {low} and {high}",
                what=_(what),
                low=plain(low),
                high=plain(high),
            )
        )
    return value


def check_id(value: object, what: str) -> int:
    return check_int(value, what, 1, 2**63 - 1)  # a Discord snowflake fits SQLite's INTEGER
