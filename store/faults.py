"""Which of a database driver's failures are outages, raised as the store's own errors.

A backend's `read` and `write` are `watched`: a database that can't be reached, whose disk is
full or that can't be written raises `DatabaseUnreachable`, `DatabaseFull` or `DatabaseReadOnly`
(the driver's error as its cause); any other failure passes unchanged. A call that reached the
database tells the backend's `watcher` (`Store.watch`): that is how an outage's end is noticed.
"""

from __future__ import annotations

import errno
import functools
import os
import socket
import sqlite3
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, Concatenate, ParamSpec, TypeVar

from store.errors import (
    ChangeOutcomeUnknown,
    DatabaseFull,
    DatabaseOutage,
    DatabaseReadOnly,
    DatabaseUnreachable,
)

P = ParamSpec("P")
R = TypeVar("R")
W = TypeVar("W", bound="Watched")

# PostgreSQL's SQLSTATEs: the server is going away or not taking connections (57P01-57P03),
# a statement was cancelled by a timeout or an admin (57014), too many connections (53300);
# its disk is full (53100); it only reads (25006: a standby, or default_transaction_read_only).
# Class 08, a connection's failure, is matched by its prefix.
PG_UNREACHABLE = {"57P01", "57P02", "57P03", "57014", "53300"}
PG_FULL, PG_READ_ONLY = "53100", "25006"
PG_LOST = {"08003", "08006"}  # the connection is gone, or failed, with no answer to read
NETWORK = {
    errno.ECONNREFUSED,
    errno.ECONNRESET,
    errno.ECONNABORTED,
    errno.EHOSTUNREACH,
    errno.ENETUNREACH,
    errno.ETIMEDOUT,
    errno.EPIPE,
}


class Watched:
    """What `watched` reads of a backend: its database's files (is a failed write's file
    read-only?) and the watcher told of each call that reached the database (True: a change)."""

    files: tuple[str, ...] = ()
    watcher: Callable[[bool], None] | None = None


def watched(
    method: Callable[Concatenate[W, P], Coroutine[Any, Any, R]],
) -> Callable[Concatenate[W, P], Coroutine[Any, Any, R]]:
    """A backend's `read` or `write`, its outages said as the store's own errors."""
    wrote = method.__name__ == "write"

    @functools.wraps(method)
    async def call(backend: W, /, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            result = await method(backend, *args, **kwargs)
        except DatabaseOutage:
            raise
        except Exception as error:
            found = outage_of(error, backend.files)
            if found is None:
                raise
            raise found from error
        if backend.watcher is not None:
            backend.watcher(wrote)
        return result

    return call


def sqlite_files(path: str) -> tuple[str, ...]:
    """A SQLite database's files (none in memory): itself, its write-ahead log and its index."""
    return () if path == ":memory:" else (path, f"{path}-wal", f"{path}-shm")


def outage_of(error: BaseException, files: tuple[str, ...] = ()) -> DatabaseOutage | None:
    """The outage `error` (or what it was raised from or while handling) is, or None."""
    for cause in _chain(error):
        found = _sqlite(cause, files) or _postgres(cause) or _network(cause)
        if found is not None:
            return found
    return None


def commit_lost(error: BaseException) -> ChangeOutcomeUnknown | None:
    """A COMMIT whose connection was lost before its answer came (PostgreSQL): the change's
    outcome is unknown. Any answer at all (even a shutdown's) says it was not saved: None."""
    lost = getattr(error, "sqlstate", None) in PG_LOST or isinstance(
        error, ConnectionError | TimeoutError
    )
    return ChangeOutcomeUnknown(f"{type(error).__name__}: {error}") if lost else None


def _chain(error: BaseException) -> Iterator[BaseException]:
    """`error`, then its causes: on a full disk SQLite rolls the whole transaction back, so a
    savepoint's own rollback then fails, the cause behind it."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _sqlite(error: BaseException, files: tuple[str, ...]) -> DatabaseOutage | None:
    if not isinstance(error, sqlite3.Error):
        return None
    code = getattr(error, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF  # an extended code's low byte
    what = f"SQLite: {error}"
    if primary == sqlite3.SQLITE_FULL:
        return DatabaseFull(what)
    if primary == sqlite3.SQLITE_READONLY:
        return DatabaseReadOnly(what)
    if primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):  # past the busy timeout
        return DatabaseUnreachable(what)
    if primary in (sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN) and _read_only(files):
        return DatabaseReadOnly(f"{what} (the database file can't be written)")
    return None


def _read_only(files: tuple[str, ...]) -> bool:
    """A database file there but not writable now (read-only, immutable, or remounted so)."""
    return any(os.path.exists(f) and not os.access(f, os.W_OK) for f in files)


def _postgres(error: BaseException) -> DatabaseOutage | None:
    state = getattr(error, "sqlstate", None)
    if not isinstance(state, str) or type(error).__module__.split(".")[0] != "asyncpg":
        return None
    what = f"PostgreSQL: {type(error).__name__}: {error}"
    if state.startswith("08") or state in PG_UNREACHABLE:
        return DatabaseUnreachable(what)
    if state == PG_FULL:
        return DatabaseFull(what)
    if state == PG_READ_ONLY:
        return DatabaseReadOnly(what)
    return None


def _network(error: BaseException) -> DatabaseOutage | None:
    """A server that can't be reached: refused, reset, timed out, not found (asyncio's OSError
    for every address refused has no errno), or a connection it ended (`_ended`)."""
    if (
        isinstance(error, ConnectionError | TimeoutError | socket.gaierror)
        or (isinstance(error, OSError) and error.errno in NETWORK)
        or (type(error) is OSError and error.errno is None)
        or _ended(error)
    ):
        return DatabaseUnreachable(f"{type(error).__name__}: {error}".rstrip(": "))
    return None


def _ended(error: BaseException) -> bool:
    """asyncpg's words for a pooled connection the server ended: closed, or ended while idle
    (its next statement finds "another operation in progress", which the store, never sharing
    a connection between two statements, can't cause otherwise)."""
    name, text = type(error).__name__, str(error)
    return (name == "InterfaceError" and text == "connection is closed") or (
        name == "InternalClientError" and "another operation" in text
    )
