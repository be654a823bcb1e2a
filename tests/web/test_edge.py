"""The web and health ports at the edge, attacked for real over loopback (127.0.0.0/8 gives a
test as many source addresses as it needs): connections past a cap refused and holding nothing,
headers that never finish cut off, aiohttp's own error answers saying nothing of the request
and no version, and a process out of file descriptors saying so once."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import resource
import socket
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from aiohttp import web

from bot.health import HealthServer
from store import Store
from tests.e2e.test_operations_process import free_port
from web.edge import RESERVE, SERVER, Port, PortLimits, connection_cap
from web.server import HEADERS, WebServer

Stream = tuple[asyncio.StreamReader, asyncio.StreamWriter]
WAIT = 30.0  # seconds: the most any answer may take on a loaded machine (a bound, not a figure)


async def _hello(request: web.Request) -> web.Response:
    return web.Response(text="hello\n")


@contextlib.asynccontextmanager
async def port(limits: PortLimits) -> AsyncIterator[Port]:
    app = web.Application()
    app.router.add_get("/", _hello)
    served = Port(
        app, what="TEST_PORT", host="127.0.0.1", port=free_port(), headers={}, limits=limits
    )
    await served.start()
    try:
        yield served
    finally:
        await served.stop()


async def connect(served: Port, source: str = "127.0.0.1") -> Stream:
    return await asyncio.open_connection(served.host, served.port, local_addr=(source, 0))


async def ask(served: Port, request: bytes, source: str = "127.0.0.1") -> bytes:
    """`request` sent as is on a new connection: all the server answers before it closes."""
    reader, writer = await connect(served, source)
    writer.write(request)
    try:
        return await asyncio.wait_for(reader.read(), WAIT)
    finally:
        writer.close()


GET = b"GET / HTTP/1.0\r\nHost: tk\r\n\r\n"


async def until(condition: Callable[[], bool]) -> None:
    """Wait (a bounded while) for what the server does by itself."""
    for _ in range(int(WAIT / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the server never got there")


async def test_past_its_cap_an_address_is_refused_and_holds_nothing() -> None:
    async with port(PortLimits(connections=100, per_address=3, headers_within=3600)) as served:
        held = [await connect(served, "127.0.0.2") for _ in range(10)]
        reads = [asyncio.ensure_future(reader.read()) for reader, _ in held]
        await until(lambda: sum(read.done() for read in reads) == 7)
        assert served.open == 3 and sum(not read.done() for read in reads) == 3
        for read in reads:
            if read.done():  # told why, then closed: no descriptor kept for it
                assert read.result().startswith(b"HTTP/1.1 503 Service Unavailable\r\n")
        answer = await ask(served, GET, "127.0.0.3")  # another address is served all along
        assert answer.startswith(b"HTTP/1.0 200") and answer.endswith(b"hello\n")
        for _reader, writer in held:
            writer.close()
        await until(lambda: served.open == 0)
        for read in reads:
            read.cancel()


async def test_past_the_cap_in_all_every_address_is_refused() -> None:
    async with port(PortLimits(connections=5, per_address=50, headers_within=3600)) as served:
        held = [await connect(served, f"127.0.1.{n}") for n in range(1, 11)]
        reads = [asyncio.ensure_future(reader.read()) for reader, _ in held]
        await until(lambda: sum(read.done() for read in reads) == 5)
        assert served.open == 5
        for _reader, writer in held:
            writer.close()
        await until(lambda: served.open == 0)
        assert (await ask(served, GET)).startswith(b"HTTP/1.0 200")
        for read in reads:
            read.cancel()


def test_the_cap_in_all_leaves_descriptors_to_the_bot() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))
        assert connection_cap(1_000) == 1024 - RESERVE
        assert connection_cap(100) == 100
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


async def test_headers_that_never_finish_are_cut_off() -> None:
    async with port(PortLimits(headers_within=0.3, idle=3600)) as served:
        slow, silent = await connect(served), await connect(served)
        slow[1].write(b"GET / HTTP/1.1\r\nHost: tk\r\nX-Slow: ")  # and then nothing more
        for reader, writer in (slow, silent):
            assert await asyncio.wait_for(reader.read(), WAIT) == b""  # closed by the server
            writer.close()
        answer = await ask(served, GET)  # a whole request in time is answered
        assert answer.startswith(b"HTTP/1.0 200")
        await until(lambda: served.open == 0)


async def test_a_kept_alive_connection_is_closed_once_idle() -> None:
    async with port(PortLimits(headers_within=3600, idle=0.3)) as served:
        reader, writer = await connect(served)
        writer.write(b"GET / HTTP/1.1\r\nHost: tk\r\n\r\n")
        answer = await asyncio.wait_for(reader.read(), WAIT)  # answered, then closed when idle
        assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"hello\n")
        writer.close()


MARK = "zq<script>echo"  # what a request says, which no answer may repeat
BAD_REQUESTS = [
    f"GE{MARK} / HTTP/1.1\r\n\r\n".encode(),  # a method that isn't one
    f"GET /{MARK} HTTP/9.9\r\n\r\n".encode(),  # a version that isn't one
    f"GET / HTTP/1.1\r\nHost: tk\r\n{MARK}\r\n\r\n".encode(),  # a header without a colon
    f"GET /{MARK}{'x' * 9000} HTTP/1.1\r\n\r\n".encode(),  # a request line past the limit
    f"GET / HTTP/1.1\r\nX-{MARK}: {'y' * 9000}\r\n\r\n".encode(),  # a header past the limit
    f"GET / HTTP/1.1\r\nHost: tk\r\nContent-Length: 1\r\nContent-Length: 2\r\n{MARK}".encode(),
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + MARK.encode(),  # TLS to a plain port
]


def _head(answer: bytes) -> tuple[str, dict[str, str], bytes]:
    head, _, body = answer.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    return status, dict(line.split(": ", 1) for line in lines), body


@contextlib.asynccontextmanager
async def web_and_health(tmp_path: Path) -> AsyncIterator[dict[str, tuple[Port, dict[str, str]]]]:
    url = f"sqlite:///{tmp_path / 'tk.db'}"

    async def fine() -> None:
        return None

    async with Store.open(url) as store:
        page = WebServer(store, url, free_port(), host="127.0.0.1")
        health = HealthServer(fine, lambda: b"tk_up 1\n", free_port())
        await page.start()
        await health.start()
        try:
            yield {"web": (page.port, HEADERS), "health": (health.port, {})}
        finally:
            await page.stop()
            await health.stop()


async def test_what_aiohttp_cant_read_is_answered_with_its_status_alone(tmp_path: Path) -> None:
    async with web_and_health(tmp_path) as ports:
        for name, (served, headers) in ports.items():
            for request in BAD_REQUESTS:
                answer = await ask(served, request)
                status, got, body = _head(answer)
                assert status.endswith(" 400 Bad Request") and body == b"400 Bad Request\n", name
                assert MARK.encode() not in answer and b"zq" not in answer, (name, answer)
                assert got["Server"] == SERVER and got["X-Content-Type-Options"] == "nosniff"
                assert all(got[k] == v for k, v in headers.items()), (name, got)
                assert b"aiohttp" not in answer.lower() and b"python" not in answer.lower()


async def test_no_answer_names_a_version(tmp_path: Path) -> None:
    async with web_and_health(tmp_path) as ports:
        for name, (served, _headers) in ports.items():
            for path in ("/", "/healthz", "/metrics", "/static/page.css", "/t/x", "/t/x/live"):
                for method in ("GET", "HEAD", "POST", "OPTIONS"):
                    request = f"{method} {path} HTTP/1.0\r\nHost: tk\r\n\r\n".encode()
                    answer = await ask(served, request)
                    _status, got, _body = _head(answer)
                    assert got["Server"] == SERVER, (name, path, method, got)
                    assert b"aiohttp" not in answer.lower() and b"python/" not in answer.lower()


async def test_running_out_of_descriptors_is_said_once(caplog: pytest.LogCaptureFixture) -> None:
    """This process held at its limit of open files while clients connect: asyncio fails
    every accept (a hundred at a time); the log says so once, and once more when the clients
    are accepted again."""
    caplog.set_level(logging.INFO)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    spare: list[int] = []
    clients: list[socket.socket] = []
    async with port(PortLimits()) as served:
        try:
            resource.setrlimit(
                resource.RLIMIT_NOFILE, (len(os.listdir("/proc/self/fd")) + 40, hard)
            )
            with contextlib.suppress(OSError):
                while True:
                    spare.append(os.dup(0))
            for _ in range(3):
                os.close(spare.pop())  # room for the clients' own sockets, and no more
            for _ in range(3):  # connected: the kernel queues them for an accept
                clients.append(socket.create_connection((served.host, served.port)))
            with pytest.raises(OSError) as full:
                os.dup(0)
            assert full.value.errno == errno.EMFILE
            await until(lambda: caplog.text.count("Can't accept connections") == 1)
            await asyncio.sleep(1.5)  # asyncio tries again after a second: still no room
        finally:
            for fd in spare:
                os.close(fd)
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        await until(lambda: served.open == 3)  # accepted once there is room
        for client in clients:
            client.close()
    said = [r.getMessage() for r in caplog.records]
    assert sum("Can't accept connections" in line for line in said) == 1, said
    assert sum("Accepting connections again" in line for line in said) == 1, said
    assert not [line for line in said if "out of system resource" in line]
