"""The SQLite backend runs each transaction whole, in one hop to its connection's thread, and a
quick read (a channel, a page of history) with no hop at all: counted here on a real file, with
what happens when a body misbehaves, and quick reads seeing every commit (of another store on the
same file too) and stepping aside when SQLite says busy."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from rules.errors import RulesError
from store import Store, StoreError
from store.backend import Tx
from table import partyops
from table.model import Character, Table

CH, GUILD, GM = 4001, 5005, 11


def hero(table: Table) -> tuple[Table, None]:
    return table.with_character(Character("Hero", GM, classes=((10, 3),))), None


def spend(fp: int) -> Any:
    return lambda table: partyops.spend(table, "Hero", fp)


def count_hops(store: Store, patch: pytest.MonkeyPatch) -> list[object]:
    """The jobs handed to the writing connection's thread from now on (a hop each)."""
    thread = store._backend._thread  # type: ignore[attr-defined]
    hops: list[object] = []
    post = thread.post

    def counted(job: Any) -> None:
        hops.append(job)
        post(job)

    patch.setattr(thread, "post", counted)
    return hops


async def test_a_change_is_one_hop_and_a_quick_read_none(tmp_path: Path) -> None:
    async with Store.open(f"sqlite:///{tmp_path / 'tk.db'}") as store:
        await store.apply(CH, GUILD, GM, "seed", hero)
        with pytest.MonkeyPatch.context() as patch:
            hops = count_hops(store, patch)
            await store.apply(
                CH, GUILD, GM, "fatigue spend", lambda t: partyops.spend(t, "Hero", 2)
            )
            assert len(hops) == 1  # BEGIN, loads, writes, the event, COMMIT: all in one
            table = await store.read(CH, GUILD)
            events = await store.history(CH)
            assert len(hops) == 1  # both read at once, on this thread
            await store.read_with_history(CH, GUILD)  # a whole log is not quick: one hop
            assert len(hops) == 2
        assert table.get("Hero").fatigue.fp == 2
        assert [e.action for e in events] == ["fatigue spend", "seed"]


