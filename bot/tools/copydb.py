"""`python -m bot copy-db SOURCE_URL TARGET_URL`: every channel, character, monster and event
from one Tablekeeper database to another (SQLite → PostgreSQL when outgrowing one machine, and
back), ids kept, so history and undo carry over.

The source is only read (SQLite opened read-only, PostgreSQL in a read-only snapshot). The
target must be empty, or a Tablekeeper database of this version with no rows; its schema is
made by the usual migrations, then every row goes in one transaction: all or nothing.
"""

from __future__ import annotations

import contextlib
import sqlite3
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg
from tqdm import tqdm

from bot.settings import redacted_url
from bot.tools import ToolError
from store.backend import Tx
from store.migrate import load_migrations
from store.postgres import is_postgres_url
from store.sqlite import PREFIX as SQLITE_PREFIX
from store.sqlite import sqlite_path
from store.store import open_backend

# Copied first, in this order (foreign keys); any other table of a later schema comes after.
FIRST = ("channels", "events")
SELF_REFERENCES = {"events": ("undone_by", "undoes")}  # set after every row is in
OWN_BOOKKEEPING = frozenset({"schema_version"})  # each database's own: never copied
# Written by the target itself as the rows they come from go in (migration V23's trigger
# writes a change's keys from its event): copied, they would be there twice.
DERIVED = frozenset({"event_keys"})
CONNECT_TIMEOUT = 10.0


def dialect_of(url: str, role: str) -> str:
    if is_postgres_url(url):
        return "postgres"
    if url.startswith(SQLITE_PREFIX) and len(url) > len(SQLITE_PREFIX):
        return "sqlite"
    raise ToolError(f"{role} must be sqlite:///path.db or postgresql://user:password@host/db")


class Raw:
    """A plain connection for looking at a database before (or without) migrating it."""

    def __init__(self, dialect: str, conn: Any) -> None:
        self.dialect, self._conn = dialect, conn

    async def fetch(self, sql: str, *args: Any) -> list[dict[str, Any]]:
        if self.dialect == "sqlite":
            async with self._conn.execute(sql, args) as cursor:
                return [dict(row) for row in await cursor.fetchall()]
        return [dict(row) for row in await self._conn.fetch(sql, *args)]

    async def tables(self) -> set[str]:
        if self.dialect == "sqlite":
            sql = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        else:
            sql = (
                "SELECT table_name AS name FROM information_schema.tables"
                " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
            )
        return {row["name"] for row in await self.fetch(sql)}

    async def columns(self, table: str) -> dict[str, str]:
        """Column name -> declared type, in table order."""
        if self.dialect == "sqlite":
            rows = await self.fetch(f'PRAGMA table_info("{table}")')
            return {row["name"]: str(row["type"]).lower() for row in rows}
        rows = await self.fetch(
            "SELECT column_name AS name, data_type AS type FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
            table,
        )
        return {row["name"]: str(row["type"]).lower() for row in rows}

    async def version(self) -> int | None:
        if "schema_version" not in await self.tables():
            return None
        rows = await self.fetch("SELECT max(version) AS version FROM schema_version")
        return rows[0]["version"] if rows else None

    async def count(self, table: str) -> int:
        return int((await self.fetch(f'SELECT count(*) AS n FROM "{table}"'))[0]["n"])


@contextlib.asynccontextmanager
async def connect(url: str, role: str, *, readonly: bool) -> AsyncIterator[Raw]:
    """A connection, or one clear line saying why there is none (never the password)."""
    dialect = dialect_of(url, role)
    shown = f"{role} {redacted_url(url)}"
    if dialect == "sqlite":
        path = sqlite_path(url)
        if readonly and not Path(path).is_file():
            raise ToolError(f"{shown}: no such file")
        uri = f"file:{Path(path).resolve()}?mode=ro" if readonly else path
        try:
            conn = await aiosqlite.connect(uri, uri=readonly, isolation_level=None)
        except sqlite3.Error as error:
            raise ToolError(f"Could not open {shown}: {error}") from None
        try:
            conn.row_factory = aiosqlite.Row
            await conn.execute("SELECT count(*) FROM sqlite_master")  # reads the header
        except Exception as error:
            await conn.close()  # its thread would keep the process alive
            raise ToolError(f"{shown} is not a SQLite database: {error}") from None
        try:
            if readonly:
                await conn.execute("BEGIN")  # one consistent snapshot for the whole read
            yield Raw(dialect, conn)
        finally:
            await conn.close()
        return
    try:
        conn = await asyncpg.connect(url, timeout=CONNECT_TIMEOUT)
    except Exception as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ToolError(f"Could not connect to {shown}: {reason}") from None
    try:
        if readonly:
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                yield Raw(dialect, conn)
        else:
            yield Raw(dialect, conn)
    finally:
        await conn.close()


