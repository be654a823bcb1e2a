"""`/redo` in the store, against real databases (each test on a SQLite file and on
PostgreSQL): every kind of change comes back exactly after an undo, the marks link the three
events, what can't be redone is refused with nothing written, and an undo or redo that would
take a character or monster away asks first."""

from __future__ import annotations

import asyncio
import random
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from store import AlreadyApplied, Store
from store.event_log import PRUNE_EVERY
from table import partyops, sheet
from table.model import Forbidden, Table
from table.sheet import SettingsOptions, SheetOptions
from table.undo import REDO_ACTION, UNDO_ACTION, AskFirst
from tests.store.conftest import Database
from tests.store.test_undo import (
    CH,
    CHANGES,
    GM,
    GUILD,
    PER,
    PIP,
    assert_same,
    only,
    random_table,
    seed,
)

# The GM redoes every kind; a player redoes what they undid of their own.
REDOERS = [(a, "gm") for a in sorted(CHANGES)]
REDOERS += [(a, "actor") for a in sorted(CHANGES) if CHANGES[a][0] != GM]


async def spend(store: Store, name: str, actor: int, amount: int = 3) -> None:
    step = only(lambda t: partyops.spend(t, name, amount))
    await store.apply(CH, GUILD, actor, "fatigue spend", step)


@pytest.mark.parametrize(("action", "redoer"), REDOERS)
async def test_redo_gives_back_exactly_what_the_change_left(
    db: Database, action: str, redoer: str
) -> None:
    actor, step = CHANGES[action]
    who = GM if redoer == "gm" else actor
    async with Store.open(db.url) as store:
        start = await seed(store)
        await store.apply(CH, GUILD, actor, action, step)
        changed = await store.read(CH, GUILD)
        await store.undo_last(CH, GUILD, who, who == GM)
        assert_same(await store.read(CH, GUILD), start)
        redone = await store.redo_last(CH, GUILD, who, who == GM)
        assert_same(await store.read(CH, GUILD), changed)
        assert redone.table == changed and redone.change.action == action
        redo, undo, target, _seed = await store.history(CH, limit=4)
    assert (redo.action, redo.actor_id, redo.undoes, redo.undone_by) == (
        REDO_ACTION,
        who,
        None,
        None,
    )
    assert (undo.action, undo.undoes, undo.undone_by) == (UNDO_ACTION, target.id, redo.id)
    assert target.undone_by == undo.id  # as first undone: the redo stands in its place
    assert redo.before == undo.after and redo.after == undo.before


async def test_undo_redo_undo_redo_goes_back_and_forth(db: Database) -> None:
    async with Store.open(db.url) as store:
        s0 = await seed(store)
        await spend(store, "Aria", PIP)
        s1 = await store.read(CH, GUILD)
        for _ in range(3):
            undone = await store.undo_last(CH, GUILD, PIP, False)
            assert_same(await store.read(CH, GUILD), s0)
            redone = await store.redo_last(CH, GUILD, PIP, False)
            assert_same(await store.read(CH, GUILD), s1)
        assert undone.target.action == REDO_ACTION  # the latest undo took back a redo
        assert redone.change.action == REDO_ACTION
        with pytest.raises(RulesError, match="no undo here left to redo"):
            await store.redo_last(CH, GUILD, PIP, False)
        actions = [e.action for e in await store.history(CH)]
    assert actions == ["redo", "undo"] * 3 + ["fatigue spend", "seed"]


async def test_several_undos_are_redone_newest_first(db: Database) -> None:
    async with Store.open(db.url) as store:
        s0 = await seed(store)
        await spend(store, "Aria", PIP)
        s1 = await store.read(CH, GUILD)
        await spend(store, "Aria", GM, 4)
        s2 = await store.read(CH, GUILD)
        await store.undo_last(CH, GUILD, GM, True)
        await store.undo_last(CH, GUILD, GM, True)
        assert_same(await store.read(CH, GUILD), s0)
        assert (await store.redo_last(CH, GUILD, GM, True)).table == s1
        assert (await store.redo_last(CH, GUILD, GM, True)).table == s2
        with pytest.raises(RulesError, match="Nothing to redo here"):
            await store.redo_last(CH, GUILD, GM, True)


