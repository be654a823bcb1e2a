"""`Store.newest`, what an open web page reads after every change, on a SQLite file and on
PostgreSQL: the changes an earlier answer read are kept where they still hold, and whatever an
undo, a redo or a history taken away did to them, the answer is the channel's newest changes as
`/history` reads them."""

from __future__ import annotations

import asyncio
import functools
import random
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from store import Store
from table import partyops
from table.event import Event
from table.model import Character, Table
from tests.store.conftest import Database

CH, GUILD, GM = 6001, 5005, 11


def seeded(table: Table) -> tuple[Table, None]:
    return table.with_character(Character("Aria", 21, fl_override=Fraction(1000))), None


async def spend(store: Store, channel: int, amount: int = 1) -> None:
    step = functools.partial(partyops.spend, name="Aria", amount=amount)
    await store.apply(channel, GUILD, GM, "fatigue spend", step)


def links(events: list[Event]) -> list[tuple[int, int | None, int | None]]:
    return [(e.id, e.undone_by, e.undoes) for e in events]


async def test_only_the_changes_since_are_read_whole(db: Database) -> None:
    async with Store.open(db.url) as store:
        await store.apply(CH, GUILD, GM, "seed", seeded)
        for _ in range(6):
            await spend(store, CH)
        known = await store.newest(CH, 5)
        assert known == await store.history(CH, 5)
        await spend(store, CH)
        await spend(store, CH, 2)
        newest = await store.newest(CH, 5, known)
        assert newest == await store.history(CH, 5)
        # the three older are the very events read before: nothing of them was decoded again
        assert all(a is b for a, b in zip(newest[2:], known[:3], strict=True))
        assert [e.after["characters"]["aria"]["fatigue"]["fp"] for e in newest[:2]] == [9, 7]


async def test_an_undo_of_a_known_change_is_seen(db: Database) -> None:
    async with Store.open(db.url) as store:
        await store.apply(CH, GUILD, GM, "seed", seeded)
        for _ in range(3):
            await spend(store, CH)
        known = await store.newest(CH, 10)
        await store.undo_last(CH, GUILD, GM, True)
        newest = await store.newest(CH, 10, known)
        assert newest == await store.history(CH, 10)
        assert newest[1].undone_by == newest[0].id  # set on a change read before


async def test_known_changes_taken_away_are_seen(db: Database) -> None:
    async with Store.open(db.url) as store:
        await store.apply(CH, GUILD, GM, "seed", seeded)
        for _ in range(4):
            await spend(store, CH)
        known = await store.newest(CH, 3)
        # as an undone import takes its history away: no change logged, events gone
        await db.execute(f"DELETE FROM events WHERE id = {known[0].id}")
        newest = await store.newest(CH, 3, known)
        assert newest == await store.history(CH, 3)
        assert known[0].id not in [e.id for e in newest]


async def test_more_changes_since_than_asked_for(db: Database) -> None:
    async with Store.open(db.url) as store:
        await store.apply(CH, GUILD, GM, "seed", seeded)
        known = await store.newest(CH, 3)
        for _ in range(5):
            await spend(store, CH)
        assert await store.newest(CH, 3, known) == await store.history(CH, 3)


async def _follow(url: str, seed_: int) -> None:
    rng = random.Random(seed_)
    channel = CH + 1 + seed_  # each example on a channel of its own, in the one database
    limit = rng.randint(1, 6)
    async with Store.open(url) as store:
        known = await store.newest(channel, limit)
        assert known == []
        await store.apply(channel, GUILD, GM, "seed", seeded)
        for _ in range(rng.randint(1, 25)):
            what = rng.choice(["spend", "spend", "undo", "redo", "read"])
            try:
                if what == "spend":
                    await spend(store, channel, rng.randint(1, 3))
                elif what == "undo":
                    await store.undo_last(channel, GUILD, GM, True)
                elif what == "redo":
                    await store.redo_last(channel, GUILD, GM, True)
            except RulesError:  # nothing to undo or redo: nothing changed
                pass
            if what == "read" or rng.random() < 0.5:
                known = await store.newest(channel, limit, known)
                history = await store.history(channel, limit)
                assert known == history, (links(known), links(history))


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed_=st.integers(0, 2**20))
def test_any_run_of_changes_undos_and_redos_reads_as_history(db: Database, seed_: int) -> None:
    asyncio.run(_follow(db.url, seed_))
