"""PostgreSQL round trips per command, counted on a wrapped connection: a channel read is one
round trip, a change two whatever rows it writes (the read; the rows with the event and its keys
in one statement, guarded by `tk_unchanged`), or four in a transaction holding the channel's
lock when that guard found another change in between, or for a server's settings (BEGIN with the
lock, the read, the rows, COMMIT). Counted once asyncpg has prepared each statement (its first
use of a statement on a connection costs a describe more)."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
from datetime import UTC, datetime
from typing import Any

import asyncpg  # in the test extra
import pytest

from rules.fatigue import FatigueState
from store import Store
from store.change import UNLOCKED_TRIES
from store.postgres import PostgresBackend, create_pool
from table.model import Character, Monster, Table
from table.settings import server_layer
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


async def test_a_change_to_one_character_is_one_round_trip_or_two(store: Store) -> None:
    """Two with a read of the channel; one when this process's last change to it left its
    table (the guard checks nothing came in between)."""
    await store.apply(CHANNEL, GUILD, GM, "spend", spend, interaction_id=1)  # prepares
    store._changes._remembered.clear()  # as a process that never changed this channel
    first = await counted(
        store, lambda: store.apply(CHANNEL, GUILD, GM, "spend", spend, interaction_id=2)
    )
    trips = await counted(
        store, lambda: store.apply(CHANNEL, GUILD, GM, "spend", spend, interaction_id=3)
    )
    assert (first, trips) == (2, 1)
    (ana,) = (await store.read(CHANNEL, GUILD)).characters
    assert ana.fatigue.fp == 3
    latest = (await store.history(CHANNEL, limit=1))[0]
    assert latest.action == "spend" and latest.action != UNDO_ACTION


async def test_a_quick_read_of_two_statements_is_refused(store: Store) -> None:
    """Outside a transaction a second statement would see another snapshot: refused."""
    from store import StoreError

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


async def test_a_change_to_a_whole_party_is_still_two_round_trips_at_most(store: Store) -> None:
    """Ten characters' rows go with the event, as does a new channel's row with its first."""

    def add_party(table: Table) -> tuple[Table, None]:
        for n in range(9):
            table = table.with_character(dataclasses.replace(hero(0), name=f"Hero {n}"))
        return table, None

    await store.apply(CHANNEL, GUILD, GM, "add", add_party)
    await store.apply(CHANNEL, GUILD, GM, "tire", tire_everyone, interaction_id=3)  # prepares
    store._changes._remembered.clear()
    trips = await counted(
        store, lambda: store.apply(CHANNEL, GUILD, GM, "tire", tire_everyone, interaction_id=4)
    )
    assert trips == 2
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
    assert made <= 3  # the new statement's shape is prepared on first use
    (ana,) = (await store.read(other, GUILD)).characters
    assert ana.fatigue.fp == 5


@pytest.mark.parametrize("meanwhile", [1, UNLOCKED_TRIES])
async def test_a_change_another_came_before_is_read_again_and_lands_on_top(
    store: Store, postgres_url: str, monkeypatch: pytest.MonkeyPatch, meanwhile: int
) -> None:
    """Another process's change lands between this change's read and its write, `meanwhile`
    times: the guarded write is refused each time (nothing written) and the change is read
    again; after UNLOCKED_TRIES refusals it waits its turn in a transaction holding the lock."""
    await store.apply(CHANNEL, GUILD, GM, "spend", spend, interaction_id=1)  # prepares
    store._changes._remembered.clear()  # so it reads first
    reads = store._backend.read
    came: list[int] = []
    async with Store.open(postgres_url) as other:

        async def read_then_another_change(body: Any, **options: Any) -> Any:
            found = await reads(body, **options)
            if options.get("quick") and len(came) < meanwhile:
                came.append(len(came))
                await other.apply(
                    CHANNEL, GUILD, GM, "other", spend, interaction_id=100 + len(came)
                )
            return found

        monkeypatch.setattr(store._backend, "read", read_then_another_change)
        ran: list[int] = []

        def spend_counted(table: Table) -> tuple[Table, None]:
            ran.append(table.characters[0].fatigue.fp)
            return spend(table)

        trips = await counted(
            store, lambda: store.apply(CHANNEL, GUILD, GM, "spend", spend_counted, interaction_id=2)
        )
    # Each run saw the other's changes so far: 1, then 2, … (the first spend left 1).
    assert ran == list(range(1, meanwhile + 2))
    locked = 4 if meanwhile == UNLOCKED_TRIES else 2  # the last try, locked or not
    assert trips == 2 * meanwhile + locked
    (ana,) = (await store.read(CHANNEL, GUILD)).characters
    assert ana.fatigue.fp == meanwhile + 2  # nothing lost: every spend landed once
    actions = [e.action for e in await store.history(CHANNEL, limit=meanwhile + 2)]
    assert actions == ["spend", *["other"] * meanwhile, "spend"]


async def test_a_server_settings_change_is_made_holding_the_lock(store: Store) -> None:
    """Other channels' changes write a server's settings row too: such a change is made in a
    transaction that holds the channel's lock (four round trips), never guarded alone."""

    def ties(table: Table) -> tuple[Table, None]:
        return table.relayered(table.own_settings(), server_layer({"ties": "succeed"})), None

    await store.apply(CHANNEL, GUILD, GM, "server", ties)  # prepares
    untie = lambda t: (t.relayered(t.own_settings(), server_layer({})), None)  # noqa: E731
    assert await counted(store, lambda: store.apply(CHANNEL, GUILD, GM, "server", untie)) == 5
    again = await counted(store, lambda: store.apply(CHANNEL, GUILD, GM, "server", ties))
    assert again == 5  # the guarded read (1), then the transaction (4)
    assert (await store.read(CHANNEL + 5, GUILD)).settings.ties == "succeed"


