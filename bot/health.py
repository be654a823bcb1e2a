"""`HEALTH_PORT`: a small HTTP server on the bot's own event loop (aiohttp, which discord.py
already brings). `GET /healthz` answers 200 when every shard of this process is connected and
the database answers, else 503 with the reason; `GET /metrics` is Prometheus' text format."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from aiohttp import web

from bot.metrics import CONTENT_TYPE

if TYPE_CHECKING:
    from bot.client import Tablekeeper

log = logging.getLogger(__name__)
DATABASE_TIMEOUT = 2.0  # seconds; a health check must answer before the orchestrator gives up


async def problem(bot: Tablekeeper) -> str | None:
    """Why this process is not healthy, or None when it is."""
    if bot.draining:
        return "shutting down"
    shards = list(bot.shards.values())
    closed = [s.id for s in shards if s.is_closed()]
    if not bot.is_ready() or not shards or closed:
        which = f" (shards {', '.join(map(str, closed))} closed)" if closed else ""
        return f"gateway not connected{which}"
    try:
        await asyncio.wait_for(bot.store.ping(), DATABASE_TIMEOUT)
    except Exception as error:  # any failure is the answer, not a crash of the endpoint
        bot.metrics.database_errors.inc()
        what = "timed out" if isinstance(error, TimeoutError) else type(error).__name__
        return f"database not answering: {what}"
    return None


class HealthPortUnavailable(Exception):
    """HEALTH_PORT can't be listened on: one line for the admin, not a traceback."""


class HealthServer:
    def __init__(self, bot: Tablekeeper, port: int, host: str = "0.0.0.0") -> None:
        self._bot, self._port, self._host = bot, port, host
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
        reason = await problem(self._bot)
        if reason is None:
            return web.Response(text="ok\n")
        return web.Response(status=503, text=reason + "\n")

    async def _metrics(self, request: web.Request) -> web.Response:
        body = self._bot.metrics.render()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE})
