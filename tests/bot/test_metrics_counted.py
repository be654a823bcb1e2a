"""`bot.metrics.Metrics` notes what interactions did and counts it when /metrics is read (or when
PENDING_MAX have gathered): what a scrape shows is the same either way."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from bot.metrics import PENDING_MAX, Metrics


def interaction(number: int, command: str = "roll") -> Any:
    kind = discord.InteractionType.application_command
    return SimpleNamespace(
        id=number, type=kind, command=SimpleNamespace(qualified_name=command), data={}
    )


def sample(metrics: Metrics, name: str, **labels: str) -> float:
    metrics.render()  # counts what was noted
    value = metrics.registry.get_sample_value(name, labels)
    return 0.0 if value is None else value


def test_a_scrape_counts_everything_noted_before_it() -> None:
    metrics = Metrics()
    for number in range(5):
        metrics.received(interaction(number))
        metrics.acknowledged(interaction(number))
        metrics.finished(interaction(number), "ok")
    metrics.finished(interaction(99, "save wsr"), "refused")  # never received: no duration
    assert sample(metrics, "tablekeeper_interactions_total", command="roll", outcome="ok") == 5
    refused = {"command": "save wsr", "outcome": "refused"}
    assert sample(metrics, "tablekeeper_interactions_total", **refused) == 1
    assert sample(metrics, "tablekeeper_acknowledge_seconds_count") == 5
    assert sample(metrics, "tablekeeper_interaction_seconds_count", command="roll") == 5
    assert sample(metrics, "tablekeeper_interaction_seconds_count", command="save wsr") == 0


def test_notes_are_counted_without_a_scrape_once_many_gathered() -> None:
    metrics = Metrics()
    for number in range(PENDING_MAX):
        metrics.received(interaction(number))
        metrics.finished(interaction(number), "ok")
    labels = {"command": "roll", "outcome": "ok"}
    counted = metrics.registry.get_sample_value("tablekeeper_interactions_total", labels)
    assert counted == PENDING_MAX  # read without render(): counted already
    assert len(metrics._done) == 0  # nothing left waiting