async def test_a_later_change_to_the_same_character_blocks_the_redo(db: Database) -> None:
    async with Store.open(db.url) as store:
        await seed(store)
        await spend(store, "Aria", PIP)
        hers = await store.read(CH, GUILD)
        await store.undo_last(CH, GUILD, PIP, False)
        await spend(store, "Aria", GM, 5)  # made on the table the undo left
        before = await db.dump()
        for actor, gm in ((PIP, False), (GM, True)):
            with pytest.raises(
                RulesError, match=r"Can't redo fatigue spend by <@21>.*fatigue spend by <@11>.*Aria"
            ):
                await store.redo_last(CH, GUILD, actor, gm)
        assert await db.dump() == before  # nothing written, not even an event
        await store.undo_last(CH, GUILD, GM, True)  # the GM's spend taken back ...
        # ... the GM's redo takes the latest undo: that spend again; Pippa's takes her own
        redone = await store.redo_last(CH, GUILD, PIP, False)
        assert redone.change.actor_id == PIP
        assert_same(await store.read(CH, GUILD), hers)


async def test_a_later_change_to_something_else_does_not_block(db: Database) -> None:
    async with Store.open(db.url) as store:
        await seed(store)
        await spend(store, "Aria", PIP)
        aria = (await store.read(CH, GUILD)).get("Aria")
        await store.undo_last(CH, GUILD, PIP, False)
        await spend(store, "Bo", PER, 4)
        bo = (await store.read(CH, GUILD)).get("Bo")
        await store.redo_last(CH, GUILD, PIP, False)
        table = await store.read(CH, GUILD)
    assert (table.get("Aria"), table.get("Bo")) == (aria, bo)


async def test_a_moved_clock_blocks_redoing_a_clock_change(db: Database) -> None:
    """The channel's fields are judged by their values: the clock moved since the undo."""
    async with Store.open(db.url) as store:
        await seed(store)
        await store.apply(CH, GUILD, GM, "clock round", only(lambda t: partyops.pass_rounds(t, 3)))
        await store.undo_last(CH, GUILD, GM, True)
        await store.apply(CH, GUILD, GM, "clock round", only(lambda t: partyops.pass_rounds(t, 1)))
        await store.undo_last(CH, GUILD, GM, True)  # the second round undone, redone ...
        await store.redo_last(CH, GUILD, GM, True)
        before = await db.dump()
        with pytest.raises(RulesError, match=r"Can't redo clock round by <@11>.*game clock"):
            await store.redo_last(CH, GUILD, GM, True)  # ... then the first: the clock moved
        assert await db.dump() == before


async def test_a_player_redoes_only_their_own_undo(db: Database) -> None:
    async with Store.open(db.url) as store:
        s0 = await seed(store)
        await spend(store, "Bo", PER)
        bo_tired = await store.read(CH, GUILD)
        await store.undo_last(CH, GUILD, GM, True)  # the GM undid Perrin's spend
        before = await db.dump()
        with pytest.raises(RulesError, match="no undo here left to redo"):
            await store.redo_last(CH, GUILD, PER, False)
        assert await db.dump() == before
        assert_same(await store.read(CH, GUILD), s0)
        await store.redo_last(CH, GUILD, GM, True)  # the GM may redo anyone's
        assert_same(await store.read(CH, GUILD), bo_tired)


async def test_a_gm_undo_of_a_players_character_is_no_players_to_redo(db: Database) -> None:
    async with Store.open(db.url) as store:
        await seed(store)
        await spend(store, "Bo", PER)
        await store.undo_last(CH, GUILD, PIP, True)  # Pippa, a GM at the time
        before = await db.dump()
        with pytest.raises(Forbidden, match=r"Only the GM can redo fatigue spend by <@22>.*Bo"):
            await store.redo_last(CH, GUILD, PIP, False)  # a player now
        assert await db.dump() == before


