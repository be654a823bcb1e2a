"""A channel's board, the live part of its page: built once per change and language, whoever asks
for it (a page loaded, a stream opened, the open streams told of a change), and kept by what it
was built from, the channel's newest change and its settings (its server's may change them
without a change of its own), which are read each time it is asked for: two light reads.

A big table's board is costly to build (its chart walks every character through the latest
changes: docs/benchmarks.md has the figures), so boards are built on a thread of their own, one
at a time, never on the event loop, and a board asked for while it is being built is waited
for, not built again. Only AT_ONCE channels are read whole and built at a time: the rest wait
before reading anything, holding nothing. What is kept is bounded by size: BYTES_KEPT of boards
in all, the least recently asked for dropped first."""

from __future__ import annotations

import asyncio
import functools
import gc
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from lang import language_of
from store import Store
from store.links import Link
from table.event import Event
from table.model import Table
from table.parts import CHANNEL_ONLY
from table.settings import ChannelSettings
from web.chart import CHART_CHANGES, page_series
from web.pages import fragment
from web.sse import event

BYTES_KEPT = 32 * 1024 * 1024  # of boards kept, in all: dozens of the largest tables'
AT_ONCE = 2  # channels read whole and built at a time

# What a board is built from, as far as it can change: the channel's newest change, and its
# settings (with its server's).
Key = tuple[int | None, ChannelSettings]


@dataclass(frozen=True)
class Read:
    """A channel as a board shows it: its table and its latest changes, newest first."""

    table: Table
    events: list[Event]

    @property
    def key(self) -> Key:
        return (self.events[0].id if self.events else None, self.table.settings)


@dataclass(frozen=True)
class Board:
    """A board in one language: its HTML, and the event that sends it to a stream."""

    html: str
    event: bytes
    key: Key

    @property
    def size(self) -> int:
        return len(self.html) + len(self.event)


def build(read: Read, language: str | None) -> Board:
    """A board, on the builder's thread. A big one allocates tens of thousands of objects that
    all go again when it is done, none of them in a cycle; the garbage collector, counting them,
    would walk everything the process holds meanwhile, on this thread but holding the lock the
    event loop needs: so it waits until the board is built (docs/benchmarks.md: how long the
    loop is held either way)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        series = page_series(read.table, read.events)
        html = fragment(read.table, read.events, series, language)
    finally:
        if collecting:
            gc.enable()
    return Board(html, event("table", html), read.key)


class Boards:
    def __init__(self, store: Store, bytes_kept: int = BYTES_KEPT) -> None:
        self._store = store
        self.bytes_kept = bytes_kept
        self._kept: OrderedDict[tuple[int, str | None], Board] = OrderedDict()
        self.bytes = 0  # of the boards kept
        self._building: dict[tuple[int, str | None, Key], asyncio.Future[Board]] = {}
        self._reading: dict[tuple[int, Key], asyncio.Future[Read]] = {}
        self._turns = asyncio.Semaphore(AT_ONCE)
        self._builder = ThreadPoolExecutor(1, thread_name_prefix="board")

    def close(self) -> None:
        self._builder.shutdown(wait=False, cancel_futures=True)

    async def board(self, link: Link, locale: str | None) -> Board:
        """The link's channel's board in `locale`'s language, as the channel is now."""
        language = language_of(locale)
        key = await self._key(link)
        kept = self._kept_board(link.channel_id, language, key)
        if kept is not None:
            return kept
        async with self._turns:
            kept = self._kept_board(link.channel_id, language, key)  # built while it waited
            if kept is not None:
                return kept
            return await self.of(await self._shared_read(link, key), language)

    async def of(self, read: Read, locale: str | None) -> Board:
        """The board of `read` in `locale`'s language: kept, being built, or built now."""
        language = language_of(locale)
        channel = read.table.channel_id
        kept = self._kept_board(channel, language, read.key)
        if kept is not None:
            return kept
        slot = (channel, language, read.key)
        building = self._building.get(slot)
        if building is None:
            loop = asyncio.get_running_loop()
            building = loop.run_in_executor(self._builder, build, read, language)
            self._building[slot] = building
            building.add_done_callback(functools.partial(self._built, slot))
        board = await asyncio.shield(building)  # one page gone doesn't stop the others' board
        kept = self._kept.get((channel, language))
        return kept if kept is not None and kept.key == board.key else board

    async def _key(self, link: Link) -> Key:
        light = await self._store.read(link.channel_id, link.guild_id, CHANNEL_ONLY)
        newest = await self._store.newest(link.channel_id, 1)
        return (newest[0].id if newest else None, light.settings)

    async def _shared_read(self, link: Link, key: Key) -> Read:
        """The channel read whole, once for everyone who asks while it is being read."""
        slot = (link.channel_id, key)
        reading = self._reading.get(slot)
        if reading is None:
            reading = asyncio.ensure_future(self._read(link))
            self._reading[slot] = reading
            reading.add_done_callback(functools.partial(_done, self._reading, slot))
        return await asyncio.shield(reading)

    async def _read(self, link: Link) -> Read:
        table = await self._store.read(link.channel_id, link.guild_id)
        return Read(table, await self._store.newest(link.channel_id, CHART_CHANGES))

    def _kept_board(self, channel: int, language: str | None, key: Key) -> Board | None:
        kept = self._kept.get((channel, language))
        if kept is None or kept.key != key:
            return None
        self._kept.move_to_end((channel, language))
        return kept

    def _built(self, slot: tuple[int, str | None, Key], building: asyncio.Future[Board]) -> None:
        _done(self._building, slot, building)
        if building.cancelled() or building.exception() is not None:
            return
        channel, language, _key = slot
        old = self._kept.pop((channel, language), None)
        self.bytes -= 0 if old is None else old.size
        board = building.result()
        if old is not None and old.html == board.html:  # the same text: pages see it is at once
            board = Board(old.html, old.event, board.key)
        self._kept[(channel, language)] = board
        self.bytes += board.size
        while self.bytes > self.bytes_kept and len(self._kept) > 1:
            _slot, dropped = self._kept.popitem(last=False)
            self.bytes -= dropped.size


def _done(under_way: dict[Any, Any], slot: object, done: asyncio.Future[Any]) -> None:
    """A shared read or build is over: the next to ask starts another (its error was told to
    everyone who waited, and is retrieved here)."""
    if under_way.get(slot) is done:
        del under_way[slot]
    if not done.cancelled():
        done.exception()
