"""`WEB_PORT` (or the host's `PORT`): the table's web page, `GET /t/<token>`, on an aiohttp
server of its own in the bot's process and event loop.

Its own server, not the health server's (`HEALTH_PORT`): the page is for the open internet (a
host's public web port, behind its router), while `/healthz` and `/metrics` are for the
orchestrator and Prometheus and often must not be public (metrics tell how the bot is used).
Each keeps its own port, headers and limits, and either can be on without the other.

What it serves: the page (`/t/<token>`, `?overlay=1` for OBS, `?lang=` for another language),
its live stream of Server-Sent Events (`/t/<token>/live`, `web.live`), and its stylesheet and
script (`/static/…`). Only GET and HEAD: nothing here can change a table. An unknown, revoked
and malformed token all get the same 404 after the same work (`store.links.find_link`).
Every answer carries a strict Content-Security-Policy (scripts, styles and connections from
this server only, nothing inline, no framing), `X-Content-Type-Options: nosniff` and
`Referrer-Policy: no-referrer` (the token is in the URL), and names no version of anything
(`web.edge`, which also caps connections and how long they may take). Limits per client, per
channel and on streams (`web.limits`) answer 429 past them; a client is the peer, or behind a
trusted proxy (`WEB_TRUSTED_PROXIES`) the address it forwards (`web.clients`)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from importlib.resources import files

from aiohttp import web
from aiohttp.typedefs import Handler

from store import Store
from store.changes import ChangeFeed
from store.links import Link
from web.boards import Boards
from web.clients import IPNetwork, client_ip, counted_as
from web.edge import Port
from web.limits import Gate, Limits
from web.live import STREAM_HEADERS, Hub
from web.pages import missing, page

log = logging.getLogger(__name__)
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
        " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin",
}
STATIC = {"page.css": "text/css", "live.js": "text/javascript"}
_HTML = "text/html"


class WebPortUnavailable(Exception):
    """WEB_PORT can't be listened on: one line for the admin, not a traceback."""


def _locale(request: web.Request, link: Link) -> str | None:
    """`?lang=es` (or `es-ES`, `en`) over the language the link was made in."""
    asked = request.query.get("lang", "").strip()
    return asked[:16] if asked else link.locale


class WebServer:
    def __init__(
        self,
        store: Store,
        database_url: str,
        port: int,
        host: str = "0.0.0.0",
        limits: Limits | None = None,
        proxies: Sequence[IPNetwork] = (),
    ) -> None:
        self._store, self._url, self._proxies = store, database_url, proxies
        self.gate = Gate(limits or Limits())
        self.boards = Boards(store)
        self.hub = Hub(store, self.boards)
        self.port = Port(
            self.app(),
            what="WEB_PORT",
            host=host,
            port=port,
            headers=HEADERS,
            limits=self.gate.limits.port,
            proxies=proxies,
        )
        self._changes: ChangeFeed | None = None
        self._static = {
            name: (files("web").joinpath("static", name).read_bytes(), kind)
            for name, kind in STATIC.items()
        }

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._limited])
        app.router.add_get("/t/{token}/live", self._live)
        app.router.add_get("/t/{token:.*}", self._page)
        app.router.add_get("/static/{name}", self._file)
        return app

    async def start(self) -> None:
        self._changes = await ChangeFeed.open(self._store, self._url, self.hub.changed)
        self.hub.start()
        try:
            await self.port.start()
        except OSError as error:
            await self.stop()
            reason = (error.strerror or str(error)).lower()
            raise WebPortUnavailable(
                f"WEB_PORT={self.port.port} can't be used ({reason}): pick a free port, or stop"
                " what listens there"
            ) from None
        log.info("The table's web page on http://%s:%d/t/…", self.port.host, self.port.port)

    async def stop(self) -> None:
        self.hub.end_all()
        await self.port.stop()
        if self._changes is not None:
            await self._changes.close()
            self._changes = None
        self.boards.close()

    def client(self, request: web.BaseRequest) -> str:
        """Who a request counts against (`web.clients`)."""
        forwarded = request.headers.getall("X-Forwarded-For", [])
        return counted_as(client_ip(request.remote or "", forwarded, self._proxies))

    @web.middleware
    async def _limited(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not self.gate.request(self.client(request)):
            return _too_many()
        try:
            return await handler(request)
        except web.HTTPNotFound:
            return _missing()

    async def _page(self, request: web.Request) -> web.Response:
        link = await self._store.find_link(request.match_info["token"])
        if link is None:
            return _missing()
        locale = _locale(request, link)
        board = await self.boards.board(link, locale)
        overlay = request.query.get("overlay") == "1"
        html = page(board.html, locale, overlay=overlay)
        return web.Response(text=html, content_type=_HTML, headers={"Cache-Control": "no-store"})

    async def _live(self, request: web.Request) -> web.StreamResponse:
        link = await self._store.find_link(request.match_info["token"])
        if link is None:
            return _missing()
        who, channel = self.client(request), link.channel_id
        if not self.gate.open_stream(who, channel):
            return _too_many()
        try:
            open_page = await self.hub.open(link, _locale(request, link), request)
            try:
                response = web.StreamResponse(headers=STREAM_HEADERS)
                await response.prepare(request)
                await open_page.follow(response)
                return response
            finally:
                self.hub.close(open_page)
        finally:
            self.gate.close_stream(who, channel)

    async def _file(self, request: web.Request) -> web.Response:
        found = self._static.get(request.match_info["name"])
        if found is None:
            return _missing()
        body, kind = found
        return web.Response(
            body=body,
            content_type=kind,
            charset="utf-8",
            headers={"Cache-Control": "public, max-age=3600"},
        )


def _missing() -> web.Response:
    return web.Response(
        status=404, text=missing(), content_type=_HTML, headers={"Cache-Control": "no-store"}
    )


def _too_many() -> web.Response:
    return web.Response(
        status=429, text="Too many requests: wait a moment.\n", headers={"Retry-After": "1"}
    )
