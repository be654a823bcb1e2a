"""Exactly once: a change made for a Discord interaction is logged with the interaction's id,
unique, in the same transaction; a second delivery of that interaction writes nothing
(on a SQLite file and on PostgreSQL)."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from store import AlreadyApplied, Store
from table.model import Table
from tests.store.conftest import Database

CHANNEL, GUILD, ACTOR = 7, 70, 700
INTERACTION = 10**18 + 5  # a snowflake: past 2^32, as every real interaction id


def tick(table: Table) -> tuple[Table, int]:
    return dataclasses.replace(table, clock=table.clock + 1), table.clock + 1


async def test_a_second_delivery_writes_nothing(db: Database) -> None:
    async with Store.open(db.url) as store:
        assert await store.apply(CHANNEL, GUILD, ACTOR, "tick", tick, interaction_id=INTERACTION)
        before = await db.dump()
        with pytest.raises(AlreadyApplied) as caught:
            await store.apply(CHANNEL, GUILD, ACTOR, "tick", tick, interaction_id=INTERACTION)
        assert caught.value.action == "tick"
        assert caught.value.interaction_id == INTERACTION
        assert await db.dump() == before
        assert (await store.read(CHANNEL)).clock == 1
        # another interaction, and changes made outside Discord, still apply
        await store.apply(CHANNEL, GUILD, ACTOR, "tick", tick, interaction_id=INTERACTION + 1)
        await store.apply(CHANNEL, GUILD, ACTOR, "tick", tick)
        await store.apply(CHANNEL, GUILD, ACTOR, "tick", tick)
        assert (await store.read(CHANNEL)).clock == 4


async def test_concurrent_deliveries_apply_once(db: Database) -> None:
    async with Store.open(db.url) as store, Store.open(db.url) as other:
        # two stores: two processes sharing the database, each handed the same interaction
        results = await asyncio.gather(
            *(
                s.apply(CHANNEL, GUILD, ACTOR, "tick", tick, interaction_id=INTERACTION)
                for s in (store, other, store, other)
            ),
            return_exceptions=True,
        )
        assert sorted(type(r).__name__ for r in results) == ["AlreadyApplied"] * 3 + ["int"]
        assert (await store.read(CHANNEL)).clock == 1
        assert len(await store.history(CHANNEL)) == 1


async def test_an_interaction_id_is_unique_in_the_schema(db: Database) -> None:
    async with Store.open(db.url) as store:
        await store.apply(CHANNEL, GUILD, ACTOR, "tick", tick, interaction_id=INTERACTION)
    with pytest.raises(Exception, match=r"(?i)unique"):
        await db.execute(
            "INSERT INTO events (channel_id, actor_id, action, created_at, clock, before, after,"
            f" interaction_id) VALUES ({CHANNEL}, 1, 'x', '2024-01-01T00:00:00+00:00', 0, '{{}}',"
            f" '{{}}', {INTERACTION})"
        )


async def test_an_undo_delivered_twice_undoes_once(db: Database) -> None:
    async with Store.open(db.url) as store:
        for _ in range(2):
            await store.apply(CHANNEL, GUILD, ACTOR, "tick", tick)
        await store.undo_last(CHANNEL, GUILD, ACTOR, True, interaction_id=INTERACTION)
        before = await db.dump()
        with pytest.raises(AlreadyApplied):
            await store.undo_last(CHANNEL, GUILD, ACTOR, True, interaction_id=INTERACTION)
        assert await db.dump() == before
        assert (await store.read(CHANNEL)).clock == 1
