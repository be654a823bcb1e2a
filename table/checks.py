"""The checks the table's values make on their fields, and how a checked value changes without
being checked again."""

from __future__ import annotations

from typing import Any, TypeVar

from lang import _
from rules.errors import RulesError
from rules.text import plain

_Frozen = TypeVar("_Frozen")


def evolved(value: _Frozen, **changes: Any) -> _Frozen:
    """A frozen value with `changes` set as they are, without `__post_init__`: only for
    changes that keep every invariant it checks, each value checked already on its own."""
    new = object.__new__(type(value))  # copy.copy's own way, without its generic dispatch
    new.__dict__.update(value.__dict__, **changes)
    return new


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
