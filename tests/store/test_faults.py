"""Which driver errors are outages, for the ones the outage tests can't make for real (a
PostgreSQL disk filling up, SQLite rolling a whole batch back under a savepoint), and that
every other failure passes unchanged: a bug must still reach the log as a bug."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg
import pytest

from rules.errors import RulesError
from store.errors import (
    ChangeOutcomeUnknown,
    DatabaseFull,
    DatabaseOutage,
    DatabaseReadOnly,
    DatabaseUnreachable,
    commit_lost,
    outage_of,
    sqlite_files,
)


def sqlite_error(text: str, code: int) -> sqlite3.OperationalError:
    error = sqlite3.OperationalError(text)
    error.sqlite_errorcode = code  # as sqlite3 sets it
    return error


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (asyncpg.DiskFullError("could not extend file: No space left on device"), DatabaseFull),
        (asyncpg.ReadOnlySQLTransactionError("read-only transaction"), DatabaseReadOnly),
        (asyncpg.CannotConnectNowError("the database system is starting up"), DatabaseUnreachable),
        (asyncpg.AdminShutdownError("terminating connection"), DatabaseUnreachable),
        (asyncpg.TooManyConnectionsError("too many clients already"), DatabaseUnreachable),
        (asyncpg.ConnectionDoesNotExistError("closed in the middle"), DatabaseUnreachable),
        (ConnectionRefusedError(111, "Connect call failed"), DatabaseUnreachable),
        (OSError("Multiple exceptions: [Errno 111] …, [Errno 99] …"), DatabaseUnreachable),
        (TimeoutError(), DatabaseUnreachable),
        (sqlite_error("database or disk is full", 13), DatabaseFull),
        (sqlite_error("attempt to write a readonly database", 1032), DatabaseReadOnly),
        (sqlite_error("database is locked", 5), DatabaseUnreachable),
    ],
)
def test_outages_are_named_by_kind(error: Exception, kind: type[DatabaseOutage]) -> None:
    found = outage_of(error)
    assert type(found) is kind
    assert found is not None and found.reason in ("unreachable", "disk_full", "read_only")


@pytest.mark.parametrize(
    "error",
    [
        RulesError("That character is not at this table"),
        sqlite3.IntegrityError("UNIQUE constraint failed: events.interaction_id"),
        sqlite_error("no such table: characters", 1),
        sqlite_error("disk I/O error", 778),  # on files that can be written: a failing disk
        asyncpg.UniqueViolationError("duplicate key"),
        asyncpg.InterfaceError("pool is closing"),  # the bot shutting down
        FileNotFoundError(2, "No such file"),
        OSError(28, "No space left on device"),  # not the database's: no backend says it so
        ValueError("Connection closed"),
    ],
)
def test_other_failures_pass_unchanged(error: Exception) -> None:
    assert outage_of(error, ()) is None


def test_a_full_disk_behind_a_failed_savepoint_is_found(tmp_path: Path) -> None:
    """SQLite rolls a whole transaction back on a full disk, so the change's own rollback to
    its savepoint fails next: the full disk, behind it, is what happened."""
    full = sqlite_error("database or disk is full", 13)
    try:
        try:
            raise full
        except sqlite3.Error:
            raise sqlite_error("no such savepoint: change", 1)  # noqa: B904
    except sqlite3.Error as error:
        assert isinstance(outage_of(error), DatabaseFull)


def test_an_io_error_on_files_that_can_be_written_is_not_read_only(tmp_path: Path) -> None:
    """Only a file that can no longer be written makes an I/O error "read-only" (the immutable
    file tests make one for real); on writable files it is a failing disk: a bug to log."""
    path = tmp_path / "tk.db"
    for file in sqlite_files(str(path)):
        Path(file).write_bytes(b"")
    assert outage_of(sqlite_error("disk I/O error", 778), sqlite_files(str(path))) is None
    assert sqlite_files(":memory:") == ()


def test_a_lost_connection_after_commit_leaves_the_outcome_unknown() -> None:
    lost = commit_lost(asyncpg.ConnectionDoesNotExistError("closed in the middle of operation"))
    assert isinstance(lost, ChangeOutcomeUnknown) and lost.maybe_saved
    assert isinstance(lost, DatabaseUnreachable)  # counted with the database unreachable
    assert commit_lost(ConnectionResetError(104, "reset")) is not None
    # An answer came: the server refused it, or said it was shutting down first.
    assert commit_lost(asyncpg.AdminShutdownError("terminating connection")) is None
    assert commit_lost(asyncpg.SerializationError("could not serialize")) is None
    assert commit_lost(asyncpg.InterfaceError("connection is closed")) is None  # never sent
