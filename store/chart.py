"""The reads behind `/party chart`: the channel's party and the part of its log the chart
covers (`table.fatigue_series` says what that is and builds the series).

Never more than the channel keeps (`history_keep`, the newest changes). First a light read of
the kept changes (ids, actions, clocks: only a Long Rest's snapshot), to find where the chart
begins; then the changes after that, whole. Decoding the snapshots and building the series
run in a worker thread, never on the event loop: 100,000 kept changes take a second or more.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from store.backend import Tx
from store.events import EVENT_COLUMNS, event_from_row
from store.store import CHARACTERS, Store
from table.fatigue_series import (
    LONG_REST,
    FatigueSeries,
    Mark,
    chart_start,
    fatigue_series,
    rested_keys,
)
from table.model import Table

_MARKS = (
    "SELECT id, action, clock, seq, undone_by, undoes,"
    " CASE WHEN action = ? THEN before END AS rested"
    " FROM events WHERE channel_id = ? ORDER BY id DESC LIMIT ?"
)
_AFTER = (
    f"SELECT {', '.join(EVENT_COLUMNS)} FROM events"
    " WHERE channel_id = ? AND id > ? ORDER BY id DESC LIMIT ?"
)
PARTY = frozenset({CHARACTERS})


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
    )


async def fatigue_chart(
    store: Store, channel_id: int, guild_id: int | None, since: str, character: str | None
) -> FatigueSeries:
    """The series of the channel's fatigue chart (RulesError for a chart that can't be drawn:
    no characters, no Fatigue Level, a start the kept history no longer reaches)."""

    async def marks(tx: Tx) -> tuple[Table, list[dict[str, Any]]]:
        table, _, _ = await store._load(tx, channel_id, guild_id, PARTY)
        keep = table.settings.history_keep
        return table, await tx.fetchall(_MARKS, LONG_REST, channel_id, keep)

    table, rows = await store._backend.read(marks)
    keep = table.settings.history_keep
    key = None if character is None else table.get(character).key
    start = chart_start([_mark(row) for row in rows], since, table.clock, keep, key)

    async def changes(tx: Tx) -> tuple[Table, list[tuple[Any, ...]]]:
        # The table again, in the same snapshot as the changes it is walked back through.
        now, _, _ = await store._load(tx, channel_id, guild_id, PARTY)
        return now, await tx.fetchvalues(_AFTER, channel_id, start.after_id, keep)

    now, values = await store._backend.read(changes)

    def build() -> FatigueSeries:
        events = [event_from_row(dict(zip(EVENT_COLUMNS, v, strict=True))) for v in values]
        return fatigue_series(now, events, start, since, character)

    return await asyncio.to_thread(build)
