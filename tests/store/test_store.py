"""The store against real databases, each test on a SQLite file and on PostgreSQL (the `db`
fixture): migrations, transactions, restarts, history."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections.abc import Callable
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.fatigue import FatigueState
from store import Store, StoreError
from store.migrate import load_migrations, split_statements
from store.sqlite import sqlite_path
from table.event import Event
from table.model import ChannelSettings, Character, Monster, Table
from table.snapshot import channel_to_dict, diff, monster_to_dict, restore
from tests.store.conftest import Database

BIG = 10**18 + 7  # snowflake-sized ids must survive SQLite's INTEGER and PostgreSQL's BIGINT


def url(path: Path) -> str:
    return f"sqlite:///{path}"


def full_character(name: str = "Grok the Ogre") -> Character:
    """A character with no field left at its default."""
    return Character(
        name=name,
        owner_id=BIG,
        level=7,
        fortitude=3,
        wisdom=-2,
        kin_tsr=5,
        kin_wsr=-5,
        classes=((10, 5), (6, 6)),
        combine="multi",
        toughness=3,
        base_hd="4+1",
        kin_hd_size=8,
        fl_override=Fraction(41, 3),
        fatigue=FatigueState(
            fp=12, temp=3, temp_expires=900, exhausted_cap=True, shattered_cap=True, vp_damage=2
        ),
    )


FULL_SETTINGS = ChannelSettings(
    ties="succeed",
    round_seconds=6,
    rest_rate=2,
    break_minutes=15,
    short_minutes=90,
    long_minutes=600,
    gm_role_id=BIG + 1,
)


def add(character: Character) -> Callable[[Table], tuple[Table, str]]:
    return lambda table: (table.with_character(character), character.name)


def tick(table: Table) -> tuple[Table, int]:
    return dataclasses.replace(table, clock=table.clock + 1), table.clock + 1


# --- opening and migrations ----------------------------------------------------------------


def test_sqlite_urls() -> None:
    assert sqlite_path("sqlite:///tablekeeper.db") == "tablekeeper.db"
    assert sqlite_path("sqlite:////data/tablekeeper.db") == "/data/tablekeeper.db"
    assert sqlite_path("sqlite:///:memory:") == ":memory:"
    for bad in ("sqlite:///", "sqlite://x.db", "postgres://h/db", "tablekeeper.db"):
        with pytest.raises(StoreError):
            sqlite_path(bad)


async def test_an_unknown_url_is_refused_without_echoing_it() -> None:
    with pytest.raises(StoreError, match=r"sqlite:///.* or postgresql://") as caught:
        await Store.open("mysql://tk:secret@host/db")
    assert "secret" not in str(caught.value)


async def test_migrations_apply_once(db: Database, tmp_path: Path) -> None:
    if db.dialect == "sqlite":
        (tmp_path / "sub").mkdir()  # a missing folder is refused, never created
        db = Database("sqlite", url(tmp_path / "sub" / "tk.db"), tmp_path / "sub" / "tk.db")
    versions = [m.version for m in load_migrations(db.dialect)]
    assert versions == list(range(1, len(versions) + 1))  # without gaps
    other = "postgres" if db.dialect == "sqlite" else "sqlite"
    # both dialects mirror each other, version for version, with no gaps
    assert [(m.version, m.name) for m in load_migrations(db.dialect)] == [
        (m.version, m.name) for m in load_migrations(other)
    ]
    for _ in range(3):
        async with Store.open(db.url) as store:
            assert store.dialect == db.dialect
    rows = (await db.dump())["schema_version"]
    assert sorted(row[0] for row in rows) == versions  # dump() orders rows as text
    assert {"channels", "characters", "events", "monsters"} <= (await db.dump()).keys()
    async with Store.open(db.url) as store:
        assert await migrate(store) == []  # nothing pending


async def test_a_new_migration_is_applied_on_the_next_start(db: Database) -> None:
    async with Store.open(db.url):
        pass
    known = load_migrations(db.dialect)
    extra = dataclasses.replace(
        known[-1],
        version=known[-1].version + 1,
        name="notes",
        sql="-- a later change\nCREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);\n",
    )
    async with Store.open(db.url) as store:
        assert await migrate(store, [*known, extra]) == [extra.version]
        assert await migrate(store, [*known, extra]) == []
    assert "notes" in await db.dump()


async def test_a_failing_migration_leaves_nothing_behind(db: Database) -> None:
    async with Store.open(db.url):
        pass
    before = await db.dump()
    broken = dataclasses.replace(
        load_migrations(db.dialect)[-1],
        version=99,
        name="broken",
        sql="CREATE TABLE half (id INTEGER);\nINSERT INTO nowhere VALUES (1);\n",
    )
    async with Store.open(db.url) as store:
        with pytest.raises(db.missing_table):
            await migrate(store, [broken])
        assert await store.apply(1, None, 9, "tick", tick) == 1  # the store still works
    after = await db.dump()
    assert "half" not in after
    assert after["schema_version"] == before["schema_version"]


def test_split_statements_keeps_semicolons_in_strings() -> None:
    sql = (
        "-- note; not code\nCREATE TABLE t (x TEXT DEFAULT 'a;b');\n\nINSERT INTO t VALUES ('c');\n"
    )
    assert split_statements(sql) == [
        "-- note; not code\nCREATE TABLE t (x TEXT DEFAULT 'a;b');",
        "INSERT INTO t VALUES ('c');",
    ]
    with pytest.raises(RuntimeError):
        split_statements("CREATE TABLE t (x")


@pytest.mark.parametrize("versions", [[1, 3], [2, 3], [1, 2, 19, 22], [1, 1]])
def test_migration_numbers_without_a_gap(tmp_path: Path, versions: list[int]) -> None:
    for n, version in enumerate(versions):
        (tmp_path / f"V{version}__{'abcd'[n]}.sql").write_text("SELECT 1;\n", encoding="utf-8")
    with pytest.raises(RuntimeError, match=r"gaps|share version"):
        load_migrations("sqlite", tmp_path)


async def migrate(store: Store, migrations: Any = None) -> list[int]:
    """The backend's own `migrate` (not part of the seam: each backend migrates as it opens)."""
    backend: Any = store.backend
    found: list[int] = await backend.migrate(migrations)
    return found


