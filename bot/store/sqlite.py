"""The SQLite backend: one aiosqlite connection, one lock, BEGIN IMMEDIATE per change."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import datetime
from typing import Any

import aiosqlite

from bot.store.backend import Row
from bot.store.errors import StoreError
from bot.store.migrate import Migration, load_migrations, migrate
from bot.store.preflight import check_sqlite_file

PREFIX = "sqlite:///"
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


class SqliteTx:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def fetchone(self, sql: str, *args: Any) -> Row | None:
        async with self._db.execute(sql, _bind(args)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else dict(row)

    async def fetchall(self, sql: str, *args: Any) -> list[Row]:
        async with self._db.execute(sql, _bind(args)) as cursor:
            return [dict(row) for row in await cursor.fetchall()]

    async def execute(self, sql: str, *args: Any) -> None:
        await self._db.execute(sql, _bind(args))


class SqliteBackend:
    dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._tx = SqliteTx(db)
        # One connection is shared, so its transactions must not interleave: the lock makes
        # each one run alone; BEGIN IMMEDIATE guards against other processes.
        self._lock = asyncio.Lock()

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
            db.row_factory = aiosqlite.Row
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

    def reading(self) -> AbstractAsyncContextManager[SqliteTx]:
        return self._transaction("BEGIN")

    def writing(self, channel_id: int) -> AbstractAsyncContextManager[SqliteTx]:
        # The whole file is locked for writing, which covers the channel.
        return self._transaction("BEGIN IMMEDIATE")

    @asynccontextmanager
    async def _transaction(self, begin: str) -> AsyncIterator[SqliteTx]:
        async with self._lock:
            await self._db.execute(begin)
            try:
                yield self._tx
                await self._db.execute("COMMIT")
            except BaseException:
                # shield: even if we are being cancelled, the rollback must reach the connection
                await asyncio.shield(self._rollback())
                raise

    async def _rollback(self) -> None:
        if self._db.in_transaction:
            await self._db.execute("ROLLBACK")

    async def migrate(self, migrations: list[Migration] | None = None) -> list[int]:
        async with self._lock:
            return await migrate(
                self._db, load_migrations(self.dialect) if migrations is None else migrations
            )

    async def close(self) -> None:
        async with self._lock:
            await self._db.close()
