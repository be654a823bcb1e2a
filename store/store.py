"""The store: one transaction per change, an event log, the same for every backend.

`Store.open("sqlite:///tablekeeper.db")` or `Store.open("postgresql://user:pass@host/db")`;
what differs between the two lives behind `store.backend.Backend`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import json
import logging
from collections.abc import (
    AsyncIterator,
    Callable,
    Coroutine,
    Generator,
    Iterable,
    Mapping,
)
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, Self, TypeVar

from store import codec, retention
from store.backend import Backend, Executes, Row, Scope, Tx
from store.errors import AlreadyApplied, ChangedSinceRead, StoreError
from store.events import EVENT_COLUMNS, Event, event_from_row, event_from_values
from store.postgres import is_postgres_url
from store.sqlite import PREFIX as SQLITE_PREFIX
from store.sqlite import SqliteBackend
from table.model import PARTS, Table

log = logging.getLogger(__name__)
R = TypeVar("R")
T = TypeVar("T")
HISTORY_MAX = 100
HISTORY_PAGE = 11  # what /history reads at a time: ten lines, and one to know if more are older
UNLOCKED_TRIES = 3  # PostgreSQL: changes in two round trips tried, before one holding the lock
LEFT_KEPT = 2048  # PostgreSQL: channels whose last change's table is kept for the next
CHARACTERS, MONSTERS, INITIATIVE = PARTS
Parts = frozenset[str]  # what a command loads besides the channel row
EVERYTHING: Parts = frozenset(PARTS)
URL_FORMS = "sqlite:///path/to/file.db or postgresql://user:password@host:5432/database"


async def open_backend(
    url: str, sqlite_synchronous: str = "full", retry_for: float = 0.0
) -> Backend:
    """The backend the URL names: SQLite (`sqlite:///…`) or PostgreSQL (`postgresql://…`).
    `sqlite_synchronous` ("full" or "normal") is SQLite's durability; PostgreSQL's commit is
    always durable (its default synchronous_commit). A PostgreSQL server that can't be reached
    is tried again for `retry_for` seconds: it may still be starting."""
    if is_postgres_url(url):
        from store.postgres import PostgresBackend

        return await PostgresBackend.open(url, retry_for)
    if url.startswith(SQLITE_PREFIX):
        return await SqliteBackend.open(url, sqlite_synchronous)
    scheme = url.split(":", 1)[0] if ":" in url else url  # never echo a password
    raise StoreError(f"Database URLs look like {URL_FORMS}, not {scheme!r}…")


# A channel read: its row (if any), its turn order (a row of its own while it has one) as
# `initiative_state`, its server's settings (if any) as `server_<name>`, and the event already
# logged for an interaction (if any) as `applied_id` and `applied_action`. The parameters are
# the channel id, the guild id (NULL outside a server: no server settings) and the interaction
# id (NULL when not asked): one round trip for what a change needs to know before it runs.
_CHANNEL_AND_SERVER = (
    "SELECT c.*, i.state AS initiative_state, a.id AS applied_id, a.action AS applied_action, "
    + ", ".join(f"g.{n} AS {codec.SERVER_PREFIX}{n}" for n in codec.SETTING_NAMES)
    + " FROM (SELECT CAST(? AS BIGINT) AS channel_id, CAST(? AS BIGINT) AS guild_id,"
    " CAST(? AS BIGINT) AS interaction_id) AS k"
    " LEFT JOIN channels AS c ON c.channel_id = k.channel_id"
    " LEFT JOIN initiatives AS i ON i.channel_id = k.channel_id"
    " LEFT JOIN guild_settings AS g ON g.guild_id = COALESCE(k.guild_id, c.guild_id)"
    " LEFT JOIN events AS a ON a.interaction_id = k.interaction_id"
)


# PostgreSQL reads the party and the bestiary in the same statement, as arrays of rows (one
# round trip for the whole load; SQLite's extra statements cost no trip to a server). The rows
# come back in the same column order as the SELECTs below.
_PG_PARTS = {
    CHARACTERS: (
        f"ARRAY(SELECT ROW({', '.join(codec.CHARACTER_ROW)}) FROM characters"
        " WHERE channel_id = k.channel_id ORDER BY key) AS party_rows"
    ),
    MONSTERS: (
        f"ARRAY(SELECT ROW({', '.join(codec.MONSTER_FIELDS)}) FROM monsters"
        " WHERE channel_id = k.channel_id ORDER BY key) AS bestiary_rows"
    ),
}


# For a change, PostgreSQL also reads the channel's newest event and its server's settings'
# version (migration V12): written in one statement, it checks they are still what was read
# (`retention.Guard`).
_PG_NEWEST = (
    ", (SELECT id FROM events WHERE channel_id = k.channel_id ORDER BY id DESC LIMIT 1)"
    " AS newest_event, tk_server_version(COALESCE(k.guild_id, c.guild_id)) AS server_version"
)


@functools.lru_cache(maxsize=16)
def _pg_channel_sql(parts: Parts, guarded: bool = False) -> str:
    arrays = "".join(f", {_PG_PARTS[p]}" for p in (CHARACTERS, MONSTERS) if p in parts)
    if guarded:
        arrays += _PG_NEWEST
    return _CHANNEL_AND_SERVER.replace(" FROM (SELECT CAST(", f"{arrays} FROM (SELECT CAST(", 1)


def _utcnow() -> datetime:
    return datetime.now(UTC)


# Characters and monsters come back as tuples in the order their decoders take (`codec`): each
# row is decoded once, straight from the cursor.
_CHARACTERS_SQL = (
    f"SELECT {', '.join(codec.CHARACTER_ROW)} FROM characters WHERE channel_id = ? ORDER BY key"
)
_MONSTERS_SQL = (
    f"SELECT {', '.join(codec.MONSTER_FIELDS)} FROM monsters WHERE channel_id = ? ORDER BY key"
)


class Store:
    """Open with `await Store.open(url)` or `async with Store.open(url) as store:`."""

    def __init__(self, backend: Backend, now: Callable[[], datetime] = _utcnow) -> None:
        self._backend = backend
        self._now = now
        # The sets of parts Tables were read or changed with here (a few of the eight): those
        # a change carries over to (`_carry_over`); no Table of another set is kept.
        self._parts_used: tuple[Parts, ...] = ()
        # PostgreSQL: this process's changes to a channel take turns (`_turn`), so they never
        # refuse each other's guarded writes; only other processes' changes can come between.
        self._turns: dict[int, tuple[asyncio.Lock, int]] = {}
        # PostgreSQL: the table each channel's last change here left, with what it was read as
        # (`_apply_unlocked`): the next change's guard checks it is still so, instead of a read.
        self._left: dict[tuple[Any, ...], tuple[Table, retention.Guard]] = {}

    @classmethod
    def open(
        cls,
        url: str,
        *,
        now: Callable[[], datetime] = _utcnow,
        sqlite_synchronous: str = "full",
        retry_for: float = 0.0,
    ) -> _Opening:
        """`retry_for`: seconds to keep trying a database server that can't be reached yet."""
        return _Opening(lambda: cls._open(url, now, sqlite_synchronous, retry_for))

    @classmethod
    async def _open(
        cls, url: str, now: Callable[[], datetime], synchronous: str, retry_for: float
    ) -> Store:
        return cls(await open_backend(url, synchronous, retry_for), now)

    @property
    def dialect(self) -> str:
        return self._backend.dialect

    def _used(self, parts: Parts) -> tuple[Parts, ...]:
        if parts not in self._parts_used:
            self._parts_used = (*self._parts_used, parts)
        return self._parts_used

    async def close(self) -> None:
        await self._backend.close()

    def watch(self, watcher: Callable[[bool], None] | None) -> None:
        """Have `watcher(wrote)` called after each read (False) and change (True) that reached
        the database, until `watch(None)`: how the end of an outage is noticed."""
        self._backend.watcher = watcher

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

    async def ping(self) -> None:
        """One round trip to the database: the health check's "does it answer?"."""

        async def body(tx: Tx) -> None:
            await tx.fetchone("SELECT 1 AS one")

        await self._backend.read(body)

    async def read(
        self, channel_id: int, guild_id: int | None = None, parts: Parts = EVERYTHING
    ) -> Table:
        """A snapshot of the channel; an unknown channel reads as the defaults (nothing written).
        `parts` names what to load besides the channel row: a Table read without "monsters"
        simply has none (commands that never touch monsters skip reading them)."""

        async def body(tx: Tx) -> Table:
            return (await self._load(tx, channel_id, guild_id, parts))[0]

        # A Table is immutable: it may be shared (and kept, by its channel and server's stamps).
        key = _table_key(channel_id, guild_id, parts)
        self._used(parts)
        return await self._backend.read(body, quick=True, key=key, scope=(channel_id, guild_id))

    async def _load(
        self,
        tx: Tx,
        channel_id: int,
        guild_id: int | None,
        parts: Parts = EVERYTHING,
        interaction_id: int | None = None,
        guarded: bool = False,
    ) -> tuple[Table, bool, retention.Guard | None]:
        """The channel's Table, whether its row is stored yet, and with `guarded` (PostgreSQL)
        what a change written in one statement checks is still so (else None). With
        `interaction_id`, it
        first raises AlreadyApplied if a change of that interaction is logged: inside the
        writing transaction, which holds the channel's lock, a concurrent second delivery waits
        for the first to commit and then finds it; a change in one statement (PostgreSQL) finds
        it on its next read, its write refused by the first's event (the unique index backs
        both up)."""
        # The channel's row, its turn order, its server's settings and the interaction's event
        # in one round trip (any may be absent: the query always returns its one row).
        together = self.dialect == "postgres"  # the party and bestiary in the same statement
        sql = _pg_channel_sql(parts, guarded) if together else _CHANNEL_AND_SERVER
        channel = await tx.fetchone(sql, channel_id, guild_id, interaction_id)
        if channel is not None and channel["applied_id"] is not None:
            applied = channel["applied_id"], channel["applied_action"]
            raise AlreadyApplied(interaction_id or 0, *applied)
        stored = channel is not None and channel["channel_id"] is not None
        guard = None
        if together and guarded and channel is not None:
            server = guild_id if guild_id is not None else channel["guild_id"]  # as it is read
            newest, version = channel.pop("newest_event"), channel.pop("server_version")
            guard = retention.Guard(newest, server, version)
        characters = monsters = None
        order = channel["initiative_state"] if channel and INITIATIVE in parts else None
        if together and channel is not None:
            characters = channel.pop("party_rows", None)
            monsters = channel.pop("bestiary_rows", None) if MONSTERS in parts else None
        elif stored:  # no row: nothing of the channel's is stored
            if CHARACTERS in parts:
                characters = await tx.fetchvalues(_CHARACTERS_SQL, channel_id)
            if MONSTERS in parts:
                monsters = await tx.fetchvalues(_MONSTERS_SQL, channel_id)
        table = codec.table_from_rows(
            channel_id, guild_id, channel, characters or [], monsters, order
        )
        return table, stored, guard

    async def read_with_history(
        self, channel_id: int, guild_id: int | None = None
    ) -> tuple[Table, list[Event]]:
        """The channel and its whole event log, oldest first, from one snapshot (/export)."""

        async def body(tx: Tx) -> tuple[Table, list[Row]]:
            table, _, _ = await self._load(tx, channel_id, guild_id)
            rows = await tx.fetchall(
                "SELECT * FROM events WHERE channel_id = ? ORDER BY id", channel_id
            )
            return table, rows

        table, rows = await self._backend.read(body)
        return table, [event_from_row(row) for row in rows]

    async def history(
        self,
        channel_id: int,
        limit: int = 10,
        before_id: int | None = None,
        after_id: int | None = None,
        guild_id: int | None = None,
    ) -> list[Event]:
        """The channel's latest changes, newest first; `before_id` pages further back, and
        `after_id` gives the `limit` changes right after that one (a page back towards now).
        `guild_id`, the channel's server, as changes name it: the newest `HISTORY_PAGE` then
        follows them where they are kept (`Tx.follow`), instead of being read again."""
        if not 1 <= limit <= HISTORY_MAX:
            raise StoreError(f"History limit must be between 1 and {HISTORY_MAX}")
        where, args = ["channel_id = ?"], [channel_id]
        if before_id is not None:
            where.append("id < ?")
            args.append(before_id)
        if after_id is not None:
            where.append("id > ?")
            args.append(after_id)
        # Counting up from after_id picks the changes nearest it; they are sorted back below.
        order = "DESC" if after_id is None else "ASC"
        sql = (
            f"SELECT {', '.join(EVENT_COLUMNS)} FROM events WHERE {' AND '.join(where)}"
            f" ORDER BY id {order} LIMIT ?"
        )

        async def body(tx: Tx) -> tuple[Event, ...]:
            return tuple(map(event_from_values, await tx.fetchvalues(sql, *args, limit)))

        # Events are never changed by their readers: a page may be shared (and kept by the
        # channel's stamps, and its server's, which a page doesn't need but costs nothing).
        key = _page_key(channel_id, limit, before_id, after_id)
        scope = (channel_id, guild_id)
        events = await self._backend.read(body, quick=True, key=key, scope=scope)
        return sorted(events, key=lambda event: event.id, reverse=True)

    # --- changing --------------------------------------------------------------------------

    async def apply(
        self,
        channel_id: int,
        guild_id: int | None,
        actor_id: int,
        action: str,
        fn: Callable[[Table], tuple[Table, R]],
        parts: Parts = EVERYTHING,
        *,
        interaction_id: int | None = None,
    ) -> R:
        """Load the channel, run the pure `fn`, save what changed and log it, all in one
        transaction that holds the channel's lock. If `fn` (or anything) raises, nothing is
        written and the error propagates. An unchanged Table writes nothing, not even an event.
        `parts` as for `read`: `fn` sees (and may change) only those. With `interaction_id`,
        the change is applied at most once: if an event already carries that id, nothing runs
        or is written and AlreadyApplied is raised.

        On PostgreSQL it first tries one or two round trips instead of four (`_apply_unlocked`):
        `fn` may then run more than once, each time on a fresh read (it is pure)."""
        if self.dialect == "postgres":
            async with self._turn(channel_id):
                for _ in range(UNLOCKED_TRIES):
                    try:
                        return await self._apply_unlocked(
                            channel_id, guild_id, actor_id, action, fn, parts, interaction_id
                        )
                    except ChangedSinceRead:
                        continue  # another process's change came in between: read again
                    except _TakeTheLock:
                        break
            # Contended (or a server's settings change): in a transaction that holds the lock
            # from the read on, behind the others.

        key, scope = _table_key(channel_id, guild_id, parts), (channel_id, guild_id)
        others = [other for other in self._used(parts) if other != parts]

        async def body(tx: Tx) -> R:
            # The Table the last change here left (SQLite), if nothing touched the channel or
            # its server since: no load. Kept only once the channel's row is stored.
            before = await tx.kept(key, scope)
            if before is not None:
                await _check_not_applied(tx, interaction_id)
                stored = True
            else:
                before, stored, _ = await self._load(
                    tx, channel_id, guild_id, parts, interaction_id
                )
            after, result = fn(before)
            _check_returned(after, channel_id, action)
            if after != before:
                event = await self._save(
                    tx, before, after, actor_id, action, stored, interaction_id
                )
                stored = True
                if not retention.prunes(event.seq):  # older events all stay on the page
                    step = functools.partial(_newer_page, event)
                    await tx.follow(_page_key(channel_id, HISTORY_PAGE), scope, step)
                await _carry_over(tx, before, after, parts, others, scope)
            if stored:  # what a read of the same parts finds once this commits
                await tx.keep(key, scope, after)
            return result

        try:
            return await self._backend.write(channel_id, body)
        finally:
            self.forget_left(channel_id)  # PostgreSQL: what changes here left is stale now

    @contextlib.asynccontextmanager
    async def _turn(self, channel_id: int) -> AsyncIterator[None]:
        """This process's turn at the channel (PostgreSQL): a change read while another of ours
        is being written would be refused by its guard, and read again, for nothing. A lock is
        kept only while some change holds it or waits for it."""
        lock, users = self._turns.get(channel_id) or (asyncio.Lock(), 0)
        self._turns[channel_id] = lock, users + 1
        try:
            async with lock:
                yield
        finally:
            lock, users = self._turns[channel_id]
            if users == 1:
                del self._turns[channel_id]
            else:
                self._turns[channel_id] = lock, users - 1

    async def _apply_unlocked(
        self,
        channel_id: int,
        guild_id: int | None,
        actor_id: int,
        action: str,
        fn: Callable[[Table], tuple[Table, R]],
        parts: Parts,
        interaction_id: int | None,
    ) -> R:
        """PostgreSQL: the table this process's last change to the channel left (kept with
        what it was read as), else a read in one statement; then the change in one statement
        that writes only if the channel and its server's settings are still as read
        (`retention.Guard`): one or two round trips, where a transaction holding the lock takes
        four. ChangedSinceRead if another change came in between (nothing written; what was
        kept is forgotten; a refusal by `fn` keeps it); _TakeTheLock for a server's settings,
        whose row other channels' changes write too."""
        key = _table_key(channel_id, guild_id, parts)
        found = self._left.get(key)
        if found is None:

            async def load(tx: Tx) -> tuple[Table, bool, retention.Guard | None]:
                return await self._load(tx, channel_id, guild_id, parts, interaction_id, True)

            before, stored, read_as = await self._backend.read(load, quick=True)
            if read_as is None:
                raise StoreError("A PostgreSQL read says what it read the channel as")
            guard = read_as
        else:  # the guard checks it is still so (a second delivery: the event's unique
            # interaction id refuses the write, and the read that follows says it was applied)
            (before, guard), stored = found, True
        after, result = fn(before)
        _check_returned(after, channel_id, action)
        if after == before:
            if stored:
                self._leave(key, before, guard)
            return result
        if after.server != before.server:
            raise _TakeTheLock()

        async def save(tx: Tx) -> Event:
            return await self._save(
                tx, before, after, actor_id, action, stored, interaction_id, guard=guard
            )

        try:
            event = await self._backend.write(channel_id, save, one_statement=True)
        except ChangedSinceRead:
            self._left.pop(key, None)
            raise
        left = dataclasses.replace(guard, newest=event.id)
        self._leave(key, after, left)
        # The channel's tables of other parts kept here, true as this change began, follow it
        # (as SQLite's do, `_carry_over`): a spend after a hit needs no read. Others are stale.
        untouched = _read_parts_only(before, after, parts)
        for other in self._used(parts):
            other_key = _table_key(channel_id, guild_id, other)
            kept = self._left.pop(other_key, None) if other != parts else None
            if kept is not None and kept[1] == guard and untouched:
                self._leave(other_key, _carried(after, parts, other, kept[0]), left)
        if retention.prunes(event.seq):
            await self._prune(channel_id, event.seq - after.settings.history_keep)
        return result

    def forget_left(self, channel_id: int) -> None:
        """After a change made in a transaction holding the lock (PostgreSQL): the tables the
        channel's changes left here are stale (their guards would refuse them)."""
        for key in [key for key in self._left if key[1] == channel_id]:
            del self._left[key]

    def _leave(self, key: tuple[Any, ...], table: Table, guard: retention.Guard) -> None:
        """Keep what a change left for the next change of the channel here (PostgreSQL), the
        longest kept forgotten first beyond LEFT_KEPT."""
        if len(self._left) >= LEFT_KEPT:
            del self._left[next(iter(self._left))]
        self._left[key] = table, guard

    async def _prune(self, channel_id: int, edge: int) -> None:
        """After a change written in one statement: the channel's log cut to its retention
        edge. The change is committed already, so a failure here is logged, not raised: the
        next pruning (`retention.PRUNE_EVERY` changes on) takes everything up to its edge."""

        async def body(tx: Tx) -> None:
            await retention.prune(tx, channel_id, edge)

        try:
            await self._backend.write(channel_id, body)
        except Exception:
            log.warning("Could not prune channel %s's history for now", channel_id, exc_info=True)

    async def _save(
        self,
        tx: Tx,
        before: Table,
        after: Table,
        actor_id: int,
        action: str,
        stored: bool,
        interaction_id: int | None = None,
        guard: retention.Guard | None = None,
    ) -> Event:
        """Write what changed and log it (`stored`: the channel's row exists already); returns
        the new event, as `history` would read it. `guard` (PostgreSQL): the whole change in
        one statement, outside a transaction (`retention.log`)."""
        old, new = codec.diff(before, after)
        # PostgreSQL: the rows' writes are held and sent with the event, in its one statement
        # (a round trip for them all, not one each: a rest of the party writes every row).
        held = retention.Held() if self.dialect == "postgres" else None
        rows: Executes = tx if held is None else held
        if "channel" in new or not stored:  # events and characters need the channel row
            await self._upsert(
                rows, "channels", codec.CHANNEL_COLUMNS, ("channel_id",), codec.channel_row(after)
            )
        if codec.SERVER in new:
            was, now = old[codec.SERVER]["settings"], new[codec.SERVER]["settings"]
            await self._save_server(rows, after, [n for n in now if now[n] != was[n]])
        await self._save_keyed(
            rows,
            "characters",
            codec.CHARACTER_COLUMNS,
            after.channel_id,
            new["characters"],
            {c.key: c for c in after.characters},
            codec.character_row,
        )
        await self._save_keyed(
            rows,
            "monsters",
            codec.MONSTER_COLUMNS,
            after.channel_id,
            new.get("monsters", {}),
            {m.key: m for m in after.monsters},
            codec.monster_row,
        )
        if codec.INITIATIVE in new:
            await self._save_initiative(rows, after)
        return await retention.log(
            tx,
            after,
            actor_id,
            action,
            self._now(),
            old,
            new,
            interaction_id,
            held=held,
            guard=guard,
        )

    async def _save_server(self, tx: Executes, after: Table, names: Iterable[str]) -> None:
        """The server's settings: only the columns named are updated, so a change made from
        another channel at the same moment to another setting is kept."""
        if after.guild_id is None:
            raise StoreError("Server settings need a server")
        row = dict(zip(codec.SERVER_COLUMNS, codec.server_row(after), strict=True))
        columns = ["guild_id", *(n for n in codec.SERVER_COLUMNS if n in set(names))]
        updates = ", ".join(f"{c} = excluded.{c}" for c in columns[1:])
        await tx.execute(
            f"INSERT INTO guild_settings ({', '.join(columns)})"
            f" VALUES ({', '.join('?' * len(columns))})"
            f" ON CONFLICT (guild_id) DO UPDATE SET {updates}",
            *(row[c] for c in columns),
        )

    async def _save_initiative(self, tx: Executes, after: Table) -> None:
        """The channel's turn order: one row while it has one, none after `/init end`."""
        state = codec.initiative_to_dict(after.initiative)
        if state is None:
            await tx.execute("DELETE FROM initiatives WHERE channel_id = ?", after.channel_id)
        else:
            await self._upsert(
                tx,
                "initiatives",
                ("channel_id", "state"),
                ("channel_id",),
                (after.channel_id, json.dumps(state, ensure_ascii=False, sort_keys=True)),
            )

    async def _save_keyed(
        self,
        tx: Executes,
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
                    tx, table, columns, ("channel_id", "key"), row(channel_id, current[key])
                )
            else:
                await tx.execute(
                    f"DELETE FROM {table} WHERE channel_id = ? AND key = ?", channel_id, key
                )

    async def _upsert(
        self,
        tx: Executes,
        table: str,
        columns: tuple[str, ...],
        keys: tuple[str, ...],
        row: tuple[Any, ...],
    ) -> None:
        await tx.execute(_upsert_sql(table, columns, keys), *row)


