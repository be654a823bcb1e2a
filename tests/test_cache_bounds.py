"""Everything the bot keeps between interactions has a bound, by count, and says it: a bot runs
for weeks, and `tests.benchmarks.soak` shows its memory levelling off only while each of these
holds. Every functools cache in the bot's packages has a maximum size, written in its docstring
(found by walking the modules, so a new cache is held to it too); each of the bot's own keeps is
filled past its bound here, and must hold it, its newest entry still kept."""

from __future__ import annotations

import asyncio
import importlib
import pkgutil
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from fractions import Fraction
from types import ModuleType, SimpleNamespace
from typing import Any

import discord
import pytest

from bot import ack, metrics, options, watchdog
from lang import speaking
from render import history
from table import model
from table.event import Event
from web import boards, limits, view

PACKAGES = ("lang", "rules", "table", "store", "render", "pictures", "web", "bot", "cogs")


def modules() -> Iterator[ModuleType]:
    for name in PACKAGES:
        package = importlib.import_module(name)
        yield package
        for found in pkgutil.walk_packages(package.__path__, f"{name}."):
            if not found.name.endswith("__main__"):
                yield importlib.import_module(found.name)


def ours(module: str | None) -> bool:
    return (module or "").split(".")[0] in PACKAGES


def caches() -> dict[str, Any]:
    """Every functools cache a module of ours defines, or makes of another's function under a
    name of its own (`_escaped = lru_cache(...)(escape_markdown)`), by where it is kept."""
    found = {}
    for module in modules():
        for name, value in vars(module).items():
            if not hasattr(value, "cache_parameters"):
                continue
            if ours(value.__module__) or name != value.__name__:
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return found


CACHES = caches()


def test_the_walk_finds_the_caches() -> None:
    assert "table.model._cached_fatigue_level" in CACHES
    assert "store.codec._character" in CACHES


@pytest.mark.parametrize("name", sorted(CACHES))
def test_each_cache_has_a_maximum_size_its_docstring_states(name: str) -> None:
    cache = CACHES[name]
    most = cache.cache_parameters()["maxsize"]
    assert most is not None, f"{name} keeps everything it is ever asked: give it a maxsize"
    doc = " ".join((cache.__doc__ or "").split())
    assert f"{most:,}" in doc, f"{name}'s docstring should say it keeps at most {most:,}"


def fatigue_inputs() -> Iterator[tuple[Any, ...]]:
    for toughness in range(-5, 8):  # every Toughness the rules allow
        for size in (4, 6, 8, 10, 12):
            for level in range(1, 101):
                yield ((size, level),), "single", toughness, None, None


def test_fatigue_levels_kept_stay_within_their_bound() -> None:
    kept = model._cached_fatigue_level
    most = kept.cache_parameters()["maxsize"]
    kept.cache_clear()
    inputs = list(fatigue_inputs())
    assert len(inputs) > most
    for each in inputs:
        assert isinstance(model.fatigue_level(*each), Fraction)
    assert kept.cache_info().currsize == most
    kept.cache_clear()


# --- the bot's own keeps, each filled past its bound ------------------------------------------


async def test_the_watchdog_remembers_the_last_interaction_ids_only() -> None:
    acks = watchdog.Acks(watchdog=60)
    over = watchdog.RECENT + 100
    kind = discord.InteractionType.application_command
    for number in range(over):
        item: Any = SimpleNamespace(id=number, type=kind, extras={})
        acks.arrived(item)
        ack.ack_of(item).settle()  # answered at once
    assert len(acks.recent) == watchdog.RECENT
    assert over - 1 in acks.recent and 0 not in acks.recent
    assert not acks.pending
    acks.close()
    await asyncio.sleep(0)


def test_metrics_keep_a_bounded_number_of_receipt_times() -> None:
    noted = metrics.Metrics()
    over = metrics._KEPT + 100
    for number in range(over):  # received, never finished (lost on the way)
        noted.received(SimpleNamespace(id=number))  # type: ignore[arg-type]
    assert len(noted._received) == metrics._KEPT
    assert over - 1 in noted._received


def test_options_keep_a_bounded_number_of_indexes() -> None:
    nodes = [{"options": [{"name": f"n{i}", "type": 3}]} for i in range(options.INDEXES_KEPT + 5)]
    for node in nodes:
        options._index(node)
    assert 0 < len(options._INDEXES) <= options.INDEXES_KEPT
    assert options._INDEXES[id(nodes[-1])][0] is nodes[-1]


def events(count: int) -> list[Event]:
    moment = datetime(2026, 1, 1, tzinfo=UTC)
    return [
        Event(
            n,
            1,
            "fatigue spend",
            moment,
            {"characters": {"aria": {"name": "Aria", "fatigue": {"fp": n}}}},
            {"characters": {"aria": {"name": "Aria", "fatigue": {"fp": n + 1}}}},
            channel_id=7,
        )
        for n in range(1, count + 1)
    ]


@pytest.mark.parametrize(
    ("kept", "most", "say"),
    [
        (history._WHAT, history.WHAT_KEPT, history._what),
        (view._LINES, view.LINES_KEPT, view.line),
    ],
    ids=["history lines", "web page lines"],
)
def test_lines_said_are_kept_within_their_bound(
    kept: dict[Any, Any], most: int, say: Callable[[Event, bool], Any]
) -> None:
    made = events(most + 5)
    with speaking(None):
        for event in made:
            say(event, True)
        assert 0 < len(kept) <= most
        assert any(key[1] == made[-1].id for key in kept)


def test_the_web_gate_remembers_a_bounded_number_of_addresses() -> None:
    gate = limits.Gate(limits.Limits())
    over = limits.ADDRESSES_KEPT + 100
    for n in range(over):
        assert gate.request(f"10.0.{n // 256}.{n % 256}")
    assert len(gate._buckets) == limits.ADDRESSES_KEPT
    assert f"10.0.{(over - 1) // 256}.{(over - 1) % 256}" in gate._buckets


async def test_boards_are_kept_one_per_language_and_within_their_bytes(
    shipped_catalogs: None,
) -> None:
    kept = boards.Boards(store=None)  # type: ignore[arg-type]
    try:
        asked = ["es", "es-ES", "es-419", "en-US", "en-GB", *(f"xx-{n}" for n in range(50))]
        for lang in asked:
            await kept.of(boards.Read(model.Table(1, None), []), lang)
        assert set(kept._kept) == {(1, "es"), (1, None)}  # Spanish, and English for the rest
        one = kept._kept[(1, None)].size
        kept.bytes_kept = 10 * one
        for channel in range(2, 40):
            await kept.of(boards.Read(model.Table(channel, None), []), None)
        assert kept.bytes <= kept.bytes_kept and len(kept._kept) <= 10
        assert (39, None) in kept._kept  # the newest kept, the least recent gone
    finally:
        kept.close()
