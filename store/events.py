"""Reading the event log: `events` rows as `table.event.Event`s (SQLite stores times and JSON as
text, PostgreSQL not), and the pages of history /history shows."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from store.backend import Tx
from store.errors import StoreError
from table.event import Event
from table.undo import REDO_ACTION

HISTORY_MAX = 100
HISTORY_PAGE = 11  # what /history reads at a time: ten lines, and one to know if more are older

# An events row's columns, in the order `event_from_values` takes them (then `undid`).
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
# What an undo took back, and what a redo put back again: the action of the change at the end
# of its chain of undo links (an undo of a redo took back what the redo put back, which is what
# that redo's undo took back, ...), read through the links' indexes (`events_undoes`,
# `events_undone_by`); none for any other change, or where retention broke the chain. Fixed
# once the undo or redo is logged. An expression over a row of `events` (not renamed).
UNDID = (
    f"CASE WHEN undoes IS NOT NULL OR action = '{REDO_ACTION}' THEN ("
    "WITH RECURSIVE chain(id, action, n) AS ("
    " SELECT t.id, t.action, 0 FROM events t"
    " WHERE t.id = COALESCE(events.undoes, events.id)"
    " UNION ALL SELECT t.id, t.action, chain.n + 1 FROM chain"
    " JOIN events u ON u.undone_by = chain.id JOIN events t ON t.id = u.undoes"
    f" WHERE chain.action = '{REDO_ACTION}')"
    f" SELECT action FROM chain WHERE action <> '{REDO_ACTION}' ORDER BY n DESC LIMIT 1) END"
)
# What a page of history reads of each event: its columns and `undid`, in this order.
_READ = (*EVENT_COLUMNS, "undid")
_SELECTED = (*EVENT_COLUMNS, UNDID)


def _check(limit: int) -> None:
    if not 1 <= limit <= HISTORY_MAX:
        raise StoreError(f"History limit must be between 1 and {HISTORY_MAX}")


async def read_page(
    tx: Tx, channel_id: int, limit: int, before_id: int | None, after_id: int | None
) -> tuple[Event, ...]:
    """`limit` of the channel's events: the newest, or those right before `before_id`, or
    right after `after_id` (nearest it first), in the order read (`Store.history` sorts)."""
    _check(limit)
    where, args = ["channel_id = ?"], [channel_id]
    if before_id is not None:
        where.append("id < ?")
        args.append(before_id)
    if after_id is not None:
        where.append("id > ?")
        args.append(after_id)
    # Counting up from after_id picks the changes nearest it.
    order = "DESC" if after_id is None else "ASC"
    sql = (
        f"SELECT {', '.join(_SELECTED)} FROM events WHERE {' AND '.join(where)}"
        f" ORDER BY id {order} LIMIT ?"
    )
    return tuple(map(event_from_values, await tx.fetchvalues(sql, *args, limit)))


# The channel's newest events from one known onward, newest first: in full those newer than
# the newest known (the first parameter), only their ids and undo links for the rest (an event
# never changes after it is logged but for those links: `read_newest`).
_LINKS = ("id", "undone_by", "undoes")
_LINKS_AT = tuple(_READ.index(c) for c in _LINKS)
_NEWEST_SINCE = (
    "SELECT "
    + ", ".join(c if c in _LINKS else f"CASE WHEN id > k.newest THEN {c} END" for c in _SELECTED)
    + " FROM events, (SELECT CAST(? AS BIGINT) AS newest) AS k"
    " WHERE channel_id = ? AND id >= ? ORDER BY id DESC LIMIT ?"
)


async def read_newest(
    tx: Tx, channel_id: int, limit: int, known: Sequence[Event]
) -> tuple[Event, ...] | None:
    """The channel's newest `limit` events, newest first, as `read_page` reads them; `known`, an
    earlier answer (newest first), is used again where it still holds: then only the events
    logged since are read in full, and of the known only their undo links (which an undo or a redo
    sets on older events). Known events gone (an undone import takes its history away), or
    changed, or one come among them: None, and the page is to be read whole (one statement
    here: `Store.newest` reads it without a transaction)."""
    _check(limit)
    if not known:
        return None
    newest = known[0].id
    rows = await tx.fetchvalues(_NEWEST_SINCE, newest, channel_id, known[-1].id, limit)
    fresh = [event_from_values(row) for row in rows if row[0] > newest]
    older = known[: limit - len(fresh)]
    links = [tuple(row[i] for i in _LINKS_AT) for row in rows if row[0] <= newest]
    if links != [(e.id, e.undone_by, e.undoes) for e in older]:
        return None
    return (*fresh, *older)


async def read_log(tx: Tx, channel_id: int) -> list[Event]:
    """The channel's whole log, oldest first."""
    rows = await tx.fetchall("SELECT * FROM events WHERE channel_id = ? ORDER BY id", channel_id)
    return [event_from_row(row) for row in rows]


def event_from_row(row: Mapping[str, Any]) -> Event:
    """An `events` row as an Event (SQLite stores times and JSON as text, PostgreSQL not)."""
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
        undid=row.get("undid"),
    )


def event_from_values(values: tuple[Any, ...]) -> Event:
    """A row of `EVENT_COLUMNS` and `undid` as an Event, decoded once per stored version of the row
    (`_decoded_event`). Events are shared, so never changed by their readers."""
    try:
        return _decoded_event(values)
    except TypeError:  # a value that can't be a key (JSON a driver decoded already)
        return event_from_row(dict(zip(_READ, values, strict=True)))


EVENTS_DECODED_MAX = 1024  # a hundred pages of ten


@functools.lru_cache(maxsize=EVENTS_DECODED_MAX)
def _decoded_event(values: tuple[Any, ...]) -> Event:
    """An event's row decoded, once per stored version: at most 1,024 events
    (EVENTS_DECODED_MAX; the least recently read forgotten first), about 6 KB each for a change
    to one character. A page of history is read again after every change to its channel, its
    older lines unchanged, and decoding is most of reading it (docs/benchmarks.md, "Decoded
    once")."""
    return event_from_row(dict(zip(_READ, values, strict=True)))
