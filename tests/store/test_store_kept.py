"""Kept results never show a stale table or page. SQLite keeps reads and changes' results by
their channel's and server's change stamps (the `change_stamps` migration's triggers): here two
Stores on one file (as two processes) and a raw sqlite3 connection (outside the bot, writing
every table a channel's Table and history are made of) change things in any order, and every
read through the stores' kept results must equal the same read made afresh (a third Store that
keeps nothing). Then each trigger alone: one raw change per table and kind of statement, each
seen by a kept look (the case of a trigger fails without it); and a change whose COMMIT fails,
or that raises, leaves nothing kept."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import random
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, rule

from rules.errors import RulesError
from store import Store, codec
from store.change import table_key
from store.channel_read import CHARACTERS, INITIATIVE, MONSTERS, Parts
from store.errors import AlreadyApplied
from store.event_log import PRUNE_EVERY
from store.events import HISTORY_PAGE
from table import initiative, partyops
from table.model import HISTORY_KEEP_MIN, PARTS, Character, Monster, Table, server_layer

GM = 11
GUILD_OF = {101: 7, 102: 7, 103: 8}  # two channels of one server, one of another
CHANNELS = st.sampled_from(sorted(GUILD_OF))
# Every set of parts a Table may be read with.
ALL_PARTS = [frozenset(c) for n in range(len(PARTS) + 1) for c in itertools.combinations(PARTS, n)]
NAMES = st.sampled_from(["Ana", "Bo"])
Step = Callable[[Table], tuple[Table, Any]]


def _ready(table: Table, name: str, needs: str) -> None:
    if needs == CHARACTERS and table.find(name) is None:
        raise RulesError("no such character")
    if needs == MONSTERS and table.find_monster(name) is None:
        raise RulesError("no such monster")


def refused(table: Table) -> tuple[Table, Any]:
    raise RulesError("refused")


# Table operations, each with the part it needs loaded (None: the channel row alone).
def steps(name: str, n: int) -> dict[str, tuple[str | None, Step]]:
    def fatigue(t: Table) -> tuple[Table, Any]:
        _ready(t, name, CHARACTERS)
        return partyops.spend(t, name, 1)

    def gone(t: Table) -> tuple[Table, Any]:
        _ready(t, name, CHARACTERS)
        return t.without(name), None

    def beast_gone(t: Table) -> tuple[Table, Any]:
        _ready(t, name, MONSTERS)
        return t.without_monster(name), None

    hero = Character(name, GM, classes=((10, 2),))
    beast = Monster(name, {"rank": 0, "armor": "light"})
    own = {"rest_rate": 1 + n % 3}
    return {
        "create": (CHARACTERS, lambda t: (t if t.find(name) else t.with_character(hero), None)),
        "spend": (CHARACTERS, fatigue),
        "remove": (CHARACTERS, gone),
        "monster": (MONSTERS, lambda t: (t if t.find_monster(name) else t.with_monster(beast), 0)),
        "monster gone": (MONSTERS, beast_gone),
        "setting": (None, lambda t: (t.relayered(own), None)),
        "server": (None, lambda t: (t.relayered(t.own_settings(), server_layer(own)), None)),
        "clock": (None, lambda t: (dataclasses.replace(t, clock=t.clock + 60 * n), None)),
        "init add": (
            INITIATIVE,
            lambda t: initiative.add(
                t,
                actor_id=GM,
                is_gm=True,
                name=f"{name}{n}",
                score=n,
                other=True,
                rng=random.Random(0),
            ),
        ),
        "init end": (INITIATIVE, initiative.end),
        "nothing": (None, lambda t: (t, None)),
        "refused": (None, refused),
    }


STEP_NAMES = st.sampled_from(sorted(steps("x", 0)))
COMBATANT = '{"combatants": [{"name": "Raw", "score": 3, "added": 0, "kind": "other",'
COMBATANT += ' "owner_id": null}], "round": 0, "turn": 0}'
# What a raw connection does to the rows (as an admin's script or an older process might),
# each with `?` for the channel id or the guild id.
RAW = [
    ("UPDATE characters SET fp = fp + 1, vp_damage = vp_damage + 1 WHERE channel_id = ?", "c"),
    (
        "DELETE FROM characters WHERE channel_id = ?1 AND key ="
        " (SELECT min(key) FROM characters WHERE channel_id = ?1)",
        "c",
    ),
    (
        "UPDATE monsters SET facing = CASE facing WHEN 'N' THEN 'S' ELSE 'N' END"
        " WHERE channel_id = ?",
        "c",
    ),
    ("DELETE FROM monsters WHERE channel_id = ?", "c"),
    ("UPDATE channels SET clock = clock + 7 WHERE channel_id = ?", "c"),
    ("UPDATE channels SET guild_id = 8 WHERE channel_id = ?", "c"),
    (
        f"INSERT INTO initiatives (channel_id, state) SELECT ?1, '{COMBATANT}'"
        " WHERE EXISTS (SELECT 1 FROM channels WHERE channel_id = ?1)"
        " ON CONFLICT (channel_id) DO UPDATE SET state = excluded.state",
        "c",
    ),
    ("DELETE FROM initiatives WHERE channel_id = ?", "c"),
    (
        # marked as an undo (`undoes`), which /undo never takes back: its snapshots are empty
        "INSERT INTO events (channel_id, actor_id, action, created_at, clock, before, after,"
        " seq, undoes) VALUES (?, 1, 'raw', '2026-01-01T00:00:00+00:00', 0, '{}', '{}', 0, 0)",
        "c",
    ),
    (
        "UPDATE events SET action = 'edited' WHERE id ="
        " (SELECT max(id) FROM events WHERE channel_id = ?)",
        "c",
    ),
    ("DELETE FROM events WHERE id = (SELECT max(id) FROM events WHERE channel_id = ?)", "c"),
    (
        "INSERT INTO guild_settings (guild_id, rest_rate) VALUES (?, 3)"
        " ON CONFLICT (guild_id) DO UPDATE SET rest_rate = 5 - rest_rate",
        "g",
    ),
    ("DELETE FROM guild_settings WHERE guild_id = ?", "g"),
]


class KeptReads(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.folder = tempfile.TemporaryDirectory()
        self.path = Path(self.folder.name) / "tk.db"
        url = f"sqlite:///{self.path}"
        self.stores = [self.run(Store.open(url)), self.run(Store.open(url))]
        self.fresh = self.run(Store.open(url))
        reader = self.fresh._backend._reader
        reader.close()
        self.fresh._backend._reader = None  # every read afresh
        self.raw = sqlite3.connect(self.path, isolation_level=None)
        self.interactions: list[int] = []

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def teardown(self) -> None:
        self.raw.close()
        for store in [*self.stores, self.fresh]:
            self.run(store.close())
        self.loop.close()
        self.folder.cleanup()

    async def _apply(
        self, store: Store, channel: int, step: str, name: str, n: int, parts: Parts, again: bool
    ) -> None:
        needs, fn = steps(name, n)[step]
        parts = parts if needs is None else parts | {needs}
        if again and self.interactions:
            interaction = self.interactions[n % len(self.interactions)]
        else:
            interaction = 1000 + len(self.interactions)
        try:
            await store.apply(
                channel, GUILD_OF[channel], GM, step, fn, parts, interaction_id=interaction
            )
            self.interactions.append(interaction)
        except AlreadyApplied:
            assert interaction in self.interactions  # found on every path, kept or loaded
        except RulesError:
            pass

    @rule(
        which=st.integers(0, 1),
        channel=CHANNELS,
        step=STEP_NAMES,
        name=NAMES,
        n=st.integers(1, 4),
        parts=st.sampled_from(ALL_PARTS),
        again=st.booleans(),
    )
    def change(
        self, which: int, channel: int, step: str, name: str, n: int, parts: Parts, again: bool
    ) -> None:
        self.run(self._apply(self.stores[which], channel, step, name, n, parts, again))

    @rule(
        which=st.integers(0, 1),
        changes=st.lists(
            st.tuples(CHANNELS, STEP_NAMES, NAMES, st.integers(1, 4), st.sampled_from(ALL_PARTS)),
            min_size=2,
            max_size=5,
        ),
    )
    def batch(self, which: int, changes: list[tuple[int, str, str, int, Parts]]) -> None:
        """Changes queued together commit together (one of them may fail alone)."""
        store = self.stores[which]

        async def together() -> None:
            await asyncio.gather(*(self._apply(store, *change, again=False) for change in changes))

        self.run(together())

    @rule(which=st.integers(0, 1), channel=CHANNELS)
    def undo(self, which: int, channel: int) -> None:
        with contextlib.suppress(RulesError):
            self.run(self.stores[which].undo_last(channel, GUILD_OF[channel], GM, True))

    @rule(statement=st.sampled_from(RAW), channel=CHANNELS)
    def raw_write(self, statement: tuple[str, str], channel: int) -> None:
        sql, of = statement
        self.raw.execute(sql, (channel if of == "c" else GUILD_OF[channel],))

    @rule(
        which=st.integers(0, 1),
        channel=CHANNELS,
        parts=st.sampled_from(ALL_PARTS),
        guild=st.booleans(),
    )
    def read(self, which: int, channel: int, parts: Parts, guild: bool) -> None:
        guild_id = GUILD_OF[channel] if guild else None
        kept = self.run(self.stores[which].read(channel, guild_id, parts))
        assert kept == self.run(self.fresh.read(channel, guild_id, parts))

    @rule(
        which=st.integers(0, 1),
        channel=CHANNELS,
        limit=st.sampled_from([1, 2, 4, HISTORY_PAGE]),  # the newest HISTORY_PAGE follows changes
        edge=st.integers(0, 12),
        back=st.booleans(),
        guild=st.booleans(),
    )
    def history(
        self, which: int, channel: int, limit: int, edge: int, back: bool, guild: bool
    ) -> None:
        before, after = (edge or None, None) if back else (None, edge or None)
        guild_id = GUILD_OF[channel] if guild else None
        kept = self.run(self.stores[which].history(channel, limit, before, after, guild_id))
        assert kept == self.run(self.fresh.history(channel, limit, before, after))


KeptReads.TestCase.settings = settings(max_examples=40, stateful_step_count=40, deadline=None)
test_kept_reads_equal_fresh_reads = KeptReads.TestCase


class FailingCommit:
    """The writer's sqlite3 connection, whose COMMIT fails (as on a full disk)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "COMMIT":
            raise sqlite3.OperationalError("disk I/O error")
        return self._conn.execute(sql, *args)

    @property
    def in_transaction(self) -> bool:
        return self._conn.in_transaction


