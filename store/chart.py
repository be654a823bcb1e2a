"""The reads behind `/party chart`: the channel's party and the part of its log the chart
covers (`table.fatigue_series` says what that is and builds the series).

Never more than the channel keeps (`history_keep`, the newest changes). First a light read of
the kept changes (ids, actions, clocks: only a Long Rest's snapshot), to find where the chart
begins; then the changes after that, whole, kept as read (`ChartRows`: their JSON undecoded).
Decoding the snapshots and building the series (`series_of`) never run on the event loop:
100,000 kept changes take a second or more. `/party chart` has the picture's worker process
build it (`pictures.painter.Recipe`), off the bot's interpreter lock.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from store.backend import Backend, Tx
from store.channel_read import load_channel
from store.events import EVENT_COLUMNS, event_from_row
from table.fatigue_series import (
    LONG_REST,
    FatigueSeries,
    Mark,
    Start,
    chart_start,
    fatigue_series,
    rested_keys,
)
from table.model import Table
from table.parts import PARTY

_MARKS = (
    "SELECT id, action, clock, seq, undone_by, undoes, created_at,"
    " CASE WHEN action = ? THEN before END AS rested"
    " FROM events WHERE channel_id = ? ORDER BY id DESC LIMIT ?"
)
_AFTER = (
    f"SELECT {', '.join(EVENT_COLUMNS)} FROM events"
    " WHERE channel_id = ? AND id > ? ORDER BY id DESC LIMIT ?"
)


def _mark(row: dict[str, Any]) -> Mark:
    rested = row["rested"]
    if isinstance(rested, str):
        rested = json.loads(rested)
    at = row["created_at"]  # SQLite keeps it as text, PostgreSQL as a time
    return Mark(
        id=row["id"],
        action=row["action"],
        clock=row["clock"],
        seq=row["seq"] or 0,
        standing=row["undone_by"] is None and row["undoes"] is None,
        rested=None if rested is None else rested_keys(rested),
        at=datetime.fromisoformat(at) if isinstance(at, str) else at,
    )


@dataclass(frozen=True)
class ChartRows:
    """What a fatigue chart is built from: the table now, and the changes after the chart's
    start as read (newest first; each row's values in `EVENT_COLUMNS` order, JSON undecoded)."""

    now: Table
    values: list[tuple[Any, ...]]
    start: Start
    since: str
    character: str | None


def series_of(rows: ChartRows) -> FatigueSeries:
    """The chart's series from its rows: pure, and picklable by name for a worker process."""
    events = [event_from_row(dict(zip(EVENT_COLUMNS, v, strict=True))) for v in rows.values]
    return fatigue_series(rows.now, events, rows.start, rows.since, rows.character)


async def chart_rows(
    backend: Backend, channel_id: int, guild_id: int | None, since: str, character: str | None
) -> ChartRows:
    """`Store.fatigue_chart_rows`."""

    async def marks(tx: Tx) -> tuple[Table, list[dict[str, Any]]]:
        table = (await load_channel(tx, channel_id, guild_id, PARTY)).table
        keep = table.settings.history_keep
        return table, await tx.fetchall(_MARKS, LONG_REST, channel_id, keep)

    table, rows = await backend.read(marks)
    keep = table.settings.history_keep
    key = None if character is None else table.get(character).key
    start = chart_start([_mark(row) for row in rows], since, table.clock, keep, key)

    async def changes(tx: Tx) -> tuple[Table, list[tuple[Any, ...]]]:
        # The table again, in the same snapshot as the changes it is walked back through.
        now = (await load_channel(tx, channel_id, guild_id, PARTY)).table
        return now, await tx.fetchvalues(_AFTER, channel_id, start.after_id, keep)

    now, values = await backend.read(changes)
    return ChartRows(now, values, start, since, character)
