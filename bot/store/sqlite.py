"""The SQLite store: one connection, one lock, one transaction per change."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar

import aiosqlite

from bot.store import codec
from bot.store.migrate import migrate
from bot.table import Table

log = logging.getLogger(__name__)

R = TypeVar("R")
T = TypeVar("T")
_PREFIX = "sqlite:///"
HISTORY_MAX = 100


class StoreError(Exception):
    """The store can't be opened or used as asked (a bad URL, a function that moved channels)."""


@dataclass(frozen=True)
class Event:
    """One change to a channel, newest first from `Store.history`."""

    id: int
    actor_id: int
    action: str
    created_at: datetime  # wall time, UTC
    before: dict[str, Any]  # codec.Snapshot: what changed, as it was
    after: dict[str, Any]  # ... and as it became; codec.restore(table, before) undoes it
    channel_id: int = 0
    clock: int = 0  # the game clock after the change
    undone_by: int | None = None  # the id of the undo event that reverted this one
    undoes: int | None = None  # on an undo event: the id of the event it reverted


def event_from_row(row: Any) -> Event:
    """An `events` row (an aiosqlite.Row or a dict) as an Event."""
    return Event(
        id=row["id"],
        actor_id=row["actor_id"],
        action=row["action"],
        created_at=datetime.fromisoformat(row["created_at"]),
        before=json.loads(row["before"]),
        after=json.loads(row["after"]),
        channel_id=row["channel_id"],
        clock=row["clock"],
        undone_by=row["undone_by"],
        undoes=row["undoes"],
    )


def sqlite_path(url: str) -> str:
    """`sqlite:///rel/path.db` → `rel/path.db`, `sqlite:////abs.db` → `/abs.db`, and
    `sqlite:///:memory:` → `:memory:`."""
    if not url.startswith(_PREFIX) or len(url) == len(_PREFIX):
        raise StoreError(f"Database URLs look like sqlite:///path/to/file.db, not {url!r}")
    return url[len(_PREFIX) :]


def _utcnow() -> datetime:
    return datetime.now(UTC)


