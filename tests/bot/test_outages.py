"""The outage bookkeeping on its own: one log line as an outage begins and one as it ends (how
long, how many commands refused), however many commands meet it; a read ends an unreachable
database's outage, only a saved change ends a full disk's; an end is logged once it settles, so
a call that slips through between two refusals doesn't split one outage in two; the store is
watched only while an outage is on."""

from __future__ import annotations

import asyncio
import dataclasses
import logging

import pytest

from bot.outages import Outages, Watcher
from store.errors import DatabaseFull, DatabaseReadOnly, DatabaseUnreachable

SETTLE = 0.05


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Store:
    """Stands in for `Store.watch`: what the bookkeeping asked to be told."""

    def __init__(self) -> None:
        self.watcher: Watcher | None = None

    def watch(self, watcher: Watcher | None) -> None:
        self.watcher = watcher


def lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "bot.outages"]


async def settled() -> None:
    await asyncio.sleep(SETTLE * 3)


@dataclasses.dataclass
class Booked:
    """Outages kept on a clock the test moves, watching a stand-in store, logging to caplog."""

    clock: Clock
    store: Store
    outages: Outages


@pytest.fixture
def booked(caplog: pytest.LogCaptureFixture) -> Booked:
    caplog.set_level(logging.INFO, logger="bot.outages")
    clock, store = Clock(), Store()
    return Booked(clock, store, Outages(store.watch, clock, SETTLE))


async def test_an_outage_is_logged_once_as_it_begins_and_once_as_it_ends(
    booked: Booked, caplog: pytest.LogCaptureFixture
) -> None:
    clock, store, outages = booked.clock, booked.store, booked.outages
    assert outages.problem() is None and store.watcher is None

    refused = DatabaseUnreachable("ConnectionRefusedError: [Errno 111] Connect call failed")
    for _ in range(5):
        outages.refused(refused)
        clock.now += 1.5
    outages.noticed(DatabaseUnreachable("TimeoutError"))  # a health check: not a command
    assert lines(caplog) == [
        "Database outage began: database unreachable"
        " (ConnectionRefusedError: [Errno 111] Connect call failed)"
    ]
    assert outages.problem() == "database unreachable for 8 s (commands refused: 5)"
    assert store.watcher is not None

    store.watcher(False)  # a read got through
    assert outages.problem() is None  # ending: the database answers
    clock.now += 100  # the end is when it was reached, not when it is logged
    await settled()
    assert lines(caplog)[1:] == [
        "Database outage ended: database unreachable, for 7.5 s; commands refused: 5"
    ]
    assert store.watcher is None and not outages.on


async def test_a_call_between_two_refusals_does_not_split_the_outage(
    booked: Booked, caplog: pytest.LogCaptureFixture
) -> None:
    clock, store, outages = booked.clock, booked.store, booked.outages
    outages.refused(DatabaseUnreachable("one"))
    assert store.watcher is not None
    store.watcher(False)  # one got through as the server went down...
    clock.now += 0.01
    outages.refused(DatabaseUnreachable("two"))  # ...and the next was refused
    await settled()
    assert len(lines(caplog)) == 1 and outages.on  # still the one outage, still on
    assert outages.problem() == "database unreachable for 0 s (commands refused: 2)"
    clock.now += 3
    store.watcher(False)
    await settled()
    assert lines(caplog)[1:] == [
        "Database outage ended: database unreachable, for 3.0 s; commands refused: 2"
    ]


async def test_only_a_saved_change_ends_a_full_disk_or_a_read_only_file(
    booked: Booked, caplog: pytest.LogCaptureFixture
) -> None:
    clock, store, outages = booked.clock, booked.store, booked.outages
    outages.refused(DatabaseFull("SQLite: database or disk is full"))
    outages.refused(DatabaseReadOnly("SQLite: attempt to write a readonly database"))
    outages.refused(DatabaseReadOnly("SQLite: attempt to write a readonly database"))
    assert store.watcher is not None
    for _ in range(3):
        store.watcher(False)  # reads go on: not the end of either
    await settled()
    assert outages.problem() == (
        "database disk full for 0 s (commands refused: 1); "
        "database read-only for 0 s (commands refused: 2)"
    )
    clock.now += 2
    store.watcher(True)
    await settled()
    assert lines(caplog) == [
        "Database outage began: database disk full (SQLite: database or disk is full)",
        "Database outage began: database read-only (SQLite: attempt to write a readonly database)",
        "Database outage ended: database disk full, for 2.0 s; commands refused: 1",
        "Database outage ended: database read-only, for 2.0 s; commands refused: 2",
    ]
    assert store.watcher is None
