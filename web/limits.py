"""How much of the page one client may take: requests a second, and open event streams, per
address, per channel and in all. Past a limit the answer is 429, which costs the server next to
nothing, so a flood of page requests can't slow the bot's own work on the same event loop.

Streams are shared fairly before the pool runs out: an address holds at most 20, a channel's
link at most a quarter of the pool, so neither one address nor one flooded link can leave
another channel's viewer without a stream. Who an address is: `web.clients` (the peer, or
behind a trusted proxy the client it names); what happens before a request is read at all
(connections, and how long they may take): `web.edge`."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from web.edge import PortLimits, count_down

ADDRESSES_KEPT = 10_000  # addresses whose request rate is remembered; the least recent go first


@dataclass(frozen=True)
class Limits:
    requests_per_second: float = 10.0  # sustained, per address
    burst: int = 40  # requests at once, per address (a page is 4: HTML, CSS, script, stream)
    streams_per_address: int = 20  # the web benchmark opens 20 an address
    streams_per_channel: int = 250  # a quarter of the pool: one flooded link leaves the rest
    streams: int = 1_000  # open event streams in all
    port: PortLimits = field(default_factory=PortLimits)  # connections, and their time


class Gate:
    """Token buckets per address, and the count of open streams: the buckets of at most
    10,000 addresses (ADDRESSES_KEPT; the least recent forgotten first), and the open
    streams' count per address and per channel, at most `limits.streams` of each (1,000 by
    default)."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self._now = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, when
        self._streams: dict[str, int] = {}  # by address
        self._channels: dict[int, int] = {}  # by channel
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

    def open_stream(self, who: str, channel_id: int) -> bool:
        """Whether `who` may open one more event stream of the channel (counted until
        `close_stream`): within its address's share and the channel's, then the pool's."""
        mine, channel = self._streams.get(who, 0), self._channels.get(channel_id, 0)
        if (
            mine >= self.limits.streams_per_address
            or channel >= self.limits.streams_per_channel
            or self.open_streams >= self.limits.streams
        ):
            return False
        self._streams[who], self._channels[channel_id] = mine + 1, channel + 1
        self.open_streams += 1
        return True

    def close_stream(self, who: str, channel_id: int) -> None:
        count_down(self._streams, who)
        count_down(self._channels, channel_id)
        self.open_streams -= 1
