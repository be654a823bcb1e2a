"""Applying a change: load the channel, run a pure function of its Table, save what changed and
log it, in ONE transaction that holds the channel's lock; a second delivery of an interaction
changes nothing (its event's unique interaction id).

PostgreSQL first tries a change in one or two round trips instead of four: the table this
process's last change to the channel left (else a read in one statement), then the write in
one statement that checks the channel is still as read (`event_log.Guard`)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from datetime import datetime
from typing import Any, TypeVar

from store import event_log
from store.backend import Backend, Body, Scope, Tx
from store.channel_read import (
    ALL_PARTS,
    EVERYTHING,
    Loaded,
    Parts,
    check_not_applied,
    load_channel,
)
from store.channel_write import save_change
from store.errors import ChangedSinceRead, StoreError
from store.events import HISTORY_PAGE, newer_page, page_key
from table.event import Event
from table.model import Table

log = logging.getLogger(__name__)
R = TypeVar("R")
UNLOCKED_TRIES = 3  # PostgreSQL: changes in two round trips tried, before one holding the lock
REMEMBERED_PG = 2048  # PostgreSQL: tables changes here left, remembered for the next, at most


class Changes:
    """How one Store applies changes: the transaction, and on PostgreSQL the per-channel turns
    and the tables this process's changes left.

    PostgreSQL remembers the table each channel's last change here left, with what it was read
    as: the next change's guard checks it is still so, instead of a read. At most 2,048 tables
    (REMEMBERED_PG; the longest remembered forgotten first). A spend on loopback takes 838 µs
    instead of 1,272 (`tests.benchmarks.pg_store`, side by side with none remembered): a round
    trip fewer, which saves the more the further the server. A channel's turn (`_turns`) is
    kept only while one of its changes waits or runs: no more than the changes under way."""

    def __init__(self, backend: Backend, now: Callable[[], datetime]) -> None:
        self._backend = backend
        self.now = now  # the clock changes are logged at
        # PostgreSQL: this process's changes to a channel take turns (`_turn`), so they never
        # refuse each other's guarded writes; only other processes' changes can come between.
        self._turns: dict[int, tuple[asyncio.Lock, int]] = {}
        # PostgreSQL: what changes here left, and what they read it as (`_apply_unlocked`).
        self._remembered: dict[tuple[Any, ...], tuple[Table, event_log.Guard]] = {}

    async def apply(
        self,
        channel_id: int,
        guild_id: int | None,
        actor_id: int,
        action: str,
        fn: Callable[[Table], tuple[Table, R]],
        parts: Parts = EVERYTHING,
        interaction_id: int | None = None,
    ) -> R:
        """`Store.apply`."""
        if self._backend.dialect == "postgres":
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

        key, scope = table_key(channel_id, guild_id, parts), (channel_id, guild_id)
        others = [other for other in ALL_PARTS if other != parts]

        async def body(tx: Tx) -> R:
            # What a read or a change left (SQLite), if nothing touched the channel or its
            # server since: no load.
            found: Loaded | None = await tx.remembered(key, scope)
            if found is not None:
                await check_not_applied(tx, interaction_id)
            else:
                found = await load_channel(tx, channel_id, guild_id, parts, interaction_id)
            before, stored = found.table, found.stored
            after, result = fn(before)
            _check_returned(after, channel_id, action)
            if after != before:
                event = await save_change(
                    tx, before, after, actor_id, action, self.now(), stored, interaction_id
                )
                stored = True
                if not event_log.prunes_after(event.seq):  # older events all stay on the page
                    step = functools.partial(newer_page, event)
                    await tx.step_remembered(page_key(channel_id, HISTORY_PAGE), scope, step)
                await _carry_over(tx, before, after, parts, others, scope)
            # What a read of the same parts finds once this commits.
            await tx.remember(key, scope, Loaded(after, stored, None))
            return result

        return await self.locked(channel_id, body)

    async def locked(self, channel_id: int, body: Body[R]) -> R:
        """`body` in a transaction that holds the channel's lock from start to commit."""
        try:
            return await self._backend.write(channel_id, body)
        finally:
            self._forget(channel_id)  # PostgreSQL: what changes here left is stale now

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
        """PostgreSQL: the table this process's last change to the channel left (remembered
        with what it was read as), else a read in one statement; then the change in one
        statement that writes only if the channel and its server's settings are still as read
        (`event_log.Guard`): one or two round trips, where a transaction holding the lock takes
        four. ChangedSinceRead if another change came in between (nothing written; what was
        remembered is forgotten; a refusal by `fn` keeps it); _TakeTheLock for a server's
        settings, whose row other channels' changes write too."""
        key = table_key(channel_id, guild_id, parts)
        found = self._remembered.get(key)
        if found is None:

            async def load(tx: Tx) -> Loaded:
                return await load_channel(tx, channel_id, guild_id, parts, interaction_id, True)

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
                self._remember(key, before, guard)
            return result
        if after.server != before.server:
            raise _TakeTheLock()

        async def save(tx: Tx) -> Event:
            return await save_change(
                tx, before, after, actor_id, action, self.now(), stored, interaction_id, guard
            )

        try:
            event = await self._backend.write(channel_id, save, one_statement=True)
        except ChangedSinceRead:
            self._remembered.pop(key, None)
            raise
        left = dataclasses.replace(guard, newest=event.id)
        self._remember(key, after, left)
        # The channel's tables of other parts remembered here, true as this change began,
        # follow it (as SQLite's do, `_carry_over`): a spend after a hit needs no read.
        untouched = _read_parts_only(before, after, parts)
        for other in ALL_PARTS:
            other_key = table_key(channel_id, guild_id, other)
            found = self._remembered.pop(other_key, None) if other != parts else None
            if found is not None and found[1] == guard and untouched:
                carried = _carried(after, parts, other, found[0])
                self._remember(other_key, carried, left)
        if event_log.prunes_after(event.seq):
            await self._prune(channel_id, event.seq - after.settings.history_keep)
        return result

    def _forget(self, channel_id: int) -> None:
        """After a change made in a transaction holding the lock (PostgreSQL): the tables the
        channel's changes left here are stale (their guards would refuse them)."""
        for key in [key for key in self._remembered if key[1] == channel_id]:
            del self._remembered[key]

    def _remember(self, key: tuple[Any, ...], table: Table, guard: event_log.Guard) -> None:
        """Remember what a change left for the next change of the channel here (PostgreSQL),
        the longest remembered forgotten first beyond REMEMBERED_PG."""
        if len(self._remembered) >= REMEMBERED_PG:
            del self._remembered[next(iter(self._remembered))]
        self._remembered[key] = table, guard

    async def _prune(self, channel_id: int, edge: int) -> None:
        """After a change written in one statement: the channel's log cut to its retention
        edge. The change is committed already, so a failure here is logged, not raised: the
        next pruning (`event_log.PRUNE_EVERY` changes on) takes everything up to its edge."""

        async def body(tx: Tx) -> None:
            await event_log.prune(tx, channel_id, edge)

        try:
            await self._backend.write(channel_id, body)
        except Exception:
            log.warning("Could not prune channel %s's history for now", channel_id, exc_info=True)


