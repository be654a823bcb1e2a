"""The event log: each change logged as one event (what changed, who changed it, through which
interaction), numbered within its channel (`seq`), so "among the last N kept?" is a comparison,
not a count. What it touched goes in `event_keys` (written by the database from the event's
snapshots, migration V23), so `/undo` finds a later change to the same character by an index
lookup. Every PRUNE_EVERY-th event trims what lies past `history_keep`.
Read back as `table.event.Event`s: a channel's whole log, and /history's pages.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from store.backend import Tx, moment
from store.errors import StoreError
from table.event import Event
from table.model import Table
from table.snapshot import Snapshot
from table.undo import REDO_ACTION

PRUNE_EVERY = 50  # a channel's events between two prunings


@dataclass(frozen=True)
class Request:
    """A change as asked, what its event records: the channel, its server, who asks, through
    which interaction (if any), and the time it is logged at (read as its transaction begins)."""

    channel_id: int
    guild_id: int | None
    actor_id: int
    interaction_id: int | None
    now: datetime


def still_kept(event: Event, newest: int, keep: int) -> bool:
    """Is `event` among the channel's last `keep` changes, `newest` being the latest's seq?"""
    return event.seq > newest - keep


async def newest(tx: Tx, channel_id: int) -> tuple[int | None, int]:
    """The id and number of the channel's latest event (None and 0 when it has none)."""
    row = await tx.fetchone(
        "SELECT id, seq FROM events WHERE channel_id = ? ORDER BY id DESC LIMIT 1", channel_id
    )
    return (None, 0) if row is None else (int(row["id"]), int(row["seq"] or 0))


_LOG = (
    "INSERT INTO events"
    " (channel_id, actor_id, action, created_at, clock, before, after, interaction_id, seq)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, COALESCE("
    "  (SELECT seq FROM events WHERE channel_id = ? ORDER BY id DESC LIMIT 1), 0) + 1)"
)


class HeldWrites:
    """Row writes held back (PostgreSQL) to go out as data-modifying WITHs of the event's own
    statement: one round trip, foreign keys checked at its end. Each writes its own row."""

    def __init__(self) -> None:
        self.writes: list[tuple[str, tuple[Any, ...]]] = []

    async def execute(self, sql: str, *args: Any) -> None:
        self.writes.append((sql, args))


async def log_change(
    tx: Tx,
    request: Request,
    after: Table,
    action: str,
    old: Snapshot,
    new: Snapshot,
    *,
    held: HeldWrites | None = None,
) -> Event:
    """Log one change (the database writes its keys: migration V23); with `held`
    (PostgreSQL), the change's row writes too, all in one statement."""
    channel_id, actor_id, now = after.channel_id, request.actor_id, request.now
    values = (
        channel_id,
        actor_id,
        action,
        now,
        after.clock,
        json.dumps(old, ensure_ascii=False, sort_keys=True),
        json.dumps(new, ensure_ascii=False, sort_keys=True),
        request.interaction_id,
        channel_id,
    )
    if held is not None and held.writes:
        ahead = ", ".join(f"w{n} AS ({sql})" for n, (sql, _args) in enumerate(held.writes))
        first = [arg for _sql, args in held.writes for arg in args]  # in the order they appear
        row = await tx.fetchone(f"WITH {ahead} {_LOG} RETURNING id, seq", *first, *values)
    else:
        row = await tx.fetchone(_LOG + " RETURNING id, seq", *values)
    assert row is not None  # RETURNING gives the one row inserted
    event_id, seq = int(row["id"]), int(row["seq"])
    if seq % PRUNE_EVERY == 0:
        await prune(tx, channel_id, seq - after.settings.history_keep)
    return Event(event_id, actor_id, action, now, old, new, channel_id, after.clock, seq=seq)


async def mark_undo(tx: Tx, undo_id: int, target_id: int) -> None:
    """Link an undo and the change it took back, both ways."""
    await tx.execute("UPDATE events SET undoes = ? WHERE id = ?", target_id, undo_id)
    await mark_undone(tx, target_id, undo_id)


async def mark_undone(tx: Tx, event_id: int, by_id: int) -> None:
    """`event_id` was taken back by `by_id`: an undo of a change, or a redo of an undo."""
    await tx.execute("UPDATE events SET undone_by = ? WHERE id = ?", by_id, event_id)


async def prune(tx: Tx, channel_id: int, edge: int) -> None:
    """Delete the channel's events numbered `edge` or below, but those a kept undo points at."""
    if edge < 1:
        return
    await tx.execute(
        "DELETE FROM event_keys WHERE channel_id = ? AND event_id IN"
        " (SELECT id FROM events WHERE channel_id = ? AND seq <= ?)",
        channel_id,
        channel_id,
        edge,
    )
    await tx.execute(
        "DELETE FROM events WHERE channel_id = ? AND seq <= ? AND id NOT IN"
        " (SELECT undoes FROM events WHERE channel_id = ? AND seq > ? AND undoes IS NOT NULL)",
        channel_id,
        edge,
        channel_id,
        edge,
    )


# --- reading it back ---------------------------------------------------------------------

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
    where = "channel_id = ?"
    where += " AND id < ?" if before_id is not None else ""
    where += " AND id > ?" if after_id is not None else ""
    args = [arg for arg in (channel_id, before_id, after_id) if arg is not None]
    # Counting up from after_id picks the changes nearest it.
    order = "DESC" if after_id is None else "ASC"
    sql = f"SELECT {', '.join(_SELECTED)} FROM events WHERE {where} ORDER BY id {order} LIMIT ?"
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
