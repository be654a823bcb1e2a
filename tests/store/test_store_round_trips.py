"""PostgreSQL round trips per command, counted on a wrapped connection: a channel read is one
round trip; a change four whatever rows it writes, in a transaction that holds the channel's
lock (BEGIN with the lock, the read, the rows with the event and its keys in one statement,
COMMIT). Counted once asyncpg has prepared each statement (its first use of a statement on a
connection costs a describe more)."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
from typing import Any

import asyncpg
import pytest

from rules.fatigue import FatigueState
from store import Store
from store.postgres import PostgresBackend, create_pool
from table.model import Character, Monster, Table
from table.settings import server_layer

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
    assert [e.action for e in await store.history(CHANNEL, limit=2)] == ["spend", "spend"]


async def test_a_read_of_one_statement_refuses_a_second(store: Store) -> None:
    """Outside a transaction a second statement would see another snapshot: refused."""
    from store import StoreError

    async def two(tx: Any) -> int:
        await tx.fetchone("SELECT 1 AS one")
        return int((await tx.fetchone("SELECT 2 AS two"))["two"])

    with pytest.raises(StoreError, match="one statement"):
        await store.backend.read(two, single=True)
    assert await store.backend.read(two) == 2  # in a transaction: fine


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


async def test_a_server_settings_change_is_four_round_trips_too(store: Store) -> None:
    def ties(table: Table) -> tuple[Table, None]:
        return table.relayered(table.own_settings(), server_layer({"ties": "succeed"})), None

    untie = lambda t: (t.relayered(t.own_settings(), server_layer({})), None)  # noqa: E731
    await store.apply(CHANNEL, GUILD, GM, "server", ties)  # prepares
    await store.apply(CHANNEL, GUILD, GM, "server", untie)
    assert await counted(store, lambda: store.apply(CHANNEL, GUILD, GM, "server", ties)) == 4
    assert (await store.read(CHANNEL + 5, GUILD)).settings.ties == "succeed"


async def test_one_process_s_changes_to_a_channel_take_turns(store: Store) -> None:
    """Ten changes to one channel at once from this process: each waits for the channel's lock
    and runs on the table the one before it left."""
    await store.apply(CHANNEL, GUILD, GM, "spend", spend, interaction_id=1)  # prepares
    ten = [
        functools.partial(store.apply, CHANNEL, GUILD, GM, "spend", spend, interaction_id=n)
        for n in range(2, 12)
    ]
    trips = await counted(store, lambda: asyncio.gather(*(change() for change in ten)))
    assert trips == 40
    (ana,) = (await store.read(CHANNEL, GUILD)).characters
    assert ana.fatigue.fp == 11
    assert [e.seq for e in await store.history(CHANNEL, limit=11)] == list(range(13, 2, -1))


async def test_a_second_delivery_is_found_applied(store: Store) -> None:
    from store.errors import AlreadyApplied

    await store.apply(CHANNEL, GUILD, GM, "spend", spend, interaction_id=7)
    with pytest.raises(AlreadyApplied):
        await store.apply(CHANNEL, GUILD, GM, "spend", spend, interaction_id=7)
    (ana,) = (await store.read(CHANNEL, GUILD)).characters
    assert ana.fatigue.fp == 1
    assert [e.action for e in await store.history(CHANNEL, limit=5)].count("spend") == 1
