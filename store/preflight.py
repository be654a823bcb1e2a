"""Before the SQLite file is opened: refuse, in one line and without writing a byte, a missing
folder (a typo would start an empty database), a file that is no SQLite database or is corrupt,
a file or folder the bot can't write, and a schema newer than the code: at start-up, not at the
first command."""

from __future__ import annotations

import errno
import os
import sqlite3
import tempfile
from pathlib import Path
from urllib.parse import quote

import aiosqlite

from store.errors import StoreError
from store.migrate import check_not_newer


async def check_sqlite_file(path: str, known_version: int) -> None:
    """StoreError naming what is wrong with `path` (a file not there yet is fine)."""
    if path == ":memory:":
        return
    file = Path(path)
    folder = file.parent.resolve()
    if not folder.is_dir():
        raise StoreError(
            f"The folder {folder} for the database does not exist: create it, or fix "
            "DATABASE_URL (a typo there would otherwise start an empty database)"
        )
    _check_writable_folder(folder)  # first: even reading a WAL database writes its -shm there
    if file.exists():
        if not file.is_file():
            raise StoreError(f"The database path {file} is not a file")
        await _check_contents(file, known_version)
        _check_writable_file(file)


async def _check_contents(file: Path, known_version: int) -> None:
    """Read-only: that it is an intact SQLite database whose schema this code knows."""
    uri = f"file:{quote(str(file.resolve()))}?mode=ro"
    try:
        async with aiosqlite.connect(uri, uri=True) as db:
            checked = [tuple(row) for row in await db.execute_fetchall("PRAGMA quick_check")]
            if checked != [("ok",)]:
                raise StoreError(f"The database {file} is corrupt ({checked[0][0]})")
            tables = {
                name for (name,) in await db.execute_fetchall("SELECT name FROM sqlite_master")
            }
            if "schema_version" in tables:
                ((found,),) = await db.execute_fetchall("SELECT max(version) FROM schema_version")
                check_not_newer(found, known_version, str(file))
    except sqlite3.DatabaseError as error:
        if "not a database" in str(error) or "malformed" in str(error):
            raise StoreError(f"The file {file} is not an SQLite database, or is corrupt") from None
        if isinstance(error, sqlite3.OperationalError) and "unable to open" in str(error):
            raise StoreError(f"The database {file} can't be read (permissions?)") from None
        raise StoreError(f"The database {file} can't be used: {error}") from None


def _check_writable_file(file: Path) -> None:
    try:
        os.close(os.open(file, os.O_RDWR))  # opening for writing writes nothing
    except OSError as error:
        if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise StoreError(
                f"The database {file} is read-only: the bot needs to write it"
            ) from None
        raise StoreError(f"The database {file} can't be opened: {error.strerror}") from None


def _check_writable_folder(folder: Path) -> None:
    """SQLite writes its -wal and -shm files (and a new database) beside the database."""
    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".tablekeeper-probe-"):
            pass
    except OSError as error:
        # Read-only (for the bot's user, or the whole disk), or no place for files at all
        # (/proc answers "No such file or directory"): either way, another folder is needed.
        read_only = error.errno in (errno.EACCES, errno.EPERM, errno.EROFS)
        how = "is read-only" if read_only else "can't hold new files"
        raise StoreError(
            f"The folder {folder} {how} ({error.strerror}): the bot writes the database "
            "and its -wal and -shm files there"
        ) from None
