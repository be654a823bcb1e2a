"""Two stores on one database, as two bot processes would be (two SQLite connections to one
file; two PostgreSQL pools), changing one channel at once: no change is lost, none deadlocks,
each runs on what the one before it left, and every read equals what a store opened afterwards
reads."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from store import Store
from table import partyops
from table.model import Character, Monster, Table
from table.parts import BESTIARY, CHANNEL_ONLY, EVERYTHING, PARTY
from tests.store.conftest import Database

CH, GUILD, GM = 1, 2, 9


def tick(table: Table) -> tuple[Table, int]:
    return dataclasses.replace(table, clock=table.clock + 1), table.clock + 1


async def test_changes_and_undos_from_two_stores_at_once_lose_nothing(db: Database) -> None:
    async with Store.open(db.url) as first, Store.open(db.url) as second:
        for _ in range(10):  # standing changes enough for every undo, whenever it runs
            await first.apply(CH, GUILD, GM, "tick", tick)
        stores = (first, second) * 20
        ticks = [store.apply(CH, GUILD, GM, "tick", tick) for store in stores]
        # Each ran on the clock the change before it left: every clock from 11 to 50, once.
        assert sorted(await asyncio.gather(*ticks)) == list(range(11, 51))
        ticks = [store.apply(CH, GUILD, GM, "tick", tick) for store in stores]
        undos = [store.undo_last(CH, GUILD, GM, True) for store in (first, second) * 3]
        done = await asyncio.gather(*ticks, *undos, return_exceptions=True)
        assert not [d for d in done if isinstance(d, BaseException)], done
        events = await first.history(CH, limit=100)
        assert len(events) == 10 + 80 + 6
        assert sorted(e.seq for e in events) == list(range(1, 97))
        assert len({e.undoes for e in events if e.undoes is not None}) == 6  # six taken back
        assert (await second.read(CH)).clock == 10 + 80 - 6


async def test_what_one_store_reads_is_what_the_other_wrote(db: Database) -> None:
    """Every read, with each set of parts, equals the same read by a store opened after
    them, and the parts it leaves out are simply empty."""
    heroes = [Character(name, GM, classes=((10, 2),)) for name in ("Ana", "Bo", "Cy")]
    imp = Monster("Imp", {"rank": 0, "armor": "light"})

    async with Store.open(db.url) as first, Store.open(db.url) as second:
        await first.apply(CH, GUILD, GM, "add", lambda t: (t.with_character(heroes[0]), None))
        await second.apply(CH, GUILD, GM, "add", lambda t: (t.with_character(heroes[1]), None))
        await first.apply(CH, GUILD, GM, "beast", lambda t: (t.with_monster(imp), None))
        await asyncio.gather(
            second.apply(CH, GUILD, GM, "spend", lambda t: partyops.spend(t, "Ana", 3)),
            first.apply(CH, GUILD, GM, "add", lambda t: (t.with_character(heroes[2]), None)),
            second.apply(CH, GUILD, GM, "tick", tick),
        )
        seen: dict[Any, list[Table]] = {}
        for parts in (EVERYTHING, PARTY, BESTIARY, CHANNEL_ONLY):
            seen[parts] = [await store.read(CH, GUILD, parts) for store in (first, second)]
        pages = [await store.history(CH) for store in (first, second)]
    async with Store.open(db.url) as later:
        whole = await later.read(CH, GUILD)
        assert [c.name for c in whole.characters] == ["Ana", "Bo", "Cy"]
        assert whole.get("Ana").fatigue.fp == 3 and whole.clock == 1
        for parts, tables in seen.items():
            assert tables == [await later.read(CH, GUILD, parts)] * 2
            left_out = {p: getattr(Table(CH, GUILD), p) for p in EVERYTHING - parts}
            assert tables[0] == whole.with_parts(**left_out)
        assert pages == [await later.history(CH)] * 2
