"""Migrations: `store/migrations/<dialect>/V{n}__{name}.sql`, applied in order, each once, and
recorded in `schema_version` with its name and checksum. Each backend applies its own dialect's
(`store.sqlite.migrate_sqlite`, `store.postgres.migrate_postgres`); what they share is here.

A migration that was applied is never edited: the database already holds what its file said
then. So at every start each applied migration's file is checked against the checksum recorded
when it was applied, and a file that has changed stops the start (`check_applied`). Migrations
applied before checksums were recorded take their files' checksums at the first start."""

from __future__ import annotations

import hashlib
import logging
import re
import sqlite3
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from store.backend import Body, Tx
from store.errors import StoreError

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
DIALECTS = ("sqlite", "postgres")
_NAME = re.compile(r"^V(?P<version>[1-9][0-9]*)__(?P<name>[A-Za-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str
    dialect: str = "sqlite"

    @property
    def file(self) -> str:
        return f"store/migrations/{self.dialect}/V{self.version}__{self.name}.sql"

    @property
    def checksum(self) -> str:
        """SHA-256 of the file's text, its line endings as `\\n` (a checkout that writes
        `\\r\\n` has not changed what the migration does)."""
        return hashlib.sha256(self.sql.replace("\r\n", "\n").encode("utf-8")).hexdigest()


def check_not_newer(found: int | None, known: int, where: str) -> None:
    """Refuse a database whose schema is newer than the code: its new columns and rules
    would be silently ignored, or its data overwritten by an older idea of it."""
    if found is not None and found > known:
        raise StoreError(
            f"The database {where} has schema version {found}, newer than this Tablekeeper "
            f"knows ({known}): run the newer version of the bot, or restore a backup made "
            "for this one"
        )


def check_applied(
    applied: Iterable[tuple[int, str, str | None]], migrations: list[Migration], where: str
) -> list[Migration]:
    """Given `schema_version`'s rows (version, name, checksum), refuse a database newer than the
    code, or one a migration of which was applied from a file that has changed since (one line
    saying which file, and what to do); return the applied migrations with no checksum yet."""
    rows = list(applied)
    check_not_newer(max((row[0] for row in rows), default=None), migrations[-1].version, where)
    by_version = {m.version: m for m in migrations}
    unrecorded = []
    for version, name, checksum in rows:
        migration = by_version.get(version)
        if migration is None:  # an older list than the dialect's (a test's, a tool's)
            continue
        if name != migration.name or (checksum is not None and checksum != migration.checksum):
            raise StoreError(
                f"{migration.file} is not the V{version}__{name}.sql that was applied to the "
                f"database {where}: put back that file as released, or run the release that "
                "set up this database (a migration once applied is never edited: a change "
                "goes in a new one)"
            )
        if checksum is None:
            unrecorded.append(migration)
    return unrecorded


def load_migrations(dialect: str = "sqlite", directory: Path | None = None) -> list[Migration]:
    """Every migration file of the dialect, by version; a stray or duplicate file name is an
    error, not a skip."""
    if dialect not in DIALECTS:
        raise RuntimeError(f"No migrations for {dialect!r}: one of {', '.join(DIALECTS)}")
    directory = MIGRATIONS_DIR / dialect if directory is None else directory
    found: dict[int, Migration] = {}
    for path in sorted(directory.glob("*.sql")):
        match = _NAME.match(path.name)
        if match is None:
            raise RuntimeError(f"Migration file {path.name} is not named V<n>__<name>.sql")
        version = int(match["version"])
        if version in found:
            raise RuntimeError(f"Two migrations share version {version}")
        text = path.read_text(encoding="utf-8")
        found[version] = Migration(version, match["name"], text, dialect)
    versions = sorted(found)
    if not versions:
        raise RuntimeError(f"No migration files in {directory}")
    if versions != list(range(1, len(versions) + 1)):
        raise RuntimeError(f"Migration versions must be 1, 2, 3, … without gaps: {versions}")
    return [found[v] for v in versions]


def split_statements(sql: str) -> list[str]:
    """Split a script into statements, so a migration can run inside our own transaction
    (executescript would commit first). Only parses text: it opens no database."""
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


SCHEMA_VERSION = (
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
    " applied_at {time} NOT NULL, checksum TEXT)"
)
TIME = {"sqlite": "TEXT", "postgres": "TIMESTAMPTZ"}
# Runs a body in a transaction of its own (the backend's BEGIN, its COMMIT or ROLLBACK).
Transaction = Callable[[Body[Any]], Awaitable[Any]]


async def apply_migrations(
    transaction: Transaction, migrations: list[Migration], where: str
) -> list[int]:
    """Check what was applied (`check_applied`, recording the checksums not yet recorded), then
    apply what is pending, each migration with its `schema_version` row in a transaction of
    its own that first reads whether another process applied it meanwhile; the versions
    applied now."""

    async def check(tx: Tx) -> set[int]:
        await tx.execute(SCHEMA_VERSION.format(time=TIME[tx.dialect]))
        if tx.dialect == "postgres":
            await tx.execute("ALTER TABLE schema_version ADD COLUMN IF NOT EXISTS checksum TEXT")
        elif not await tx.fetchone(
            "SELECT 1 FROM pragma_table_info('schema_version') WHERE name = 'checksum'"
        ):
            await tx.execute("ALTER TABLE schema_version ADD COLUMN checksum TEXT")
        rows = await tx.fetchvalues("SELECT version, name, checksum FROM schema_version")
        for migration in check_applied(rows, migrations, where):
            await tx.execute(
                "UPDATE schema_version SET checksum = ? WHERE version = ?",
                migration.checksum,
                migration.version,
            )
        return {row[0] for row in rows}

    done: set[int] = await transaction(check)
    applied = []
    for migration in migrations:
        if migration.version in done:
            continue

        async def step(tx: Tx, migration: Migration = migration) -> bool:
            if await tx.fetchone(
                "SELECT 1 FROM schema_version WHERE version = ?", migration.version
            ):
                return False  # another process was first
            # PostgreSQL runs a script whole (a statement with no arguments may be several).
            whole = tx.dialect == "postgres"
            for statement in [migration.sql] if whole else split_statements(migration.sql):
                await tx.execute(statement)
            await tx.execute(
                "INSERT INTO schema_version (version, name, applied_at, checksum)"
                " VALUES (?, ?, ?, ?)",
                migration.version,
                migration.name,
                datetime.now(UTC),
                migration.checksum,
            )
            return True

        if await transaction(step):
            log.info("Applied migration V%d__%s", migration.version, migration.name)
            applied.append(migration.version)
    return applied