def _page_key(
    channel_id: int, limit: int, before_id: int | None = None, after_id: int | None = None
) -> tuple[Any, ...]:
    """What a page of history is kept under (`Store.history`)."""
    return ("history", channel_id, limit, before_id, after_id)


def _newer_page(event: Event, page: tuple[Event, ...]) -> tuple[Event, ...]:
    """The newest page once `event` is logged: it first, the oldest of a full page gone."""
    return (event, *page)[:HISTORY_PAGE]


def _table_key(channel_id: int, guild_id: int | None, parts: Parts) -> tuple[Any, ...]:
    """What a kept Table is kept under: by a read (`Store.read`) or a change (`Store.apply`)."""
    return ("table", channel_id, guild_id, parts)


async def _carry_over(
    tx: Tx,
    before: Table,
    after: Table,
    parts: Parts,
    others: Iterable[Parts],
    scope: Scope,
) -> None:
    """The channel's Tables of `others` parts, kept, follow a change made with `parts`
    (`Tx.follow`): so a look at the party after a monster's hit, or a hit after a spend, reads
    nothing again."""
    if not _read_parts_only(before, after, parts):
        return  # it changed a part it never read: what the channel has there is read again
    for other in others:
        step = functools.partial(_carried, after, parts, other)
        await tx.follow(_table_key(*scope, other), scope, step)


