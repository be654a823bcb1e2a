"""PostgreSQL round trips per command, counted on a wrapped connection: a channel read is one
round trip, a change four whatever rows it writes (BEGIN with the channel's lock, the load, the
rows with the event and its keys in one statement, COMMIT). Counted once asyncpg has prepared
each statement (its first use of a statement on a connection costs a describe more)."""

from __future__ import annotations

import dataclasses
from typing import Any

import asyncpg  # in the test extra
import pytest

from bot.store import Store
from bot.store.postgres import PostgresBackend, create_pool
from rules.fatigue import FatigueState
from table.model import Character, Monster, Table
from table.undo import UNDO_ACTION

CHANNEL, GUILD, GM = 11, 22, 33


class Counting(asyncpg.Connection):
    """Every public call that talks to the server is one round trip."""

    calls = 0

    async def execute(self, *args: Any, **kwargs: Any) -> Any:
        Counting.calls += 1
        return await super().execute(*args, **kwargs)

    async def fetch(self, *args: Any, **kwargs: Any) -> Any:
        Counting.calls += 1
        return await super().fetch(*args, **kwargs)

    async def fetchrow(self, *args: Any, **kwargs: Any) -> Any:
        Counting.calls += 1
        return await super().fetchrow(*args, **kwargs)

    async def fetchval(self, *args: Any, **kwargs: Any) -> Any:
        Counting.calls += 1
        return await super().fetchval(*args, **kwargs)


def hero(fp: int) -> Character:
    return Character("Ana", owner_id=GM, level=3, fatigue=FatigueState(fp=fp))


def spend(table: Table) -> tuple[Table, None]:
    (ana,) = table.characters
    tired = dataclasses.replace(
        ana, fatigue=dataclasses.replace(ana.fatigue, fp=ana.fatigue.fp + 1)
    )
    return table.with_character(tired), None


async def counted(store: Store, call: Any) -> int:
    before = Counting.calls
    await call()
    return Counting.calls - before


@pytest.fixture
async def store(postgres_url: str) -> Any:
    pool = await create_pool(postgres_url, connection_class=Counting)  # the bot's, counted
    backend = PostgresBackend(pool)
    await backend.migrate()
    store = Store(backend)
    await store.apply(CHANNEL, GUILD, GM, "add", lambda t: (t.with_character(hero(0)), None))
    monster = Monster("Imp", {"rank": 0, "armor": "light"})
    await store.apply(CHANNEL, GUILD, GM, "add", lambda t: (t.with_monster(monster), None))
    yield store
    await store.close()


async def test_a_channel_read_is_one_round_trip(store: Store) -> None:
    first = await store.read(CHANNEL, GUILD)  # asyncpg prepares the statement
    assert [c.name for c in first.characters] == ["Ana"] and len(first.monsters) == 1
    assert await counted(store, lambda: store.read(CHANNEL, GUILD)) == 1
    assert await counted(store, lambda: store.history(CHANNEL)) <= 2  # prepared, then 1
    assert await counted(store, lambda: store.history(CHANNEL)) == 1


async def test_a_change_to_one_character_is_four_round_trips(store: Store) -> None:
    await store.apply(CHANNEL, GUILD, GM, "spend", spend, interaction_id=1)  # prepares
    trips = await counted(
        store, lambda: store.apply(CHANNEL, GUILD, GM, "spend", spend, interaction_id=2)
    )
    assert trips == 4
    (ana,) = (await store.read(CHANNEL, GUILD)).characters
    assert ana.fatigue.fp == 2
    latest = (await store.history(CHANNEL, limit=1))[0]
    assert latest.action == "spend" and latest.action != UNDO_ACTION


async def test_a_quick_read_of_two_statements_is_refused(store: Store) -> None:
    """Outside a transaction a second statement would see another snapshot: refused."""
    from bot.store import StoreError

    async def two(tx: Any) -> int:
        await tx.fetchone("SELECT 1 AS one")
        return int((await tx.fetchone("SELECT 2 AS two"))["two"])

    with pytest.raises(StoreError, match="one statement"):
        await store._backend.read(two, quick=True)
    assert await store._backend.read(two) == 2  # in a transaction: fine


def tire_everyone(table: Table) -> tuple[Table, None]:
    for hero_ in table.characters:
        tired = dataclasses.replace(
            hero_, fatigue=dataclasses.replace(hero_.fatigue, fp=hero_.fatigue.fp + 1)
        )
        table = table.with_character(tired)
    return table, None


async def test_a_change_to_a_whole_party_is_still_four_round_trips(store: Store) -> None:
    """Ten characters' rows go with the event, as does a new channel's row with its first."""

    def add_party(table: Table) -> tuple[Table, None]:
        for n in range(9):
            table = table.with_character(dataclasses.replace(hero(0), name=f"Hero {n}"))
        return table, None

    await store.apply(CHANNEL, GUILD, GM, "add", add_party)
    await store.apply(CHANNEL, GUILD, GM, "tire", tire_everyone, interaction_id=3)  # prepares
    trips = await counted(
        store, lambda: store.apply(CHANNEL, GUILD, GM, "tire", tire_everyone, interaction_id=4)
    )
    assert trips == 4
    table = await store.read(CHANNEL, GUILD)
    assert len(table.characters) == 10
    assert {c.name: c.fatigue.fp for c in table.characters} == {
        "Ana": 2,
        **{f"Hero {n}": 2 for n in range(9)},
    }
    latest = (await store.history(CHANNEL, limit=1))[0]
    assert latest.action == "tire" and len(latest.after["characters"]) == 10

    # A new channel: its row, its first character and the event, in one statement.
    other = CHANNEL + 1
    made = await counted(
        store,
        lambda: store.apply(other, GUILD, GM, "add", lambda t: (t.with_character(hero(5)), None)),
    )
    assert made <= 5  # the new statement's shape is prepared on first use
    (ana,) = (await store.read(other, GUILD)).characters
    assert ana.fatigue.fp == 5