async def test_a_change_whose_commit_fails_leaves_nothing_kept(tmp_path: Path) -> None:
    async with Store.open(f"sqlite:///{tmp_path / 'tk.db'}") as store:
        party = frozenset({CHARACTERS, INITIATIVE})
        create, spend = steps("Ana", 1)["create"][1], steps("Ana", 1)["spend"][1]
        await store.apply(101, 7, GM, "create", create, party)
        assert (await store.read(101, 7, party)).get("Ana").fatigue.fp == 0
        thread = store._backend._thread  # type: ignore[attr-defined]
        real = thread.conn
        thread.conn = FailingCommit(real)
        try:
            with pytest.raises(sqlite3.OperationalError):
                await store.apply(101, 7, GM, "spend", spend, party)
        finally:
            thread.conn = real
        assert (await store.read(101, 7, party)).get("Ana").fatigue.fp == 0  # not the lost one
        raw = sqlite3.connect(tmp_path / "tk.db", isolation_level=None)
        try:
            # Two other changes bring the channel's stamp where the lost one had it (a spend
            # stamps twice: its character's row, its event; checked below), with fp 5, not 1.
            stamp = "SELECT stamp FROM channel_stamps WHERE channel_id = 101"
            (before,) = raw.execute(stamp).fetchone()
            raw.execute("UPDATE characters SET fp = 4")
            raw.execute("UPDATE characters SET fp = 5")
            assert (await store.read(101, 7, party)).get("Ana").fatigue.fp == 5
            await store.apply(101, 7, GM, "spend", spend, party)  # from what is stored
            assert (await store.read(101, 7, party)).get("Ana").fatigue.fp == 6
            (after,) = raw.execute(stamp).fetchone()
            assert after - before == 2 + 2  # the two updates, then a spend as the lost one
        finally:
            raw.close()


