"""A port open to the network: what happens to a connection before, around and after what the
app answers. aiohttp reads requests and answers them; what it has no setting for is built here,
where connections are accepted (`Connection`, aiohttp's own `RequestHandler` for each one, on
an aiohttp low-level server):

- **A cap on open connections**, in all and per address (an address of a trusted proxy has no
  cap of its own: its clients are counted request by request, `web.limits`). Past it a new
  connection is told 503 and closed at once, holding no file descriptor. The cap in all is
  lowered to what the process may open (`ulimit -n`), less RESERVE for the bot's own work
  (Discord, the database, the picture worker), so the port can't take the descriptors a
  command needs.
- **Time limits**: a request's headers must arrive within `headers_within` seconds of the
  connection's opening, or of its first byte after an answer; a connection idle between
  requests is closed after `idle` (aiohttp's keep-alive timeout). A stream being answered is
  not idle.
- **The same headers on every answer**, the port's own (`Port.headers`: no version in
  `Server`, the security headers), aiohttp's own error answers included (`handle_error`):
  those say their status and nothing else, never the request that caused them.
- **Out of file descriptors said once**: asyncio logs each failed accept (thousands a
  second); this says it once per episode, and again when accepts work again.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from aiohttp import web
from aiohttp.typedefs import Handler

from web.clients import IPNetwork, counted_as, ip_of, trusted

log = logging.getLogger(__name__)
SERVER = "Tablekeeper"  # the Server header: the product, no version of anything
RESERVE = 256  # file descriptors a port leaves to the rest of the bot
FLOOR = 16  # the fewest connections a port allows, whatever the descriptors
PROXY = "a trusted proxy"  # what its connections count as: none is refused per address


@dataclass(frozen=True)
class PortLimits:
    connections: int = 1_200  # in all: the 1,000 streams and page loads beside them (RESERVE)
    per_address: int = 50  # open at once from one address: a page is up to 6 of a browser's
    headers_within: float = 10.0  # seconds to send a request's headers
    idle: float = 15.0  # seconds a connection may wait between requests
    line: int = 4_096  # bytes of a request line (aiohttp's max_line_size)
    field: int = 8_190  # bytes of a header (max_field_size): cookies sent to the domain fit
    headers: int = 64  # header lines of a request (max_headers)


def connection_cap(wanted: int) -> int:
    """`wanted`, or fewer if the process may open fewer files (RESERVE left for the rest)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    return min(wanted, max(FLOOR, soft - RESERVE))


class Port:
    """`app` served on `host`:`port`, within `limits`, every answer carrying `headers`. `what`
    names the port in the log (`WEB_PORT`); `proxies` are the trusted proxies' networks."""

    def __init__(
        self,
        app: web.Application,
        *,
        what: str,
        host: str,
        port: int,
        headers: Mapping[str, str],
        limits: PortLimits,
        proxies: Sequence[IPNetwork] = (),
    ) -> None:
        self.what, self.host, self.port = what, host, port
        self.headers = {"Server": SERVER, **headers}
        self.limits, self.proxies = limits, proxies
        self.cap = limits.connections  # set at start: what the descriptors allow
        self.open = 0  # connections open now
        self._by_address: dict[str, int] = {}
        self._app = app
        app.middlewares.insert(0, self._arrived)
        app.on_response_prepare.append(self._prepared)
        self._runner: web.AppRunner | None = None
        self._listening: asyncio.Server | None = None
        self._descriptors: Descriptors | None = None
        self._refused = b""  # the 503 a connection past a cap is told

    async def start(self) -> None:
        """Listen; OSError if the port can't be listened on (stopped again)."""
        self.cap = connection_cap(self.limits.connections)
        if self.cap < self.limits.connections:
            soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
            log.info("%s: at most %d connections at once (ulimit -n %d)", self.what, self.cap, soft)
        self._refused = _answer(HTTPStatus.SERVICE_UNAVAILABLE, self.headers)
        # A page closed mid-stream cancels its handler at once: its stream is counted no more.
        self._runner = web.AppRunner(
            self._app, handle_signals=False, access_log=None, handler_cancellation=True
        )
        await self._runner.setup()
        server = self._runner.server
        assert server is not None
        loop = asyncio.get_running_loop()
        self._descriptors = Descriptors.watch(loop)
        settings: dict[str, Any] = {
            "loop": loop,
            "access_log": None,
            "keepalive_timeout": self.limits.idle,
            "max_line_size": self.limits.line,
            "max_field_size": self.limits.field,
            "max_headers": self.limits.headers,
        }
        try:
            self._listening = await loop.create_server(
                lambda: Connection(self, server, **settings), self.host, self.port
            )
        except OSError:
            await self.stop()
            raise

    async def stop(self) -> None:
        if self._listening is not None:
            self._listening.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._listening is not None:
            await self._listening.wait_closed()
            self._listening = None

    @property
    def connections(self) -> list[web.RequestHandler]:
        """The connections open and admitted now (aiohttp's own list)."""
        server = None if self._runner is None else self._runner.server
        return [] if server is None else server.connections

    def admit(self, peer: Any) -> str | None:
        """What a new connection from `peer` (its socket's peername) counts as, or None if it
        is past a cap (then it counts as nothing)."""
        if self._descriptors is not None:
            self._descriptors.accepted()
        address = peer[0] if isinstance(peer, tuple) and peer else str(peer or "")
        who = PROXY if trusted(ip_of(address), self.proxies) else counted_as(address)
        mine = self._by_address.get(who, 0)
        if self.open >= self.cap or (who != PROXY and mine >= self.limits.per_address):
            return None
        self._by_address[who] = mine + 1
        self.open += 1
        return who

    def left(self, who: str) -> None:
        count_down(self._by_address, who)
        self.open -= 1

    def refuse(self, transport: asyncio.BaseTransport) -> None:
        if isinstance(transport, asyncio.WriteTransport):
            transport.write(self._refused)
        transport.close()

    @web.middleware
    async def _arrived(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """A request's headers are in: its connection's clock for them stops."""
        connection = request.protocol
        if isinstance(connection, Connection):
            connection.answering(True)
        try:
            return await handler(request)
        finally:
            if isinstance(connection, Connection):
                connection.answering(False)

    async def _prepared(self, request: web.Request, response: web.StreamResponse) -> None:
        """Every answer the app makes, errors and streams included: the port's headers."""
        response.headers.update(self.headers)

    def error(self, status: int) -> web.Response:
        """aiohttp's own answer to what it can't read or answer: the status, nothing else."""
        code = HTTPStatus(status)
        response = web.Response(
            status=status, text=f"{code.value} {code.phrase}\n", headers=self.headers
        )
        response.force_close()
        return response


def count_down(counts: dict[Any, int], key: Any) -> None:
    """One fewer of `key` in `counts`, which keeps no zeros (it counts what is open)."""
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)