async def test_a_stale_guard_writes_nothing(store: Store) -> None:
    """The guarded statement alone, with a newest event that is not the channel's: refused by
    `tk_unchanged` before any row is written."""
    from store import event_log
    from store.channel_read import load_channel
    from store.channel_write import save_change
    from store.errors import ChangedSinceRead

    async def load(tx: Any) -> Any:
        return await load_channel(tx, CHANNEL, GUILD, guarded=True)

    before, _, read_as = await store._backend.read(load, quick=True)
    after, _ = spend(before)
    newest = (await store.history(CHANNEL, limit=1))[0].id
    assert read_as == event_log.Guard(newest, GUILD, None)  # no settings row for the server

    async def save(tx: Any) -> Any:
        guard = dataclasses.replace(read_as, newest=newest - 1)
        at = datetime.now(UTC)
        return await save_change(tx, before, after, GM, "stale", at, True, guard=guard)

    with pytest.raises(ChangedSinceRead):
        await store._backend.write(CHANNEL, save, one_statement=True)
    assert await store.read(CHANNEL, GUILD) == before
    assert (await store.history(CHANNEL, limit=1))[0].id == newest


async def test_one_process_s_changes_to_a_channel_take_turns(store: Store) -> None:
    """Ten changes to one channel at once from this process: each is written once on the table
    the one before it left (none refused by another's guard, none read), and no turn is kept
    once they are done."""
    await store.apply(CHANNEL, GUILD, GM, "spend", spend, interaction_id=1)  # prepares
    ten = [
        functools.partial(store.apply, CHANNEL, GUILD, GM, "spend", spend, interaction_id=n)
        for n in range(2, 12)
    ]
    trips = await counted(store, lambda: asyncio.gather(*(change() for change in ten)))
    assert trips == 10
    (ana,) = (await store.read(CHANNEL, GUILD)).characters
    assert ana.fatigue.fp == 11
    assert store._changes._turns == {}


