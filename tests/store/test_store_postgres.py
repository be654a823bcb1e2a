"""What only PostgreSQL has to get right: BIGINT for every id, the per-channel advisory lock
across processes, migrations racing at start-up, and the postgres:// URL form."""

from __future__ import annotations

import asyncio
import dataclasses

import asyncpg
import pytest

from store import Store
from store.migrate import load_migrations
from store.postgres import numbered
from table.model import Table

SNOWFLAKE = 1_234_567_890_123_456_789  # past 2^60: INTEGER (2^31) would overflow


def tick(table: Table) -> tuple[Table, int]:
    return dataclasses.replace(table, clock=table.clock + 1), table.clock + 1


def test_placeholders_are_numbered() -> None:
    assert numbered("SELECT ? WHERE a = ? AND b = ?") == "SELECT $1 WHERE a = $2 AND b = $3"
    assert numbered("SELECT 1") == "SELECT 1"
    assert numbered("?") == "$1"


async def test_every_id_column_is_a_bigint(postgres_url: str) -> None:
    async with Store.open(postgres_url):
        pass
    conn = await asyncpg.connect(postgres_url)
    try:
        rows = await conn.fetch(
            "SELECT table_name, column_name, data_type FROM information_schema.columns"
            " WHERE table_schema = 'public' AND (column_name LIKE '%\\_id' OR column_name IN"
            " ('id', 'clock', 'undone_by', 'undoes'))"
        )
    finally:
        await conn.close()
    found = {(r["table_name"], r["column_name"]): r["data_type"] for r in rows}
    assert ("characters", "owner_id") in found and ("events", "undone_by") in found
    assert set(found.values()) == {"bigint"}, found


async def test_snowflake_ids_round_trip(postgres_url: str) -> None:
    async with Store.open(postgres_url) as store:
        await store.apply(SNOWFLAKE, SNOWFLAKE + 1, SNOWFLAKE + 2, "tick", tick)
        assert await store.read(SNOWFLAKE) == Table(SNOWFLAKE, SNOWFLAKE + 1, clock=1)
        (event,) = await store.history(SNOWFLAKE)
    assert (event.channel_id, event.actor_id) == (SNOWFLAKE, SNOWFLAKE + 2)


async def test_the_postgres_scheme_heroku_gives_works_too(postgres_url: str) -> None:
    short = "postgres://" + postgres_url.removeprefix("postgresql://")
    async with Store.open(short) as store:
        assert await store.apply(1, None, 9, "tick", tick) == 1
        assert store.dialect == "postgres"


async def test_processes_starting_together_migrate_once(postgres_url: str) -> None:
    stores = await asyncio.gather(*(Store.open(postgres_url) for _ in range(4)))
    try:
        assert [s.dialect for s in stores] == ["postgres"] * 4
        await asyncio.gather(*(s.apply(1, None, 9, "tick", tick) for s in stores))
        assert (await stores[0].read(1)).clock == 4
    finally:
        await asyncio.gather(*(s.close() for s in stores))
    conn = await asyncpg.connect(postgres_url)
    try:
        versions = [r["version"] for r in await conn.fetch("SELECT version FROM schema_version")]
    finally:
        await conn.close()
    assert sorted(versions) == [m.version for m in load_migrations("postgres")]


async def test_a_change_waits_for_the_channel_lock_another_process_holds(
    postgres_url: str,
) -> None:
    """Another process (a bare connection here) holds channel 1's lock: a change to channel 1
    waits until that transaction ends, while channel 2 goes ahead."""
    async with Store.open(postgres_url) as store:
        other = await asyncpg.connect(postgres_url)
        try:
            held = other.transaction()
            await held.start()
            await other.execute("SELECT pg_advisory_xact_lock($1)", 1)
            waiting = asyncio.create_task(store.apply(1, None, 9, "tick", tick))
            assert await asyncio.wait_for(store.apply(2, None, 9, "tick", tick), 5) == 1
            await asyncio.sleep(0.3)
            assert not waiting.done()  # still queued on the lock
            assert (await store.read(1)).clock == 0
            await held.commit()
            assert await asyncio.wait_for(waiting, 5) == 1
        finally:
            await other.close()


async def test_a_broken_url_is_one_clear_line(postgres_url: str) -> None:
    from store import StoreError

    nowhere = postgres_url.rsplit("/", 1)[0] + "/no_such_database"
    with pytest.raises(StoreError, match="Could not open the PostgreSQL database") as caught:
        await Store.open(nowhere)
    assert "\n" not in str(caught.value)
