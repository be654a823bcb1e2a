"""The event log: each change logged as one event (what changed, who changed it, through which
interaction), numbered within its channel (`seq`), so "among the last N kept?" is a comparison,
not a count. What it touched goes in `event_keys`, so `/undo` finds a later change to the same
character by an index lookup. Every PRUNE_EVERY-th event trims what lies past `history_keep`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from store.backend import Tx, batches
from table.event import Event
from table.model import Table
from table.snapshot import INITIATIVE, Snapshot

PRUNE_EVERY = 50  # a channel's events between two prunings
# What event_keys records: characters and monsters by name key, the turn order as one item.
KEYED_PARTS = ("characters", "monsters", INITIATIVE)


def still_kept(event: Event, newest: int, keep: int) -> bool:
    """Is `event` among the channel's last `keep` changes, `newest` being the latest's seq?"""
    return event.seq > newest - keep


def touched_keys(*snapshots: Snapshot) -> list[tuple[str, str]]:
    """(part, key) of every character and monster in the snapshots, sorted, each once."""
    return sorted(
        {(part, key) for side in snapshots for part in KEYED_PARTS for key in side.get(part, {})}
    )


async def newest_seq(tx: Tx, channel_id: int) -> int:
    """The number of the channel's latest event (0 when it has none)."""
    row = await tx.fetchone(
        "SELECT seq FROM events WHERE channel_id = ? ORDER BY id DESC LIMIT 1", channel_id
    )
    return int(row["seq"] or 0) if row is not None else 0


_LOG = (
    "INSERT INTO events"
    " (channel_id, actor_id, action, created_at, clock, before, after, interaction_id, seq)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, COALESCE("
    "  (SELECT seq FROM events WHERE channel_id = ? ORDER BY id DESC LIMIT 1), 0) + 1)"
)
# PostgreSQL: the event and its keys in one statement (the keys as two parallel arrays, so the
# statement is the same, and prepared once, whatever their number).
_LOG_WITH_KEYS = (
    f"WITH e AS ({_LOG} RETURNING id, seq, channel_id),"
    " k AS (INSERT INTO event_keys (channel_id, part, key, event_id)"
    " SELECT e.channel_id, u.part, u.key, e.id FROM e, unnest(CAST(? AS TEXT[]), CAST(? AS TEXT[]))"
    " AS u (part, key))"
    " SELECT id, seq FROM e"
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
    after: Table,
    actor_id: int,
    action: str,
    now: datetime,
    old: Snapshot,
    new: Snapshot,
    interaction_id: int | None = None,
    *,
    held: HeldWrites | None = None,
) -> Event:
    """Log one change and its keys; with `held` (PostgreSQL), the change's row writes too, all in
    one statement."""
    channel_id = after.channel_id
    keys = touched_keys(old, new)
    values = (
        channel_id,
        actor_id,
        action,
        now,
        after.clock,
        json.dumps(old, ensure_ascii=False, sort_keys=True),
        json.dumps(new, ensure_ascii=False, sort_keys=True),
        interaction_id,
        channel_id,
    )
    if held is not None:
        parts, names = [part for part, _key in keys], [key for _part, key in keys]
        ahead = "".join(f"w{n} AS ({sql}), " for n, (sql, _args) in enumerate(held.writes))
        first = [arg for _sql, args in held.writes for arg in args]  # in the order they appear
        sql = _LOG_WITH_KEYS.replace("WITH ", f"WITH {ahead}", 1)
        row = await tx.fetchone(sql, *first, *values, parts, names)
        keys = []  # written
    else:
        row = await tx.fetchone(_LOG + " RETURNING id, seq", *values)
    assert row is not None  # RETURNING gives the one row inserted
    event_id, seq = int(row["id"]), int(row["seq"])
    await insert_keys(tx, [(channel_id, part, key, event_id) for part, key in keys])
    if seq % PRUNE_EVERY == 0:
        await prune(tx, channel_id, seq - after.settings.history_keep)
    return Event(event_id, actor_id, action, now, old, new, channel_id, after.clock, seq=seq)


async def insert_keys(tx: Tx, rows: Sequence[tuple[int, str, str, int]]) -> None:
    """`event_keys` rows: (channel id, part, key, event id)."""
    for batch in batches(rows, 1000):  # 4,000 parameters, within both databases' bound
        marks = ", ".join(["(?, ?, ?, ?)"] * len(batch))
        values = (value for row in batch for value in row)
        await tx.execute(
            f"INSERT INTO event_keys (channel_id, part, key, event_id) VALUES {marks}", *values
        )


async def mark_undo(tx: Tx, undo_id: int, target_id: int) -> None:
    """Link an undo and the change it took back, both ways."""
    await tx.execute("UPDATE events SET undoes = ? WHERE id = ?", target_id, undo_id)
    await tx.execute("UPDATE events SET undone_by = ? WHERE id = ?", undo_id, target_id)


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
