"""The database writes each change's keys (`event_keys`, migration V23) from the event's own
snapshots, on a SQLite file and on PostgreSQL: exactly the (part, key) pairs `/undo` and `/redo`
look later changes up by (`table.snapshot.touched_keys`), whatever the snapshots hold."""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from store import Store
from store.backend import Tx
from table.snapshot import touched_keys
from tests.store.conftest import Database

GM = 11
CHANNELS = itertools.count(4101)  # each example a channel of its own, in the one database

# Any text a name's key may be (names never hold control characters: refused as typed).
KEYS = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12)
RECORD = st.one_of(st.none(), st.fixed_dictionaries({"hp": st.integers(0, 9)}))
SNAPSHOT = st.fixed_dictionaries(
    {"characters": st.dictionaries(KEYS, RECORD, max_size=4)},
    optional={
        "monsters": st.dictionaries(KEYS, RECORD, max_size=3),
        "initiative": st.fixed_dictionaries({"order": st.one_of(st.none(), st.just({"turn": 1}))}),
        "channel": st.just({"clock": 5}),  # parts no lookup is by
        "server": st.just({"settings": {}}),
        "web": st.just({"link": None}),
    },
)


async def _logged_keys(url: str, channel: int, before: Any, after: Any) -> list[tuple[str, str]]:
    async with Store.open(url) as store:

        async def log(tx: Tx) -> list[tuple[str, str]]:
            await tx.execute("INSERT INTO channels (channel_id) VALUES (?)", channel)
            row = await tx.fetchone(
                "INSERT INTO events (channel_id, actor_id, action, created_at, clock, before,"
                " after, seq) VALUES (?, ?, 'fatigue spend', CURRENT_TIMESTAMP, 0, ?, ?, 1)"
                " RETURNING id",
                channel,
                GM,
                json.dumps(before),
                json.dumps(after),
            )
            assert row is not None
            rows = await tx.fetchall(
                "SELECT part, key FROM event_keys WHERE channel_id = ? AND event_id = ?",
                channel,
                row["id"],
            )
            return sorted((r["part"], r["key"]) for r in rows)

        return await store.backend.write(channel, log)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(before=SNAPSHOT, after=SNAPSHOT)
def test_a_changes_keys_are_what_its_snapshots_touched(
    db: Database, before: Any, after: Any
) -> None:
    keys = asyncio.run(_logged_keys(db.url, next(CHANNELS), before, after))
    assert keys == touched_keys(before, after)