# One raw change per table and kind of statement, each with what must be there before it (also
# written raw): a kept look at channel 101 must see every one (each is one trigger's work).
SEEDED = 101
ORDER = '{"combatants": [], "round": 0, "turn": 0}'
EVENT = (
    "INSERT INTO events (channel_id, actor_id, action, created_at, clock, before, after, seq)"
    " VALUES (101, 1, 'raw', '2026-01-01T00:00:00+00:00', 0, '{}', '{}', 9)"
)
BY_TRIGGER = {
    "channels insert": (
        "DELETE FROM channels",
        "INSERT INTO channels (channel_id, clock) VALUES (101, 99)",
    ),
    "channels update": ("", "UPDATE channels SET clock = 99"),
    "channels delete": ("UPDATE channels SET clock = 99", "DELETE FROM channels"),
    "characters insert": ("", "INSERT INTO characters (%columns%) VALUES (%character%)"),
    "characters update": ("", "UPDATE characters SET fp = fp + 1"),
    "characters delete": ("", "DELETE FROM characters"),
    "monsters insert": ("", "INSERT INTO monsters (%m_columns%) VALUES (%monster%)"),
    "monsters update": ("", "UPDATE monsters SET facing = 'S'"),
    "monsters delete": ("", "DELETE FROM monsters"),
    "initiatives insert": ("", f"INSERT INTO initiatives VALUES (101, '{COMBATANT}')"),
    "initiatives update": (
        f"INSERT INTO initiatives VALUES (101, '{ORDER}')",
        f"UPDATE initiatives SET state = '{COMBATANT}'",
    ),
    "initiatives delete": (
        f"INSERT INTO initiatives VALUES (101, '{COMBATANT}')",
        "DELETE FROM initiatives",
    ),
    "events insert": ("", EVENT),
    "events update": ("", "UPDATE events SET action = 'edited'"),
    "events delete": ("", "DELETE FROM events"),
    "guild_settings insert": ("", "INSERT INTO guild_settings (guild_id, rest_rate) VALUES (7, 3)"),
    "guild_settings update": (
        "INSERT INTO guild_settings (guild_id, rest_rate) VALUES (7, 3)",
        "UPDATE guild_settings SET rest_rate = 4",
    ),
    "guild_settings delete": (
        "INSERT INTO guild_settings (guild_id, rest_rate) VALUES (7, 3)",
        "DELETE FROM guild_settings",
    ),
}


