"""What `GET /metrics` shows, through prometheus-client: interactions by command and outcome,
how long they take, how soon they are acknowledged, database errors, commands refused by a
database outage (by reason), and the gateway's shards.

One `Metrics` per bot, with its own registry, so two bots in one process (the tests) don't mix.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from typing import Any

import asyncpg
import discord
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from bot.outages import REASONS
from store import StoreError
from store.errors import DatabaseOutage

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
# Discord's deadline to acknowledge is 3 s: the buckets are finer below it.
ACK_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
_KEPT = 10_000  # receipt times remembered for acknowledgement; older ones are dropped
PENDING_MAX = 1_000  # interactions noted before they are counted, if /metrics isn't read first


def command_label(interaction: discord.Interaction) -> str:
    """`fatigue spend` for a command; `button tk:fp` for a component (its custom_id's prefix,
    never the ids and names after it, which would make a label per click)."""
    data: dict[str, object] = dict(interaction.data or {})
    if interaction.type is discord.InteractionType.application_command:
        try:
            command = interaction.command
        except (AttributeError, TypeError, KeyError):  # options too malformed for discord.py
            command = None
        return command.qualified_name if command is not None else "unknown command"
    custom_id = str(data.get("custom_id") or "")
    kind = "modal" if interaction.type is discord.InteractionType.modal_submit else "button"
    return f"{kind} {':'.join(custom_id.split(':')[:2])}".strip()


def is_database_error(error: BaseException) -> bool:
    return isinstance(
        error, sqlite3.Error | StoreError | asyncpg.PostgresError | asyncpg.InterfaceError
    )


class _GatewayCollector(Collector):
    """Read at each scrape: which shards are connected and their heartbeat latency."""

    def __init__(self, bot: Callable[[], discord.AutoShardedClient | None]) -> None:
        self._bot = bot

    def collect(self) -> list[GaugeMetricFamily]:
        connected = GaugeMetricFamily(
            "tablekeeper_shards_connected", "Gateway shards this process has connected"
        )
        latency = GaugeMetricFamily(
            "tablekeeper_gateway_latency_seconds",
            "Heartbeat to acknowledgement on each shard's gateway connection",
            labels=["shard"],
        )
        bot = self._bot()
        shards = [] if bot is None else list(bot.shards.values())
        connected.add_metric([], sum(not s.is_closed() for s in shards))
        for shard in shards:
            latency.add_metric([str(shard.id)], shard.latency)
        return [connected, latency]

    def describe(self) -> list[GaugeMetricFamily]:
        return []


class Metrics:
    def __init__(self, bot: Callable[[], discord.AutoShardedClient | None] = lambda: None) -> None:
        self.registry = CollectorRegistry()
        self.interactions = Counter(
            "tablekeeper_interactions",
            "Interactions handled, by command and outcome (ok, refused, duplicate, outage, error)",
            ["command", "outcome"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "tablekeeper_interaction_seconds",
            "From receiving an interaction to finishing it",
            ["command"],
            registry=self.registry,
        )
        self.ack = Histogram(
            "tablekeeper_acknowledge_seconds",
            "From receiving an interaction to its first response (Discord allows 3 s)",
            buckets=ACK_BUCKETS,
            registry=self.registry,
        )
        self.database_errors = Counter(
            "tablekeeper_database_errors",
            "Database errors met while answering or checking health",
            registry=self.registry,
        )
        self.outage_refusals = Counter(
            "tablekeeper_outage_refusals",
            "Commands refused because the database could not serve them, by reason"
            " (unreachable, disk_full, read_only)",
            ["reason"],
            registry=self.registry,
        )
        for reason in REASONS:  # each shown from the start, at 0
            self.outage_refusals.labels(reason)
        self.registry.register(_GatewayCollector(bot))
        self._received: dict[int, float] = {}
        # What interactions did, noted as plain tuples and counted into the metrics when they
        # are read (`render`) or PENDING_MAX have gathered: prometheus-client takes a lock and
        # walks its buckets for every observation, work the answer need not wait for.
        self._acked: list[float] = []  # seconds to acknowledge
        self._done: list[tuple[str, str, float | None]] = []  # command, outcome, seconds

    def received(self, interaction: discord.Interaction) -> None:
        """Note when `interaction` came: the receipt times of at most 10,000 interactions not
        yet finished are kept (_KEPT; the oldest dropped first), and at most 1,000 notes wait
        to be counted (PENDING_MAX). The metrics' labels are the commands and the buttons'
        prefixes (`command_label`): a fixed set."""
        if len(self._received) >= _KEPT:
            self._received.pop(next(iter(self._received)))
        self._received.setdefault(interaction.id, time.monotonic())

    def acknowledged(self, interaction: discord.Interaction) -> None:
        start = self._received.get(interaction.id)
        if start is not None:
            self._acked.append(time.monotonic() - start)
            if len(self._acked) >= PENDING_MAX:
                self._count()

    def finished(self, interaction: discord.Interaction, outcome: str) -> None:
        start = self._received.pop(interaction.id, None)
        took = None if start is None else time.monotonic() - start
        self._done.append((command_label(interaction), outcome, took))
        if len(self._done) >= PENDING_MAX:
            self._count()

    def _count(self) -> None:
        """Count what was noted into the metrics (each label's child looked up once)."""
        acked, done, self._acked, self._done = self._acked, self._done, [], []
        for seconds in acked:
            self.ack.observe(seconds)
        counted: dict[tuple[str, str], Any] = {}
        timed: dict[str, Any] = {}
        for label, outcome, took in done:
            counter = counted.get((label, outcome))
            if counter is None:
                counter = counted[label, outcome] = self.interactions.labels(label, outcome)
            counter.inc()
            if took is not None:
                histogram = timed.get(label)
                if histogram is None:
                    histogram = timed[label] = self.latency.labels(label)
                histogram.observe(took)

    def failed(self, error: BaseException) -> None:
        """An interaction met `error`: counted if the database failed or refused it (its outcome
        is counted with the rest, when it finishes)."""
        if is_database_error(error):
            self.database_errors.inc()
        if isinstance(error, DatabaseOutage):
            self.outage_refusals.labels(error.reason).inc()

    def render(self) -> bytes:
        self._count()
        return generate_latest(self.registry)


def of(interaction: discord.Interaction) -> Metrics | None:
    """The bot's metrics, if the client is a Tablekeeper (cogs run only there; a bare test
    client has none)."""
    metrics = getattr(interaction.client, "metrics", None)
    return metrics if isinstance(metrics, Metrics) else None


def note_acknowledged(interaction: discord.Interaction) -> None:
    if (metrics := of(interaction)) is not None:
        metrics.acknowledged(interaction)