async def test_a_second_delivery_of_a_redo_writes_nothing(db: Database) -> None:
    async with Store.open(db.url) as store:
        await seed(store)
        await spend(store, "Aria", PIP)
        await store.undo_last(CH, GUILD, PIP, False)
        await store.redo_last(CH, GUILD, PIP, False, interaction_id=10**18 + 7)
        before = await db.dump()
        with pytest.raises(AlreadyApplied) as caught:
            await store.redo_last(CH, GUILD, PIP, False, interaction_id=10**18 + 7)
        assert caught.value.action == REDO_ACTION
        assert await db.dump() == before


async def test_concurrent_redos_take_back_two_undos(db: Database) -> None:
    async with Store.open(db.url) as store:
        await seed(store)
        await spend(store, "Aria", PIP)
        await spend(store, "Bo", PER)
        both = await store.read(CH, GUILD)
        await store.undo_last(CH, GUILD, GM, True)
        await store.undo_last(CH, GUILD, GM, True)
        done = await asyncio.gather(*(store.redo_last(CH, GUILD, GM, True) for _ in range(2)))
        assert {r.change.action for r in done} == {"fatigue spend"}
        assert {r.change.actor_id for r in done} == {PIP, PER}
        assert_same(await store.read(CH, GUILD), both)


# --- asking first ----------------------------------------------------------------------------


async def create_cleo(store: Store) -> Table:
    options = SheetOptions(classes="d6/2")
    step = only(lambda t: sheet.create(t, PIP, False, "Cleo", PIP, options))
    await store.apply(CH, GUILD, PIP, "character create", step)
    return await store.read(CH, GUILD)


async def test_an_undo_that_removes_a_character_asks_first(db: Database) -> None:
    async with Store.open(db.url) as store:
        s0 = await seed(store)
        with_cleo = await create_cleo(store)
        before = await db.dump()
        with pytest.raises(AskFirst) as asked:
            await store.undo_last(CH, GUILD, PIP, False, asks=True)
        assert await db.dump() == before  # asking writes nothing
        question = asked.value
        assert (question.redo, question.removes) == (False, ("Cleo",))
        assert (
            question.change.action == "character create" and question.expect == question.change.id
        )
        assert question.after == {"characters": {"cleo": None}}
        await spend(store, "Aria", PIP)  # meanwhile: another change of hers is now the latest
        with pytest.raises(RulesError, match="the channel has changed since you were asked"):
            await store.undo_last(CH, GUILD, PIP, False, expect=question.expect)
        await store.undo_last(CH, GUILD, PIP, False)
        assert_same(await store.read(CH, GUILD), with_cleo)
        undone = await store.undo_last(CH, GUILD, PIP, False, expect=question.expect)
        assert_same(undone.table, s0)
        assert undone.target.id == question.expect


async def test_an_undo_that_removes_nothing_does_not_ask(db: Database) -> None:
    async with Store.open(db.url) as store:
        s0 = await seed(store)
        await spend(store, "Aria", PIP)
        undone = await store.undo_last(CH, GUILD, PIP, False, asks=True)
        assert_same(undone.table, s0)


async def test_a_redo_that_removes_a_character_asks_first(db: Database) -> None:
    async with Store.open(db.url) as store:
        await seed(store)
        await store.apply(
            CH, GUILD, PIP, "character remove", only(lambda t: sheet.remove(t, PIP, False, "Aria"))
        )
        without = await store.read(CH, GUILD)
        brought_back = await store.undo_last(CH, GUILD, PIP, False, asks=True)  # no question
        before = await db.dump()
        with pytest.raises(AskFirst) as asked:
            await store.redo_last(CH, GUILD, PIP, False, asks=True)
        assert await db.dump() == before
        assert (asked.value.redo, asked.value.removes) == (True, ("Aria",))
        assert asked.value.expect == brought_back.undo.id
        assert asked.value.change.action == "character remove"
        redone = await store.redo_last(CH, GUILD, PIP, False, expect=asked.value.expect)
        assert_same(redone.table, without)
        with pytest.raises(RulesError, match="Nothing was redone: the channel has changed"):
            await store.redo_last(CH, GUILD, PIP, False, expect=asked.value.expect)


