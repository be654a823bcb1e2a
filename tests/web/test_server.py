"""The web page's server over real HTTP, on a SQLite file and on PostgreSQL: what it answers,
with which headers, to whom; and an open stream following changes made by this store and, on
PostgreSQL, by another bot process's store on the same database."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import re
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import UTC, datetime
from fractions import Fraction

import aiohttp
import pytest

from lang import speaking
from render.history import event_line
from rules.fatigue import FatigueState
from store import Store
from store.links import link_key, token_for
from table.event import Event
from table.model import Character, Table
from tests.e2e.test_operations_process import free_port
from tests.store.conftest import Database
from web import boards
from web.clients import IPNetwork
from web.limits import Limits
from web.server import HEADERS, WebServer

CH, GUILD, GM = 1001, 5005, 11
KEY = link_key("secret")


@dataclasses.dataclass
class Served:
    store: Store
    server: WebServer
    base: str
    token: str

    @property
    def page(self) -> str:
        return f"{self.base}/t/{self.token}"


def _aria(table: Table) -> tuple[Table, None]:
    aria = Character("Aria", 21, fl_override=Fraction(20), fatigue=FatigueState(fp=3))
    return table.with_character(aria), None


def _spend(fp: int) -> Callable[[Table], tuple[Table, None]]:
    def step(table: Table) -> tuple[Table, None]:
        aria = table.get("Aria")
        return table.with_character(aria.with_fatigue(FatigueState(fp=fp))), None

    return step


@contextlib.asynccontextmanager
async def serving(
    db: Database, limits: Limits | None = None, proxies: Sequence[IPNetwork] = ()
) -> AsyncIterator[Served]:
    async with Store.open(db.url) as store:
        await store.apply(CH, GUILD, GM, "character create", _aria)
        token, _ = await store.make_link(CH, GUILD, GM, None, KEY)
        port = free_port()
        server = WebServer(store, db.url, port, host="127.0.0.1", limits=limits, proxies=proxies)
        await server.start()
        try:
            yield Served(store, server, f"http://127.0.0.1:{port}", token)
        finally:
            await server.stop()


async def fetch(url: str, method: str = "GET") -> tuple[int, str, dict[str, str]]:
    async with aiohttp.ClientSession() as http, http.request(method, url) as response:
        return response.status, await response.text(), dict(response.headers)


async def test_the_page_shows_the_table_with_strict_headers(db: Database) -> None:
    async with serving(db) as s:
        status, html, headers = await fetch(s.page)
        assert status == 200 and "Aria" in html and "3<span" in html
        for name, value in HEADERS.items():
            assert headers[name] == value
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        assert headers["Cache-Control"] == "no-store"
        status, css, headers = await fetch(s.base + "/static/page.css")
        assert status == 200 and headers["Content-Type"].startswith("text/css") and ".bar" in css
        assert headers["X-Content-Type-Options"] == "nosniff"


async def test_unknown_revoked_and_malformed_tokens_get_one_404(db: Database) -> None:
    async with serving(db) as s:
        revoked, _ = await s.store.make_link(1002, GUILD, GM, None, KEY)
        await s.store.revoke_link(1002, GUILD, GM)
        answers = set()
        for token in (token_for(KEY, "unknown"), revoked, "%3Cscript%3E", "", "a/b/c", "x" * 900):
            for path in (f"/t/{token}", f"/t/{token}/live"):
                status, body, _headers = await fetch(s.base + path)
                answers.add((status, body))
        assert len(answers) == 1 and next(iter(answers))[0] == 404
        status, body, _ = await fetch(s.base + "/nothing/here")
        assert (status, body) in answers


async def test_only_get_and_head_are_served(db: Database) -> None:
    async with serving(db) as s:
        assert (await fetch(s.page, "HEAD"))[0] == 200
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            status, _body, headers = await fetch(s.page, method)
            assert status == 405 and "Referrer-Policy" in headers
        assert [e.action for e in await s.store.history(CH)] == ["table link", "character create"]


async def read_board(stream: aiohttp.ClientResponse) -> str:
    """The next `table` event's data."""
    name, data = "", []
    while True:
        line = (await stream.content.readline()).decode().rstrip("\n")
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            data.append(line[6:])
        elif not line and name:
            return "\n".join(data) if name == "table" else f"<{name}>"


async def test_a_stream_follows_changes_and_ends_when_revoked(db: Database) -> None:
    async with (
        serving(db) as s,
        aiohttp.ClientSession() as http,
        http.get(s.page + "/live") as stream,
        contextlib.AsyncExitStack() as stack,
    ):
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        assert "3<span" in await read_board(stream)  # the board as it is, at once
        # A change made by another bot process on the same database (on SQLite, one process:
        # this one's store).
        other = s.store
        if db.dialect == "postgres":
            other = await stack.enter_async_context(Store.open(db.url))
        await other.apply(CH, GUILD, GM, "fatigue spend", _spend(9))
        assert "9<span" in await asyncio.wait_for(read_board(stream), 10)
        await other.revoke_link(CH, GUILD, GM)
        assert await asyncio.wait_for(read_board(stream), 5) == "<revoked>"
        assert await stream.content.read() == b""  # and the stream ends


async def test_limits_answer_429(db: Database) -> None:
    limits = Limits(requests_per_second=1, burst=3, streams_per_address=1, streams=5)
    async with (
        serving(db, limits) as s,
        aiohttp.ClientSession() as http,
        http.get(s.page + "/live") as first,
    ):
        await read_board(first)
        async with http.get(s.page + "/live") as second:
            assert second.status == 429  # one stream per address here
        statuses = [(await fetch(s.page))[0] for _ in range(4)]
        assert statuses[-1] == 429 and s.server.gate.open_streams == 1


