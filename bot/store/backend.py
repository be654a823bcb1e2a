"""The seam between the one `Store` and a database: what differs between SQLite and PostgreSQL
(connecting, placeholders, starting a transaction, the per-channel lock, migrations) lives
behind these two protocols; the SQL the store writes is the same for both."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from bot.store.migrate import Migration

Row = dict[str, Any]


class Tx(Protocol):
    """One open transaction. SQL uses `?` placeholders; each backend binds them its own way."""

    async def fetchone(self, sql: str, *args: Any) -> Row | None: ...

    async def fetchall(self, sql: str, *args: Any) -> list[Row]: ...

    async def execute(self, sql: str, *args: Any) -> None: ...


class Backend(Protocol):
    dialect: str  # names the folder of its migrations: bot/migrations/<dialect>/

    def reading(self) -> AbstractAsyncContextManager[Tx]:
        """A transaction that sees one consistent snapshot and writes nothing."""
        ...

    def writing(self, channel_id: int) -> AbstractAsyncContextManager[Tx]:
        """One transaction that holds the channel's lock from start to commit, so two changes
        to a channel (from this process or another) never interleave. It commits when the block
        ends, and rolls back if anything in it raises."""
        ...

    async def migrate(self, migrations: list[Migration] | None = None) -> list[int]:
        """Apply the pending migrations (all of the dialect's by default); the versions applied."""
        ...

    async def close(self) -> None: ...
