"""A transaction on a sqlite3 connection, and how one runs: whole, on the thread that owns the
connection, its awaits never suspending (`drive`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Coroutine, Hashable
from typing import Any, TypeVar

from store.backend import Body, Row
from store.errors import StoreError
from store.remembered import Scope, Stamps, stamps

R = TypeVar("R")
# In a change: the answer remembered under a key, if true at the stamps given (else None).
Lookup = Callable[[Hashable, Stamps], Any]


class SqliteTx:
    """Async in form, to fit `Tx`; synchronous in fact: only ever run by `drive`, on the thread
    that owns the connection. In a change (`lookup` given), it also notes what to remember once
    the change commits (`store.remembered`); a read remembers nothing through it."""

    dialect = "sqlite"

    def __init__(self, conn: sqlite3.Connection, lookup: Lookup | None = None) -> None:
        self._conn = conn
        self._lookup = lookup
        self.began: dict[Scope, Stamps] = {}  # each scope's stamps as `remembered` first found
        self.to_remember: list[tuple[Hashable, Scope, Any]] = []  # what `remember` was given
        # What `step_remembered` was given, with the stamps its scope had as the change began.
        self.steps: list[tuple[Hashable, Scope, Callable[[Any], Any], Stamps]] = []

    async def fetchone(self, sql: str, *args: Any) -> Row | None:
        cursor = self._conn.execute(sql, args)
        row = cursor.fetchone()
        return None if row is None else _rows(cursor, [row])[0]

    async def fetchall(self, sql: str, *args: Any) -> list[Row]:
        cursor = self._conn.execute(sql, args)
        return _rows(cursor, cursor.fetchall())

    async def fetchvalues(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        rows: list[tuple[Any, ...]] = self._conn.execute(sql, args).fetchall()
        return rows

    async def execute(self, sql: str, *args: Any) -> None:
        self._conn.execute(sql, args)

    async def remembered(self, key: Hashable, scope: Scope) -> Any:
        """The answer remembered under `key`, if its scope's stamps are what they were when it
        was true (nothing touched the channel or its server since); else None."""
        if self._lookup is None:
            return None
        now = stamps(self._conn, scope)
        self.began.setdefault(scope, now)
        return self._lookup(key, now)

    async def remember(self, key: Hashable, scope: Scope, answer: Any) -> None:
        """`answer` (immutable) is what a read of `key` finds once this change is committed:
        remembered, with the scope's stamps after the change, if the COMMIT succeeds."""
        if self._lookup is not None:
            self.to_remember.append((key, scope, answer))

    async def step_remembered(
        self, key: Hashable, scope: Scope, step: Callable[[Any], Any]
    ) -> None:
        """An answer remembered under `key` that was true as this change began (its stamps
        then those `remembered` found) becomes `step(answer)` if the COMMIT succeeds."""
        began = self.began.get(scope)
        if began is not None:
            self.steps.append((key, scope, step, began))


def _rows(cursor: sqlite3.Cursor, rows: list[tuple[Any, ...]]) -> list[Row]:
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in rows]


def drive(coro: Coroutine[Any, Any, R]) -> R:
    """Run a coroutine that never suspends (a body over a SqliteTx) to its end."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise StoreError("A SQLite transaction awaited something other than its database")


def run_transaction(conn: sqlite3.Connection, body: Body[R]) -> R:
    """The whole transaction, on the thread that uses `conn`. Even if the awaiting task is
    cancelled meanwhile, this runs to its COMMIT or ROLLBACK."""
    conn.execute("BEGIN")
    try:
        result: R = drive(body(SqliteTx(conn)))  # type: ignore[arg-type]
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result