def _literal(value: Any) -> str:
    return "NULL" if value is None else repr(value) if isinstance(value, str) else str(value)


@pytest.mark.parametrize("trigger", sorted(BY_TRIGGER))
async def test_each_kind_of_raw_change_is_seen_by_a_kept_look(tmp_path: Path, trigger: str) -> None:
    url = f"sqlite:///{tmp_path / 'tk.db'}"
    before, change = BY_TRIGGER[trigger]
    zed = codec.character_row(SEEDED, Character("Zed", GM))
    imp = codec.monster_row(SEEDED, Monster("Imp", {"rank": 0, "armor": "light"}))
    for name, value in {
        "columns": ", ".join(codec.CHARACTER_COLUMNS),
        "character": ", ".join(map(_literal, zed)),
        "m_columns": ", ".join(codec.MONSTER_COLUMNS),
        "monster": ", ".join(map(_literal, imp)),
    }.items():
        change = change.replace(f"%{name}%", value)
    async with Store.open(url) as store, Store.open(url) as fresh:
        fresh._backend._reader = None  # type: ignore[attr-defined]  # reads afresh (a hop)
        for step in ("create", "monster", "clock"):
            await store.apply(SEEDED, 7, GM, step, steps("Ana", 1)[step][1])
        raw = sqlite3.connect(tmp_path / "tk.db", isolation_level=None)
        try:
            if before:
                raw.execute(before)
            kept = await store.read(SEEDED, 7), await store.history(SEEDED)
            assert kept == (await fresh.read(SEEDED, 7), await fresh.history(SEEDED))
            raw.execute(change)
        finally:
            raw.close()
        seen = await store.read(SEEDED, 7), await store.history(SEEDED)
        assert seen == (await fresh.read(SEEDED, 7), await fresh.history(SEEDED))
        assert seen != kept  # the change shows: the case tests something


async def test_a_change_that_raises_keeps_nothing(tmp_path: Path) -> None:
    """What a body kept before it raised is not kept: its savepoint took its change back."""
    async with Store.open(f"sqlite:///{tmp_path / 'tk.db'}") as store:
        party = frozenset({CHARACTERS, INITIATIVE})
        await store.apply(101, 7, GM, "create", steps("Ana", 1)["create"][1], party)
        table = await store.read(101, 7, party)

        async def body(tx: Any) -> None:
            await tx.remember(table_key(101, 7, party), (101, 7), "not a table")
            raise RulesError("refused")

        async def fine(tx: Any) -> None:
            pass

        async def together() -> Any:  # in one batch, with one that commits
            return await asyncio.gather(
                store._backend.write(101, body),
                store._backend.write(101, fine),
                return_exceptions=True,
            )

        assert [type(outcome) for outcome in await together()] == [RulesError, type(None)]
        assert await store.read(101, 7, party) == table
        await store.apply(101, 7, GM, "spend", steps("Ana", 1)["spend"][1], party)
        assert (await store.read(101, 7, party)).get("Ana").fatigue.fp == 1


