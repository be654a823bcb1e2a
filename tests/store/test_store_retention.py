"""History kept within a bound (`history_keep`), on a SQLite file and on PostgreSQL: old events
are pruned every so often, a kept undo keeps what it points at, and `/undo` stops honestly at the
retention edge with nothing written."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from typing import Any

import aiosqlite
import pytest

from rules.errors import RulesError
from store import Store
from store.event_log import PRUNE_EVERY
from store.migrate import load_migrations
from store.sqlite import migrate_sqlite
from table import partyops
from table.model import Character, Table
from table.settings import HISTORY_KEEP_DEFAULT, HISTORY_KEEP_MIN
from table.undo import too_old
from tests.store.conftest import Database

CH, OTHER, GUILD = 3001, 3002, 5005
GM, PIP, PER = 11, 21, 22
KEEP = HISTORY_KEEP_MIN


def seeded(keep: int) -> Any:
    def step(table: Table) -> tuple[Table, None]:
        settings = dataclasses.replace(table.settings, history_keep=keep)
        table = dataclasses.replace(table, settings=settings)
        fl = Fraction(1000)
        aria, bo = Character("Aria", PIP, fl_override=fl), Character("Bo", PER, fl_override=fl)
        return table.with_character(aria).with_character(bo), None

    return step


async def seed(store: Store, channel: int = CH, keep: int = KEEP) -> None:
    await store.apply(channel, GUILD, GM, "seed", seeded(keep))  # event 1


async def spend(store: Store, name: str, actor: int, times: int = 1, channel: int = CH) -> None:
    for _ in range(times):
        await store.apply(
            channel, GUILD, actor, "fatigue spend", lambda t: (partyops.spend(t, name, 1)[0], None)
        )


async def seqs(db: Database, channel: int = CH) -> list[int]:
    """The numbers of the channel's events that are stored, oldest first."""
    rows = (await db.dump())["events"]
    columns = await _columns(db)
    at_channel, at_seq = columns.index("channel_id"), columns.index("seq")
    return sorted(row[at_seq] for row in rows if row[at_channel] == channel)


async def _columns(db: Database) -> list[str]:
    if db.path is not None:
        import sqlite3

        with sqlite3.connect(db.path) as conn:
            return [row[1] for row in conn.execute("PRAGMA table_info(events)")]
    import asyncpg

    conn = await asyncpg.connect(db.url)
    try:
        rows = await conn.fetch(
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_name = 'events' ORDER BY ordinal_position"
        )
        return [row["column_name"] for row in rows]
    finally:
        await conn.close()


async def test_a_new_channel_keeps_the_default(db: Database) -> None:
    async with Store.open(db.url) as store:
        assert (await store.read(CH, GUILD)).settings.history_keep == HISTORY_KEEP_DEFAULT


async def test_events_past_the_bound_are_pruned_every_so_often(db: Database) -> None:
    async with Store.open(db.url) as store:
        await seed(store)
        await seed(store, OTHER)
        await spend(store, "Bo", GM, PRUNE_EVERY - 2)  # events 2..49: nothing pruned yet
        assert await seqs(db) == list(range(1, PRUNE_EVERY))
        await spend(store, "Bo", GM, 1)  # event 50 prunes everything past its last KEEP
        assert await seqs(db) == list(range(PRUNE_EVERY - KEEP + 1, PRUNE_EVERY + 1))
        assert await seqs(db, OTHER) == [1]  # another channel's log is its own
        await spend(store, "Bo", GM, 3)
        assert len(await seqs(db)) == KEEP + 3  # between prunings the log may run over a little
        history = await store.history(CH, 100)
        assert [e.seq for e in history] == sorted(await seqs(db), reverse=True)
        # what /undo looks up about pruned events went with them
        keys = (await db.dump())["event_keys"]
        assert all(row[3] >= history[-1].id for row in keys if row[0] == CH)


async def test_a_kept_undo_keeps_the_change_it_undid(db: Database) -> None:
    async with Store.open(db.url) as store:
        await seed(store)
        await spend(store, "Bo", GM, 37)  # events 2..38
        await spend(store, "Aria", PIP)  # 39: the player's change
        await spend(store, "Bo", GM, 8)  # 40..47
        undone = await store.undo_last(CH, GUILD, PIP, False)  # 48 undoes 39
        assert (undone.target.seq, undone.undo.seq) == (39, 48)
        await spend(store, "Bo", GM, 2)  # 50 prunes up to 40, but not what 48 points at
        assert await seqs(db) == [39, *range(41, 51)]
        history = await store.history(CH, 100)
        assert next(e for e in history if e.seq == 48).undoes == undone.target.id


