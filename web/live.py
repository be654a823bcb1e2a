"""Open pages kept current: each channel watched while a page of it is open, its board built
again when the store says it changed (`store.changes`), and sent to every page of it.

A change is read once per channel (of its latest changes, only those since the last board read
whole: `Store.newest`) and its board built once per language (`web.boards`, off the event
loop); then each page's own task writes it to its stream through aiohttp
(`StreamResponse.write`, which frames it as HTTP chunks for a client that takes them), the
pages woken a batch at a time with the event loop free between batches (`BATCH`). It is read
a moment after it commits (`SETTLE`), so the command that made it answers Discord first;
changes that come meanwhile, or while a board is being sent, settle into the next board: a
channel's pages get one at most once a `GAP`, however fast the changes come
(`tests/benchmarks/web.py` measures what each costs the bot's commands).

A page slower to read than the changes come gets the latest board, never a queue of old ones.
One that falls further behind is dropped, its connection closed: a board is due while the one
before it is still being written to it, and another comes while it still is. So a page that
doesn't read holds at most a board or two, in its connection's buffer (aiohttp writes on
without waiting until 64 KB wait there); a browser that was merely slow reconnects by itself
and is shown the board as it is. Each time, the channel's live link is checked: a page whose
link was revoked (or undone) is told so, and its stream ends."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from aiohttp import web

from lang import language_of
from store import Store
from store.links import Link
from table.event import Event
from table.snapshot import WEB
from web.boards import Board, Boards, Read
from web.chart import CHART_CHANGES
from web.sse import COMMENT, event, retry

log = logging.getLogger(__name__)

REVOKED = event("revoked", "")
KEEPALIVE = 15.0  # seconds between comments on every stream
SETTLE = 0.05  # seconds from a change to reading it for its pages
GAP = 0.25  # seconds at least from one board of a channel to its next
BATCH = 50  # pages woken before the event loop runs anything else
RETRY_MS = 1000  # how soon a browser reconnects a lost stream
STREAM_HEADERS = {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-store",
    "X-Accel-Buffering": "no",  # a proxy must pass each event on at once
}


class Page:
    """One open page's stream: the newest board (or keep-alive, or end) waits for the page's
    own task (`follow`), which writes it."""

    def __init__(self, link: Link, locale: str | None, request: web.BaseRequest) -> None:
        self.link, self.locale = link, locale
        self.language = language_of(locale)
        self.shown: Board | None = None  # the board it was last given
        self.waiting: bytes | None = None
        self.writing = False  # its task is writing to the connection (or waiting for room)
        self.behind = False  # a board came while it was writing
        self.ended = False
        self.ready = asyncio.Event()
        self._request = request

    def show(self, board: Board) -> None:
        """`board` next, unless it shows it already; a page already a board behind is dropped."""
        if board is self.shown or (self.shown is not None and board.html == self.shown.html):
            return
        if self.writing and self.behind:
            self.drop()
            return
        self.behind = self.writing
        self.shown, self.waiting = board, board.event
        self.ready.set()

    def ping(self) -> None:
        """A comment, if nothing else is under way: an idle stream stays open through proxies,
        and one whose page is gone shows it (the write fails)."""
        if self.waiting is None and not self.writing:
            self.waiting = COMMENT
            self.ready.set()

    def end(self, last: bytes | None = None) -> None:
        self.waiting, self.ended = last, True
        self.ready.set()

    def drop(self) -> None:
        """Too far behind: its connection closed at once, what waited in it let go."""
        transport = self._request.transport
        if transport is not None:
            transport.abort()
        self.end()

    async def follow(self, response: web.StreamResponse) -> None:
        """Write what comes to the open `response` until the page ends or its connection does."""
        try:
            await response.write(retry(RETRY_MS))
            while True:
                await self.ready.wait()
                message, self.waiting = self.waiting, None
                self.ready.clear()
                if message:
                    self.writing = True
                    try:
                        await response.write(message)
                    finally:
                        self.writing = self.behind = False
                if self.ended:
                    return
        except ConnectionError:
            pass  # the page was closed, or dropped


@dataclass
class _Watch:
    """A channel with open pages."""

    pages: set[Page] = field(default_factory=set)
    refreshing: asyncio.Task[None] | None = None
    sent: float = -GAP  # when its pages were last sent a board (time.monotonic)
    again: bool = False  # changed while refreshing: refresh once more after
    checked: int | None = None  # the newest event when its live link was last looked up
    events: Sequence[Event] = ()  # its latest changes as last read, newest first


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
    """The channels with open pages, each with its pages: an entry only while a page is open
    (`close` drops the last), so at most as many as the open streams
    (`web.limits.Limits.streams`, 1,000 by default)."""

    def __init__(self, store: Store, boards: Boards) -> None:
        self._store, self._boards = store, boards
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

    async def open(self, link: Link, locale: str | None, request: web.BaseRequest) -> Page:
        """A new page of the link's channel, shown its board as it is now (unless a change
        meanwhile sent it a newer one)."""
        page = Page(link, locale, request)
        self._watched.setdefault(link.channel_id, _Watch()).pages.add(page)
        try:
            board = await self._boards.board(link, locale)
            if page.shown is None:
                page.show(board)
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

    async def _read(self, link: Link, watch: _Watch) -> Read:
        """The channel as it is now; of its changes, those its last board read are kept where
        they still hold (`Store.newest`), and only the ones since are read whole."""
        table = await self._store.read(link.channel_id, link.guild_id)
        events = await self._store.newest(link.channel_id, CHART_CHANGES, watch.events)
        watch.events = events
        return Read(table, events)

    async def _send(self, channel_id: int, watch: _Watch) -> None:
        if not watch.pages:
            return
        read = await self._read(next(iter(watch.pages)).link, watch)
        if _link_may_have_changed(watch, read.events):
            live = await self._store.live_hash(channel_id)
            for page in [p for p in watch.pages if p.link.token_hash != live]:
                page.end(REVOKED)
                self.close(page)
        for language in {page.language for page in watch.pages}:
            board = await self._boards.of(read, language)
            pages = [p for p in watch.pages if p.language == language]
            for start in range(0, len(pages), BATCH):
                if start:
                    await asyncio.sleep(0)  # a command waiting on the loop goes first
                for page in pages[start : start + BATCH]:
                    page.show(board)

    def end_all(self) -> None:
        """Every stream ends (the server is stopping); browsers reconnect to whoever serves."""
        if self._pinging is not None:
            self._pinging.cancel()
            self._pinging = None
        for watch in list(self._watched.values()):
            for page in list(watch.pages):
                page.end()
                self.close(page)
