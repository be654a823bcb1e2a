"""An event's undo links (`undoes`, `undone_by`) are foreign keys to other events: deleting an
event (retention's pruning, a channel removed) makes the database look for events pointing at
it. Indexed, that is a lookup; unindexed, it read every event of every channel for each event
deleted, so pruning one busy channel's log grew with all the others' history."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import aiosqlite

from store import Store
from store.event_log import prune
from store.sqlite import SqliteTx
from tests.store.conftest import Database
from tests.store.test_store_retention import CH, GM, KEEP, OTHER, seed, spend


async def test_undo_links_are_looked_up_through_an_index(db: Database) -> None:
    async with Store.open(db.url):
        pass
    for column in ("undoes", "undone_by"):
        if db.path is not None:
            with sqlite3.connect(db.path) as conn:
                rows = conn.execute(
                    f"EXPLAIN QUERY PLAN SELECT id FROM events WHERE {column} = ?", (1,)
                ).fetchall()
            plan = str(rows)
            assert f"INDEX events_{column} ({column}=?)" in plan, plan
        else:
            import asyncpg

            conn = await asyncpg.connect(db.url)
            try:
                await conn.execute("SET enable_seqscan = off")  # the tables here are tiny
                found = await conn.fetch(f"EXPLAIN SELECT id FROM events WHERE {column} = 1")
            finally:
                await conn.close()
            plan = "\n".join(row[0] for row in found)
            assert f"events_{column}" in plan, plan


async def steps_to_prune(path: Path) -> tuple[int, int]:
    """SQLite's VM steps (in hundreds) to prune CH's log as the bot would (foreign keys on),
    rolled back; and how many events that deleted."""
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await conn.execute("PRAGMA foreign_keys = ON")
        steps = 0

        def count() -> int:
            nonlocal steps
            steps += 1
            return 0

        await conn.execute("BEGIN")
        ((changed,),) = await conn.execute_fetchall("SELECT total_changes()")
        ((newest,),) = await conn.execute_fetchall(
            "SELECT MAX(seq) FROM events WHERE channel_id = ?", (CH,)
        )
        await conn.set_progress_handler(count, 100)
        await prune(SqliteTx(conn), CH, newest - KEEP)
        await conn.set_progress_handler(None, 0)  # type: ignore[arg-type]
        ((now,),) = await conn.execute_fetchall("SELECT total_changes()")
        await conn.execute("ROLLBACK")
        return steps, now - changed


async def test_pruning_a_channel_costs_the_same_however_long_other_logs_are(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tablekeeper.db"
    async with Store.open(f"sqlite:///{path}") as store:
        await seed(store)
        await seed(store, OTHER)
        await spend(store, "Bo", GM, 30)  # events 2..31, none pruned yet
    alone, deleted = await steps_to_prune(path)
    assert deleted > KEEP  # events (and their keys) past the edge go
    with sqlite3.connect(path) as conn:
        conn.execute(
            "WITH RECURSIVE n (i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)"
            " INSERT INTO events (channel_id, actor_id, action, created_at, clock, before, after,"
            " seq) SELECT ?, ?, 'fatigue spend', '2025-01-01T00:00:00+00:00', 0, '{}', '{}', i"
            " FROM n",
            (OTHER, GM),
        )
    beside_others, deleted_again = await steps_to_prune(path)
    assert deleted_again == deleted
    assert beside_others <= alone * 1.2