# --- the log -------------------------------------------------------------------------------------


async def keep_ten(store: Store) -> None:
    options = SettingsOptions(history_keep=10)
    await store.apply(CH, GUILD, GM, "keep", only(lambda t: sheet.change_settings(t, options)))


async def test_redo_is_refused_past_the_retention_edge(db: Database) -> None:
    async with Store.open(db.url) as store:
        await seed(store)
        await keep_ten(store)
        await spend(store, "Aria", PIP)
        await store.undo_last(CH, GUILD, PIP, False)
        for _ in range(10):
            await spend(store, "Bo", PER, 1)
        before = await db.dump()
        with pytest.raises(RulesError, match=r"Can't redo: fatigue spend by <@21>.*longer ago"):
            await store.redo_last(CH, GUILD, PIP, False)
        assert await db.dump() == before


async def test_pruning_keeps_working_through_undos_and_redos(db: Database) -> None:
    """Undo and redo over and over past several prunings: the links are foreign keys, and
    whatever is pruned, the last undo can still be redone."""
    async with Store.open(db.url) as store:
        await seed(store)
        await keep_ten(store)
        await spend(store, "Aria", PIP)
        spent = await store.read(CH, GUILD)
        for _ in range(PRUNE_EVERY + 10):
            await store.undo_last(CH, GUILD, PIP, False)
            await store.redo_last(CH, GUILD, PIP, False)
        assert_same(await store.read(CH, GUILD), spent)
        assert len(await store.history(CH, limit=100)) < 2 * PRUNE_EVERY


async def test_the_latest_undo_is_found_through_an_index(db: Database) -> None:
    async with Store.open(db.url):
        pass
    query = (
        "SELECT * FROM events WHERE channel_id = 1 AND undoes IS NOT NULL AND undone_by IS NULL"
        " {mine} ORDER BY id DESC LIMIT 1"
    )
    for mine, index in (("", "events_redoable"), ("AND actor_id = 2", "events_redoable_by_actor")):
        sql = query.format(mine=mine)
        if db.path is not None:
            with sqlite3.connect(db.path) as conn:
                plan = str(conn.execute(f"EXPLAIN QUERY PLAN {sql}").fetchall())
        else:
            import asyncpg

            conn = await asyncpg.connect(db.url)
            try:
                await conn.execute("SET enable_seqscan = off")  # the tables here are tiny
                plan = "\n".join(row[0] for row in await conn.fetch(f"EXPLAIN {sql}"))
            finally:
                await conn.close()
        assert f"{index} " in plan or plan.endswith(index), plan


# --- a property: undo everything, then redo everything ------------------------------------------


async def _undo_and_redo_all(url: str, seed_: int) -> None:
    rng = random.Random(seed_)
    channel = CH + seed_
    async with Store.open(url) as store:
        states = [await store.read(channel, GUILD)]
        for n in range(rng.randint(1, 6)):
            await store.apply(
                channel, GUILD, GM, f"change {n}", lambda t: (random_table(rng, t), None)
            )
            now = await store.read(channel, GUILD)
            if now != states[-1]:
                states.append(now)
        for _ in states[1:]:
            await store.undo_last(channel, GUILD, GM, True)
        for expected in states[1:]:
            await store.redo_last(channel, GUILD, GM, True)
            assert_same(await store.read(channel, GUILD), expected)
        with pytest.raises(RulesError):
            await store.redo_last(channel, GUILD, GM, True)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed_=st.integers(0, 2**32 - 1))
def test_any_run_of_changes_undone_is_redone_back_to_the_end(db: Database, seed_: int) -> None:
    asyncio.run(_undo_and_redo_all(db.url, seed_))
