"""`HEALTH_PORT`: a small HTTP server on the bot's own event loop (aiohttp, which discord.py
already brings), on `HEALTH_HOST` (this machine only, unless set otherwise). `GET /healthz`
answers 200 when every shard of this process is connected and the database answers and takes
changes (no outage on: `bot.outages`), else 503 with the reason; `GET /metrics` is
Prometheus' text format. Its port is guarded as the web page's is (`web.edge`): a few
connections, short time limits, no version in any answer."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

from bot.metrics import CONTENT_TYPE
from web.edge import Port, PortLimits

log = logging.getLogger(__name__)
DATABASE_TIMEOUT = 2.0  # seconds; a health check must answer before the orchestrator gives up
# An orchestrator's checks and a Prometheus scraper: a few connections, from one or two places.
LIMITS = PortLimits(connections=32, per_address=8)
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class HealthPortUnavailable(Exception):
    """HEALTH_PORT can't be listened on: one line for the admin, not a traceback."""


class HealthServer:
    """Serves what the client tells it: `problem` says why the process is unhealthy (None when
    it is healthy), `metrics` the Prometheus text."""

    def __init__(
        self,
        problem: Callable[[], Awaitable[str | None]],
        metrics: Callable[[], bytes],
        port: int,
        host: str = "127.0.0.1",
    ) -> None:
        self._problem, self._metrics_text = problem, metrics
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        self.port = Port(
            app, what="HEALTH_PORT", host=host, port=port, headers=HEADERS, limits=LIMITS
        )

    async def start(self) -> None:
        try:
            await self.port.start()
        except OSError as error:
            reason = error.strerror or str(error)
            raise HealthPortUnavailable(
                f"HEALTH_PORT={self.port.port} can't be used ({reason.lower()}): "
                "pick a free port, or stop what listens there"
            ) from None
        log.info(
            "Health and metrics on http://%s:%d/healthz and /metrics",
            self.port.host,
            self.port.port,
        )

    async def stop(self) -> None:
        await self.port.stop()

    async def _healthz(self, request: web.Request) -> web.Response:
        reason = await self._problem()
        if reason is None:
            return web.Response(text="ok\n")
        return web.Response(status=503, text=reason + "\n")

    async def _metrics(self, request: web.Request) -> web.Response:
        body = self._metrics_text()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE})
