"""The SQLite backend: one aiosqlite connection; each transaction runs whole on its thread.

aiosqlite runs each call as a hop to the connection's own thread and back. A change used to take
one hop per statement (BEGIN and COMMIT included): most of its time. Here a transaction's body
is handed to that thread as one callable: its `Tx` calls sqlite3 directly, so its awaits never
suspend, and `_drive` runs the coroutine to its end there. One hop per transaction, and the
thread's queue runs them one at a time, so they never interleave (BEGIN IMMEDIATE guards
against other processes). Changes that arrive while others commit are committed with the next
batch, in one transaction of savepoints: one sync of the log for many under synchronous=FULL."""

from __future__ import annotations

import asyncio
import contextvars
import sqlite3
from collections import deque
from collections.abc import Coroutine
from datetime import datetime
from typing import Any, TypeVar

import aiosqlite

from bot.store.backend import Body, Row
from bot.store.errors import StoreError
from bot.store.migrate import Migration, load_migrations, migrate
from bot.store.preflight import check_sqlite_file

PREFIX = "sqlite:///"
R = TypeVar("R")
# In WAL mode, FULL syncs the log at every commit: a commit that returned survives a power cut.
# NORMAL syncs only at checkpoints: safe against a killed process, not against the machine dying.
SYNCHRONOUS = ("full", "normal")


def sqlite_path(url: str) -> str:
    """`sqlite:///rel/path.db` → `rel/path.db`, `sqlite:////abs.db` → `/abs.db`, and
    `sqlite:///:memory:` → `:memory:`."""
    if not url.startswith(PREFIX) or len(url) == len(PREFIX):
        raise StoreError(f"Database URLs look like sqlite:///path/to/file.db, not {url!r}")
    return url[len(PREFIX) :]


def _bind(args: tuple[Any, ...]) -> tuple[Any, ...]:
    # Wall times are kept as ISO 8601 text (sqlite3's own datetime adapter is deprecated).
    return tuple(a.isoformat() if isinstance(a, datetime) else a for a in args)


def _rows(cursor: sqlite3.Cursor, rows: list[tuple[Any, ...]]) -> list[Row]:
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in rows]


class SqliteTx:
    """Async in form, to fit `Tx`; synchronous in fact: only ever run on the connection's
    thread, inside `SqliteBackend._run`."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    async def fetchone(self, sql: str, *args: Any) -> Row | None:
        cursor = self._conn.execute(sql, _bind(args))
        row = cursor.fetchone()
        return None if row is None else _rows(cursor, [row])[0]

    async def fetchall(self, sql: str, *args: Any) -> list[Row]:
        cursor = self._conn.execute(sql, _bind(args))
        return _rows(cursor, cursor.fetchall())

    async def fetchvalues(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        rows: list[tuple[Any, ...]] = self._conn.execute(sql, _bind(args)).fetchall()
        return rows

    async def execute(self, sql: str, *args: Any) -> None:
        self._conn.execute(sql, _bind(args))


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.cancelled():  # the caller gave up; the change is committed (or not) all the same
        return
    if error is None:
        future.set_result(result)
    else:
        future.set_exception(error)


def _drive(coro: Coroutine[Any, Any, R]) -> R:
    """Run a coroutine that never suspends (a body over a SqliteTx) to its end."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise StoreError("A SQLite transaction awaited something other than its database")


class SqliteBackend:
    dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        # Migrations and closing still take several hops: they hold this; transactions need
        # not (each is one hop, and the thread runs one at a time).
        self._lock = asyncio.Lock()
        # Changes to commit, each with its task's context.
        self._pending: deque[tuple[Body[Any], asyncio.Future[Any], contextvars.Context]] = deque()

    @classmethod
    async def open(cls, url: str, synchronous: str = "full") -> SqliteBackend:
        if synchronous not in SYNCHRONOUS:
            raise StoreError(f"SQLite synchronous is full or normal, not {synchronous!r}")
        path = sqlite_path(url)
        # Refuse a missing folder, a bad or read-only file, a newer schema: before writing.
        await asyncio.to_thread(check_sqlite_file, path, load_migrations(cls.dialect)[-1].version)
        # isolation_level=None: no implicit transactions; we BEGIN and COMMIT ourselves.
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute(f"PRAGMA synchronous = {synchronous.upper()}")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute("PRAGMA busy_timeout = 5000")
            backend = cls(db)
            await backend.migrate()
        except BaseException:
            await db.close()
            raise
        return backend

    async def read(self, body: Body[R]) -> R:
        return await self._transaction("BEGIN", body)

    async def write(self, channel_id: int, body: Body[R]) -> R:
        # The whole file is locked for writing, which covers the channel. Changes that queue
        # while one commits go together (group commit): see `_commit_pending`.
        loop = asyncio.get_running_loop()
        future: asyncio.Future[R] = loop.create_future()
        # The body runs on the connection's thread, in this task's context: the words it
        # raises or returns are in the language of the interaction it serves (`lang`).
        self._pending.append((body, future, contextvars.copy_context()))
        await self._db._execute(self._commit_pending, loop)
        return await future

    def _commit_pending(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the connection's thread: every change queued so far, in order, in ONE transaction,
        each in a savepoint of its own, so one that raises takes back only itself. One COMMIT
        (one sync of the log under synchronous=FULL) for them all; each caller hears its result
        only after it, and if the COMMIT fails, they all hear that nothing was kept. A change
        already taken by an earlier batch leaves nothing to do here."""
        batch = []
        while self._pending:
            batch.append(self._pending.popleft())
        if not batch:
            return
        conn = self._db._conn
        outcomes: list[tuple[Any, BaseException | None]] = []
        try:
            conn.execute("BEGIN IMMEDIATE")
            for body, _, context in batch:
                conn.execute("SAVEPOINT change")
                try:
                    outcomes.append((context.run(_drive, body(SqliteTx(conn))), None))  # type: ignore[arg-type]
                except Exception as error:  # this change only: the others go on
                    conn.execute("ROLLBACK TO change")
                    outcomes.append((None, error))
                conn.execute("RELEASE change")
            conn.execute("COMMIT")
        except BaseException as fault:  # nothing of the batch was kept
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            outcomes = [(None, fault)] * len(batch)
        for (_, future, _), (result, failure) in zip(batch, outcomes, strict=True):
            loop.call_soon_threadsafe(_settle, future, result, failure)

    async def _transaction(self, begin: str, body: Body[R]) -> R:
        # aiosqlite's way to run a callable on the connection's thread (it has no public one).
        result: R = await self._db._execute(
            contextvars.copy_context().run, self._run, begin, body
        )  # in this task's context, as `write`'s changes are
        return result

    def _run(self, begin: str, body: Body[R]) -> R:
        """On the connection's thread: the whole transaction. Even if the awaiting task is
        cancelled meanwhile, this runs to its COMMIT or ROLLBACK."""
        conn = self._db._conn
        conn.execute(begin)
        try:
            result: R = _drive(body(SqliteTx(conn)))  # type: ignore[arg-type]
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return result

    async def migrate(self, migrations: list[Migration] | None = None) -> list[int]:
        async with self._lock:
            return await migrate(
                self._db, load_migrations(self.dialect) if migrations is None else migrations
            )

    async def close(self) -> None:
        async with self._lock:
            await self._db.close()
