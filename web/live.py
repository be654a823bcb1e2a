"""Open pages kept current: each channel watched while a page of it is open, its board
rendered again when the store says it changed (`store.changes`), and sent to every page of it.

A change is read and rendered once per channel and language, whatever the number of pages (its
chart's series once per channel; of its latest changes, only those since the last board read
whole: `Store.newest`), and the same bytes, framed once as an event and as an HTTP
chunk (`Frame`), are written to every page that doesn't show it yet, a batch at a time with the
event loop free between batches (`BATCH`). It is read a moment after it commits (`SETTLE`), so
the command that made it answers Discord first; changes that come meanwhile, or while a board
is being sent, settle into the next board: a channel's pages get one at most once a `GAP`,
however fast the changes come (`tests/benchmarks/web.py` measures what each costs the bot's
commands). A page slower to read than the changes come gets the latest board, never a queue of
old ones. Each time, the channel's live link is checked: a page whose link was revoked (or
undone) is told so, and its stream ends."""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from aiohttp import web

from lang import language_of
from store import Store
from store.links import Link
from table.event import Event
from table.fatigue_series import FatigueSeries
from table.model import Table
from table.snapshot import WEB
from web.chart import CHART_CHANGES, page_series
from web.pages import fragment

log = logging.getLogger(__name__)


def event(name: str, data: str) -> bytes:
    """One Server-Sent Event: its name, and its data a line at a time."""
    lines = "".join(f"data: {line}\n" for line in data.split("\n"))
    return f"event: {name}\n{lines}\n".encode()


@dataclass(frozen=True)
class Frame:
    """A board's event as every page of it is sent it: the event's bytes, and the same as one
    HTTP/1.1 chunk (what a chunked stream carries), each made once for all the pages."""

    data: bytes
    chunk: bytes

    @classmethod
    def of(cls, data: bytes) -> Frame:
        return cls(data, b"%x\r\n%s\r\n" % (len(data), data))


REVOKED = event("revoked", "")
KEEPALIVE_COMMENT = b": still here\n\n"
KEEPALIVE = 15.0  # seconds between comments on every stream
SETTLE = 0.05  # seconds from a change to reading it for its pages
GAP = 0.25  # seconds at least from one board of a channel to its next
BATCH = 50  # pages written to before the event loop runs anything else
BEHIND = 64 * 1024  # bytes not yet sent to a page: past them it waits for its own task


class Page:
    """One open page's stream. A new board is written to it at once, in the pass over every
    page of its channel (`send`), while its connection keeps up; else it waits, the newest
    only, for the page's own task (`take`), as do keep-alives and the end."""

    def __init__(self, link: Link, locale: str | None) -> None:
        self.link, self.locale = link, locale
        self.shown: str | None = None  # the board it shows
        self.waiting: bytes | None = None
        self.ended = False
        self.ready = asyncio.Event()
        self._stream: web.StreamResponse | None = None
        self._transport: asyncio.BaseTransport | None = None
        self._chunked = False

    def attach(self, stream: web.StreamResponse, transport: asyncio.BaseTransport | None) -> None:
        """The open response `send` writes to directly: its headers are sent (a first write
        made them go), so what follows is its body, chunked if its headers say so."""
        self._stream, self._transport = stream, transport
        self._chunked = stream.headers.get("Transfer-Encoding") == "chunked"

    def send(self, board: str, frame: Frame) -> None:
        """`board` now, straight into the connection's buffer while it keeps up (nothing
        waits); else for the page's own task."""
        if board is self.shown or board == self.shown:
            return
        transport = self._transport
        if (
            self.waiting is None  # nothing ahead of it: the order holds
            and isinstance(transport, asyncio.WriteTransport)
            and not transport.is_closing()
            and transport.get_write_buffer_size() < BEHIND
        ):
            self.shown = board
            try:
                transport.write(frame.chunk if self._chunked else frame.data)
            except (ConnectionError, RuntimeError):  # closed meanwhile
                self.end()
            return
        self.show(board, frame.data)

    def show(self, board: str, message: bytes) -> None:
        if board is not self.shown and board != self.shown:
            self.shown, self.waiting = board, message
            self.ready.set()

    def ping(self) -> None:
        """A comment, if nothing else is waiting: an idle stream stays open through proxies,
        and one whose page is gone shows it (the write fails)."""
        if self.waiting is None:
            self.waiting = KEEPALIVE_COMMENT
            self.ready.set()

    def end(self, last: bytes | None = None) -> None:
        self.waiting, self.ended = last, True
        self.ready.set()

    def take(self) -> bytes | None:
        message, self.waiting = self.waiting, None
        self.ready.clear()
        return message