async def writer_pragma(store: Store, pragma: str) -> object:
    """A PRAGMA's value on the store's writing connection, in a change."""

    async def body(tx: Any) -> object:
        return next(iter((await tx.fetchone(f"PRAGMA {pragma}")).values()))

    return await store.backend.write(0, body)


async def test_wal_foreign_keys_and_busy_timeout(tmp_path: Path) -> None:
    async with Store.open(url(tmp_path / "tk.db")) as store:
        for pragma, expected in (
            ("journal_mode", "wal"),
            ("foreign_keys", 1),
            ("busy_timeout", 5000),
            ("synchronous", 2),  # FULL by default: a commit that returned survives a power cut
        ):
            assert await writer_pragma(store, pragma) == expected


async def test_synchronous_normal_when_asked_and_nothing_else(tmp_path: Path) -> None:
    async with Store.open(url(tmp_path / "tk.db"), sqlite_synchronous="normal") as store:
        assert await writer_pragma(store, "synchronous") == 1
    with pytest.raises(StoreError, match="synchronous"):
        await Store.open(url(tmp_path / "tk.db"), sqlite_synchronous="off")


async def test_open_can_be_awaited(tmp_path: Path) -> None:
    store = await Store.open(url(tmp_path / "tk.db"))
    try:
        assert await store.apply(5, None, 1, "tick", tick) == 1
        assert (await store.read(5)).clock == 1
    finally:
        await store.close()


# --- read and apply ------------------------------------------------------------------------


