"""The SQLite connection's own thread: jobs run there, in the order given, their results and
errors come back to the caller, and a closed store refuses a change instead of losing it. The
store needs no aiosqlite (only the standard library's sqlite3)."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from store import Store
from store.sqlite_thread import SqliteThread
from table.model import Character, Table

REPO = Path(__file__).resolve().parents[2]


async def test_jobs_run_on_the_thread_in_order_and_answer_their_caller(tmp_path: Path) -> None:
    thread = await SqliteThread.open(str(tmp_path / "tk.db"))
    try:
        ran: list[tuple[int, int]] = []

        def job(n: int) -> int:
            ran.append((n, threading.get_ident()))
            return n * 2

        assert [await thread.run(job, n) for n in range(3)] == [0, 2, 4]
        assert [n for n, _ in ran] == [0, 1, 2]
        assert {ident for _, ident in ran} == {thread._thread.ident}  # one thread, not this
        assert thread._thread.ident != threading.get_ident()
        with pytest.raises(ZeroDivisionError):
            await thread.run(lambda: 1 / 0)
        assert await thread.run(lambda: thread.conn.execute("SELECT 7").fetchone()) == (7,)
    finally:
        await thread.close()
    thread._thread.join(5)
    assert not thread._thread.is_alive()  # ended with its close


async def test_a_closed_store_refuses_a_change(tmp_path: Path) -> None:
    store = await Store.open(f"sqlite:///{tmp_path / 'tk.db'}")
    await store.close()

    def add(table: Table) -> tuple[Table, None]:
        return table.with_character(Character("Late", 1)), None

    with pytest.raises(ValueError, match="Connection closed"):
        await store.apply(1, 2, 3, "late", add)


def test_the_store_needs_no_aiosqlite(tmp_path: Path) -> None:
    """With aiosqlite unimportable, a store opens, changes and reads a SQLite file."""
    script = (
        "import asyncio, sys\n"
        "sys.modules['aiosqlite'] = None\n"
        "from store import Store\n"
        "from table.model import Character\n"
        "async def main():\n"
        f"    async with Store.open('sqlite:///{tmp_path / 'tk.db'}') as store:\n"
        "        await store.apply(1, 2, 3, 'add',"
        " lambda t: (t.with_character(Character('Ana', 3)), None))\n"
        "        print([c.name for c in (await store.read(1, 2)).characters])\n"
        "asyncio.run(main())\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "['Ana']"