def _events_read(store: Store) -> list[str]:
    """The statements the store's quick reader runs that read events (from now on)."""
    seen: list[str] = []
    conn = store._backend._reader._conn  # type: ignore[attr-defined]
    conn.set_trace_callback(lambda sql: seen.append(sql) if "FROM events" in sql else None)
    return seen


async def test_the_newest_page_follows_the_changes_without_being_read_again(
    tmp_path: Path,
) -> None:
    """A change's event joins the kept newest page: the look after it reads no events, yet
    equals a fresh read, up to the pruning that may take the page's oldest (then read again).
    history_keep at its least, 10, so the pruning at every PRUNE_EVERY-th event does."""
    url = f"sqlite:///{tmp_path / 'tk.db'}"
    async with Store.open(url) as store, Store.open(url) as fresh:
        fresh._backend._reader = None  # type: ignore[attr-defined]  # reads afresh (a hop)
        await store.apply(101, 7, GM, "create", steps("Ana", 1)["create"][1])
        least = {"history_keep": HISTORY_KEEP_MIN}
        await store.apply(101, 7, GM, "setting", lambda t: (t.relayered(least), None))
        await store.history(101, HISTORY_PAGE, guild_id=7)  # kept from here on
        events_read = _events_read(store)
        spend = steps("Ana", 1)["spend"][1]
        for _ in range(PRUNE_EVERY + 5):
            await store.apply(101, 7, GM, "spend", spend)
            read_before = len(events_read)
            page = await store.history(101, HISTORY_PAGE, guild_id=7)
            assert page == await fresh.history(101, HISTORY_PAGE)
            pruned = page[0].seq % PRUNE_EVERY == 0
            assert (len(events_read) > read_before) == pruned, page[0].seq
        assert page[0].seq > PRUNE_EVERY and len(page) == HISTORY_PAGE  # a full page, pruned


@pytest.mark.parametrize("between", ["another store", "a raw connection"])
async def test_a_page_that_missed_a_change_is_not_followed_but_read_again(
    tmp_path: Path, between: str
) -> None:
    """The kept page misses a change made elsewhere: this store's next change must not extend
    it as if it were the newest (its stamps no longer match those the change began with)."""
    url = f"sqlite:///{tmp_path / 'tk.db'}"
    spend = steps("Ana", 1)["spend"][1]
    async with Store.open(url) as store, Store.open(url) as other:
        await store.apply(101, 7, GM, "create", steps("Ana", 1)["create"][1])
        kept = await store.history(101, HISTORY_PAGE, guild_id=7)
        if between == "another store":
            await other.apply(101, 7, GM, "elsewhere", spend)
        else:
            raw = sqlite3.connect(tmp_path / "tk.db", isolation_level=None)
            raw.execute(EVENT)
            raw.close()
        await store.apply(101, 7, GM, "spend", spend)
        page = await store.history(101, HISTORY_PAGE, guild_id=7)
        other._backend._reader = None  # type: ignore[attr-defined]  # reads afresh (a hop)
        assert page == await other.history(101, HISTORY_PAGE)
        assert len(page) == len(kept) + 2  # the change made between is on it


def _loads(seen: list[str]) -> Callable[[str], None]:
    """A trace callback that notes the statements that load a channel's Table: its row, and
    its characters or monsters."""
    return lambda sql: seen.append(sql) if "LEFT JOIN" in sql or "ORDER BY key" in sql else None


def _touching(parts: Parts) -> Step:
    """A change to the channel's row (its clock) and to every part in `parts`."""

    def change(t: Table) -> tuple[Table, Any]:
        t = dataclasses.replace(t, clock=t.clock + 6)
        if CHARACTERS in parts:
            t, _ = partyops.spend(t, "Ana", 1)
        if MONSTERS in parts:
            t = t.without_monster("Troll") if t.find_monster("Troll") else t
        if INITIATIVE in parts:
            t, _ = initiative.add(
                t,
                actor_id=GM,
                is_gm=True,
                name=f"Foe{t.clock}",
                score=5,
                other=True,
                rng=random.Random(0),
            )
        return t, None

    return change