async def test_quick_reads_see_each_commit_of_another_store_on_the_file(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tk.db'}"
    async with Store.open(url) as one, Store.open(url) as two:  # as two processes would
        await one.apply(CH, GUILD, GM, "seed", hero)
        for fp in range(1, 4):
            await two.apply(CH, GUILD, GM, "fatigue spend", spend(1))
            assert (await one.read(CH, GUILD)).get("Hero").fatigue.fp == fp
            assert len(await one.history(CH, 100)) == fp + 1
            await one.apply(CH, GUILD, GM, "look", lambda t: (t, None))  # no change, no event
            assert (await two.read(CH, GUILD)).get("Hero").fatigue.fp == fp


async def test_a_kept_read_is_given_again_only_while_its_channel_and_server_are_unchanged(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tk.db"
    url = f"sqlite:///{path}"
    async with Store.open(url) as one, Store.open(url) as two:
        await one.apply(CH, GUILD, GM, "seed", hero)
        first = await one.read(CH, GUILD)
        statements = reader_statements(one)
        assert await one.read(CH, GUILD) is first  # nothing changed: the same Table again
        page = await one.history(CH)
        assert await one.history(CH) == page
        assert statements.count("BEGIN") == 1  # only the page was read, once
        await two.apply(CH + 1, GUILD, GM, "seed", hero)  # another process, another channel
        statements.clear()
        assert await one.read(CH, GUILD) is first  # its stamps are unchanged: still true
        assert await one.history(CH) == page
        assert [s.split()[0] for s in statements] == ["SELECT"] * 2  # stamps only
        server = (("rest_rate", 2),)
        await two.apply(CH + 1, GUILD, GM, "server", lambda t: (t.relayered({}, server), None))
        assert (await one.read(CH, GUILD)).settings.rest_rate == 2  # its server changed
        await two.apply(CH, GUILD, GM, "fatigue spend", spend(4))
        assert (await one.read(CH, GUILD)).get("Hero").fatigue.fp == 4
        assert [e.action for e in await one.history(CH)] == ["fatigue spend", "seed"]
        raw = sqlite3.connect(path, isolation_level=None)  # a third, outside the bot
        try:
            raw.execute("UPDATE characters SET fp = 7 WHERE channel_id = ?", (CH,))
        finally:
            raw.close()
        assert (await one.read(CH, GUILD)).get("Hero").fatigue.fp == 7
        await one.apply(CH, GUILD, GM, "fatigue spend", spend(1))  # its own writer: the same
        assert (await one.read(CH, GUILD)).get("Hero").fatigue.fp == 8


async def test_a_quick_read_never_waits_for_a_writer(tmp_path: Path) -> None:
    path = tmp_path / "tk.db"
    async with Store.open(f"sqlite:///{path}") as store:
        await store.apply(CH, GUILD, GM, "seed", hero)
        writer = sqlite3.connect(path, isolation_level=None)
        try:
            writer.execute("BEGIN IMMEDIATE")  # another process, mid-change, holding the lock
            writer.execute("DELETE FROM characters")
            table = await asyncio.wait_for(store.read(CH, GUILD), 1.0)
            assert table.get("Hero")  # the last committed state, not the uncommitted delete
        finally:
            writer.close()


def reader_statements(store: Store) -> list[str]:
    """The statements the store's quick reader runs from now on (its first words each)."""
    statements: list[str] = []
    reader = store._backend._reader  # type: ignore[attr-defined]
    reader._conn.set_trace_callback(statements.append)
    return statements


class Busy:
    """A quick reader on which SQLite always says the database is locked."""

    def read(self, *args: Any) -> None:
        raise sqlite3.OperationalError("database is locked")


async def test_a_quick_read_that_finds_the_database_busy_takes_the_hop(tmp_path: Path) -> None:
    async with Store.open(f"sqlite:///{tmp_path / 'tk.db'}") as store:
        await store.apply(CH, GUILD, GM, "seed", hero)
        reader = store._backend._reader  # type: ignore[attr-defined]
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(store._backend, "_reader", Busy())
            hops = count_hops(store, patch)
            assert (await store.read(CH, GUILD)).get("Hero")
            assert len(hops) == 1
        assert store._backend._reader is reader  # type: ignore[attr-defined]


async def test_an_in_memory_database_reads_through_its_one_connection() -> None:
    async with Store.open("sqlite:///:memory:") as store:  # a second one would be empty
        await store.apply(CH, GUILD, GM, "seed", hero)
        assert (await store.read(CH, GUILD)).get("Hero")


async def test_concurrent_changes_to_one_channel_all_land(tmp_path: Path) -> None:
    async with Store.open(f"sqlite:///{tmp_path / 'tk.db'}") as store:
        await store.apply(CH, GUILD, GM, "seed", hero)
        spend = lambda t: partyops.spend(t, "Hero", 1)  # noqa: E731
        await asyncio.gather(
            *(store.apply(CH, GUILD, GM, "fatigue spend", spend) for _ in range(30))
        )
        assert (await store.read(CH, GUILD)).get("Hero").fatigue.fp == 30
        assert len(await store.history(CH, 100)) == 31


async def test_a_body_that_waits_on_anything_else_is_refused_and_rolled_back(
    tmp_path: Path,
) -> None:
    async with Store.open(f"sqlite:///{tmp_path / 'tk.db'}") as store:
        await store.apply(CH, GUILD, GM, "seed", hero)

        async def body(tx: Tx) -> None:
            await tx.execute("DELETE FROM characters WHERE channel_id = ?", CH)
            await asyncio.sleep(0)  # a real suspension: it can't run on the database's thread

        with pytest.raises(StoreError, match="awaited something other than its database"):
            await store._backend.write(CH, body)
        assert (await store.read(CH, GUILD)).get("Hero")  # the delete was rolled back


async def test_a_cancelled_caller_leaves_a_whole_transaction(tmp_path: Path) -> None:
    async with Store.open(f"sqlite:///{tmp_path / 'tk.db'}") as store:
        await store.apply(CH, GUILD, GM, "seed", hero)
        task = asyncio.create_task(store.apply(CH, GUILD, GM, "fatigue spend", spend(5)))
        await asyncio.sleep(0)  # queued on the thread, then the caller gives up
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        # One snapshot for both (it may be committing right now, on the thread).
        table, events = await store.read_with_history(CH, GUILD)
        # Either it committed whole (the change and its event) or not at all.
        assert (table.get("Hero").fatigue.fp, len(events)) in ((0, 1), (5, 2))


async def test_changes_queued_together_commit_together_and_fail_alone(tmp_path: Path) -> None:
    async with Store.open(f"sqlite:///{tmp_path / 'tk.db'}") as store:
        await store.apply(CH, GUILD, GM, "seed", hero)
        gate = threading.Event()
        busy = asyncio.create_task(store._backend._thread.run(gate.wait))  # type: ignore[attr-defined]
        await asyncio.sleep(0)  # the thread is held from now on

        async def broken(tx: Tx) -> None:
            await tx.execute("DELETE FROM characters WHERE channel_id = ?", CH)
            raise RulesError("this change fails after writing")

        spends = [store.apply(CH, GUILD, GM, "fatigue spend", spend(1)) for _ in range(3)]
        with pytest.MonkeyPatch.context() as patch:
            hops = count_hops(store, patch)
            queued = asyncio.gather(
                *spends[:2], store._backend.write(CH, broken), spends[2], return_exceptions=True
            )
            await asyncio.sleep(0.05)  # all four wait behind the busy thread: one batch
            gate.set()
            results = await queued
            assert len(hops) == 1  # ...queued on the thread as one call, not four
            await busy
        assert isinstance(results[2], RulesError)
        spent = [r for i, r in enumerate(results) if isinstance(r, partyops.CharacterChange)]
        assert [r.after.fp for r in spent] == [1, 2, 3]  # all three, in the order they came
        table = await store.read(CH, GUILD)
        assert table.get("Hero").fatigue.fp == 3  # the broken change's delete was taken back
        assert len(await store.history(CH, 100)) == 4


async def test_wall_times_are_stored_as_iso_8601_text(tmp_path: Path) -> None:
    """The event log holds its wall times as ISO 8601 text, which a person (and
    `fromisoformat`) reads: the adapter binds a datetime the way `created_at` reads it back."""
    path = tmp_path / "tk.db"
    at = datetime(2026, 12, 4, 9, 30, 5, tzinfo=UTC)
    async with Store.open(f"sqlite:///{path}", now=lambda: at) as store:
        await store.apply(CH, GUILD, GM, "seed", hero)
        (event,) = await store.history(CH)
    with sqlite3.connect(path) as raw:
        (stored,) = raw.execute("SELECT created_at FROM events").fetchone()
    assert stored == "2026-12-04T09:30:05+00:00"
    assert event.created_at == at