async def test_a_stream_without_chunks_gets_the_same_events(db: Database) -> None:
    """An HTTP/1.0 client (no chunked encoding) reads each board as the event it is."""
    async with serving(db) as s:
        host, port = s.base.removeprefix("http://").split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(f"GET /t/{s.token}/live HTTP/1.0\r\nHost: {host}\r\n\r\n".encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        assert head.startswith(b"HTTP/1.0 200") and b"chunked" not in head.lower()
        await asyncio.wait_for(reader.readuntil(b"3<span"), 10)  # the board as it is
        await s.store.apply(CH, GUILD, GM, "fatigue spend", _spend(9))
        after = await asyncio.wait_for(reader.readuntil(b"9<span"), 10)
        start = after.rindex(b"event: table")
        assert after[:start].endswith(b"\n\n")  # right after the last event: no chunk's size
        assert all(line.startswith(b"data: ") for line in after[start:].split(b"\n")[1:-1])
        writer.close()


async def test_pages_opened_together_share_one_read(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Browsers reconnecting together (after a restart) cost one whole read and one build, not
    one each: the pages that ask while a board is being read wait for that one (each reads only
    the channel's newest change, to know which board is the current one)."""
    async with serving(db) as s, aiohttp.ClientSession() as http:
        reads, builds = 0, 0
        newest = s.store.newest

        async def slow_newest(
            channel_id: int, limit: int, known: Sequence[Event] = ()
        ) -> list[Event]:
            nonlocal reads
            if limit > 1:
                reads += 1
                await asyncio.sleep(0.3)  # long enough for every page to ask meanwhile
            return await newest(channel_id, limit, known)

        def counted_build(read: boards.Read, language: str | None) -> boards.Board:
            nonlocal builds
            builds += 1
            return build(read, language)

        build = boards.build
        monkeypatch.setattr(boards, "build", counted_build)
        s.store.newest = slow_newest  # type: ignore[method-assign]
        async with contextlib.AsyncExitStack() as stack:
            streams = await asyncio.gather(
                *(stack.enter_async_context(http.get(s.page + "/live")) for _ in range(12))
            )
            boards_read = await asyncio.gather(*(read_board(stream) for stream in streams))
        assert all("3<span" in board for board in boards_read)
        assert (reads, builds) == (1, 1)


async def test_the_undo_of_an_import_change_reads_as_what_it_put_back(
    db: Database, shipped_catalogs: None
) -> None:
    """An import change (Aria's table in place of Bo's) undone: the page's line says Aria came
    back and Bo went, as /history does, in English and Spanish; no rename."""

    def bo(table: Table) -> tuple[Table, None]:
        return dataclasses.replace(table, characters=(Character("Bo", 22),)), None

    async with serving(db) as s:
        await s.store.apply(CH, GUILD, GM, "character create", bo)
        await s.store.apply(CH, GUILD, GM, "import", _aria_only)
        await s.store.undo_last(CH, GUILD, GM, True)
        _status, english, _headers = await fetch(s.page + "?lang=en")
        _status, spanish, _headers = await fetch(s.page + "?lang=es-ES")
    assert '<span class="what">Aria removed; Bo brought back</span>' in english
    assert '<span class="what">Aria quitado; Bo recuperado</span>' in spanish


def _aria_only(table: Table) -> tuple[Table, None]:
    return _aria(dataclasses.replace(table, characters=()))


_LINE = re.compile(
    r'<li class="([^"]*)">.*?<span class="what">([^<]*)</span>\s*'
    r'(?:<span class="tag">([^<]*)</span>)?\s*</li>',
    re.DOTALL,
)


async def test_undo_and_redo_lines_read_as_history_says_them(
    db: Database, shipped_catalogs: None
) -> None:
    """Bo created, undone, redone: on the page, the redo's line says Bo was brought back (not
    created) and the undo's, struck, that it was redone, in the words of /history's lines, in
    English and in Spanish."""

    def bo(table: Table) -> tuple[Table, None]:
        return table.with_character(Character("Bo", 22)), None

    async with serving(db) as s:
        await s.store.apply(CH, GUILD, GM, "character create", bo)
        await s.store.undo_last(CH, GUILD, GM, True)
        await s.store.redo_last(CH, GUILD, GM, True)
        events = await s.store.history(CH, limit=3)
        pages = {lang: (await fetch(f"{s.page}?lang={lang}"))[1] for lang in ("en", "es-ES")}
    words = {
        "en": ("Bo brought back", "Bo removed", "redone", "Bo created", "undone"),
        "es-ES": ("Bo recuperado", "Bo quitado", "rehecho", "Bo creado", "deshecho"),
    }
    for lang, (back, removed, redone, created, undone) in words.items():
        history = pages[lang].split('<ol class="lines">', 1)[1]
        lines = [(c.split(), what, tag) for c, what, tag in _LINE.findall(history)]
        assert lines[:3] == [
            (["redo"], back, ""),
            (["undone", "undo"], removed, redone),
            (["undone"], created, undone),
        ]
        with speaking(lang):
            said = [event_line(e, datetime.now(UTC), numbers=True) for e in events]
        assert said[0].endswith(f" · {back}")
        assert said[1].endswith(f" · {removed}~~ ({redone})")
        assert said[2].endswith(f" · {created}~~ ({undone})")
