"""Faults the local Discord can be told to have, one test at a time, as real Discord has them:
a 429 with Retry-After, a 5xx, a response lost after the request took effect, a request lost
before it did, and an event delivered twice.

    discord_.server.faults.rate_limit("POST /interactions/*/callback", retry_after=0.2)
    discord_.server.faults.drop_response("PATCH /webhooks/*/messages/@original")

Routes are shell patterns over "METHOD /path" (the path after /api/v10). Each fault hits the
next `times` matching requests, then is spent; `hits` lists what each one hit.
"""

from __future__ import annotations

import fnmatch
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.localdiscord.http_json import json_response
from tests.localdiscord.records import InteractionRecord

if TYPE_CHECKING:
    from tests.localdiscord.client import LocalDiscord

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
API = "/api/v10"


@dataclass
class Fault:
    route: str
    kind: str  # "status", "drop_response", "drop_request"
    times: int
    status: int = 0
    retry_after: float = 0.0
    hits: list[tuple[float, str]] = field(default_factory=list)  # (monotonic time, request)


class Faults:
    def __init__(self) -> None:
        self.pending: list[Fault] = []
        self.hits: list[str] = []

    def rate_limit(self, route: str, retry_after: float = 0.25, times: int = 1) -> Fault:
        """429 Too Many Requests, with Retry-After and the body Discord sends."""
        return self._add(Fault(route, "status", times, 429, retry_after))

    def server_error(self, route: str, status: int = 503, times: int = 1) -> Fault:
        """A 5xx: Discord (or Cloudflare in front of it) failed; the request did nothing."""
        return self._add(Fault(route, "status", times, status))

    def fail(self, route: str, status: int, times: int = 1) -> Fault:
        """Any other error status, e.g. a 400 for a body Discord turns away."""
        return self._add(Fault(route, "status", times, status))

    def drop_response(self, route: str, times: int = 1) -> Fault:
        """The request takes effect, then the connection fails before the answer is sent."""
        return self._add(Fault(route, "drop_response", times))

    def drop_request(self, route: str, times: int = 1) -> Fault:
        """The connection fails before Discord reads the request: nothing happens."""
        return self._add(Fault(route, "drop_request", times))

    def _add(self, fault: Fault) -> Fault:
        self.pending.append(fault)
        return fault

    def _take(self, line: str) -> Fault | None:
        for fault in self.pending:
            if fnmatch.fnmatchcase(line, fault.route):
                fault.times -= 1
                fault.hits.append((time.monotonic(), line))
                self.hits.append(f"{fault.kind} {fault.status or ''} {line}".replace("  ", " "))
                if fault.times <= 0:
                    self.pending.remove(fault)
                return fault
        return None

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        fault = self._take(f"{request.method} {request.path.removeprefix(API)}")
        if fault is None:
            return await handler(request)
        if fault.kind == "drop_request":
            return _cut(request)
        if fault.kind == "drop_response":
            await handler(request)  # it takes effect...
            return _cut(request)  # ...and the answer never arrives
        return _error(fault)


def _cut(request: web.Request) -> web.Response:
    """Reset the connection; the response returned is written nowhere."""
    transport = request.transport
    if transport is not None:
        transport.abort()
    return web.Response(status=204)


def _error(fault: Fault) -> web.Response:
    if fault.status == 429:
        body = {
            "message": "You are being rate limited.",
            "retry_after": fault.retry_after,
            "global": False,
        }
        response = json_response(body, status=429)
        response.headers.update(
            {
                "Retry-After": f"{fault.retry_after:g}",
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset-After": f"{fault.retry_after:g}",
                "X-RateLimit-Bucket": "local-test-bucket",
                "X-RateLimit-Scope": "user",
                "Via": "1.1 google",  # discord.py retries only a 429 that came through Discord
            }
        )
        return response
    return json_response({"message": f"{fault.status}: test fault", "code": 0}, status=fault.status)


async def redeliver(discord_: LocalDiscord, record: InteractionRecord) -> None:
    """Send the same INTERACTION_CREATE again (same id and token), as Discord may after a
    gateway RESUME. The local Discord keeps its record: a second answer gets 40060."""
    await discord_.server.gateway.dispatch("INTERACTION_CREATE", record.payload)


def payload_of(discord_: LocalDiscord, interaction_id: int) -> dict[str, Any]:
    return discord_.server.interactions[interaction_id].payload
