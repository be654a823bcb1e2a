"""Migrations: `store/migrations/<dialect>/V{n}__{name}.sql`, applied in order, each once, and
recorded in `schema_version` with its name and checksum. An applied migration is never edited (a
change goes in a new one): a file whose checksum differs from the one recorded stops the start."""

from __future__ import annotations

import functools
import hashlib
import logging
import re
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from store.backend import Body, Tx
from store.errors import StoreError

log = logging.getLogger(__name__)
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
_NAME = re.compile(r"^V(?P<version>[1-9][0-9]*)__(?P<name>[A-Za-z0-9_]+)\.sql$")
_TIME = {"sqlite": "TEXT", "postgres": "TIMESTAMPTZ"}  # applied_at's type in each dialect
Transaction = Callable[[Body[Any]], Awaitable[Any]]  # runs a body in a transaction of its own


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str
    dialect: str = "sqlite"

    @property
    def checksum(self) -> str:
        """SHA-256 of its text, line endings as `\\n` (a checkout's `\\r\\n` changes nothing)."""
        return hashlib.sha256(self.sql.replace("\r\n", "\n").encode("utf-8")).hexdigest()


def check_not_newer(found: int | None, known: int, where: str) -> None:
    """Refuse a schema newer than the code, which would ignore or overwrite what it adds."""
    if found is not None and found > known:
        raise StoreError(
            f"The database {where} has schema version {found}, newer than this Tablekeeper "
            f"knows ({known}): run the newer version of the bot, or restore a backup made "
            "for this one"
        )


def load_migrations(dialect: str = "sqlite", directory: Path | None = None) -> list[Migration]:
    """Every migration file of the dialect, by version; a stray or duplicate name is an error."""
    if dialect not in _TIME:
        raise RuntimeError(f"No migrations for {dialect!r}: one of {', '.join(_TIME)}")
    found: dict[int, Migration] = {}
    for path in sorted((directory or MIGRATIONS_DIR / dialect).glob("*.sql")):
        match = _NAME.match(path.name)
        if match is None:
            raise RuntimeError(f"Migration file {path.name} is not named V<n>__<name>.sql")
        version = int(match["version"])
        if version in found:
            raise RuntimeError(f"Two migrations share version {version}")
        text = path.read_text(encoding="utf-8")
        found[version] = Migration(version, match["name"], text, dialect)
    if set(range(1, max(found, default=0) + 1)) - found.keys():
        raise RuntimeError(f"Migration versions must be 1, 2, 3, … without gaps: {sorted(found)}")
    return [found[v] for v in sorted(found)]


async def apply_migrations(
    transaction: Transaction, migrations: list[Migration], where: str
) -> list[int]:
    """Check what was applied, then apply what is pending, each migration with its row in a
    transaction that first reads whether another process was first; the versions applied."""
    files = {m.version: m for m in migrations}

    async def check(tx: Tx) -> set[int]:
        await tx.execute(
            "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY,"
            f" name TEXT NOT NULL, applied_at {_TIME[tx.dialect]} NOT NULL, checksum TEXT)"
        )
        if tx.dialect == "postgres":
            await tx.execute("ALTER TABLE schema_version ADD COLUMN IF NOT EXISTS checksum TEXT")
        elif not await tx.fetchone(
            "SELECT 1 FROM pragma_table_info('schema_version') WHERE name = 'checksum'"
        ):
            await tx.execute("ALTER TABLE schema_version ADD COLUMN checksum TEXT")
        rows = await tx.fetchvalues("SELECT version, name, checksum FROM schema_version")
        check_not_newer(max((r[0] for r in rows), default=None), migrations[-1].version, where)
        for version, name, checksum in rows:
            file = files.get(version)  # None: a list shorter than the dialect's (a test's)
            if file is not None and (name, checksum or file.checksum) != (file.name, file.checksum):
                raise StoreError(
                    f"store/migrations/{file.dialect}/V{version}__{file.name}.sql is not the"
                    f" V{version}__{name}.sql that was applied to the database {where}: put"
                    " back that file as released, or run the release that set up this database"
                    " (a migration once applied is never edited: a change goes in a new one)"
                )
            if file is not None and checksum is None:  # applied before checksums were recorded
                await tx.execute(
                    "UPDATE schema_version SET checksum = ? WHERE version = ?",
                    file.checksum,
                    version,
                )
        return {row[0] for row in rows}

    async def apply(migration: Migration, tx: Tx) -> bool:
        if await tx.fetchone("SELECT 1 FROM schema_version WHERE version = ?", migration.version):
            return False  # another process was first
        # PostgreSQL runs a script whole (a statement without arguments may be several).
        whole = tx.dialect == "postgres"
        for statement in [migration.sql] if whole else split_statements(migration.sql):
            await tx.execute(statement)
        await tx.execute(
            "INSERT INTO schema_version (version, name, applied_at, checksum) VALUES (?, ?, ?, ?)",
            migration.version,
            migration.name,
            datetime.now(UTC),
            migration.checksum,
        )
        return True

    done: set[int] = await transaction(check)
    applied = []
    for migration in migrations:
        if migration.version not in done and await transaction(functools.partial(apply, migration)):
            log.info("Applied migration V%d__%s", migration.version, migration.name)
            applied.append(migration.version)
    return applied


def split_statements(sql: str) -> list[str]:
    """A script's statements, to run in our own transaction (executescript commits first)."""
    statements: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if _has_code(buffer):
                statements.append(buffer.strip())
            buffer = ""
    if _has_code(buffer):
        raise RuntimeError(f"Migration ends in an unfinished statement: {buffer.strip()[:60]!r}")
    return statements


def _has_code(text: str) -> bool:
    return any(line.split("--", 1)[0].strip() for line in text.splitlines())
