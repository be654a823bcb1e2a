"""`HEALTH_PORT`: a small HTTP server on the bot's own event loop (aiohttp, which discord.py
already brings). `GET /healthz` answers 200 when every shard of this process is connected and
the database answers and takes changes (no outage on: `bot.outages`), else 503 with the reason;
`GET /metrics` is Prometheus' text format."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

from bot.metrics import CONTENT_TYPE

log = logging.getLogger(__name__)
DATABASE_TIMEOUT = 2.0  # seconds; a health check must answer before the orchestrator gives up


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
        host: str = "0.0.0.0",
    ) -> None:
        self._problem, self._metrics_text = problem, metrics
        self._port, self._host = port, host
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        try:
            await web.TCPSite(self._runner, self._host, self._port).start()
        except OSError as error:
            await self.stop()
            reason = error.strerror or str(error)
            raise HealthPortUnavailable(
                f"HEALTH_PORT={self._port} can't be used ({reason.lower()}): "
                "pick a free port, or stop what listens there"
            ) from None
        log.info("Health and metrics on http://%s:%d/healthz and /metrics", self._host, self._port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _healthz(self, request: web.Request) -> web.Response:
        reason = await self._problem()
        if reason is None:
            return web.Response(text="ok\n")
        return web.Response(status=503, text=reason + "\n")

    async def _metrics(self, request: web.Request) -> web.Response:
        body = self._metrics_text()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE})