async def test_unknown_channel_reads_as_defaults_and_writes_nothing(db: Database) -> None:
    async with Store.open(db.url) as store:
        before = await db.dump()
        assert await store.read(42, 7) == Table(42, 7)
        assert await store.read(42) == Table(42, None)
    assert await db.dump() == before


async def test_apply_round_trips_every_field_across_a_restart(db: Database) -> None:
    grok = full_character()

    def set_up(table: Table) -> tuple[Table, str]:
        table = dataclasses.replace(table, clock=12_345, settings=FULL_SETTINGS)
        return table.with_character(grok).with_character(Character("Ann", 3)), "done"

    async with Store.open(db.url) as store:
        assert await store.apply(BIG, BIG + 2, 9, "set up", set_up) == "done"
        in_session = await store.read(BIG)
    async with Store.open(db.url) as store:
        after_restart = await store.read(BIG)
    assert (
        after_restart
        == in_session
        == Table(BIG, BIG + 2, 12_345, FULL_SETTINGS, (Character("Ann", 3), grok))
    )
    # Fractions are stored exactly, as text; classes as JSON.
    row = next(r for r in (await db.dump())["characters"] if r[1] == "grok the ogre")
    assert "41/3" in row
    assert "[[10,5],[6,6]]" in row


async def test_updates_renames_and_deletes(db: Database) -> None:
    async with Store.open(db.url) as store:
        await store.apply(1, None, 9, "add", add(full_character()))
        await store.apply(1, None, 9, "add", add(Character("Ann", 3)))

        def rename(table: Table) -> tuple[Table, None]:
            old = table.get("grok the ogre")
            return table.without(old.name).with_character(
                dataclasses.replace(old, name="Grok", level=8)
            ), None

        await store.apply(1, None, 9, "rename", rename)
        await store.apply(1, None, 9, "delete", lambda t: (t.without("ann"), None))
    async with Store.open(db.url) as store:
        table = await store.read(1)
    assert [(c.name, c.level) for c in table.characters] == [("Grok", 8)]
    assert [row[1] for row in (await db.dump())["characters"]] == ["grok"]


