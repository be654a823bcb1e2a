"""Apply `store/migrations/<dialect>/V{n}__{name}.sql` in order, each once, tracked in
`schema_version`. The loader serves both dialects; this module runs SQLite's (on any sqlite3
connection: the store's, on its thread), and `store.postgres` runs PostgreSQL's."""

from __future__ import annotations

import logging
import re
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

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


def check_not_newer(found: int | None, known: int, where: str) -> None:
    """Refuse a database whose schema is newer than the code: its new columns and rules
    would be silently ignored, or its data overwritten by an older idea of it."""
    if found is not None and found > known:
        raise StoreError(
            f"The database {where} has schema version {found}, newer than this Tablekeeper "
            f"knows ({known}): run the newer version of the bot, or restore a backup made "
            "for this one"
        )


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
        found[version] = Migration(version, match["name"], path.read_text(encoding="utf-8"))
    versions = sorted(found)
    if not versions:
        raise RuntimeError(f"No migration files in {directory}")
    # V19 comes with another branch, merged later: until then V20 follows V18. Each migration
    # is applied by its own version (`migrate`), so that number left free breaks nothing.
    without_19 = [v for v in range(1, len(versions) + 2) if v != 19]
    if versions not in (list(range(1, len(versions) + 1)), without_19):
        raise RuntimeError(f"Migration versions must be 1, 2, 3, … without gaps: {versions}")
    return [found[v] for v in versions]


def split_statements(sql: str) -> list[str]:
    """Split a script into statements, so a migration can run inside our own transaction
    (executescript would commit first)."""
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


def migrate(conn: sqlite3.Connection, migrations: list[Migration] | None = None) -> list[int]:
    """Apply what is pending to a SQLite connection in autocommit mode (`isolation_level=None`);
    returns the versions applied now. Safe to run from two processes: each migration re-checks
    the version inside its own BEGIN IMMEDIATE transaction."""
    migrations = load_migrations() if migrations is None else migrations
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    applied: list[int] = []
    for migration in migrations:
        conn.execute("BEGIN IMMEDIATE")
        try:
            found = conn.execute(
                "SELECT 1 FROM schema_version WHERE version = ?", (migration.version,)
            )
            done = found.fetchone() is not None
            if not done:
                for statement in split_statements(migration.sql):
                    conn.execute(statement)
                conn.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                    (migration.version, migration.name, datetime.now(UTC).isoformat()),
                )
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        if not done:
            log.info("Applied migration V%d__%s", migration.version, migration.name)
            applied.append(migration.version)
    return applied