def table_key(channel_id: int, guild_id: int | None, parts: Parts) -> tuple[Any, ...]:
    """What a Table is remembered as: by a read (`Store.read`) or a change (`Store.apply`)."""
    return ("table", channel_id, guild_id, parts)


async def _carry_over(
    tx: Tx,
    before: Table,
    after: Table,
    parts: Parts,
    others: Iterable[Parts],
    scope: Scope,
) -> None:
    """The channel's Tables of `others` parts, remembered, follow a change made with `parts`
    (`Tx.step_remembered`): so a look at the party after a monster's hit, or a hit after a
    spend, reads nothing again."""
    if not _read_parts_only(before, after, parts):
        return  # it changed a part it never read: what the channel has there is read again
    for other in others:
        step = functools.partial(_carried_loaded, after, parts, other)
        await tx.step_remembered(table_key(*scope, other), scope, step)


def _read_parts_only(before: Table, after: Table, parts: Parts) -> bool:
    """Whether a change made with `parts` left every other part as it was: only then can the
    channel's Tables of other parts follow it (`_carried`)."""
    return all(getattr(before, part) == getattr(after, part) for part in EVERYTHING - parts)


_UNREAD = Table(1, None)  # what a Table read without a part has there


def _carried(after: Table, parts: Parts, other: Parts, read: Table) -> Table:
    """The channel read with `other` parts, `read` as it was before a change made with `parts`
    left `after`: the channel's row and server as `after` has them, and each part from the
    Table that read it (the change could touch only the parts it read), else empty."""
    taken = {part: getattr(read, part) for part in other - parts}
    return after.with_parts(**taken, **{part: getattr(_UNREAD, part) for part in parts - other})


def _carried_loaded(after: Table, parts: Parts, other: Parts, read: Loaded) -> Loaded:
    """`_carried`, for what a read remembered: the change stored the channel's row."""
    return Loaded(_carried(after, parts, other, read.table), True, None)


class _TakeTheLock(Exception):
    """This change is made in a transaction that holds the channel's lock (`Store.apply`)."""


def _check_returned(after: object, channel_id: int, action: str) -> None:
    if not isinstance(after, Table) or after.channel_id != channel_id:
        raise StoreError(f"{action}: must return the same channel's Table")