async def test_failing_function_changes_nothing(db: Database) -> None:
    async with Store.open(db.url) as store:
        await store.apply(1, None, 9, "add", add(full_character()))
        before = await db.dump()
        boom = RulesError("Level must be 1 or more")

        def half_done(table: Table) -> tuple[Table, None]:
            table.with_character(Character("Ann", 3))  # built, then abandoned
            raise boom

        with pytest.raises(RulesError) as caught:
            await store.apply(1, None, 9, "fail", half_done)
        assert caught.value is boom
        with pytest.raises(ZeroDivisionError):
            await store.apply(2, None, 9, "fail", lambda t: (t, 1 // 0))
        assert await db.dump() == before
        # The connection is usable afterwards: the rollback really ended the transaction.
        assert await store.apply(1, None, 9, "tick", tick) == 1


async def test_a_failure_while_writing_rolls_back_the_writes_before_it(db: Database) -> None:
    async with Store.open(db.url) as store:
        await store.apply(1, None, 9, "tick", tick)
        before = await db.dump()

        def too_big(table: Table) -> tuple[Table, None]:
            # The channel row is written first; the huge owner id then overflows SQLite.
            sneaky = Character("Ann", 3)
            object.__setattr__(sneaky, "owner_id", 2**70)
            return dataclasses.replace(table, clock=99).with_character(sneaky), None

        with pytest.raises(db.overflow):
            await store.apply(1, None, 9, "overflow", too_big)
        assert await db.dump() == before
        assert (await store.read(1)).clock == 1


async def test_returning_another_channel_is_refused(db: Database) -> None:
    async with Store.open(db.url) as store:
        before = await db.dump()
        with pytest.raises(StoreError):
            await store.apply(1, None, 9, "move", lambda t: (Table(2, None, clock=5), None))
    assert await db.dump() == before


async def test_unchanged_table_writes_and_logs_nothing(db: Database) -> None:
    async with Store.open(db.url) as store:
        before = await db.dump()
        assert await store.apply(1, 2, 9, "look", lambda t: (t, "seen")) == "seen"
        assert await db.dump() == before
        assert await store.history(1) == []


async def test_fifty_concurrent_increments_lose_nothing(db: Database) -> None:
    async with Store.open(db.url) as store:
        results = await asyncio.gather(*(store.apply(1, None, i, "tick", tick) for i in range(50)))
        assert sorted(results) == list(range(1, 51))
        assert (await store.read(1)).clock == 50
        assert len(await store.history(1, limit=100)) == 50


async def test_two_processes_worth_of_connections_lose_nothing(db: Database) -> None:
    async with Store.open(db.url) as first, Store.open(db.url) as second:
        await asyncio.gather(
            *(store.apply(1, None, 9, "tick", tick) for store in [first, second] * 25)
        )
        assert (await first.read(1)).clock == (await second.read(1)).clock == 50


async def test_channels_are_isolated_and_survive_restarts(db: Database) -> None:
    async with Store.open(db.url) as store:
        await store.apply(1, 100, 9, "add", add(Character("Ann", 3)))
        await store.apply(2, 100, 9, "add", add(Character("Ann", 4, level=5)))
        await store.apply(2, 100, 9, "tick", tick)
        await store.apply(
            3, 200, 9, "ties", lambda t: (dataclasses.replace(t, settings=FULL_SETTINGS), None)
        )
        await store.apply(1, 100, 9, "delete", lambda t: (t.without("ann"), None))
    async with Store.open(db.url) as store:
        one, two, three = [await store.read(c) for c in (1, 2, 3)]
        assert (one.characters, one.clock, one.guild_id) == ((), 0, 100)
        assert two.characters == (Character("Ann", 4, level=5),)
        assert two.clock == 1
        assert two.settings == ChannelSettings()
        assert (three.settings, three.guild_id, three.characters) == (FULL_SETTINGS, 200, ())
        assert [e.action for e in await store.history(2)] == ["tick", "add"]
        assert [e.action for e in await store.history(3)] == ["ties"]


# --- history -------------------------------------------------------------------------------


async def test_history_records_exactly_what_changed(db: Database) -> None:
    moments = iter(datetime(2025, 1, 1, 12, m, tzinfo=UTC) for m in range(10))
    async with Store.open(db.url, now=lambda: next(moments)) as store:
        grok = full_character("Grok")
        await store.apply(1, None, 11, "add", add(grok))
        await store.apply(1, None, 11, "add", add(Character("Ann", 3)))
        tired = dataclasses.replace(grok, fatigue=FatigueState(fp=30))
        await store.apply(1, None, 12, "gain", lambda t: (tick(t)[0].with_character(tired), None))
        events = await store.history(1)

    assert [(e.action, e.actor_id) for e in events] == [("gain", 12), ("add", 11), ("add", 11)]
    assert [e.created_at for e in events] == [
        datetime(2025, 1, 1, 12, m, tzinfo=UTC) for m in (2, 1, 0)
    ]
    gain = events[0]
    assert isinstance(gain, Event)
    assert gain.clock == 1
    assert gain.before["channel"]["clock"] == 0
    assert gain.after["channel"]["clock"] == 1
    assert set(gain.before["characters"]) == {"grok"}  # Ann did not change, so she is absent
    assert gain.before["characters"]["grok"]["fatigue"]["fp"] == 12
    assert gain.after["characters"]["grok"]["fatigue"]["fp"] == 30
    first_add = events[2]
    assert first_add.before == {"characters": {"grok": None}}
    assert first_add.after["characters"]["grok"]["fl_override"] == "41/3"


async def test_history_pages_newest_first(db: Database) -> None:
    async with Store.open(db.url) as store:
        for _ in range(7):
            await store.apply(1, None, 9, "tick", tick)
        await store.apply(2, None, 9, "tick", tick)
        page = await store.history(1, limit=3)
        assert [e.clock for e in page] == [7, 6, 5]
        more = await store.history(1, limit=3, before_id=page[-1].id)
        assert [e.clock for e in more] == [4, 3, 2]
        assert [e.clock for e in await store.history(1, before_id=more[-1].id)] == [1]
        with pytest.raises(StoreError):
            await store.history(1, limit=0)


async def test_undoing_through_history_restores_the_table(db: Database) -> None:
    async with Store.open(db.url) as store:
        await store.apply(1, None, 9, "add", add(full_character()))
        start = await store.read(1)

        def shake(table: Table) -> tuple[Table, None]:
            table = tick(table)[0].without("grok the ogre").with_character(Character("Bo", 2))
            return dataclasses.replace(table, settings=FULL_SETTINGS), None

        await store.apply(1, None, 9, "shake", shake)
        (event,) = await store.history(1, limit=1)
        await store.apply(1, None, 9, "undo", lambda t: (restore(t, event.before), None))
        assert await store.read(1) == start


def random_table(rng: random.Random, channel_id: int = 1) -> Table:
    table = Table(channel_id, rng.choice([None, 5]), clock=rng.randint(0, 10**6))
    if rng.random() < 0.5:
        table = dataclasses.replace(table, settings=ChannelSettings(ties="succeed", rest_rate=2))
    for name in rng.sample(["Ann", "Bo", "Cy", "Dee", "Grok"], rng.randint(0, 5)):
        character = Character(name, rng.randint(1, 3), level=rng.randint(1, 30))
        if rng.random() < 0.5:
            character = dataclasses.replace(
                full_character(name), fatigue=FatigueState(fp=rng.randint(0, 90))
            )
        table = table.with_character(character)
    for name in rng.sample(["Ann", "Orc", "Troll", "Wyrm"], rng.randint(0, 4)):
        table = table.with_monster(random_monster(rng, name))
    return table


def random_monster(rng: random.Random, name: str) -> Monster:
    """A monster with a random build, HP (tracked or not, maybe down) and facing."""
    rank = rng.randint(0, 5)
    build: dict[str, object] = {"rank": rank, "armor": rng.choice(["light", "heavy", "medium"])}
    if rng.random() < 0.5:
        build |= {"trade": rng.randint(0, 3), "agility": rng.randint(-2, 5), "extra_defense": 3}
        spots = rng.sample(["back", "left", "front-right"], rng.randint(0, 3))
        build |= {"spots": [{"spot": s, "revealed": rng.random() < 0.5} for s in spots]}
        build |= {"armor_enchantments": [rng.randint(0, rank) for _ in range(rng.randint(0, 3))]}
        build |= {"weapon_enchantments": [rng.randint(0, rank) for _ in range(rng.randint(0, 3))]}
        build |= {"order": rng.choice(["normal", "heavy", "miniboss", "boss"])}
    hp_max = rng.choice([None, rng.randint(1, 50)])
    hp = None if hp_max is None else rng.randint(-10, hp_max)
    facing = rng.choice(["N", "NE", "E", "SE", "S", "SW", "W", "NW"])
    return Monster(name, build, hp_max=hp_max, hp=hp, facing=facing)


@settings(max_examples=200)
@given(seed=st.integers(0, 2**32 - 1))
def test_diff_snapshots_restore_either_side(seed: int) -> None:
    rng = random.Random(seed)
    before, after = random_table(rng), random_table(rng)
    old, new = diff(before, after)
    assert restore(after, old) == before
    assert restore(before, new) == after
    unchanged = {c.key for c in before.characters} & {c.key for c in after.characters}
    unchanged = {k for k in unchanged if before.find(k) == after.find(k)}
    assert not unchanged & old["characters"].keys()
    same_monsters = {m.key for m in before.monsters if after.find_monster(m.key) == m}
    assert not same_monsters & old.get("monsters", {}).keys()
    assert ("monsters" in old) == (before.monsters != after.monsters)
    assert ("channel" in old) == (channel_to_dict(before) != channel_to_dict(after))


@pytest.mark.parametrize(
    "changes",
    [
        {"guild_id": 5},
        {"clock": 60},
        {"settings": ChannelSettings(ties="succeed")},
        {"own": frozenset({"ties"})},
        {"round_start": 60},
        {"round_first": 2},
    ],
)
def test_diff_logs_the_channel_when_any_of_its_parts_changed(changes: dict[str, object]) -> None:
    """`diff` compares the channel's parts before making their dicts: each part counts."""
    before = Table(1, None).with_character(Character("Ann", 3))
    after = dataclasses.replace(before, **changes)  # type: ignore[arg-type]
    old, new = diff(before, after)
    assert old["channel"] == channel_to_dict(before)
    assert new["channel"] == channel_to_dict(after) != old["channel"]
    assert diff(after, dataclasses.replace(after)) == ({"characters": {}}, {"characters": {}})


# --- monsters (the bestiary) ---------------------------------------------------------------


def full_monster(name: str = "Cave Troll") -> Monster:
    """A monster with no field left at its default."""
    build = {
        "rank": 3,
        "armor": "heavy",
        "trade": 2,
        "agility": 4,
        "extra_defense": 3,
        "extra_evasion": -1,
        "spots": [{"spot": "back", "hard_to_hit": False}, {"spot": "front-left", "revealed": True}],
        "armor_enchantments": [1, 3],
        "weapon_enchantments": [2, 2],
        "order": "boss",
    }
    return Monster(name, build, hp_max=40, hp=-3, facing="SW", hidden=True, init_bonus=-4)


async def test_monsters_round_trip_across_a_restart_and_are_deleted(db: Database) -> None:
    troll, imp = full_monster(), Monster("Imp", {"rank": 0, "armor": "light"})
    async with Store.open(db.url) as store:
        await store.apply(1, 2, 9, "add", lambda t: (t.with_monster(troll).with_monster(imp), 0))
        in_session = await store.read(1)
    async with Store.open(db.url) as store:
        assert await store.read(1) == in_session == Table(1, 2, monsters=(troll, imp))
        # Boss 10 + 4 enchantments
        assert (await store.read(1)).get_monster("cave troll").block.material_drop == 14
        await store.apply(1, 2, 9, "drop", lambda t: (t.without_monster("imp"), 0))
    rows = (await db.dump())["monsters"]
    assert [row[:3] for row in rows] == [(1, "cave troll", "Cave Troll")]
    assert rows[0][4:] == (40, -3, "SW", 1, -4)  # still behind the GM's screen; its bonus
    with pytest.raises(db.check_violation):
        await db.execute("UPDATE monsters SET facing = 'up'")  # the schema checks facings too
    with pytest.raises(db.check_violation):
        await db.execute("UPDATE monsters SET hidden = 2")


async def test_a_monster_change_is_one_event_that_undoes_exactly(db: Database) -> None:
    async with Store.open(db.url) as store:
        await store.apply(1, None, 9, "add", add(full_character()))
        await store.apply(1, None, 9, "monster", lambda t: (t.with_monster(full_monster()), 0))
        start = await store.read(1)

        def hurt(table: Table) -> tuple[Table, None]:
            troll = table.get_monster("cave troll")
            return table.with_monster(dataclasses.replace(troll, hp=-20, facing="N")), None

        await store.apply(1, None, 9, "hit", hurt)
        (event,) = await store.history(1, limit=1)
        assert event.before == {
            "characters": {},
            "monsters": {"cave troll": monster_to_dict(full_monster())},
        }
        assert event.after["monsters"]["cave troll"]["hp"] == -20
        await store.apply(1, None, 9, "undo", lambda t: (restore(t, event.before), None))
        assert await store.read(1) == start
        first = (await store.history(1))[-1]
        assert "monsters" not in first.before  # a character change says nothing of monsters
