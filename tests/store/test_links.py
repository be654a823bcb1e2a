"""A channel's web page link in the store (each test on a SQLite file and on PostgreSQL): made
once and shown again, kept only as a hash, revoked, logged, undone both ways, and every commit
told to whoever follows the changes."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator

import pytest

from rules.errors import RulesError
from store import AlreadyApplied, Store
from store.changes import ChangeFeed
from store.links import (
    MAKE,
    REVOKE,
    link_key,
    token_for,
    token_hash,
)
from tests.store.conftest import Database

CH, OTHER, GUILD, GM = 1001, 1002, 5005, 11
KEY = link_key("the bot's own secret")


@pytest.fixture
async def store(db: Database) -> AsyncIterator[Store]:
    async with Store.open(db.url) as opened:
        yield opened


async def test_a_link_is_made_once_and_shown_again(store: Store, db: Database) -> None:
    token, made = await store.make_link(CH, GUILD, GM, "es-ES", KEY, interaction_id=1)
    assert made and len(token) == 43  # 256 bits, base64url
    again, made_again = await store.make_link(CH, GUILD, GM, "en-US", KEY, interaction_id=2)
    assert (again, made_again) == (token, False)
    found = await store.find_link(token)
    assert found is not None
    assert (found.channel_id, found.guild_id, found.locale) == (CH, GUILD, "es-ES")
    # Neither the token nor anything it can be read from without the key is in the database.
    dump = repr(await db.dump())
    assert token not in dump and token_hash(token) in dump
    history = await store.history(CH)
    assert [e.action for e in history] == [MAKE]  # showing it again changed nothing


async def test_each_channel_has_its_own_link(store: Store) -> None:
    first, _ = await store.make_link(CH, GUILD, GM, None, KEY)
    second, _ = await store.make_link(OTHER, GUILD, GM, None, KEY)
    assert first != second
    one, two = await store.find_link(first), await store.find_link(second)
    assert one is not None and two is not None
    assert (one.channel_id, two.channel_id) == (CH, OTHER)


async def test_unknown_revoked_and_malformed_tokens_find_nothing(store: Store) -> None:
    token, _ = await store.make_link(CH, GUILD, GM, None, KEY)
    assert await store.revoke_link(CH, GUILD, GM) is True
    for wrong in (token, token_for(KEY, "never made"), "", "x" * 5000, "é/../%00", "\udcff"):
        assert await store.find_link(wrong) is None
    assert await store.live_hash(CH) is None
    assert await store.revoke_link(CH, GUILD, GM) is False  # nothing left to revoke
    new, made = await store.make_link(CH, GUILD, GM, None, KEY)
    assert made and new != token and await store.find_link(new) is not None
    assert [e.action for e in await store.history(CH)] == [MAKE, REVOKE, MAKE]


async def test_a_new_key_makes_a_new_link(store: Store) -> None:
    old, _ = await store.make_link(CH, GUILD, GM, None, KEY)
    new, made = await store.make_link(CH, GUILD, GM, None, link_key("a reset secret"))
    assert made and new != old
    assert await store.find_link(old) is None and await store.find_link(new) is not None


async def test_undo_revokes_a_link_and_brings_a_revoked_one_back(store: Store) -> None:
    token, _ = await store.make_link(CH, GUILD, GM, None, KEY)
    await store.revoke_link(CH, GUILD, GM)
    undone = await store.undo_last(CH, GUILD, GM, True)
    assert undone.target.action == REVOKE
    assert await store.find_link(token) is not None  # the same link works again
    assert await store.make_link(CH, GUILD, GM, None, KEY) == (token, False)
    undone = await store.undo_last(CH, GUILD, GM, True)  # the undo is not undone: the link is
    assert undone.target.action == MAKE
    assert await store.find_link(token) is None
    redone = await store.redo_last(CH, GUILD, GM, True)  # the link revoked by undo, back
    assert redone.change.action == MAKE and await store.find_link(token) is not None
    assert [e.action for e in await store.history(CH, 3)] == ["redo", "undo", "undo"]


async def test_a_player_cant_undo_the_gms_link(store: Store) -> None:
    await store.make_link(CH, GUILD, GM, None, KEY)
    with pytest.raises(RulesError):
        await store.undo_last(CH, GUILD, 99, False)


async def test_a_second_delivery_makes_nothing(store: Store) -> None:
    await store.make_link(CH, GUILD, GM, None, KEY, interaction_id=7)
    await store.revoke_link(CH, GUILD, GM, interaction_id=8)
    with pytest.raises(AlreadyApplied):
        await store.make_link(CH, GUILD, GM, None, KEY, interaction_id=7)
    with pytest.raises(AlreadyApplied):
        await store.revoke_link(CH, GUILD, GM, interaction_id=8)
    assert await store.live_hash(CH) is None


async def test_every_committed_change_is_told(store: Store, db: Database) -> None:
    told: list[int | None] = []
    arrived = asyncio.Event()

    def tell(channel_id: int | None) -> None:
        told.append(channel_id)
        arrived.set()

    changes = await ChangeFeed.open(store, db.url, tell)
    try:

        async def clock(table_id: int) -> None:
            arrived.clear()
            await store.apply(
                table_id,
                GUILD,
                GM,
                "clock pass",
                lambda t: (dataclasses.replace(t, clock=60), None),
            )
            await asyncio.wait_for(arrived.wait(), 5)

        await clock(CH)
        await clock(OTHER)
        arrived.clear()
        await store.make_link(CH, GUILD, GM, None, KEY)
        await asyncio.wait_for(arrived.wait(), 5)
        assert told[:2] == [CH, OTHER] and told[-1] == CH
    finally:
        await changes.close()
    count = len(told)
    await store.apply(
        CH, GUILD, GM, "clock pass", lambda t: (dataclasses.replace(t, clock=9), None)
    )
    await asyncio.sleep(0.2)
    assert len(told) == count  # closed: told nothing more