async def test_a_pruning_that_fails_after_a_change_leaves_the_change_answered(
    store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A change in one statement is committed before its channel's log is pruned: if that
    pruning fails, the change is still answered as made (the next pruning catches up)."""
    from store import event_log

    writes = store._backend.write

    async def pruning_fails(channel_id: int, body: Any, **options: Any) -> Any:
        if not options.get("one_statement"):
            raise OSError("the server went away")
        return await writes(channel_id, body, **options)

    monkeypatch.setattr(event_log, "prunes_after", lambda seq: True)
    monkeypatch.setattr(store._backend, "write", pruning_fails)
    await store.apply(CHANNEL, GUILD, GM, "spend", spend, interaction_id=1)
    (ana,) = (await store.read(CHANNEL, GUILD)).characters
    assert ana.fatigue.fp == 1
    assert "Could not prune channel 11's history" in caplog.text


async def test_what_a_change_left_is_checked_not_trusted(store: Store, postgres_url: str) -> None:
    """The table this process's last change left is used only while the guard finds the channel
    and its server's settings as they were: after another process's change, or a server's
    settings changed from another channel (a GM role taken away), the write is refused and the
    change runs again on a fresh read."""
    await store.apply(CHANNEL, GUILD, GM, "spend", spend, interaction_id=1)  # leaves its table
    seen: list[tuple[int, str]] = []

    def spend_seen(table: Table) -> tuple[Table, None]:
        seen.append((table.characters[0].fatigue.fp, table.settings.ties))
        return spend(table)

    async with Store.open(postgres_url) as other:
        await other.apply(CHANNEL, GUILD, GM, "other", spend, interaction_id=2)
        trips = await counted(
            store, lambda: store.apply(CHANNEL, GUILD, GM, "spend", spend_seen, interaction_id=3)
        )
        assert trips == 3  # the refused write, the read, the write
        assert seen == [(1, "fail"), (2, "fail")]  # on what it left, then on the fresh read

        def ties(table: Table) -> tuple[Table, None]:
            return table.relayered({}, server_layer({"ties": "succeed"})), None

        await other.apply(CHANNEL + 1, GUILD, GM, "server", ties)  # another channel, same server
        seen.clear()
        await store.apply(CHANNEL, GUILD, GM, "spend", spend_seen, interaction_id=4)
    assert seen == [(3, "fail"), (3, "succeed")]
    (ana,) = (await store.read(CHANNEL, GUILD)).characters
    assert ana.fatigue.fp == 4


async def test_a_second_delivery_on_what_a_change_left_is_found_applied(store: Store) -> None:
    """The table the first delivery left doesn't say it was applied: the event's unique
    interaction id refuses the second's write, and the read after it says so."""
    from store.errors import AlreadyApplied

    await store.apply(CHANNEL, GUILD, GM, "spend", spend, interaction_id=7)
    with pytest.raises(AlreadyApplied):
        await store.apply(CHANNEL, GUILD, GM, "spend", spend, interaction_id=7)
    (ana,) = (await store.read(CHANNEL, GUILD)).characters
    assert ana.fatigue.fp == 1
    assert [e.action for e in await store.history(CHANNEL, limit=5)].count("spend") == 1


async def test_a_change_of_other_parts_carries_over_and_an_undo_is_forgotten(
    store: Store,
) -> None:
    """A spend (the party), the GM's turn of a monster (the bestiary), a spend: the last needs no
    read, the party's table following the monster's change. After an undo (a transaction
    holding the lock) what was kept is forgotten: the next change reads (two trips, not a
    refused write and three)."""
    from store.channel_read import CHARACTERS, INITIATIVE, MONSTERS

    party, bestiary = frozenset({CHARACTERS, INITIATIVE}), frozenset({MONSTERS, INITIATIVE})

    def turn(table: Table) -> tuple[Table, None]:
        (imp,) = table.monsters
        return table.with_monster(dataclasses.replace(imp, facing="S")), None

    await store.apply(CHANNEL, GUILD, GM, "spend", spend, party, interaction_id=1)
    await store.apply(CHANNEL, GUILD, GM, "turn", turn, bestiary, interaction_id=2)
    trips = await counted(
        store,
        lambda: store.apply(CHANNEL, GUILD, GM, "spend", spend, party, interaction_id=3),
    )
    assert trips == 1
    table = await store.read(CHANNEL, GUILD)
    assert table.characters[0].fatigue.fp == 2 and table.monsters[0].facing == "S"

    await store.undo_last(CHANNEL, GUILD, GM, True)
    trips = await counted(
        store,
        lambda: store.apply(CHANNEL, GUILD, GM, "spend", spend, party, interaction_id=4),
    )
    assert trips == 2
    assert (await store.read(CHANNEL, GUILD)).characters[0].fatigue.fp == 2  # 2, undone, 2


async def test_a_refused_change_keeps_what_the_last_one_left(store: Store) -> None:
    """A change `fn` refuses (a player acting on another's character) writes nothing and costs
    the next change no read."""
    from rules.errors import RulesError

    def refuse(table: Table) -> tuple[Table, None]:
        raise RulesError("not yours")

    await store.apply(CHANNEL, GUILD, GM, "spend", spend, interaction_id=1)
    with pytest.raises(RulesError):
        await store.apply(CHANNEL, GUILD, GM, "refused", refuse, interaction_id=2)
    trips = await counted(
        store, lambda: store.apply(CHANNEL, GUILD, GM, "spend", spend, interaction_id=3)
    )
    assert trips == 1
    assert (await store.read(CHANNEL, GUILD)).characters[0].fatigue.fp == 2
