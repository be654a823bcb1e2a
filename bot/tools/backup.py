"""`python -m bot backup PATH`: an online, consistent copy of the live SQLite database through
SQLite's backup API, safe while the bot runs: the copy is one moment of the database, with
every committed change up to then (WAL included) and none half-made.

PostgreSQL has its own tools for this (pg_dump); the command says so.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.settings import one_setting, redacted_url
from bot.tools import ToolError
from store.postgres import is_postgres_url
from store.sqlite import PREFIX as SQLITE_PREFIX
from store.sqlite import sqlite_path

PAGES = 256  # copied per step; between steps the bot's writes go on (and restart the copy)
DEFAULT_URL = "sqlite:///tablekeeper.db"


def backup(path: str, database_url: str | None = None) -> str:
    url = database_url or one_setting("DATABASE_URL") or DEFAULT_URL
    if is_postgres_url(url):
        raise ToolError(
            f"{redacted_url(url)} is PostgreSQL: back it up with pg_dump, or copy it to a SQLite"
            " file with python -m bot copy-db"
        )
    if not url.startswith(SQLITE_PREFIX):
        raise ToolError("DATABASE_URL must be sqlite:///path.db for a backup")
    source = Path(sqlite_path(url))
    target = Path(path)
    if not source.is_file():
        raise ToolError(f"No database at {source}: is DATABASE_URL right?")
    if target.exists():
        raise ToolError(f"{target} already exists: give a new file name")
    if target.resolve() == source.resolve():
        raise ToolError("The backup must be another file than the database")
    partial = target.with_name(target.name + ".partial")
    try:
        src = sqlite3.connect(source)  # the backup API only reads it
        dst = sqlite3.connect(partial)
        try:
            src.execute("PRAGMA busy_timeout = 5000")
            src.backup(dst, pages=PAGES)
            # One self-contained file: no -wal beside it to lose when it is moved.
            dst.execute("PRAGMA journal_mode = DELETE")
            (check,) = dst.execute("PRAGMA quick_check").fetchone()
            if check != "ok":
                raise ToolError(f"The copy failed SQLite's check: {check}")
            (changes,) = dst.execute("SELECT count(*) FROM events").fetchone()
        finally:
            src.close()
            dst.close()
    except sqlite3.Error as error:
        partial.unlink(missing_ok=True)
        raise ToolError(f"Could not back up {source}: {error}") from None
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    partial.rename(target)  # only a finished copy ever has the name asked for
    return f"Backed up {source} to {target} ({changes} changes in its history)"
