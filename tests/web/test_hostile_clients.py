"""The web page against clients that don't play fair, made for real over loopback (127.0.0.0/8
gives each as many source addresses as it needs): one that says it is someone else
(X-Forwarded-For), one link flooded with streams, one address taking every stream it can,
streams that never read, and text that would end an event early."""

from __future__ import annotations

import asyncio
import re
import socket
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import aiohttp
import pytest

from rules.fatigue import FatigueState
from table.model import Table
from tests.store.conftest import Database
from tests.web.tables import write_largest
from tests.web.test_server import CH, GM, GUILD, KEY, Served, _spend, read_board, serving
from web.clients import proxy_networks
from web.limits import Limits

WAIT = 30.0  # seconds: the most an answer may take on a loaded machine (a bound, not a figure)
OTHER = 1002  # another channel of the same server, with a link of its own


def streams(per_address: int, per_channel: int = 250, in_all: int = 1_000) -> Limits:
    """Limits on streams only: requests as many as a test makes."""
    return Limits(
        requests_per_second=1000.0,
        burst=1000,
        streams_per_address=per_address,
        streams_per_channel=per_channel,
        streams=in_all,
    )


async def open_stream(
    s: Served, source: str, headers: Sequence[tuple[str, str]] = (), token: str | None = None
) -> tuple[int, asyncio.StreamReader, asyncio.StreamWriter]:
    """A page's stream asked for from `source` with `headers` (a name may come twice), over
    HTTP/1.0 so its body is the events as they are: the status, and the connection."""
    host, port = s.base.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port), local_addr=(source, 0))
    lines = [f"GET /t/{token or s.token}/live HTTP/1.0", f"Host: {host}"]
    lines += [f"{name}: {value}" for name, value in headers]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), WAIT)
    return int(head.split()[1]), reader, writer


@pytest.fixture
async def held() -> AsyncIterator[list[asyncio.StreamWriter]]:
    """The streams a test keeps open (a writer let go would close its own), closed after it."""
    writers: list[asyncio.StreamWriter] = []
    yield writers
    for writer in writers:
        writer.close()


async def statuses(
    s: Served, asks: Sequence[tuple[str, Sequence[tuple[str, str]]]], held: list[Any]
) -> list[int]:
    """Each stream asked for in turn and kept open: their statuses."""
    said = []
    for source, headers in asks:
        status, _reader, writer = await open_stream(s, source, headers)
        held.append(writer)
        said.append(status)
    return said


async def test_a_client_cant_choose_its_address_without_a_trusted_proxy(
    db: Database, held: list[asyncio.StreamWriter]
) -> None:
    async with serving(db, streams(1)) as s:
        spoofed = [("127.0.0.1", [("X-Forwarded-For", f"198.51.100.{n}")]) for n in (1, 2)]
        assert await statuses(s, spoofed, held) == [200, 429]  # both are 127.0.0.1


async def test_behind_a_trusted_proxy_the_last_line_is_the_client(
    db: Database, held: list[asyncio.StreamWriter]
) -> None:
    """The proxy appends the client it saw to the last line; what the client wrote before (a
    line of its own) is not believed."""
    proxies = proxy_networks("127.0.0.0/8")
    async with serving(db, streams(1), proxies) as s:
        forwarded = [
            ["6.6.6.6", "198.51.100.1"],
            ["6.6.6.6", "198.51.100.2"],  # another client, with the same line of its own
            ["7.7.7.7", "198.51.100.1"],  # the first client again, claiming another line
            ["198.51.100.9, 127.0.0.5"],  # through two trusted proxies: the client before them
            ["198.51.100.3", "198.51.100.9"],
        ]
        asks = [("127.0.0.1", [("X-Forwarded-For", line) for line in lines]) for lines in forwarded]
        assert await statuses(s, asks, held) == [200, 200, 429, 200, 429]


async def test_one_flooded_link_leaves_streams_for_another_channel(
    db: Database, held: list[asyncio.StreamWriter]
) -> None:
    async with serving(db, streams(2, per_channel=4, in_all=8)) as s:
        other, _ = await s.store.make_link(OTHER, GUILD, GM, None, KEY)
        flood = [(f"127.0.2.{n}", ()) for n in range(1, 9)]  # every address with room of its own
        assert await statuses(s, flood, held) == [200] * 4 + [429] * 4
        status, reader, writer = await open_stream(s, "127.0.3.1", token=other)
        held.append(writer)
        assert status == 200  # a viewer of the other channel is served its board
        await asyncio.wait_for(reader.readuntil(b"event: table\n"), WAIT)
        # and one address can't take what is left of the pool either
        mine = [await open_stream(s, "127.0.4.1", token=other) for _ in range(3)]
        held += [writer for _status, _reader, writer in mine]
        assert [status for status, _reader, _writer in mine] == [200, 200, 429]
        assert s.server.gate.open_streams == 7


