"""Outages made for real under a running store: a PostgreSQL server stopped and started again
while changes pour in, no connection free in time, a SQLite file on a tmpfs filled to its last
byte, a database file made read-only. Each failure is the store's own error (unreachable, disk
full, read-only), nothing refused is written, every change that returned survives, reads go on
where they can, and the store recovers by itself."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from store import Store
from store.errors import (
    ChangeOutcomeUnknown,
    DatabaseFull,
    DatabaseOutage,
    DatabaseReadOnly,
    DatabaseUnreachable,
)
from table.model import Table
from tests.disks import fill, read_only, small_disk
from tests.pg import Server, with_database

GUILD, ACTOR = 70, 700
CHANNELS = (1, 2, 3, 4)
RECOVERY = 30.0  # seconds the store has to work again once the database is back


def tick(table: Table) -> tuple[Table, int]:
    return dataclasses.replace(table, clock=table.clock + 1), table.clock + 1


@dataclasses.dataclass
class Load:
    """Changes poured into a store, one writer per channel; each is made by an actor of its
    own (its id in the log), and what each call answered is kept by that id."""

    store: Store
    ids: itertools.count[int] = dataclasses.field(default_factory=lambda: itertools.count(1))
    saved: dict[int, set[int]] = dataclasses.field(default_factory=dict)  # channel: actor ids
    refused: dict[int, set[int]] = dataclasses.field(default_factory=dict)
    unknown: set[int] = dataclasses.field(default_factory=set)  # saved or not: the log says
    outages: list[DatabaseOutage] = dataclasses.field(default_factory=list)
    last_saved: dict[int, float] = dataclasses.field(default_factory=dict)  # channel: when

    async def change(self, channel: int) -> None:
        actor = next(self.ids)
        try:
            await self.store.apply(channel, GUILD, actor, "tick", tick, interaction_id=actor)
        except ChangeOutcomeUnknown as error:
            self.unknown.add(actor)
            self.outages.append(error)
        except DatabaseOutage as error:  # anything else fails the test
            self.refused.setdefault(channel, set()).add(actor)
            self.outages.append(error)
            await asyncio.sleep(0.02)
        else:
            self.saved.setdefault(channel, set()).add(actor)
            self.last_saved[channel] = time.monotonic()

    async def write(self, channel: int, stop: asyncio.Event) -> None:
        while not stop.is_set():
            await self.change(channel)
            await asyncio.sleep(0.002)

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        stop = asyncio.Event()
        writers = [asyncio.create_task(self.write(channel, stop)) for channel in CHANNELS]
        try:
            yield
        finally:
            stop.set()
            await asyncio.gather(*writers)

    async def refused_everywhere(self) -> None:
        """Until every writer has met the outage."""
        deadline = time.monotonic() + RECOVERY
        while not all(self.refused.get(c) for c in CHANNELS):
            assert time.monotonic() < deadline, "a writer never met the outage"
            await asyncio.sleep(0.02)

    async def saving_again(self, since: float) -> None:
        """Until every writer has saved a change after `since`."""
        deadline = time.monotonic() + RECOVERY
        while not all(self.last_saved.get(c, 0) > since for c in CHANNELS):
            assert time.monotonic() < deadline, "the store did not recover by itself"
            await asyncio.sleep(0.05)

    async def check_kept(self, store: Store) -> None:
        """Every change that returned is in its channel's log, none refused is, and the clock
        counts exactly the changes logged."""
        for channel in CHANNELS:
            events = await store.history(channel, limit=100)
            while len(events) % 100 == 0 and events:  # older pages, to the first change
                older = await store.history(channel, limit=100, before_id=events[-1].id)
                if not older:
                    break
                events += older
            logged = {e.actor_id for e in events}
            assert self.saved[channel] <= logged
            assert not self.refused.get(channel, set()) & logged
            assert logged <= self.saved[channel] | self.unknown
            assert (await store.read(channel, GUILD)).clock == len(events)


# --- PostgreSQL ------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["fast", "immediate"])
async def test_postgres_stopped_and_started_under_load(own_postgres: Server, mode: str) -> None:
    """`fast`: a host's maintenance restart (sessions ended, the server shut down cleanly);
    `immediate`: the server killed, as in a crash."""
    control = own_postgres.control
    assert control is not None
    with own_postgres.database() as url:
        async with Store.open(url) as store:
            load = Load(store)
            async with load.running():
                await load.saving_again(time.monotonic())
                control.stop(mode)
                await asyncio.sleep(1.0)  # the writers meet it, again and again
                with pytest.raises(DatabaseUnreachable):
                    await store.read(CHANNELS[0], GUILD)
                with pytest.raises(DatabaseUnreachable):
                    await store.history(CHANNELS[0])
                control.start()
                await load.saving_again(time.monotonic())
            assert load.outages, "no change met the outage"
            assert all(isinstance(o, DatabaseUnreachable) for o in load.outages)
            assert all(load.refused.get(c) for c in CHANNELS), "a writer never met the outage"
        async with Store.open(url) as fresh:  # what the database kept, read afresh
            await load.check_kept(fresh)


async def test_no_connection_free_in_time_is_unreachable(postgres_url: str) -> None:
    """Every pooled connection held (by reads that wait): a read, a change and a look at the
    history are refused as unreachable instead of waiting, and work once one is free."""
    async with Store.open(postgres_url) as store:
        gate = asyncio.Event()

        async def hold(tx: object) -> None:
            await gate.wait()

        holders = [asyncio.create_task(store.backend.read(hold)) for _ in range(10)]
        await asyncio.sleep(0.2)
        with pytest.raises(DatabaseUnreachable, match="TimeoutError"):
            await store.apply(CHANNELS[0], GUILD, ACTOR, "tick", tick)
        with pytest.raises(DatabaseUnreachable):
            await store.read(CHANNELS[0], GUILD)
        gate.set()
        await asyncio.gather(*holders)
        assert await store.apply(CHANNELS[0], GUILD, ACTOR, "tick", tick) == 1
        assert len(await store.history(CHANNELS[0])) == 1


async def test_postgres_that_only_reads_refuses_changes_as_read_only(postgres_url: str) -> None:
    """The database turned read-only under a running store (as a failover to a standby would):
    changes are refused as read-only and reads go on; writable again, changes are saved."""
    name = postgres_url.rsplit("/", 1)[1]

    async def admin(sql: str) -> None:
        import asyncpg

        conn = await asyncpg.connect(with_database(postgres_url, "postgres"))
        try:
            await conn.execute(sql)
            # The store's sessions end: it reconnects, to a database as it is now.
            await conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = $1 AND pid <> pg_backend_pid()",
                name,
            )
        finally:
            await conn.close()

    async with Store.open(postgres_url) as store:
        load = Load(store)
        for channel in CHANNELS:
            await load.change(channel)
        await admin(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
        read_only_met: list[DatabaseOutage] = []
        deadline = time.monotonic() + RECOVERY
        while not read_only_met:  # a session ended under it may say so first: unreachable
            assert time.monotonic() < deadline
            await load.change(CHANNELS[0])
            read_only_met = [o for o in load.outages if isinstance(o, DatabaseReadOnly)]
        assert "read-only transaction" in str(read_only_met[0])
        assert (await store.read(CHANNELS[0], GUILD)).clock >= 1  # reads go on
        await admin(f'ALTER DATABASE "{name}" RESET default_transaction_read_only')
        async with load.running():
            await load.saving_again(time.monotonic())
        assert all(isinstance(o, DatabaseReadOnly | DatabaseUnreachable) for o in load.outages)
        await load.check_kept(store)


# --- SQLite ----------------------------------------------------------------------------------


async def test_sqlite_locked_too_long_by_another_process_is_unreachable(tmp_path: Path) -> None:
    """Another program holds the file's write lock past the busy timeout (5 s): the change is
    refused as the database being unreachable; reads go on; the lock gone, changes are saved."""
    path = tmp_path / "tk.db"
    async with Store.open(f"sqlite:///{path}") as store:
        load = Load(store)
        await load.change(CHANNELS[0])
        with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")
            await load.change(CHANNELS[0])
            assert [type(o) for o in load.outages] == [DatabaseUnreachable]
            assert "database is locked" in str(load.outages[0])
            assert (await store.read(CHANNELS[0], GUILD)).clock == 1
            other.execute("ROLLBACK")
        await load.change(CHANNELS[0])
        assert (await store.read(CHANNELS[0], GUILD)).clock == 2
        assert len(load.saved[CHANNELS[0]]) == 2 and len(load.refused[CHANNELS[0]]) == 1


def _truncate_log(path: Path) -> None:
    """Fold the write-ahead log into the database and cut it to nothing, so the next change
    needs new room on the disk (a log already grown would take a few changes first)."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        (busy, _, _) = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        assert busy == 0


