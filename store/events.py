"""Reading the event log back: `events` rows as `table.event.Event`s, and /history's pages."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from store.backend import Tx, moment
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
# What an undo took back, or a redo put back: the action at the end of its chain of undo links
# (an undo of a redo took back what that redo's undo took back, ...), through the links'
# indexes; none for other changes, or where retention broke the chain.
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
    """`Store.history`'s page, unsorted (after `after_id`: nearest it first)."""
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


# The channel's events from the oldest known on, newest first: in full those newer than the
# newest known, only their undo links for the rest (all an event changes after it is logged).
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
    """`Store.newest` in one statement; None when `known` no longer holds (an event gone, or
    one come among them): the page is then read whole."""
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
    """An `events` row as an Event."""
    return Event(
        id=row["id"],
        actor_id=row["actor_id"],
        action=row["action"],
        created_at=moment(row["created_at"]),
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
    """A row of `EVENT_COLUMNS` and `undid` as an Event, shared (never changed by readers)."""
    try:
        return _decoded_event(values)
    except TypeError:  # a value that can't be a key (JSON a driver decoded already)
        return event_from_row(dict(zip(_READ, values, strict=True)))


EVENTS_DECODED_MAX = 1024  # a hundred pages of ten


@functools.lru_cache(maxsize=EVENTS_DECODED_MAX)
def _decoded_event(values: tuple[Any, ...]) -> Event:
    """Decoded once per stored version, at most 1,024 kept: a page of history is read again
    after every change, its older lines unchanged, and decoding is most of reading it."""
    return event_from_row(dict(zip(_READ, values, strict=True)))
