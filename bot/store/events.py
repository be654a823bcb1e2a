"""One logged change to a channel, as `/history` shows it and `/undo` reverts it."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class Event:
    """One change to a channel, newest first from `Store.history`."""

    id: int
    actor_id: int
    action: str
    created_at: datetime  # wall time, UTC
    before: dict[str, Any]  # codec.Snapshot: what changed, as it was
    after: dict[str, Any]  # ... and as it became; codec.restore(table, before) undoes it
    channel_id: int = 0
    clock: int = 0  # the game clock after the change
    undone_by: int | None = None  # the id of the undo event that reverted this one
    undoes: int | None = None  # on an undo event: the id of the event it reverted
    seq: int = 0  # its number among the channel's events (1, 2, …): how retention counts


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
