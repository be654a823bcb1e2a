"""The SQLite backend, on aiosqlite: one connection to the file (aiosqlite runs its sqlite3 calls
on a thread of its own, never on the event loop's), in WAL mode, `synchronous` FULL unless asked
otherwise.

Its transactions take turns: a change is BEGIN IMMEDIATE, its statements one by one, COMMIT,
and nothing else runs on the connection meanwhile (`_turn`), so none sees another's uncommitted
rows; BEGIN IMMEDIATE takes the file's write lock, which covers every channel, against other
processes too. A read waits its turn the same way, then reads committed rows only."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

import aiosqlite

from store.backend import Body, Counted, Row
from store.errors import StoreError
from store.faults import Watched, sqlite_files, watched
from store.migrate import Migration, apply_migrations, load_migrations
from store.preflight import check_sqlite_file

PREFIX = "sqlite:///"
R = TypeVar("R")
# In WAL mode, FULL syncs the log at every commit: a commit that returned survives a power cut.
# NORMAL syncs only at checkpoints: safe against a killed process, not against the machine dying.
SYNCHRONOUS = ("full", "normal")
BUSY_MS = 5000  # how long a change waits for another process's write lock

# Wall times are kept as ISO 8601 text. sqlite3's own datetime adapter is deprecated; this is
# the recipe its documentation gives.
sqlite3.register_adapter(datetime, datetime.isoformat)


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
        return [dict(row) for row in await self._conn.execute_fetchall(sql, args)]

    async def fetchone(self, sql: str, *args: Any) -> Row | None:
        rows = await self.fetchall(sql, *args)
        return rows[0] if rows else None

    async def fetchvalues(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        self._one_more()
        return [tuple(row) for row in await self._conn.execute_fetchall(sql, args)]

    async def execute(self, sql: str, *args: Any) -> None:
        self._one_more()
        await self._conn.execute(sql, args)


async def run_sqlite(conn: aiosqlite.Connection, begin: str, body: Body[R]) -> R:
    """`body` in one transaction on `conn`: `begin`, its statements, COMMIT; ROLLBACK if
    anything raises. aiosqlite runs a connection's calls in the order they are made, so a
    caller cancelled halfway still leaves a whole transaction: its ROLLBACK comes after the
    statements it sent."""
    try:
        await conn.execute(begin)
        result = await body(SqliteTx(conn))
        await conn.execute("COMMIT")
    except BaseException:
        await asyncio.shield(conn.rollback())  # none open (a failed COMMIT ends it): nothing
        raise
    return result


async def migrate_sqlite(
    conn: aiosqlite.Connection, migrations: list[Migration], where: str = ""
) -> list[int]:
    """`store.migrate.apply_migrations` on `conn`, each step in a BEGIN IMMEDIATE of its own,
    which another process starting at once waits for. Its rows become `sqlite3.Row`s."""
    conn.row_factory = sqlite3.Row
    return await apply_migrations(
        lambda body: run_sqlite(conn, "BEGIN IMMEDIATE", body), migrations, where
    )


class SqliteBackend(Watched):
    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn, self._path = conn, path
        self._turn = asyncio.Lock()  # one transaction at a time on the one connection
        self.files = sqlite_files(path)
        # Told each channel whose change committed (`store.changes`).
        self.committed: list[Callable[[int], None]] = []

    @classmethod
    async def open(cls, url: str, synchronous: str = "full") -> SqliteBackend:
        if synchronous not in SYNCHRONOUS:
            raise StoreError(f"SQLite synchronous is full or normal, not {synchronous!r}")
        path = sqlite_path(url)
        # Refuse a missing folder, a bad or read-only file, a newer schema: before writing.
        await check_sqlite_file(path, load_migrations(cls.dialect)[-1].version)
        conn = await aiosqlite.connect(path, isolation_level=None)  # we BEGIN and COMMIT
        try:
            for pragma in (
                "journal_mode = WAL",
                f"synchronous = {synchronous.upper()}",
                "foreign_keys = ON",
                f"busy_timeout = {BUSY_MS}",
            ):
                await conn.execute(f"PRAGMA {pragma}")
            backend = cls(conn, path)
            await backend.migrate()
        except BaseException:
            await conn.close()
            raise
        return backend

    @watched
    async def read(self, body: Body[R], *, single: bool = False) -> R:
        async with self._turn:
            if single:
                return await body(SqliteTx(self._conn, single=True))
            return await run_sqlite(self._conn, "BEGIN", body)

    @watched
    async def write(self, channel_id: int, body: Body[R]) -> R:
        async with self._turn:
            result = await run_sqlite(self._conn, "BEGIN IMMEDIATE", body)
        for told in self.committed:
            told(channel_id)
        return result

    async def migrate(self, migrations: list[Migration] | None = None) -> list[int]:
        wanted = load_migrations(self.dialect) if migrations is None else migrations
        async with self._turn:
            return await migrate_sqlite(self._conn, wanted, self._path)

    async def close(self) -> None:
        async with self._turn:
            await self._conn.close()