async def test_a_players_undo_stops_at_the_retention_edge(db: Database) -> None:
    async with Store.open(db.url) as store:
        await seed(store)
        await spend(store, "Aria", PIP)  # event 2
        await spend(store, "Bo", GM, KEEP - 1)  # 3..11: event 2 is now the 10th newest
        await spend(store, "Bo", GM, 1)  # 12: event 2 falls past what the channel keeps
        before = await db.dump()
        with pytest.raises(RulesError) as caught:
            await store.undo_last(CH, GUILD, PIP, False)
        assert "older than this channel keeps (its last 10 changes" in str(caught.value)
        assert "/settings set history_keep:" in str(caught.value)
        assert await db.dump() == before  # refused: nothing written


async def test_a_players_undo_one_change_inside_the_edge_goes_ahead(db: Database) -> None:
    async with Store.open(db.url) as store:
        await seed(store)
        await spend(store, "Aria", PIP)  # event 2
        await spend(store, "Bo", GM, KEEP - 1)  # 3..11: event 2 is the 10th newest, still kept
        undone = await store.undo_last(CH, GUILD, PIP, False)
        assert undone.target.seq == 2
        assert undone.table.get("Aria").fatigue.fp == 0


async def test_a_gms_undos_stop_at_the_retention_edge(db: Database) -> None:
    async with Store.open(db.url) as store:
        await seed(store)
        await spend(store, "Bo", GM, KEEP + 1)  # events 2..12
        # Each undo is a change too: the edge moves up as the targets move down.
        undone = [await store.undo_last(CH, GUILD, GM, True) for _ in range(5)]
        assert [u.target.seq for u in undone] == [12, 11, 10, 9, 8]
        with pytest.raises(RulesError) as caught:
            await store.undo_last(CH, GUILD, GM, True)
        assert str(caught.value).startswith("Can't undo: fatigue spend by <@11>")
        assert "older than this channel keeps" in str(caught.value)


async def test_after_pruning_nothing_older_is_offered(db: Database) -> None:
    async with Store.open(db.url) as store:
        await seed(store)
        await spend(store, "Aria", PIP)  # event 2: pruned at event 50
        await spend(store, "Bo", GM, PRUNE_EVERY - 2)
        assert 2 not in await seqs(db)
        before = await db.dump()
        with pytest.raises(RulesError) as caught:
            await store.undo_last(CH, GUILD, PIP, False)
        assert str(caught.value) == too_old(KEEP)
        assert await db.dump() == before


async def test_raising_the_bound_keeps_more(db: Database) -> None:
    async with Store.open(db.url) as store:
        await seed(store, keep=100)
        await spend(store, "Bo", GM, PRUNE_EVERY - 1)  # event 50: nothing past 100 to prune
        assert await seqs(db) == list(range(1, PRUNE_EVERY + 1))


async def open_at_v3(db: Database) -> None:
    """The database as V1..V3 left it: before event numbers and event keys."""
    early = [m for m in load_migrations(db.dialect) if m.version <= 3]
    if db.path is not None:
        async with aiosqlite.connect(db.path, isolation_level=None) as conn:
            await migrate_sqlite(conn, early)
        return
    import asyncpg

    from store.postgres import migrate_postgres

    conn = await asyncpg.connect(db.url)
    try:
        await migrate_postgres(conn, early)
    finally:
        await conn.close()


def old_event(actor: int, key: str, fp: tuple[int, int], at: str) -> str:
    old, new = (
        {"characters": {key: {"name": key.title(), "owner_id": actor, "fp": f}}} for f in fp
    )
    return (
        f"INSERT INTO events (channel_id, actor_id, action, created_at, clock, before, after)"
        f" VALUES ({CH}, {actor}, 'fatigue spend', '{at}', 0, '{json.dumps(old)}',"
        f" '{json.dumps(new)}')"
    )


async def test_the_migration_numbers_old_events_and_records_their_keys(db: Database) -> None:
    await open_at_v3(db)
    at = "2026-01-01T10:00:00+00:00"
    await db.execute(f"INSERT INTO channels (channel_id, guild_id) VALUES ({CH}, {GUILD})")
    await db.execute(f"INSERT INTO channels (channel_id, guild_id) VALUES ({OTHER}, {GUILD})")
    await db.execute(old_event(PIP, "aria", (0, 1), at))
    await db.execute(old_event(GM, "aria", (1, 2), at))  # a later change to the same character
    await db.execute(old_event(GM, "bo", (0, 1), at).replace(f"({CH},", f"({OTHER},"))
    async with Store.open(db.url) as store:
        assert [e.seq for e in await store.history(CH, 10)] == [2, 1]
        assert [e.seq for e in await store.history(OTHER, 10)] == [1]
        keys = sorted(row[1:3] for row in (await db.dump())["event_keys"])
        assert keys == [("characters", "aria"), ("characters", "aria"), ("characters", "bo")]
        # The recorded keys are what /undo looks up: the GM's later change blocks the player's.
        with pytest.raises(RulesError) as caught:
            await store.undo_last(CH, GUILD, PIP, False)
        assert "a later change, fatigue spend by <@11>" in str(caught.value)
