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
`Referrer-Policy: no-referrer` (the token is in the URL). Limits per address and on streams
(`web.limits`) answer 429 past them."""

from __future__ import annotations

import logging
from importlib.resources import files

from aiohttp import web
from aiohttp.typedefs import Handler

from store import Store
from store.changes import ChangeFeed
from store.links import Link
from web.limits import Gate, Limits, address
from web.live import Hub, Page
from web.pages import missing, page

log = logging.getLogger(__name__)
RETRY_MS = 1000  # how soon a browser reconnects a lost stream
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
    ) -> None:
        self._store, self._url = store, database_url
        self._port, self._host = port, host
        self.gate = Gate(limits or Limits())
        self.hub = Hub(store)
        self._runner: web.AppRunner | None = None
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
        app.on_response_prepare.append(_secure)
        return app

    async def start(self) -> None:
        self._changes = await ChangeFeed.open(self._store, self._url, self.hub.changed)
        self.hub.start()
        # A page closed mid-stream cancels its handler at once: its stream is counted no more.
        self._runner = web.AppRunner(
            self.app(), handle_signals=False, access_log=None, handler_cancellation=True
        )
        await self._runner.setup()
        try:
            await web.TCPSite(self._runner, self._host, self._port).start()
        except OSError as error:
            await self.stop()
            reason = (error.strerror or str(error)).lower()
            raise WebPortUnavailable(
                f"WEB_PORT={self._port} can't be used ({reason}): pick a free port, or stop what"
                " listens there"
            ) from None
        log.info("The table's web page on http://%s:%d/t/…", self._host, self._port)

    async def stop(self) -> None:
        self.hub.end_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._changes is not None:
            await self._changes.close()
            self._changes = None

    @web.middleware
    async def _limited(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not self.gate.request(address(request)):
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
        board, _message = await self.hub.board(link, locale)
        overlay = request.query.get("overlay") == "1"
        html = page(board, locale, overlay=overlay)
        return web.Response(text=html, content_type=_HTML, headers={"Cache-Control": "no-store"})

    async def _live(self, request: web.Request) -> web.StreamResponse:
        link = await self._store.find_link(request.match_info["token"])
        if link is None:
            return _missing()
        who = address(request)
        if not self.gate.open_stream(who):
            return _too_many()
        try:
            open_page = await self.hub.open(link, _locale(request, link))
        except BaseException:
            self.gate.close_stream(who)
            raise
        try:
            return await self._stream(request, open_page)
        finally:
            self.hub.close(open_page)
            self.gate.close_stream(who)

    async def _stream(self, request: web.Request, open_page: Page) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream; charset=utf-8",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",  # a proxy must pass each event on at once
            }
        )
        await response.prepare(request)
        await response.write(f"retry: {RETRY_MS}\n\n".encode())
        open_page.attach(response, request.transport)
        try:
            while True:
                await open_page.ready.wait()  # a new board, a keep-alive, or the end
                message = open_page.take()
                if message:
                    await response.write(message)
                if open_page.ended:
                    break
        except (ConnectionResetError, ConnectionError):
            pass  # the page was closed
        return response

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


async def _secure(request: web.Request, response: web.StreamResponse) -> None:
    """Every answer's security headers, errors and streams included."""
    response.headers.update(HEADERS)
