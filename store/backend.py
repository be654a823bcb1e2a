"""The seam between the one `Store` and a database: what differs between SQLite and PostgreSQL
(connecting, placeholders, transactions, the channel's lock, migrations) lives behind these two
protocols. A transaction is a `Body`, a coroutine function of a `Tx`: the backend commits when it
returns, and rolls back if it raises."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Sequence
from datetime import datetime
from typing import Any, Protocol, TypeVar

from store.errors import StoreError

Row = dict[str, Any]
R = TypeVar("R")
T = TypeVar("T")


class Tx(Protocol):
    """One open transaction. SQL uses `?` placeholders; each backend binds them its own way."""

    dialect: str  # "sqlite" or "postgres": where the SQL a body sends may differ

    async def fetchone(self, sql: str, *args: Any) -> Row | None: ...

    async def fetchall(self, sql: str, *args: Any) -> list[Row]: ...

    async def fetchvalues(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        """Rows as tuples in the SELECT's column order (no dict built to be taken apart)."""
        ...

    async def execute(self, sql: str, *args: Any) -> None: ...


Body = Callable[[Tx], Awaitable[R]]


class Backend(Protocol):
    dialect: str  # names the folder of its migrations: store/migrations/<dialect>/
    # Told of every read (False) and change (True) that reached the database (`store.errors`).
    watcher: Callable[[bool], None] | None

    async def read(self, body: Body[R], *, single: bool = False) -> R:
        """Run `body` on one snapshot, writing nothing. `single`: one statement, its own
        snapshot, so no BEGIN and COMMIT (a round trip each); a second is refused."""
        ...

    async def write(self, channel_id: int, body: Body[R]) -> R:
        """Run `body` in one transaction holding the channel's lock to its commit, so two
        changes to a channel, from any processes, never interleave."""
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


def moment(at: Any) -> datetime:
    """A time as the database gives it: SQLite's ISO text, PostgreSQL's datetime."""
    return datetime.fromisoformat(at) if isinstance(at, str) else at


def batches(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    """`items` in slices of `size`: the rows one statement writes."""
    for at in range(0, len(items), size):
        yield items[at : at + size]