async def check_source(raw: Raw, url: str) -> list[str]:
    """The tables to copy, or why SOURCE is not a Tablekeeper database of this version."""
    shown = f"SOURCE {redacted_url(url)}"
    latest = load_migrations(raw.dialect)[-1].version
    version = await raw.version()
    tables = await raw.tables()
    if version is None or not set(FIRST) <= tables:
        raise ToolError(f"{shown} is not a Tablekeeper database (no schema_version, channels)")
    if version < latest:
        raise ToolError(
            f"{shown} is at schema version {version}, this Tablekeeper's is {latest}:"
            " run this version of the bot on it once (it upgrades at start), then copy"
        )
    if version > latest:
        raise ToolError(
            f"{shown} is at schema version {version}, newer than this Tablekeeper's"
            f" ({latest}): copy with the newer version"
        )
    rest = sorted(tables - set(FIRST) - OWN_BOOKKEEPING - DERIVED)
    return [*FIRST, *rest]


async def check_target(raw: Raw, url: str) -> None:
    """TARGET must be empty, or an empty Tablekeeper database of this very version."""
    shown = f"TARGET {redacted_url(url)}"
    tables = await raw.tables()
    if not tables:
        return
    version = await raw.version()
    if version is None:
        names = ", ".join(sorted(tables)[:5])
        raise ToolError(f"{shown} holds other tables ({names}): copy into an empty database")
    latest = load_migrations(raw.dialect)[-1].version
    if version != latest:
        raise ToolError(
            f"{shown} is at schema version {version}, this Tablekeeper's is {latest}:"
            " copy into an empty database"
        )
    filled = {t: n for t in sorted(tables - OWN_BOOKKEEPING) if (n := await raw.count(t))}
    if filled:
        what = ", ".join(f"{n} {t}" for t, n in filled.items())
        raise ToolError(f"{shown} already holds data ({what}): copy into an empty database")


def _convert(value: Any, target_type: str) -> Any:
    """SQLite keeps times as ISO text; PostgreSQL wants datetimes (SQLite's side binds
    datetimes back to text itself)."""
    if isinstance(value, str) and target_type.startswith("timestamp"):
        return datetime.fromisoformat(value)
    return value


@dataclass(frozen=True)
class TableCopy:
    """One table's rows read from SOURCE, and how they go into TARGET."""

    table: str
    names: list[str]
    target_columns: dict[str, str]
    rows: list[Any]


async def read_rows(source: Raw, target: Raw, tables: list[str]) -> list[TableCopy]:
    """Every table's rows from SOURCE, checked against TARGET's columns, before any writing:
    the writing is one transaction that awaits nothing but TARGET (as the store's are)."""
    copies = []
    for table in tables:
        columns = await source.columns(table)
        target_columns = await target.columns(table)
        if set(columns) != set(target_columns):
            raise ToolError(f"Table {table} differs between SOURCE and TARGET: not copied")
        rows = await source.fetch(f'SELECT * FROM "{table}" ORDER BY 1')
        copies.append(TableCopy(table, list(columns), target_columns, rows))
    return copies


async def copy_rows(
    tx: Tx, dialect: str, copies: list[TableCopy], bar: tqdm[Any]
) -> dict[str, int]:
    copied: dict[str, int] = {}
    for copy in copies:
        table, names, target_columns, rows = copy.table, copy.names, copy.target_columns, copy.rows
        later = SELF_REFERENCES.get(table, ())
        overriding = " OVERRIDING SYSTEM VALUE" if dialect == "postgres" else ""
        insert = (
            f'INSERT INTO "{table}" ({", ".join(names)}){overriding}'
            f" VALUES ({', '.join('?' * len(names))})"
        )
        for row in rows:
            values = [
                None if name in later else _convert(row[name], target_columns[name])
                for name in names
            ]
            await tx.execute(insert, *values)
            bar.update(1)
        for name in later:
            for row in rows:
                if row[name] is not None:
                    await tx.execute(
                        f'UPDATE "{table}" SET {name} = ? WHERE id = ?', row[name], row["id"]
                    )
        copied[table] = len(rows)
    if dialect == "postgres" and copied.get("events"):
        # Explicit ids went in past the identity: the next event must come after them.
        await tx.execute(
            "SELECT setval(pg_get_serial_sequence('events', 'id'), (SELECT max(id) FROM events))"
        )
    return copied


async def copy_db(source_url: str, target_url: str) -> str:
    if source_url == target_url:
        raise ToolError("SOURCE and TARGET are the same database")
    async with connect(source_url, "SOURCE", readonly=True) as source:
        tables = await check_source(source, source_url)
        async with connect(target_url, "TARGET", readonly=False) as target:
            await check_target(target, target_url)
            total = sum([await source.count(t) for t in tables])
            backend = await open_backend(target_url)  # creates the schema, as the bot would
            try:
                with tqdm(
                    total=total,
                    unit="rows",
                    desc="Copying",
                    file=sys.stderr,
                    disable=not sys.stderr.isatty(),  # a bar on a terminal, nothing in a log
                ) as bar:
                    copies = await read_rows(source, target, tables)
                    copied = await backend.write(
                        0, lambda tx: copy_rows(tx, target.dialect, copies, bar)
                    )
            finally:
                await backend.close()
    counts = ", ".join(f"{n} {table}" for table, n in copied.items())
    return f"Copied {counts} from {redacted_url(source_url)} to {redacted_url(target_url)}"
