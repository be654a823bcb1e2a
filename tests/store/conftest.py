"""`db`: the store's tests run once on a SQLite file and once on a fresh PostgreSQL database.
It also reads and writes around the store (dumps, changes that skip the log) for either."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

Rows = dict[str, list[tuple[Any, ...]]]


@dataclass(frozen=True)
class Database:
    dialect: str  # "sqlite" or "postgres", as Store.dialect names it
    url: str
    path: Path | None = None  # the SQLite file

    async def dump(self) -> Rows:
        """Every row of every table, read by a separate plain connection."""
        if self.path is not None:
            with sqlite3.connect(self.path) as db:
                names = [
                    r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                ]
                return {
                    n: sorted(db.execute(f"SELECT * FROM {n}").fetchall(), key=repr) for n in names
                }
        conn = await self._connect()
        try:
            names = [
                r["table_name"]
                for r in await conn.fetch(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
                )
            ]
            return {
                n: sorted((tuple(r) for r in await conn.fetch(f"SELECT * FROM {n}")), key=repr)
                for n in names
            }
        finally:
            await conn.close()

    async def execute(self, sql: str) -> None:
        """SQL run outside the store (and its log), committed at once."""
        if self.path is not None:
            with sqlite3.connect(self.path) as db:
                db.execute(sql)
            return
        conn = await self._connect()
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    async def _connect(self) -> Any:
        import asyncpg

        return await asyncpg.connect(self.url)

    # What each database raises for the same fault.
    @property
    def overflow(self) -> type[Exception]:
        """A number too large for a 64-bit integer column."""
        if self.path is not None:
            return OverflowError
        import asyncpg

        return asyncpg.DataError

    @property
    def missing_table(self) -> type[Exception]:
        if self.path is not None:
            return sqlite3.OperationalError
        import asyncpg

        return asyncpg.UndefinedTableError

    @property
    def check_violation(self) -> type[Exception]:
        if self.path is not None:
            return sqlite3.IntegrityError
        import asyncpg

        return asyncpg.CheckViolationError


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    if request.param == "sqlite":
        path = tmp_path / "tk.db"
        return Database("sqlite", f"sqlite:///{path}", path)
    return Database("postgres", request.getfixturevalue("postgres_url"))