def _buffered(s: Served) -> int:
    """Bytes the server's open connections hold, not yet taken by the kernel."""
    return sum(
        c.transport.get_write_buffer_size()
        for c in s.server.port.connections
        if c.transport is not None
    )


async def test_a_stream_that_doesnt_read_is_dropped_and_its_memory_let_go(db: Database) -> None:
    """A page that never reads, on a channel whose boards are a few hundred KB: once the kernel
    holds all it will of them, what waits is the server's, a board or two at most, and is let
    go with the page; a page that reads gets every board meanwhile."""
    async with serving(db) as s:
        await write_largest(s.store, CH, GUILD, GM, changes=0)
        host, port = s.base.removeprefix("http://").split(":")
        stalled = socket.socket()
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # and it never reads
        stalled.connect((host, int(port)))
        stalled.sendall(f"GET /t/{s.token}/live HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        held, biggest = 0, 0
        async with aiohttp.ClientSession() as http, http.get(s.page + "/live") as reading:
            await asyncio.wait_for(read_board(reading), WAIT)
            for fp in range(1, 61):  # a bound: the kernel's buffers are full long before
                await s.store.apply(CH, GUILD, GM, "fatigue spend", _spend_first(fp))
                board = await asyncio.wait_for(read_board(reading), WAIT)
                assert f">{fp}<span" in board  # the page that reads gets every one
                biggest = max(biggest, len(board))
                held = max(held, _buffered(s))
                if s.server.gate.open_streams == 1:
                    break  # the stalled one was dropped
            assert s.server.gate.open_streams == 1
            await _until(lambda: len(s.server.port.connections) == 1 and _buffered(s) == 0)
        stalled.close()
    assert 0 < held < 3 * biggest  # it held a board or two, no more, and they were let go


def _spend_first(fp: int) -> Callable[[Table], tuple[Table, None]]:
    def step(table: Table) -> tuple[Table, None]:
        first = table.characters[0]
        return table.with_character(first.with_fatigue(FatigueState(fp=fp))), None

    return step


async def _until(condition: object) -> None:
    assert callable(condition)
    for _ in range(int(WAIT / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the server never got there")


LINE_END = re.compile(rb"\r\n|\r|\n")


def events_of(stream: bytes) -> list[tuple[str, str]]:
    """The events a browser reads from `stream`, by the HTML standard's rules: a line ends at
    CR, LF or CR LF; an empty line sends the event; `event` names it, `data` lines join with
    LF; other fields and comments are ignored."""
    found: list[tuple[str, str]] = []
    name, data = "message", list[str]()
    for line in LINE_END.split(stream)[:-1]:  # the last is what follows the last line end
        text = line.decode()
        if not text:
            if data:
                found.append((name, "\n".join(data)))
            name, data = "message", []
            continue
        field, _, value = text.partition(":")
        value = value.removeprefix(" ")
        if field == "event":
            name = value
        elif field == "data":
            data.append(value)
    return found


async def test_a_carriage_return_in_the_board_cant_start_an_event(db: Database) -> None:
    """An action logged with bare CRs in it, as a setting or a name could carry them, is shown
    in the page's history: the stream keeps it inside its board."""
    sneaky = "spend\r\revent: revoked\rdata: gone\r\r"
    async with serving(db) as s:
        await s.store.apply(CH, GUILD, GM, sneaky, _spend(5))
        status, reader, writer = await open_stream(s, "127.0.0.1")
        assert status == 200
        first = await asyncio.wait_for(reader.readuntil(b"5<span"), WAIT)
        await s.store.apply(CH, GUILD, GM, sneaky, _spend(6))  # and live
        seen = first + await asyncio.wait_for(reader.readuntil(b"6<span"), WAIT)
        seen += await asyncio.wait_for(reader.readuntil(b"\n\n"), WAIT)
        writer.close()
    events = events_of(seen)
    assert [name for name, _data in events] == ["table", "table"]
    for _name, data in events:
        assert "spend\n\nevent: revoked\ndata: gone\n\n" in data  # as text, its lines kept
