"""The seam between the one `Store` and a database: what differs between SQLite and PostgreSQL
(connecting, placeholders, running a transaction, the per-channel lock, migrations) lives
behind these two protocols; the SQL the store writes is the same for both.

A transaction is a `Body`: an async function of a `Tx` that awaits nothing but the Tx. The
backend runs it whole: SQLite in one hop to its connection's thread (the Tx's awaits never
suspend there), PostgreSQL on one pooled connection."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable
from typing import Any, Protocol, TypeVar

from store.migrate import Migration

Row = dict[str, Any]
R = TypeVar("R")


class Executes(Protocol):
    """What writes rows: a `Tx`, or (PostgreSQL) `retention.Held`, which sends them later."""

    async def execute(self, sql: str, *args: Any) -> None: ...


class Tx(Protocol):
    """One open transaction. SQL uses `?` placeholders; each backend binds them its own way."""

    async def fetchone(self, sql: str, *args: Any) -> Row | None: ...

    async def fetchall(self, sql: str, *args: Any) -> list[Row]: ...

    async def fetchvalues(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        """Rows as bare tuples in the order the SELECT names its columns: for rows decoded
        straight into values (no dict built only to be taken apart again)."""
        ...

    async def execute(self, sql: str, *args: Any) -> None: ...

    async def kept(self, key: Hashable, scope: Scope) -> Any:
        """In a change: what an earlier change `keep`-ed under `key`, if nothing in `scope`
        changed since (by anyone); else None (always None on PostgreSQL, which keeps nothing)."""
        ...

    async def keep(self, key: Hashable, scope: Scope, value: Any) -> None:
        """In a change: `value` (immutable) is what reading `key` finds once this commits, as
        long as nothing in `scope` changes; the backend may keep it for the next change and
        the next look (SQLite does, and only if the COMMIT succeeds)."""
        ...

    async def follow(self, key: Hashable, scope: Scope, step: Callable[[Any], Any]) -> None:
        """In a change, after `kept(…, scope)`: a result kept under `key` (with this `scope`)
        by a read or an earlier change, if true as this change began, becomes `step(result)`
        once it commits (on SQLite: the newest page of history gains the change's event, a
        kept table of other parts takes the change's; on PostgreSQL, which keeps nothing, this
        does nothing)."""
        ...


# What a kept result depends on: its channel, and its server (None: the channel row's).
Scope = tuple[int, int | None]
Body = Callable[[Tx], Awaitable[R]]


class Backend(Protocol):
    dialect: str  # names the folder of its migrations: store/migrations/<dialect>/
    # Told of every read (False) and change (True) that reached the database (`store.faults`).
    watcher: Callable[[bool], None] | None

    async def read(
        self,
        body: Body[R],
        *,
        quick: bool = False,
        key: Hashable = None,
        scope: Scope | None = None,
    ) -> R:
        """Run `body` in a transaction that sees one consistent snapshot and writes nothing.
        `quick`: the read is small and bounded (a channel, a page of history), so SQLite may
        run it at once on the event loop's thread instead of a hop to its worker thread; on
        PostgreSQL it must be ONE statement, run without BEGIN and COMMIT (one round trip).
        `key` (with `quick`): names everything `body` reads, so SQLite may answer with a result
        it kept while the database has not changed at all, or (with `scope`: the channel and
        server `body` reads) while nothing in that scope has; the result is then shared, and
        must be immutable."""
        ...

    async def write(self, channel_id: int, body: Body[R], *, one_statement: bool = False) -> R:
        """Run `body` in one transaction that holds the channel's lock from start to commit,
        so two changes to a channel (from this process or another) never interleave. It
        commits when `body` returns, and rolls back if anything in it raises.
        `one_statement` (PostgreSQL): `body` sends ONE statement, run without BEGIN and COMMIT
        (one round trip), which takes the lock itself (`tk_unchanged`); ChangedSinceRead if it
        found the channel changed. SQLite runs every change the same way."""
        ...

    async def migrate(self, migrations: list[Migration] | None = None) -> list[int]:
        """Apply the pending migrations (all of the dialect's by default); the versions applied."""
        ...

    async def close(self) -> None: ...
