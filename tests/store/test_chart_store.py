"""The reads behind `/party chart`, on a SQLite file and on PostgreSQL: the series comes from
the store's own log, starts where `since:` says, leaves undone changes out, and never reads
more than the channel keeps."""

from __future__ import annotations

import dataclasses
import functools
from fractions import Fraction
from typing import Any

import pytest

from rules.errors import RulesError
from store import Store
from store.chart import series_of
from table import partyops
from table.fatigue_series import SINCE_ALL, SINCE_DAY, SINCE_LONG_REST, FatigueSeries
from table.model import Character, Table
from table.settings import HISTORY_KEEP_MIN
from tests.store.conftest import Database

CH, GUILD, GM = 4001, 5005, 11
FL = Fraction(20)


def seeded(keep: int = 1000) -> Any:
    def step(table: Table) -> tuple[Table, None]:
        settings = dataclasses.replace(table.settings, history_keep=keep)
        table = dataclasses.replace(table, settings=settings, clock=20 * 3600)
        for name in ("Aria", "Bo"):
            table = table.with_character(Character(name, 21, fl_override=FL))
        return table, None

    return step


async def fatigue_chart(store: Store, since: str, character: str | None = None) -> FatigueSeries:
    return series_of(await store.fatigue_chart_rows(CH, GUILD, since, character))


async def play(store: Store, action: str, step: Any) -> None:
    await store.apply(CH, GUILD, GM, action, lambda t: step(t))


async def test_the_chart_starts_after_the_last_long_rest_and_leaves_undone_out(
    db: Database,
) -> None:
    async with Store.open(db.url) as store:
        await store.apply(CH, GUILD, GM, "seed", seeded())
        await play(
            store, "fatigue spend", functools.partial(partyops.spend, name="Aria", amount=30)
        )
        await play(store, "rest long", functools.partial(partyops.party_rest, kind="long"))
        await play(store, "fatigue spend", functools.partial(partyops.spend, name="Bo", amount=7))
        await play(store, "clock pass", functools.partial(partyops.pass_minutes, minutes=20))
        await play(store, "fatigue spend", functools.partial(partyops.spend, name="Bo", amount=50))
        await store.undo_last(CH, GUILD, GM, True)

        series = await fatigue_chart(store, SINCE_LONG_REST)
        table = await store.read(CH, GUILD)
        assert series.start == 20 * 3600 + 8 * 3600  # the Long Rest's end (4:00 on Day 2)
        assert series.end == table.clock and series.changes == 2
        aria, bo = series.lines
        assert [s.fp for s in bo.steps] == [0, 7]  # the undone 50 is not there
        assert bo.now.fp == table.get("Bo").fatigue.fp == 7
        assert [s.fp for s in aria.steps] == [0]

        everything = await fatigue_chart(store, SINCE_ALL, "Aria")
        steps = everything.lines[0].steps  # not in the channel before its first change
        assert [(s.fp, s.width) for s in steps] == [(0, None), (0, 20), (30, 20), (0, 20)]
        assert [r.kind for r in everything.rests] == ["long"]

        today = await fatigue_chart(store, SINCE_DAY)
        assert today.start == 24 * 3600  # Day 2, 00:00: in the middle of the Long Rest
        assert today.lines[0].steps[0].fp == 30


async def test_a_chart_reads_no_more_than_the_channel_keeps(db: Database) -> None:
    keep = HISTORY_KEEP_MIN
    async with Store.open(db.url) as store:
        await store.apply(CH, GUILD, GM, "seed", seeded(keep))
        await play(store, "rest long", functools.partial(partyops.party_rest, kind="long"))
        for _ in range(keep + 5):  # the Long Rest falls out of what is kept
            await play(
                store, "fatigue spend", functools.partial(partyops.spend, name="Aria", amount=1)
            )
        with pytest.raises(RulesError, match=f"its latest {keep} changes"):
            await fatigue_chart(store, SINCE_LONG_REST)
        series = await fatigue_chart(store, SINCE_ALL)
        assert series.changes == keep
        aria = series.lines[0]
        assert aria.steps[0].fp == 5 and aria.now.fp == keep + 5