def _answer(status: HTTPStatus, headers: Mapping[str, str]) -> bytes:
    """A whole answer with no body, as bytes: what a connection past a cap is told."""
    lines = [f"HTTP/1.1 {status.value} {status.phrase}", "Content-Length: 0"]
    lines += ["Connection: close", "Retry-After: 5", *(f"{k}: {v}" for k, v in headers.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


class Connection(web.RequestHandler):
    """One accepted connection: counted while open (refused past a cap), given its time to
    send each request's headers, and answered with the port's words when aiohttp refuses what
    it sent."""

    __slots__ = ("_answering", "_clock", "_port", "_who")

    def __init__(self, port: Port, manager: web.Server, **settings: Any) -> None:
        super().__init__(manager, **settings)
        self._port = port
        self._who: str | None = None  # what it counts as, while open and admitted
        self._clock: asyncio.TimerHandle | None = None  # for its headers
        self._answering = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._who = self._port.admit(transport.get_extra_info("peername"))
        if self._who is None:
            self._port.refuse(transport)
            return
        super().connection_made(transport)
        self._start_clock()

    def data_received(self, data: bytes) -> None:
        if self._who is None:
            return
        if not self._answering and self._clock is None:
            self._start_clock()  # the first byte of a request after an answer
        super().data_received(data)

    def connection_lost(self, exc: BaseException | None) -> None:
        self._stop_clock()
        if self._who is None:
            return
        self._port.left(self._who)
        self._who = None
        super().connection_lost(exc)

    def answering(self, answering: bool) -> None:
        self._answering = answering
        self._stop_clock()

    def _start_clock(self) -> None:
        loop = asyncio.get_running_loop()
        self._clock = loop.call_later(self._port.limits.headers_within, self._too_slow)

    def _stop_clock(self) -> None:
        if self._clock is not None:
            self._clock.cancel()
            self._clock = None

    def _too_slow(self) -> None:
        self._clock = None
        if not self._answering:
            self.force_close()

    def handle_error(
        self,
        request: Any,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        """What aiohttp answers a request it can't read (400: its `message` names what was
        wrong, quoting the request) or a handler that failed (500): the status alone."""
        if status >= 500:
            log.error("%s: a request failed", self._port.what, exc_info=exc)
        else:
            log.debug("%s: refused a request (%s)", self._port.what, message or exc)
        if request.writer.output_size > 0:  # an answer is under way: none can follow it
            raise ConnectionError("the answer was under way")
        return self._port.error(status)


class Descriptors:
    """The event loop's exception handler while a port listens: a failed accept for want of
    file descriptors (or memory) is logged once, until one is accepted again; anything else
    goes to the handler there was before (asyncio's own by default)."""

    TROUBLE = "socket.accept() out of system resource"  # asyncio's message

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._before = loop.get_exception_handler()
        self.failed = 0  # accepts failed since the last one that worked

    @classmethod
    def watch(cls, loop: asyncio.AbstractEventLoop) -> Descriptors:
        handler = loop.get_exception_handler()
        if isinstance(handler, Descriptors):
            return handler
        watching = cls(loop)
        loop.set_exception_handler(watching)
        return watching

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") != self.TROUBLE:
            if self._before is not None:
                self._before(loop, context)
            else:
                loop.default_exception_handler(context)
            return
        if not self.failed:
            error = context.get("exception")
            reason = getattr(error, "strerror", None) or str(error)
            soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
            log.error(
                "Can't accept connections: %s (ulimit -n %d). They wait until some close;"
                " said once until one is accepted",
                reason,
                soft,
            )
        self.failed += 1

    def accepted(self) -> None:
        if self.failed:
            log.warning("Accepting connections again (%d accepts had failed)", self.failed)
            self.failed = 0