@pytest.mark.parametrize("changed", ALL_PARTS, ids=lambda p: "+".join(sorted(p)) or "row")
async def test_a_change_carries_over_to_the_tables_of_other_parts(
    tmp_path: Path, changed: Parts
) -> None:
    """A change made with some parts leaves every kept Table of the channel with other parts
    true without reading it again: a look (the quick reader) and the next change (the writer)
    load nothing, and each equals a fresh read. One channel per other set of parts."""
    url = f"sqlite:///{tmp_path / 'tk.db'}"
    others = [q for q in ALL_PARTS if q != changed]
    async with Store.open(url) as store, Store.open(url) as fresh:
        fresh._backend._reader = None  # type: ignore[attr-defined]  # reads afresh (a hop)
        for channel, _ in enumerate(others, start=201):
            for step, name in [("create", "Ana"), ("create", "Bo"), ("monster", "Troll")]:
                await store.apply(channel, 7, GM, step, steps(name, 1)[step][1])
            await store.apply(channel, 7, GM, "init add", steps("Ana", 1)["init add"][1])
        looked: list[str] = []  # by the quick reader (this thread's connection)
        store._backend._reader._conn.set_trace_callback(_loads(looked))  # type: ignore[attr-defined]
        loaded: list[str] = []  # by the writer, on its connection's thread
        writer = store._backend._thread  # type: ignore[attr-defined]
        await writer.run(writer.conn.set_trace_callback, _loads(loaded))
        for channel, other in enumerate(others, start=201):
            # Kept by the writer and offered to the quick reader.
            await store.apply(channel, 7, GM, "change", _touching(other), other)
            await store.apply(channel, 7, GM, "change", _touching(changed), changed)
            looked.clear()
            seen = await store.read(channel, 7, other)
            assert seen == await fresh.read(channel, 7, other)
            assert looked == [], sorted(other)
            # The writer too: its next change, with the other parts, finds them kept.
            loaded.clear()
            await store.apply(channel, 7, GM, "change", _touching(other), other)
            assert loaded == [], sorted(other)
            assert await store.read(channel, 7, other) == await fresh.read(channel, 7, other)


async def test_a_change_to_a_part_it_never_read_carries_nothing_over(tmp_path: Path) -> None:
    """A change made without the characters that adds one anyway (its Table has only the new
    one, the channel both): a kept Table with the characters can't be worked out from it, and
    is read again."""
    url = f"sqlite:///{tmp_path / 'tk.db'}"
    party = frozenset({CHARACTERS, INITIATIVE})
    async with Store.open(url) as store, Store.open(url) as fresh:
        fresh._backend._reader = None  # type: ignore[attr-defined]  # reads afresh (a hop)
        await store.apply(101, 7, GM, "create", steps("Ana", 1)["create"][1], party)
        await store.read(101, 7, party)  # kept
        await store.apply(101, 7, GM, "create", steps("Bo", 1)["create"][1], frozenset())
        seen = await store.read(101, 7, party)
        assert seen == await fresh.read(101, 7, party)
        assert [c.name for c in seen.characters] == ["Ana", "Bo"]


@pytest.mark.parametrize("stored", [True, False], ids=["stored", "unknown channel"])
async def test_a_change_starts_from_what_a_look_remembered(tmp_path: Path, stored: bool) -> None:
    """A look remembers the Table it read and whether the channel's row is stored: the change
    that follows loads nothing, and still writes the row of a channel that had none (its
    characters need it)."""
    url = f"sqlite:///{tmp_path / 'tk.db'}"
    party = frozenset({CHARACTERS, INITIATIVE})
    async with Store.open(url) as store, Store.open(url) as fresh:
        fresh._backend._reader = None  # type: ignore[attr-defined]  # reads afresh (a hop)
        if stored:
            await store.apply(101, 7, GM, "clock", steps("Ana", 1)["clock"][1], party)
            store._backend._remembered.forget()  # type: ignore[attr-defined]  # only the look's
        await store.read(101, 7, party)
        loaded: list[str] = []
        writer = store._backend._thread  # type: ignore[attr-defined]
        await writer.run(writer.conn.set_trace_callback, _loads(loaded))
        await store.apply(101, 7, GM, "create", steps("Ana", 1)["create"][1], party)
        assert loaded == []
        seen = await fresh.read(101, 7, party)
        assert [c.name for c in seen.characters] == ["Ana"]
        assert await store.read(101, 7, party) == seen