async def test_sqlite_on_a_full_disk_refuses_changes_and_reads_on(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        path = disk / "tk.db"
        async with Store.open(f"sqlite:///{path}") as store:
            load = Load(store)
            for channel in CHANNELS:
                await load.change(channel)
            _truncate_log(path)
            filler = fill(disk)
            async with load.running():
                await load.refused_everywhere()
                assert all(isinstance(o, DatabaseFull) for o in load.outages)
                assert "database or disk is full" in str(load.outages[0])
                # Reads go on: a snapshot (quick), a page of history, and a whole export.
                assert (await store.read(CHANNELS[0], GUILD)).clock >= 1
                assert await store.history(CHANNELS[0])
                table, events, _rolls = await store.read_with_history(CHANNELS[0], GUILD)
                assert len(events) == table.clock
                filler.unlink()
                await load.saving_again(time.monotonic())
        async with Store.open(f"sqlite:///{path}") as fresh:
            await load.check_kept(fresh)


async def test_sqlite_file_made_read_only_under_a_running_store(tmp_path: Path) -> None:
    path = tmp_path / "tk.db"
    async with Store.open(f"sqlite:///{path}") as store:
        load = Load(store)
        for channel in CHANNELS:
            await load.change(channel)
        with read_only(path, Path(f"{path}-wal")):
            async with load.running():
                await load.refused_everywhere()
            assert all(isinstance(o, DatabaseReadOnly) for o in load.outages)
            assert "can't be written" in str(load.outages[0])
            assert (await store.read(CHANNELS[0], GUILD)).clock == 1  # reads go on
            assert [e.action for e in await store.history(CHANNELS[0])] == ["tick"]
        async with load.running():
            await load.saving_again(time.monotonic())
    async with Store.open(f"sqlite:///{path}") as fresh:
        await load.check_kept(fresh)
