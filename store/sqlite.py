"""The SQLite backend, on aiosqlite (which makes every sqlite3 call on a thread of its own, never
on the event loop's): two connections to the file, in WAL mode, `synchronous` FULL unless asked
otherwise. Reads go to one (`query_only`): each sees what was committed when it began, never
waiting for a change. Changes go to the other, one at a time (`_turn`); BEGIN IMMEDIATE takes
the file's write lock, which covers every channel, against other processes too.

Group commit: changes that wait their turn while one runs join its transaction, each in a
savepoint of its own (one that raises takes back only itself), and its one COMMIT, the sync of
the log under FULL, serves them all; each caller hears its outcome once that COMMIT is done.
Under load, that sync is most of a change's time (docs/benchmarks.md, "Group commit")."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar, cast

import aiosqlite

from store.backend import Body, Counted, Row
from store.errors import StoreError, Watched, sqlite_files, watched
from store.migrate import Migration, apply_migrations, load_migrations
from store.preflight import check_sqlite_file

PREFIX = "sqlite:///"
R = TypeVar("R")
# In WAL mode, FULL syncs the log at every commit: a commit that returned survives a power cut.
# NORMAL syncs only at checkpoints: safe against a killed process, not against the machine dying.
SYNCHRONOUS = ("full", "normal")
BUSY_MS = 5000  # how long a change waits for another process's write lock

# Wall times are stored as ISO 8601 text. sqlite3's own datetime adapter is deprecated; this is
# the recipe its documentation gives.
sqlite3.register_adapter(datetime, datetime.isoformat)


def dict_row(cursor: sqlite3.Cursor, values: tuple[Any, ...]) -> Row:
    """A row as a column → value dict (the row factory sqlite3's documentation gives), made on
    aiosqlite's thread as the rows are fetched rather than on the event loop's."""
    return {column[0]: value for column, value in zip(cursor.description, values, strict=True)}


def sqlite_path(url: str) -> str:
    """`sqlite:///rel/path.db` → `rel/path.db`, `sqlite:////abs.db` → `/abs.db`, and
    `sqlite:///:memory:` → `:memory:`."""
    if not url.startswith(PREFIX) or len(url) == len(PREFIX):
        raise StoreError(f"Database URLs look like sqlite:///path/to/file.db, not {url!r}")
    return url[len(PREFIX) :]


class SqliteTx(Counted):
    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, single: bool = False) -> None:
        super().__init__(single)
        self._conn = conn

    async def fetchall(self, sql: str, *args: Any) -> list[Row]:
        self._one_more()
        return cast(list[Row], await self._conn.execute_fetchall(sql, args))  # `dict_row`s

    async def fetchone(self, sql: str, *args: Any) -> Row | None:
        rows = await self.fetchall(sql, *args)
        return rows[0] if rows else None

    async def fetchvalues(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        # The connection's rows are `dict_row`s (one factory for every call): their values, in
        # the SELECT's order.
        return [tuple(row.values()) for row in await self.fetchall(sql, *args)]

    async def execute(self, sql: str, *args: Any) -> None:
        self._one_more()
        await self._conn.execute_fetchall(sql, args)  # no cursor made: the cheaper call


async def run_sqlite(
    conn: aiosqlite.Connection, begin: str, body: Body[R], *, commit: bool = True
) -> R:
    """`body` in one transaction on `conn`: `begin`, its statements, COMMIT (unless told not
    to: it is left open); ROLLBACK if anything raises. aiosqlite runs a connection's calls in
    the order they are made, so a caller cancelled halfway still leaves a whole transaction:
    its ROLLBACK comes after the statements it sent."""
    try:
        await conn.execute(begin)
        result = await body(SqliteTx(conn))
        if commit:
            await conn.execute("COMMIT")
    except BaseException:
        await asyncio.shield(conn.rollback())  # none open (a failed COMMIT ends it): nothing
        raise
    return result


async def migrate_sqlite(
    conn: aiosqlite.Connection, migrations: list[Migration], where: str = ""
) -> list[int]:
    """`store.migrate.apply_migrations` on `conn`, each step in a BEGIN IMMEDIATE of its own,
    which another process starting at once waits for. Its rows become dicts (`dict_row`)."""
    conn.row_factory = dict_row  # type: ignore[assignment]  # typed as a class; any callable does
    return await apply_migrations(
        lambda body: run_sqlite(conn, "BEGIN IMMEDIATE", body), migrations, where
    )


class SqliteBackend(Watched):
    dialect = "sqlite"

    def __init__(self, writer: aiosqlite.Connection, reader: aiosqlite.Connection, path: str):
        self._writer, self._reader, self._path = writer, reader, path
        self._turn = asyncio.Lock()  # the writer's: one change's statements at a time
        self._reading = asyncio.Lock()  # the reader's: one read's statements at a time
        # The open transaction's COMMIT, which every change in it awaits; None: none open.
        self._open: asyncio.Future[None] | None = None
        self._committing: set[asyncio.Task[None]] = set()
        self.files = sqlite_files(path)
        # Told each channel whose change committed (`store.changes`).
        self.committed: list[Callable[[int], None]] = []

    @classmethod
    async def open(cls, url: str, synchronous: str = "full") -> SqliteBackend:
        if synchronous not in SYNCHRONOUS:
            raise StoreError(f"SQLite synchronous is full or normal, not {synchronous!r}")
        path = sqlite_path(url)
        if path == ":memory:":  # a second connection would open a database of its own
            raise StoreError("SQLite needs a file (sqlite:///path/to/file.db), not :memory:")
        # Refuse a missing folder, a bad or read-only file, a newer schema: before writing.
        await check_sqlite_file(path, load_migrations(cls.dialect)[-1].version)
        async with contextlib.AsyncExitStack() as opening:
            writer = await _connect(opening, path, f"synchronous = {synchronous.upper()}")
            await migrate_sqlite(writer, load_migrations(cls.dialect), path)
            reader = await _connect(opening, path, "query_only = ON")
            opening.pop_all()  # both stay open
        return cls(writer, reader, path)

    @watched
    async def read(self, body: Body[R], *, single: bool = False) -> R:
        async with self._reading:
            if single:
                return await body(SqliteTx(self._reader, single=True))
            return await run_sqlite(self._reader, "BEGIN", body)

    @watched
    async def write(self, channel_id: int, body: Body[R]) -> R:
        async with self._turn:
            committed = self._open
            if committed is None:  # the first change since the last COMMIT
                result = await run_sqlite(self._writer, "BEGIN IMMEDIATE", body, commit=False)
                committed = self._open = asyncio.get_running_loop().create_future()
                # Its COMMIT waits its turn behind the changes waiting now: they join it.
                task = asyncio.create_task(self._commit(committed))
                self._committing.add(task)
                task.add_done_callback(self._committing.discard)
            else:
                result = await self._savepoint(committed, body)
        await asyncio.shield(committed)  # a caller that gives up leaves it to the others
        for told in self.committed:
            told(channel_id)
        return result

    async def _savepoint(self, committed: asyncio.Future[None], body: Body[R]) -> R:
        """`body` in the open transaction, in a savepoint of its own: a change that raises
        takes back only itself. The savepoints of a transaction nest, one per change, and
        its COMMIT releases them all (a RELEASE each would cost a call more)."""
        try:
            await self._writer.execute("SAVEPOINT change")
            return await body(SqliteTx(self._writer))
        except BaseException as error:
            try:
                await asyncio.shield(self._writer.execute("ROLLBACK TO change"))  # its own
            except Exception:  # SQLite ended the whole transaction (a full disk, an I/O error)
                await asyncio.shield(self._writer.rollback())
                self._open = None
                committed.set_exception(error)  # the changes before this one are lost too
            raise

    async def _commit(self, committed: asyncio.Future[None]) -> None:
        async with self._turn:
            if self._open is committed:  # else a change's failure ended it, and told them
                await self._end(committed)

    async def _end(self, committed: asyncio.Future[None]) -> None:
        """COMMIT the open transaction (holding the turn), and tell its changes how it went."""
        self._open = None
        try:
            await self._writer.execute("COMMIT")
        except Exception as error:
            await asyncio.shield(self._writer.rollback())
            committed.set_exception(error)
        else:
            committed.set_result(None)

    async def migrate(self, migrations: list[Migration] | None = None) -> list[int]:
        wanted = load_migrations(self.dialect) if migrations is None else migrations
        async with self._turn:
            if self._open is not None:  # the changes made meanwhile are committed first
                await self._end(self._open)
            return await migrate_sqlite(self._writer, wanted, self._path)

    async def close(self) -> None:
        async with self._turn, self._reading:
            if self._open is not None:  # the changes made meanwhile are committed first
                await self._end(self._open)
            await self._reader.close()
            await self._writer.close()


async def _connect(
    opening: contextlib.AsyncExitStack, path: str, pragma: str
) -> aiosqlite.Connection:
    """A connection to `path` in autocommit mode (the store begins and commits its own
    transactions), its rows as dicts (`dict_row`), closed by `opening` unless popped from it."""
    conn = await aiosqlite.connect(path, isolation_level=None)
    opening.push_async_callback(conn.close)
    conn.row_factory = dict_row  # type: ignore[assignment]
    for setting in ("journal_mode = WAL", pragma, "foreign_keys = ON", f"busy_timeout = {BUSY_MS}"):
        await conn.execute(f"PRAGMA {setting}")
    return conn
