"""Events rows as `table.event.Event`s (SQLite keeps times and JSON as text, PostgreSQL not)."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from table.event import Event


def event_from_row(row: Mapping[str, Any]) -> Event:
    """An `events` row as an Event (SQLite keeps times and JSON as text, PostgreSQL not)."""
    created_at = row["created_at"]
    if isinstance(created_at, str):
        created_at = datetime.fromisoformat(created_at)
    return Event(
        id=row["id"],
        actor_id=row["actor_id"],
        action=row["action"],
        created_at=created_at,
        before=json.loads(row["before"]),
        after=json.loads(row["after"]),
        channel_id=row["channel_id"],
        clock=row["clock"],
        undone_by=row["undone_by"],
        undoes=row["undoes"],
        seq=row.get("seq") or 0,
    )


# An events row's columns in the order `event_from_values` takes them.
EVENT_COLUMNS = (
    "id",
    "actor_id",
    "action",
    "created_at",
    "before",
    "after",
    "channel_id",
    "clock",
    "undone_by",
    "undoes",
    "seq",
)


def event_from_values(values: tuple[Any, ...]) -> Event:
    """A row of `EVENT_COLUMNS` as an Event, decoded once per stored version of the row (a page
    of history is read again after every change to the channel, its older lines unchanged).
    Events are shared, so never changed by their readers."""
    try:
        return _cached_event(values)
    except TypeError:  # a value that can't be a key (JSON a driver decoded already)
        return event_from_row(dict(zip(EVENT_COLUMNS, values, strict=True)))


@functools.lru_cache(maxsize=1024)  # about a hundred pages of ten
def _cached_event(values: tuple[Any, ...]) -> Event:
    return event_from_row(dict(zip(EVENT_COLUMNS, values, strict=True)))