class Store:
    """Open with `await Store.open(url)` or `async with Store.open(url) as store:`."""

    def __init__(self, db: aiosqlite.Connection, now: Callable[[], datetime] = _utcnow) -> None:
        self._db = db
        self._now = now
        # One connection is shared, so its transactions must not interleave: the lock makes
        # each read or apply run alone; BEGIN IMMEDIATE guards against other processes.
        self._lock = asyncio.Lock()

    @classmethod
    def open(cls, url: str, *, now: Callable[[], datetime] = _utcnow) -> _Opening:
        return _Opening(cls, url, now)

    @classmethod
    async def _open(cls, url: str, now: Callable[[], datetime]) -> Store:
        path = sqlite_path(url)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: no implicit transactions; we BEGIN and COMMIT ourselves.
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            db.row_factory = aiosqlite.Row
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute("PRAGMA busy_timeout = 5000")
            await migrate(db)
        except BaseException:
            await db.close()
            raise
        return cls(db, now)

    async def close(self) -> None:
        async with self._lock:
            await self._db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # --- reading ---------------------------------------------------------------------------

    async def read(self, channel_id: int, guild_id: int | None = None) -> Table:
        """A snapshot of the channel; an unknown channel reads as the defaults (nothing written)."""
        async with self._lock:
            await self._db.execute("BEGIN")
            try:
                return await self._load(channel_id, guild_id)
            finally:
                await self._db.execute("COMMIT")

    async def _load(self, channel_id: int, guild_id: int | None) -> Table:
        async with self._db.execute(
            "SELECT * FROM channels WHERE channel_id = ?", (channel_id,)
        ) as cursor:
            channel = await cursor.fetchone()
        async with self._db.execute(
            "SELECT * FROM characters WHERE channel_id = ? ORDER BY key", (channel_id,)
        ) as cursor:
            characters = await cursor.fetchall()
        async with self._db.execute(
            "SELECT * FROM monsters WHERE channel_id = ? ORDER BY key", (channel_id,)
        ) as cursor:
            monsters = await cursor.fetchall()
        return codec.table_from_rows(
            channel_id,
            guild_id,
            None if channel is None else dict(channel),
            [dict(row) for row in characters],
            [dict(row) for row in monsters],
        )

    async def history(
        self,
        channel_id: int,
        limit: int = 10,
        before_id: int | None = None,
        after_id: int | None = None,
    ) -> list[Event]:
        """The channel's latest changes, newest first; `before_id` pages further back, and
        `after_id` gives the `limit` changes right after that one (a page back towards now)."""
        if not 1 <= limit <= HISTORY_MAX:
            raise StoreError(f"History limit must be between 1 and {HISTORY_MAX}")
        # Counting up from after_id picks the changes nearest it; they are sorted back below.
        order = "DESC" if after_id is None else "ASC"
        async with (
            self._lock,
            self._db.execute(
                "SELECT * FROM events WHERE channel_id = ? AND (? IS NULL OR id < ?)"
                f" AND (? IS NULL OR id > ?) ORDER BY id {order} LIMIT ?",
                (channel_id, before_id, before_id, after_id, after_id, limit),
            ) as cursor,
        ):
            rows = await cursor.fetchall()
        return sorted(map(event_from_row, rows), key=lambda event: event.id, reverse=True)

    # --- changing --------------------------------------------------------------------------

    async def apply(
        self,
        channel_id: int,
        guild_id: int | None,
        actor_id: int,
        action: str,
        fn: Callable[[Table], tuple[Table, R]],
    ) -> R:
        """Load the channel, run the pure `fn`, save what changed and log it, all in one
        transaction. If `fn` (or anything) raises, nothing is written and the error propagates.
        An unchanged Table writes nothing, not even an event."""
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                before = await self._load(channel_id, guild_id)
                after, result = fn(before)
                if not isinstance(after, Table) or after.channel_id != channel_id:
                    raise StoreError(f"{action}: must return the same channel's Table")
                if after != before:
                    await self._save(before, after, actor_id, action)
                await self._db.execute("COMMIT")
            except BaseException:
                # shield: even if we are being cancelled, the rollback must reach the connection
                await asyncio.shield(self._rollback())
                raise
        return result

    async def _rollback(self) -> None:
        if self._db.in_transaction:
            await self._db.execute("ROLLBACK")

    async def _save(self, before: Table, after: Table, actor_id: int, action: str) -> None:
        old, new = codec.diff(before, after)
        async with self._db.execute(
            "SELECT 1 FROM channels WHERE channel_id = ?", (after.channel_id,)
        ) as cursor:
            exists = await cursor.fetchone() is not None
        if "channel" in new or not exists:  # events and characters need the channel row
            await self._upsert(
                "channels", codec.CHANNEL_COLUMNS, ("channel_id",), codec.channel_row(after)
            )
        await self._save_keyed(
            "characters",
            codec.CHARACTER_COLUMNS,
            after.channel_id,
            new["characters"],
            {c.key: c for c in after.characters},
            codec.character_row,
        )
        await self._save_keyed(
            "monsters",
            codec.MONSTER_COLUMNS,
            after.channel_id,
            new.get("monsters", {}),
            {m.key: m for m in after.monsters},
            codec.monster_row,
        )
        await self._db.execute(
            "INSERT INTO events (channel_id, actor_id, action, created_at, clock, before, after)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                after.channel_id,
                actor_id,
                action,
                self._now().isoformat(),
                after.clock,
                json.dumps(old, ensure_ascii=False, sort_keys=True),
                json.dumps(new, ensure_ascii=False, sort_keys=True),
            ),
        )

    async def _save_keyed(
        self,
        table: str,
        columns: tuple[str, ...],
        channel_id: int,
        changed: Iterable[str],
        current: Mapping[str, T],
        row: Callable[[int, T], tuple[Any, ...]],
    ) -> None:
        """The changed keys of a per-channel table (characters, monsters): upsert the ones
        still at the table, delete the ones gone."""
        for key in changed:
            if key in current:
                await self._upsert(
                    table, columns, ("channel_id", "key"), row(channel_id, current[key])
                )
            else:
                await self._db.execute(
                    f"DELETE FROM {table} WHERE channel_id = ? AND key = ?", (channel_id, key)
                )

    async def _upsert(
        self, table: str, columns: tuple[str, ...], keys: tuple[str, ...], row: tuple[Any, ...]
    ) -> None:
        # Table and column names come from codec's constants, never from input; values are bound.
        updates = ", ".join(f"{c} = excluded.{c}" for c in columns if c not in keys)
        await self._db.execute(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
            f" ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {updates}",
            row,
        )


class _Opening:
    """What `Store.open` returns: await it for a Store, or use it with `async with`."""

    def __init__(self, cls: type[Store], url: str, now: Callable[[], datetime]) -> None:
        self._cls, self._url, self._now = cls, url, now
        self._store: Store | None = None

    def __await__(self) -> Generator[Any, None, Store]:
        return self._cls._open(self._url, self._now).__await__()

    async def __aenter__(self) -> Store:
        self._store = await self._cls._open(self._url, self._now)
        return self._store

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._store is not None:
            await self._store.close()
