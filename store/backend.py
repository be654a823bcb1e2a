"""The seam between the one `Store` and a database: what differs between SQLite and PostgreSQL
(connecting, placeholders, running a transaction, the per-channel lock, migrations) lives
behind these two protocols; the SQL the store writes is the same for both.

A transaction is a `Body`: a coroutine function of a `Tx`, which awaits its statements one by
one. The backend begins the transaction, runs the body, and commits when it returns or rolls
back if it raises."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from store.errors import StoreError

Row = dict[str, Any]
R = TypeVar("R")


class Tx(Protocol):
    """One open transaction. SQL uses `?` placeholders; each backend binds them its own way."""

    dialect: str  # "sqlite" or "postgres": where the SQL a body sends may differ

    async def fetchone(self, sql: str, *args: Any) -> Row | None: ...

    async def fetchall(self, sql: str, *args: Any) -> list[Row]: ...

    async def fetchvalues(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        """Rows as bare tuples in the order the SELECT names its columns: for rows decoded
        straight into values (no dict built only to be taken apart again)."""
        ...

    async def execute(self, sql: str, *args: Any) -> None: ...


Body = Callable[[Tx], Awaitable[R]]


class Backend(Protocol):
    dialect: str  # names the folder of its migrations: store/migrations/<dialect>/
    # Told of every read (False) and change (True) that reached the database (`store.faults`).
    watcher: Callable[[bool], None] | None

    async def read(self, body: Body[R], *, single: bool = False) -> R:
        """Run `body` in a transaction that sees one consistent snapshot and writes nothing.
        `single`: `body` sends one statement, which is a snapshot by itself, so it runs without
        BEGIN and COMMIT (a round trip each, saved); a second statement is refused."""
        ...

    async def write(self, channel_id: int, body: Body[R]) -> R:
        """Run `body` in one transaction that holds the channel's lock from its start to its
        commit, so two changes to a channel (from this process or another) never interleave.
        It commits when `body` returns, and rolls back if anything in it raises."""
        ...

    async def close(self) -> None: ...


class Counted:
    """What a `single` read's Tx counts: a second statement there would see another snapshot."""

    def __init__(self, single: bool) -> None:
        self._single, self._sent = single, 0

    def _one_more(self) -> None:
        self._sent += 1
        if self._single and self._sent > 1:
            raise StoreError("A read of one statement sent a second")
