"""The turn order in the store, on SQLite and PostgreSQL: kept across a reopen, logged, undone,
and gone (no row) after `/init end`."""

from __future__ import annotations

import random

from store import Store
from table import initiative
from table.model import Table
from tests.store.conftest import Database

CHANNEL, GUILD, GM = 2**63 - 1, 2**63 - 2, 2**63 - 3


def add(name: str, score: int):  # type: ignore[no-untyped-def]
    return lambda t: initiative.add(
        t, actor_id=GM, is_gm=True, name=name, score=score, other=True, rng=random.Random(0)
    )


async def test_the_order_is_kept_logged_and_undone(db: Database) -> None:
    async with Store.open(db.url) as store:
        await store.apply(CHANNEL, GUILD, GM, "init add", add("Orc", -1000))
        await store.apply(CHANNEL, GUILD, GM, "init add", add("Ünïcode elf", 1000))
        await store.apply(CHANNEL, GUILD, GM, "init start", initiative.start)
        await store.apply(CHANNEL, GUILD, GM, "init next", initiative.next_turn)
    async with Store.open(db.url) as store:
        table = await store.read(CHANNEL, GUILD)
        assert [c.name for c in table.initiative.combatants] == ["Ünïcode elf", "Orc"]
        assert (table.initiative.round, table.initiative.turn) == (1, 1)
        undone = await store.undo_last(CHANNEL, GUILD, GM, True)
        assert undone.target.action == "init next"
        assert (await store.read(CHANNEL, GUILD)).initiative.turn == 0
        await store.apply(CHANNEL, GUILD, GM, "init end", initiative.end)
        assert (await store.read(CHANNEL, GUILD)).initiative.combatants == ()
    assert (await db.dump())["initiatives"] == []  # no row left behind


def test_an_empty_channel_has_no_order() -> None:
    assert Table(1, None).initiative.combatants == ()