@dataclass(frozen=True)
class Read:
    """What a channel's board is made of, read once for all its pages and languages."""

    table: Table
    events: list[Event]  # its latest changes, newest first
    series: FatigueSeries | None  # its chart's


@dataclass
class _Watch:
    """A channel with open pages."""

    pages: set[Page] = field(default_factory=set)
    generation: int = 0  # bumped by every change: a board rendered before one is not kept
    # by the language spoken (`lang.language_of`: None for English), never the page's own
    # `?lang=` text, so at most one board for each installed language and English
    boards: dict[str | None, tuple[str, Frame]] = field(default_factory=dict)
    # the boards being read and rendered for pages that asked (at most one a language), shared
    # by every page that asks meanwhile; a change lets the next ask start another
    building: dict[str | None, asyncio.Future[tuple[str, Frame]]] = field(default_factory=dict)
    refreshing: asyncio.Task[None] | None = None
    sent: float = -GAP  # when its pages were last sent a board (time.monotonic)
    again: bool = False  # changed while refreshing: refresh once more after
    checked: int | None = None  # the newest event when its live link was last looked up
    events: Sequence[Event] = ()  # its latest changes as last read, newest first


def _built(
    watch: _Watch, language: str | None, building: asyncio.Future[tuple[str, Frame]]
) -> None:
    """A shared board is built (or failed: the next page to ask tries again)."""
    if watch.building.get(language) is building:
        del watch.building[language]
    if not building.cancelled():
        building.exception()  # retrieved: each page that waited was told already


def _link_may_have_changed(watch: _Watch, events: list[Event]) -> bool:
    """Whether the channel's link may have been made, revoked or undone since it was last
    looked up: only a change logged with a `web` part does that (`store.links`), so the newest
    events read for the board say, unless they are all new (more may lie past them)."""
    newer = [e for e in events if watch.checked is None or e.id > watch.checked]
    if events:
        watch.checked = max(watch.checked or 0, events[0].id)
    if not newer:
        return False
    return len(newer) == len(events) or any(WEB in e.before or WEB in e.after for e in newer)


