"""The SQLite backend on aiosqlite: no sqlite3 call on the event loop's thread, transactions on
its one connection taking turns (a change that raises, or whose caller gives up, leaves nothing
half-written, and no other transaction sees its rows before it commits), and wall times kept as
ISO 8601 text."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from rules.errors import RulesError
from store import Store, StoreError
from store.backend import Tx
from store.roll_log import SecretRoll
from table import partyops
from table.model import Character, Table
from tests.store.importing import checked

CH, GUILD, GM = 4001, 5005, 11


def hero(table: Table) -> tuple[Table, None]:
    return table.with_character(Character("Hero", GM, classes=((10, 3),))), None


def spend(fp: int) -> Any:
    return lambda table: partyops.spend(table, "Hero", fp)


def touches_a_database(called: Any) -> bool:
    """Whether a call made from Python is sqlite3 at work on a database: a method of a
    connection or a cursor (executing, fetching, committing, closing…), or opening one."""
    owner = getattr(called, "__self__", None)
    return isinstance(owner, sqlite3.Connection | sqlite3.Cursor) or called is sqlite3.connect


@contextlib.contextmanager
def sqlite3_calls_on_this_thread() -> Iterator[list[str]]:
    """Every call into a database by sqlite3 made on this thread meanwhile, by name (a profile
    hook sees each call a Python frame makes to a C function; other threads are not watched)."""
    seen: list[str] = []

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        if event == "c_call" and touches_a_database(arg):
            seen.append(arg.__qualname__)

    sys.setprofile(hook)
    try:
        yield seen
    finally:
        sys.setprofile(None)


async def test_no_sqlite3_call_runs_on_the_event_loops_thread(tmp_path: Path) -> None:
    """Everything the bot asks of the store, from opening a new file (its migrations) to
    closing it, with the loop's thread watched: aiosqlite's own thread makes every call."""
    url = f"sqlite:///{tmp_path / 'tk.db'}"
    roll = SecretRoll(1, CH, GUILD, CH, GM, "Hero", None, "d100 roll", ({"title": "42"},))
    with sqlite3_calls_on_this_thread() as seen:
        async with Store.open(url) as store:
            await store.ping()
            await store.apply(CH, GUILD, GM, "character create", hero, interaction_id=1)
            await store.apply(CH, GUILD, GM, "fatigue spend", spend(3), interaction_id=2)
            await store.read(CH, GUILD)
            await store.history(CH)
            known = await store.newest(CH, 10)
            await store.apply(CH, GUILD, GM, "fatigue spend", spend(1))
            await store.newest(CH, 10, known)
            await store.undo_last(CH, GUILD, GM, True)
            await store.redo_last(CH, GUILD, GM, True)
            table, events, _rolls = await store.read_with_history(CH, GUILD)
            await store.import_channel(CH + 1, GUILD, GM, checked(_document(table, events), GUILD))
            await store.fatigue_chart_rows(CH, GUILD, "all", None)
            token, _ = await store.make_link(CH, GUILD, GM, None, b"key")
            await store.find_link(token)
            await store.live_hash(CH)
            await store.revoke_link(CH, GUILD, GM)
            await store.save_secret(roll)
            await store.find_secret(roll.message_id)
            await store.mark_revealed(roll, GM)
        assert seen == []  # nothing so far: now the watch itself is checked
        with contextlib.closing(sqlite3.connect(":memory:")) as direct:
            direct.execute("SELECT 1")
    assert seen == ["connect", "Connection.execute", "Connection.close"]


def _document(table: Table, events: list[Any]) -> dict[str, Any]:
    from exports.document import export_document

    return export_document(table, events, datetime(2026, 1, 1, tzinfo=UTC))


async def test_an_in_memory_database_is_refused_in_one_line() -> None:
    with pytest.raises(StoreError, match=r"^SQLite needs a file \(sqlite:///path/to/file.db\)"):
        await Store.open("sqlite:///:memory:")


async def test_a_change_under_way_is_seen_by_no_read_and_no_other_change(tmp_path: Path) -> None:
    """A look while a change has written half its rows sees none of them, at once (reads have
    a connection of their own); a change waits its turn and runs on all of them."""
    async with Store.open(f"sqlite:///{tmp_path / 'tk.db'}") as store:
        await store.apply(CH, GUILD, GM, "seed", hero)
        halfway, go_on = asyncio.Event(), asyncio.Event()

        async def slow(tx: Tx) -> None:
            await tx.execute("UPDATE characters SET fp = 7 WHERE channel_id = ?", CH)
            halfway.set()
            await go_on.wait()
            await tx.execute("UPDATE channels SET clock = 60 WHERE channel_id = ?", CH)

        change = asyncio.create_task(store.backend.write(CH, slow))
        await halfway.wait()
        look = asyncio.create_task(store.read(CH, GUILD))
        spent = asyncio.create_task(store.apply(CH, GUILD, GM, "fatigue spend", spend(1)))
        seen = await look
        assert (seen.get("Hero").fatigue.fp, seen.clock) == (0, 0)
        await asyncio.sleep(0.05)
        assert not spent.done()  # its turn comes after the first change's
        go_on.set()
        await change
        assert (await spent).after.fp == 8
        after = await store.read(CH, GUILD)
        assert (after.get("Hero").fatigue.fp, after.clock) == (8, 60)


async def test_a_change_that_raises_after_writing_leaves_nothing(tmp_path: Path) -> None:
    async with Store.open(f"sqlite:///{tmp_path / 'tk.db'}") as store:
        await store.apply(CH, GUILD, GM, "seed", hero)

        async def broken(tx: Tx) -> None:
            await tx.execute("DELETE FROM characters WHERE channel_id = ?", CH)
            raise RulesError("this change fails after writing")

        results = await asyncio.gather(
            store.apply(CH, GUILD, GM, "fatigue spend", spend(1)),
            store.backend.write(CH, broken),
            store.apply(CH, GUILD, GM, "fatigue spend", spend(1)),
            return_exceptions=True,
        )
        assert isinstance(results[1], RulesError)
        assert (await store.read(CH, GUILD)).get("Hero").fatigue.fp == 2  # the delete undone
        assert len(await store.history(CH, 100)) == 3


async def test_a_cancelled_caller_leaves_a_whole_transaction(tmp_path: Path) -> None:
    async with Store.open(f"sqlite:///{tmp_path / 'tk.db'}") as store:
        await store.apply(CH, GUILD, GM, "seed", hero)
        for pause in range(8):  # cancelled at each of its awaits in turn
            task = asyncio.create_task(store.apply(CH, GUILD, GM, "fatigue spend", spend(5)))
            for _ in range(pause):
                await asyncio.sleep(0)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            table, events, _rolls = await store.read_with_history(CH, GUILD)
            # Either it committed whole (the change and its event) or not at all.
            assert table.get("Hero").fatigue.fp == 5 * (len(events) - 1)
        await store.apply(CH, GUILD, GM, "fatigue spend", spend(1))  # the store goes on


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


@pytest.mark.parametrize("synchronous", ["full", "normal"])
async def test_a_closed_store_refuses_a_change(tmp_path: Path, synchronous: str) -> None:
    store = await Store.open(f"sqlite:///{tmp_path / 'tk.db'}", sqlite_synchronous=synchronous)
    await store.close()
    with pytest.raises(ValueError):  # aiosqlite: "no active connection"
        await store.apply(CH, GUILD, GM, "seed", hero)
