"""The reads behind `/party chart`: a light read of the kept changes (only a Long Rest's snapshot)
finds where the chart begins (`table.fatigue_series`), then the changes after it are read as rows.
Decoding them into the series (`series_of`) takes a second for 100,000 changes, so it runs in the
picture's worker process, never on the event loop.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from store.backend import Backend, Tx, moment
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
    return Mark(
        id=row["id"],
        action=row["action"],
        clock=row["clock"],
        seq=row["seq"] or 0,
        standing=row["undone_by"] is None and row["undoes"] is None,
        rested=None if rested is None else rested_keys(rested),
        at=moment(row["created_at"]),
    )


@dataclass(frozen=True)
class ChartRows:
    """The table now, and the changes after the chart's start as read (`EVENT_COLUMNS`)."""

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
    """`Store.fatigue_chart_rows`, on one snapshot."""

    async def body(tx: Tx) -> ChartRows:
        table = (await load_channel(tx, channel_id, guild_id, PARTY)).table
        keep = table.settings.history_keep
        marks = [_mark(row) for row in await tx.fetchall(_MARKS, LONG_REST, channel_id, keep)]
        key = None if character is None else table.get(character).key
        start = chart_start(marks, since, table.clock, keep, key)
        values = await tx.fetchvalues(_AFTER, channel_id, start.after_id, keep)
        return ChartRows(table, values, start, since, character)

    return await backend.read(body)