class Hub:
    """The channels with open pages, each with its pages and its boards: an entry only while a
    page is open (`close` drops the last), so at most as many as the open streams
    (`web.limits.Limits.streams`, 1,000 by default), each with at most one board for each
    installed language and English, dropped at every change."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._watched: dict[int, _Watch] = {}
        self._pinging: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Keep every open stream alive (`Page.ping`), one timer for them all."""
        self._pinging = asyncio.create_task(self._ping())

    async def _ping(self) -> None:
        while True:
            await asyncio.sleep(KEEPALIVE)
            for watch in list(self._watched.values()):
                for page in watch.pages:
                    page.ping()

    @property
    def pages(self) -> int:
        return sum(len(w.pages) for w in self._watched.values())

    async def _read(self, link: Link) -> Read:
        """The channel as it is now; of its changes, those its last board read are kept where
        they still hold (`Store.newest`), and only the ones since are read whole."""
        watch = self._watched.get(link.channel_id)
        known = () if watch is None else watch.events
        table = await self._store.read(link.channel_id, link.guild_id)
        events = await self._store.newest(link.channel_id, CHART_CHANGES, known)
        if watch is not None:
            watch.events = events
        return Read(table, events, page_series(table, events))

    async def board(
        self, link: Link, locale: str | None, read: Read | None = None
    ) -> tuple[str, Frame]:
        """The channel's board in `locale` as it is now (or as `read`), and the event that
        sends it (kept while its channel is watched and unchanged). Pages of a watched channel
        that ask at once (browsers reconnecting together after a restart) share one read and
        one render."""
        language = language_of(locale)
        watch = self._watched.get(link.channel_id)
        if watch is not None and language in watch.boards:
            return watch.boards[language]
        if watch is None or read is not None:
            return await self._build(link, locale, read)
        building = watch.building.get(language)
        if building is None:
            building = asyncio.ensure_future(self._build(link, locale))
            watch.building[language] = building
            building.add_done_callback(functools.partial(_built, watch, language))
        return await asyncio.shield(building)  # one page gone doesn't stop the others' board

    async def _build(
        self, link: Link, locale: str | None, read: Read | None = None
    ) -> tuple[str, Frame]:
        watch = self._watched.get(link.channel_id)
        generation = None if watch is None else watch.generation
        seen = read or await self._read(link)
        board = fragment(seen.table, seen.events, seen.series, locale)
        made = board, Frame.of(event("table", board))
        watch = self._watched.get(link.channel_id)
        if watch is not None and watch.generation == generation:
            watch.boards[language_of(locale)] = made
        return made

    async def open(self, link: Link, locale: str | None) -> Page:
        """A new page of the link's channel, shown its board as it is now (unless a change
        meanwhile sent it a newer one)."""
        page = Page(link, locale)
        self._watched.setdefault(link.channel_id, _Watch()).pages.add(page)
        try:
            board, frame = await self.board(link, locale)
            if page.shown is None:
                page.show(board, frame.data)
        except BaseException:
            self.close(page)
            raise
        return page

    def close(self, page: Page) -> None:
        watch = self._watched.get(page.link.channel_id)
        if watch is None:
            return
        watch.pages.discard(page)
        if not watch.pages:
            del self._watched[page.link.channel_id]
            if watch.refreshing not in (None, asyncio.current_task()):
                watch.refreshing.cancel()

    def changed(self, channel_id: int | None) -> None:
        """The store's word that a channel changed (None: any may have)."""
        ids = list(self._watched) if channel_id is None else [channel_id]
        for changed in ids:
            watch = self._watched.get(changed)
            if watch is None:
                continue
            watch.generation += 1
            watch.boards.clear()
            watch.building.clear()
            if watch.refreshing is None:
                watch.refreshing = asyncio.create_task(self._refresh(changed, watch))
            else:
                watch.again = True

    async def _refresh(self, channel_id: int, watch: _Watch) -> None:
        try:
            while True:
                # The change's own command answers first (its reply is what Discord waits
                # for), and a burst of changes settles into one board: a channel's pages are
                # sent a board at most once a GAP.
                await asyncio.sleep(max(SETTLE, watch.sent + GAP - time.monotonic()))
                watch.again = False
                watch.sent = time.monotonic()
                try:
                    await self._send(channel_id, watch)
                except Exception:
                    log.warning("Could not update channel %s's pages", channel_id, exc_info=True)
                if not watch.again:
                    return
        finally:
            watch.refreshing = None

    async def _send(self, channel_id: int, watch: _Watch) -> None:
        if not watch.pages:
            return
        read = await self._read(next(iter(watch.pages)).link)
        if _link_may_have_changed(watch, read.events):
            live = await self._store.live_hash(channel_id)
            for page in [p for p in watch.pages if p.link.token_hash != live]:
                page.end(REVOKED)
                self.close(page)
        for locale in {page.locale for page in watch.pages}:
            link = next(p.link for p in watch.pages if p.locale == locale)
            board, frame = await self.board(link, locale, read)
            pages = [p for p in watch.pages if p.locale == locale]
            for start in range(0, len(pages), BATCH):
                if start:
                    await asyncio.sleep(0)  # a command waiting on the loop goes first
                for page in pages[start : start + BATCH]:
                    page.send(board, frame)

    def end_all(self) -> None:
        """Every stream ends (the server is stopping); browsers reconnect to whoever serves."""
        if self._pinging is not None:
            self._pinging.cancel()
            self._pinging = None
        for watch in list(self._watched.values()):
            for page in list(watch.pages):
                page.end()
                self.close(page)
