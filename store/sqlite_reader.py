"""Quick reads on SQLite: a channel's Table or a page of its history (small, bounded reads, a few
dozen microseconds of SQLite) run at once on the event loop's thread, over a second, read-only
connection, instead of a hop to the writing connection's thread and back.

In WAL mode a reader never waits for a writer, so it can't hold the loop up; if SQLite says
busy all the same (another process recovering the log), the read takes the hop instead. Each
read is a fresh snapshot of the file, so it sees every commit, of this process or another.

It pays on every look: in `tests.benchmarks.commands --sections latency`, side by side with
every read taking the hop (four runs each), /party show takes 1.5× the echo bot against 1.9×,
/history 1.7× against 2.0×. It has a cost the hop has not: with it open, a commit's sync of
the log takes longer (under strace, on a fresh database, fdatasync 1.2 ms at the median
against 0.26 ms with no reader; most likely its reads of the log stamp the file's access
time, which the sync then writes too), which shows in /fatigue spend's figures."""

from __future__ import annotations

import sqlite3
from collections.abc import Hashable
from typing import TypeVar, cast

from store.backend import Body
from store.remembered import Remembered, Scope, stamps
from store.sqlite_tx import run_transaction

R = TypeVar("R")


class QuickReader:
    """The connection for quick reads, used only on the event loop's thread: it can't write
    (query_only), and never waits for a lock (busy_timeout 0: the read takes the hop instead).
    A read with a key is answered from `Remembered` while its scope's stamps are unchanged."""

    def __init__(self, conn: sqlite3.Connection, remembered: Remembered) -> None:
        self._conn = conn
        self._remembered = remembered

    @classmethod
    def open(cls, path: str, remembered: Remembered) -> QuickReader | None:
        """None for an in-memory database, which a second connection would not share."""
        if path == ":memory:":
            return None
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("PRAGMA query_only = ON")
        conn.execute("PRAGMA busy_timeout = 0")
        return cls(conn, remembered)

    def read(self, body: Body[R], key: Hashable = None, scope: Scope | None = None) -> R:
        """`body` in a snapshot; with a `key` and `scope` (naming all that `body` reads, and the
        channel and server it reads them of: its result must be immutable, as it is shared),
        the answer remembered for it while the scope's stamps are unchanged."""
        if key is None or scope is None:
            return run_transaction(self._conn, body)
        # Read before the snapshot, the stamps may be older than what the body reads, never
        # newer: an answer is remembered by stamps that can only make it read again too soon.
        now = stamps(self._conn, scope)
        found = self._remembered.get(key, now)
        if found is not None:
            return cast(R, found)
        result = run_transaction(self._conn, body)
        self._remembered.put(key, result, now)
        return result

    def close(self) -> None:
        self._conn.close()
