"""How much of the page one address may take: requests a second, and open event streams (per
address and in all). Past a limit the answer is 429, which costs the server next to nothing, so
a flood of page requests can't slow the bot's own work on the same event loop.

An address is the peer's, except behind a proxy on this machine or a private network (as hosts
put one in front of a web process): there, the last address the proxy added to
X-Forwarded-For. A client on the open internet can't come from such an address, so it can't
choose what it is counted as."""

from __future__ import annotations

import ipaddress
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from aiohttp import web

ADDRESSES_KEPT = 10_000  # addresses whose request rate is remembered; the least recent go first


@dataclass(frozen=True)
class Limits:
    requests_per_second: float = 10.0  # sustained, per address
    burst: int = 40  # requests at once, per address (a page is 4: HTML, CSS, script, stream)
    streams_per_address: int = 20
    streams: int = 1_000  # open event streams in all


def address(request: web.Request) -> str:
    """Who a request counts against (see the module's docstring)."""
    peer = request.remote or ""
    forwarded = request.headers.get("X-Forwarded-For")
    if forwarded and _behind_a_proxy(peer):
        last = forwarded.split(",")[-1].strip()
        if last:
            return last
    return peer


def _behind_a_proxy(peer: str) -> bool:
    try:
        ip = ipaddress.ip_address(peer)
    except ValueError:
        return False
    return ip.is_private or ip.is_loopback


class Gate:
    """Token buckets per address, and the count of open streams: the buckets of at most
    10,000 addresses (ADDRESSES_KEPT; the least recent forgotten first), and the open
    streams' count per address, at most `limits.streams` of them (1,000 by default)."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self._now = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, when
        self._streams: dict[str, int] = {}
        self.open_streams = 0

    def request(self, who: str) -> bool:
        """Whether `who` may make a request now (and count it)."""
        now = self._now()
        tokens, then = self._buckets.pop(who, (float(self.limits.burst), now))
        tokens = min(
            float(self.limits.burst), tokens + (now - then) * self.limits.requests_per_second
        )
        allowed = tokens >= 1.0
        self._buckets[who] = (tokens - 1.0 if allowed else tokens, now)
        if len(self._buckets) > ADDRESSES_KEPT:
            self._buckets.popitem(last=False)
        return allowed

    def open_stream(self, who: str) -> bool:
        """Whether `who` may open one more event stream (counted until `close_stream`)."""
        mine = self._streams.get(who, 0)
        if mine >= self.limits.streams_per_address or self.open_streams >= self.limits.streams:
            return False
        self._streams[who] = mine + 1
        self.open_streams += 1
        return True

    def close_stream(self, who: str) -> None:
        mine = self._streams.get(who, 0) - 1
        if mine > 0:
            self._streams[who] = mine
        else:
            self._streams.pop(who, None)
        self.open_streams -= 1