def _read_parts_only(before: Table, after: Table, parts: Parts) -> bool:
    """Whether a change made with `parts` left every other part as it was: only then can the
    channel's Tables of other parts follow it (`_carried`)."""
    return all(getattr(before, part) == getattr(after, part) for part in EVERYTHING - parts)


_UNREAD = Table(1, None)  # what a Table read without a part has there


def _carried(after: Table, parts: Parts, other: Parts, kept: Table) -> Table:
    """The channel read with `other` parts, `kept` as it was before a change made with `parts`
    left `after`: the channel's row and server as `after` has them, and each part from the
    Table that read it (the change could touch only the parts it read), else empty."""
    taken = {part: getattr(kept, part) for part in other - parts}
    return after.with_parts(**taken, **{part: getattr(_UNREAD, part) for part in parts - other})


class _TakeTheLock(Exception):
    """This change is made in a transaction that holds the channel's lock (`Store.apply`)."""


def _check_returned(after: object, channel_id: int, action: str) -> None:
    if not isinstance(after, Table) or after.channel_id != channel_id:
        raise StoreError(f"{action}: must return the same channel's Table")


async def _check_not_applied(tx: Tx, interaction_id: int | None) -> None:
    """AlreadyApplied if a change of this interaction is logged (`_load` checks this in its
    channel query; a change that needs no load asks here)."""
    if interaction_id is None:
        return
    row = await tx.fetchone(
        "SELECT id, action FROM events WHERE interaction_id = ?", interaction_id
    )
    if row is not None:
        raise AlreadyApplied(interaction_id, row["id"], row["action"])


@functools.lru_cache(maxsize=32)
def _upsert_sql(table: str, columns: tuple[str, ...], keys: tuple[str, ...]) -> str:
    # Table and column names come from codec's constants, never from input; values are bound.
    updates = ", ".join(f"{c} = excluded.{c}" for c in columns if c not in keys)
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        f" ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {updates}"
    )


class _Opening:
    """What `Store.open` returns: await it for a Store, or use it with `async with`."""

    def __init__(self, opening: Callable[[], Coroutine[Any, Any, Store]]) -> None:
        self._opening = opening
        self._store: Store | None = None

    def __await__(self) -> Generator[Any, None, Store]:
        return self._opening().__await__()

    async def __aenter__(self) -> Store:
        self._store = await self._opening()
        return self._store

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._store is not None:
            await self._store.close()
