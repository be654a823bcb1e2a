"""`/undo` in the store, against real databases (each test on a SQLite file and on PostgreSQL):
every kind of change comes back exactly, undos stack, and what can't be undone is refused with
nothing written."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections.abc import Callable
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.fatigue import FatigueState
from store import Store
from table import bestiary, partyops, sheet
from table.bestiary import BuildOptions
from table.event import Event
from table.model import ChannelSettings, Character, Forbidden, Monster, Table
from table.sheet import SettingsOptions, SheetOptions
from table.undo import UNDO_ACTION, Undone, plan_undo, touched
from tests.store.conftest import Database

CH, GUILD = 1001, 5005
GM, PIP, PER = 11, 21, 22  # the GM and two players
Step = Callable[[Table], tuple[Table, Any]]


def only(step: Callable[[Table], tuple[Table, Any]]) -> Step:
    return lambda table: (step(table)[0], None)


ORC = Monster(
    "Orc", bestiary.build(BuildOptions(rank=2, armor="heavy", spots="back")).to_dict(), 30, 30, "E"
)


def seeded(table: Table) -> tuple[Table, None]:
    """A channel with nothing left at its defaults: settings, clock, two players' characters
    (Aria with expiring Temporary FP and a cap), and a tracked monster."""
    table = dataclasses.replace(
        table,
        clock=600,
        settings=ChannelSettings(ties="succeed", round_seconds=6, rest_rate=2, gm_role_id=77),
    )
    aria = Character(
        "Aria",
        PIP,
        level=4,
        fortitude=3,
        classes=((10, 4),),
        toughness=1,
        fl_override=Fraction(20),
        fatigue=FatigueState(fp=18, temp=3, temp_expires=660, exhausted_cap=False),
    )
    bo = Character("Bo", PER, level=2, classes=((8, 2),), toughness=6)
    return table.with_character(aria).with_character(bo).with_monster(ORC), None


async def seed(store: Store) -> Table:
    await store.apply(CH, GUILD, GM, "seed", seeded)
    return await store.read(CH, GUILD)


def assert_same(actual: Table, expected: Table) -> None:
    """Field by field, so a failure names what did not come back; then the whole."""
    for f in dataclasses.fields(Table):
        if f.name not in ("characters", "monsters", "settings"):
            assert getattr(actual, f.name) == getattr(expected, f.name), f.name
    for f in dataclasses.fields(ChannelSettings):
        assert getattr(actual.settings, f.name) == getattr(expected.settings, f.name), f.name
    for kind in ("characters", "monsters"):
        got = {x.key: x for x in getattr(actual, kind)}
        want = {x.key: x for x in getattr(expected, kind)}
        assert got.keys() == want.keys(), kind
        for key, thing in want.items():
            for f in dataclasses.fields(thing):
                assert getattr(got[key], f.name) == getattr(thing, f.name), (key, f.name)
            if isinstance(thing, Character):
                for f in dataclasses.fields(FatigueState):
                    got_v, want_v = (
                        getattr(got[key].fatigue, f.name),
                        getattr(thing.fatigue, f.name),
                    )
                    assert got_v == want_v, (key, f.name)
    assert actual == expected


# Every kind of change a command makes, as the cogs make it: (action, actor, step).
CHANGES: dict[str, tuple[int, Step]] = {
    "character create": (
        PIP,
        only(lambda t: sheet.create(t, PIP, False, "Cleo", PIP, SheetOptions(classes="d6/2"))),
    ),
    "character set": (
        PIP,
        only(lambda t: sheet.change(t, PIP, False, "Aria", SheetOptions(level=5, wisdom=-2))),
    ),
    "character set rename": (
        GM,
        only(
            lambda t: sheet.change(
                t, GM, True, "Aria", SheetOptions(fatigue_level=20.5), "Arya", PER
            )
        ),
    ),
    "character remove": (PIP, only(lambda t: sheet.remove(t, PIP, False, "Aria"))),
    "fatigue spend": (PIP, only(lambda t: partyops.spend(t, "Aria", 50))),
    "fatigue recover": (GM, only(lambda t: partyops.recover(t, "Aria", 5))),
    "fatigue temp": (PIP, only(lambda t: partyops.temp(t, "Aria", 4, 30))),
    "rest short": (GM, only(lambda t: partyops.party_rest(t, "short"))),
    "party spend": (GM, only(lambda t: partyops.party_spend(t, 7))),
    "settings set": (
        GM,
        only(lambda t: sheet.change_settings(t, SettingsOptions(ties="fail", clear_gm_role=True))),
    ),
    "clock round": (GM, only(lambda t: partyops.pass_rounds(t, 20))),  # Aria's temp fades too
    "monster create": (
        GM,
        only(
            lambda t: bestiary.create(
                t, is_gm=True, name="Troll", options=BuildOptions(rank=3, armor="light")
            )
        ),
    ),
    "monster hit": (GM, only(lambda t: bestiary.hit(t, is_gm=True, name="Orc", damage=12))),
    "monster face": (GM, only(lambda t: bestiary.face(t, is_gm=True, name="Orc", facing="SW"))),
    "monster remove": (GM, only(lambda t: bestiary.remove(t, is_gm=True, name="Orc"))),
}


# The GM undoes every kind; a player undoes the kinds players make themselves.
UNDOERS = [(a, "gm") for a in sorted(CHANGES)]
UNDOERS += [(a, "actor") for a in sorted(CHANGES) if CHANGES[a][0] != GM]


@pytest.mark.parametrize(("action", "undoer"), UNDOERS)
async def test_undo_restores_exactly_the_prior_state(
    db: Database, action: str, undoer: str
) -> None:
    actor, step = CHANGES[action]
    async with Store.open(db.url) as store:
        start = await seed(store)
        await store.apply(CH, GUILD, actor, action, step)
        changed = await store.read(CH, GUILD)
        assert changed != start  # the change really changed something
        who = GM if undoer == "gm" else actor
        undone = await store.undo_last(CH, GUILD, who, who == GM)
        assert_same(await store.read(CH, GUILD), start)
        assert undone.table == start
        assert undone.target.action == action
        latest, target, _seed = await store.history(CH, limit=3)
    assert (latest.action, latest.actor_id, latest.undoes) == (UNDO_ACTION, who, target.id)
    assert target.undone_by == latest.id
    assert latest.before == target.after and latest.after == target.before


async def test_two_undos_in_a_row_undo_two_changes_then_stop(db: Database) -> None:
    async with Store.open(db.url) as store:
        s0 = await seed(store)
        await store.apply(
            CH, GUILD, PIP, "fatigue spend", only(lambda t: partyops.spend(t, "Aria", 3))
        )
        s1 = await store.read(CH, GUILD)
        await store.apply(CH, GUILD, GM, "clock round", only(lambda t: partyops.pass_rounds(t, 2)))
        s2 = await store.read(CH, GUILD)
        assert s0 != s1 != s2 != s0

        first = await store.undo_last(CH, GUILD, GM, True)
        assert first.target.action == "clock round"
        assert_same(await store.read(CH, GUILD), s1)
        second = await store.undo_last(CH, GUILD, GM, True)
        assert second.target.action == "fatigue spend"  # not the undo just made
        assert_same(await store.read(CH, GUILD), s0)
        third = await store.undo_last(CH, GUILD, GM, True)
        assert third.target.action == "seed"
        assert await store.read(CH, GUILD) == Table(CH, GUILD)

        before = await db.dump()
        with pytest.raises(RulesError, match=r"Nothing left to undo.*/redo puts back"):
            await store.undo_last(CH, GUILD, GM, True)
        assert await db.dump() == before
        actions = [e.action for e in await store.history(CH)]
    assert actions == ["undo", "undo", "undo", "clock round", "fatigue spend", "seed"]


async def test_a_later_change_to_the_same_character_blocks_a_players_undo(db: Database) -> None:
    async with Store.open(db.url) as store:
        s0 = await seed(store)
        await store.apply(
            CH, GUILD, PIP, "fatigue spend", only(lambda t: partyops.spend(t, "Aria", 3))
        )
        s1 = await store.read(CH, GUILD)
        await store.apply(
            CH, GUILD, GM, "fatigue spend", only(lambda t: partyops.spend(t, "Aria", 4))
        )
        before = await db.dump()
        with pytest.raises(RulesError, match=r"later change, fatigue spend by <@11>.*Aria"):
            await store.undo_last(CH, GUILD, PIP, False)
        assert await db.dump() == before  # nothing written, not even an event

        await store.undo_last(CH, GUILD, GM, True)  # the GM takes the later one back ...
        assert_same(await store.read(CH, GUILD), s1)
        await store.undo_last(CH, GUILD, PIP, False)  # ... and now nothing builds on hers
        assert_same(await store.read(CH, GUILD), s0)


async def test_a_later_change_to_something_else_does_not_block(db: Database) -> None:
    async with Store.open(db.url) as store:
        s0 = await seed(store)
        await store.apply(
            CH, GUILD, PIP, "fatigue spend", only(lambda t: partyops.spend(t, "Aria", 3))
        )
        await store.apply(
            CH, GUILD, PER, "fatigue spend", only(lambda t: partyops.spend(t, "Bo", 4))
        )
        bo_tired = (await store.read(CH, GUILD)).get("Bo")
        undone = await store.undo_last(CH, GUILD, PIP, False)
        now = await store.read(CH, GUILD)
    assert undone.target.actor_id == PIP
    assert now.get("Aria") == s0.get("Aria")
    assert now.get("Bo") == bo_tired != s0.get("Bo")  # Perrin's change stands


async def test_a_player_cannot_undo_someone_elses_change(db: Database) -> None:
    async with Store.open(db.url) as store:
        await seed(store)
        await store.apply(
            CH, GUILD, PER, "fatigue spend", only(lambda t: partyops.spend(t, "Bo", 4))
        )
        before = await db.dump()
        with pytest.raises(RulesError, match=r"only undo your own.*fatigue spend by <@22>"):
            await store.undo_last(CH, GUILD, PIP, False)
        assert await db.dump() == before


async def test_a_gm_test_is_asked_of_the_settings_the_undo_loads(db: Database) -> None:
    """Given a test of the channel's settings instead of a bool, undo_last asks it of the
    table its own transaction loads (the seed's GM role is 77)."""
    asked: list[ChannelSettings] = []

    def has_role(role_id: int) -> Callable[[ChannelSettings], bool]:
        def test(settings: ChannelSettings) -> bool:
            asked.append(settings)
            return settings.gm_role_id == role_id

        return test

    async with Store.open(db.url) as store:
        s0 = await seed(store)
        await store.apply(
            CH, GUILD, PER, "fatigue spend", only(lambda t: partyops.spend(t, "Bo", 4))
        )
        before = await db.dump()
        with pytest.raises(RulesError, match=r"only undo your own.*fatigue spend by <@22>"):
            await store.undo_last(CH, GUILD, PIP, has_role(78))  # not a GM by these settings
        assert await db.dump() == before
        undone = await store.undo_last(CH, GUILD, PIP, has_role(77))  # a GM: anyone's change
        assert undone.target.actor_id == PER
        assert_same(await store.read(CH, GUILD), s0)
    assert asked == [s0.settings, s0.settings]


def touch(character: str, fp: int) -> Step:
    def step(table: Table) -> tuple[Table, None]:
        old = table.get(character)
        return table.with_character(dataclasses.replace(old, fatigue=FatigueState(fp=fp))), None

    return step


@pytest.mark.parametrize(
    ("step", "reason"),
    [
        (touch("Bo", 9), r"touched Bo, who isn't yours"),
        (lambda t: (dataclasses.replace(t, clock=t.clock + 60), None), "game clock"),
        (only(lambda t: sheet.change_settings(t, SettingsOptions(rest_rate=5))), "settings"),
        (only(lambda t: bestiary.face(t, is_gm=True, name="Orc", facing="N")), "Orc"),
    ],
)
async def test_a_player_undoes_only_changes_to_their_own_characters(
    db: Database, step: Step, reason: str
) -> None:
    """Pippa made these herself (as a GM at the time, say): now a player, she may not undo them."""
    async with Store.open(db.url) as store:
        start = await seed(store)
        await store.apply(CH, GUILD, PIP, "odd change", step)
        before = await db.dump()
        with pytest.raises(Forbidden, match=f"Only the GM can undo your odd change.*{reason}"):
            await store.undo_last(CH, GUILD, PIP, False)
        assert await db.dump() == before
        await store.undo_last(CH, GUILD, GM, True)
        assert_same(await store.read(CH, GUILD), start)


async def test_undo_refuses_when_the_rows_no_longer_match(db: Database) -> None:
    async with Store.open(db.url) as store:
        await seed(store)
        await store.apply(
            CH, GUILD, PIP, "fatigue spend", only(lambda t: partyops.spend(t, "Aria", 3))
        )
    # a change that went around the log
    await db.execute("UPDATE characters SET fp = 99 WHERE key = 'aria'")
    before = await db.dump()
    async with Store.open(db.url) as store:
        with pytest.raises(RulesError, match="Aria changed since"):
            await store.undo_last(CH, GUILD, GM, True)
    assert await db.dump() == before


async def test_nothing_to_undo_in_an_empty_channel(db: Database) -> None:
    async with Store.open(db.url) as store:
        await store.read(CH, GUILD)
        before = await db.dump()
        with pytest.raises(RulesError, match="Nothing left to undo"):
            await store.undo_last(CH, GUILD, GM, True)
        with pytest.raises(RulesError, match="no change here left to undo"):
            await store.undo_last(CH, GUILD, PIP, False)
    assert await db.dump() == before


async def test_undo_marks_survive_a_restart(db: Database) -> None:
    moments = iter(datetime(2025, 5, 1, 14, m, tzinfo=UTC) for m in range(10))
    async with Store.open(db.url, now=lambda: next(moments)) as store:
        s0 = await seed(store)
        await store.apply(
            CH, GUILD, PIP, "fatigue spend", only(lambda t: partyops.spend(t, "Aria", 3))
        )
        s1 = await store.read(CH, GUILD)
        await store.apply(
            CH, GUILD, PIP, "fatigue spend", only(lambda t: partyops.spend(t, "Aria", 3))
        )
        assert (await store.history(CH))[0].undone_by is None  # read (and kept) before
        await store.undo_last(CH, GUILD, PIP, False)
        undo, spent, *_ = await store.history(CH)  # the same store: the mark, not what it kept
        assert (undo.undoes, spent.undone_by) == (spent.id, undo.id)
    async with Store.open(db.url) as store:
        undo, spent, first, seed_event = await store.history(CH)
        assert (undo.undoes, spent.undone_by) == (spent.id, undo.id)
        assert undo.created_at == datetime(2025, 5, 1, 14, 3, tzinfo=UTC)
        assert first.undone_by is None and first.undoes is None and seed_event.undone_by is None
        assert_same(await store.read(CH, GUILD), s1)
        again = await store.undo_last(CH, GUILD, PIP, False)  # the next of hers, not the undo
        assert again.target.id == first.id
        assert_same(await store.read(CH, GUILD), s0)


async def test_concurrent_undos_take_back_two_different_changes(db: Database) -> None:
    async with Store.open(db.url) as store:
        await seed(store)
        for n in (1, 2, 3):
            await store.apply(
                CH, GUILD, GM, f"spend {n}", only(lambda t: partyops.spend(t, "Bo", 1))
            )
        spent = await store.read(CH, GUILD)
        await store.apply(CH, GUILD, GM, "tick", lambda t: (dataclasses.replace(t, clock=1), None))
        # Undo "tick" then "spend 3" at once: the store's lock runs them one after the other.
        done: list[Undone] = await asyncio.gather(
            *(store.undo_last(CH, GUILD, GM, True) for _ in range(2))
        )
        assert {u.target.action for u in done} == {"tick", "spend 3"}
        table = await store.read(CH, GUILD)
    assert table.get("Bo").fatigue.fp == 2 and table.clock == spent.clock


async def test_other_channels_are_untouched(db: Database) -> None:
    async with Store.open(db.url) as store:
        await seed(store)
        await store.apply(
            CH + 1, GUILD, GM, "tick", lambda t: (dataclasses.replace(t, clock=5), None)
        )
        await store.undo_last(CH, GUILD, GM, True)
        assert (await store.read(CH + 1, GUILD)).clock == 5
        assert [e.action for e in await store.history(CH + 1)] == ["tick"]
        with pytest.raises(RulesError, match="Nothing left to undo"):
            await store.undo_last(CH, GUILD, GM, True)  # the seed was CH's only change


async def test_plan_undo_keeps_a_later_clock_move_when_settings_are_undone(db: Database) -> None:
    """The channel counts field by field: a settings change and a later clock move don't
    depend on each other, and restoring the settings leaves the clock where it went."""
    async with Store.open(db.url) as store:
        await seed(store)
        options = SettingsOptions(round_seconds=30)
        await store.apply(
            CH, GUILD, GM, "settings set", only(lambda t: sheet.change_settings(t, options))
        )
        await store.apply(
            CH, GUILD, GM, "clock", lambda t: (dataclasses.replace(t, clock=999), None)
        )
        clock_event, settings_event, _ = await store.history(CH, limit=3)
        current = await store.read(CH, GUILD)
    # a new round length also says where its rounds start counting (the round number is kept)
    rounds = {("channel", "round_start"), ("channel", "round_first")}
    assert touched(settings_event) - rounds == {("channel", "settings.round_seconds")}
    assert touched(clock_event) == {("channel", "clock")}
    undone = plan_undo(current, settings_event, [clock_event], GM, True)
    assert (undone.settings.round_seconds, undone.clock) == (6, 999)
    assert (undone.round_start, undone.round_first) == (0, 0)
    assert undone.round_number == 999 // 6 + 1
    assert (
        dataclasses.replace(
            undone,
            settings=current.settings,
            round_start=current.round_start,
            round_first=current.round_first,
        )
        == current
    )
    with pytest.raises(RulesError, match="An undo is taken back with /redo"):
        plan_undo(current, dataclasses.replace(clock_event, undoes=1), [], GM, True)


def set_clock(seconds: int) -> Step:
    return lambda table: (dataclasses.replace(table, clock=seconds), None)


async def test_history_pages_back_towards_now(db: Database) -> None:
    async with Store.open(db.url) as store:
        for n in range(1, 8):
            await store.apply(CH, GUILD, GM, "tick", set_clock(n))
        ids = [e.id for e in await store.history(CH, limit=7)]  # newest first
        ahead = await store.history(CH, limit=3, after_id=ids[-2])
        assert [e.id for e in ahead] == ids[-5:-2]  # the three just after, newest first
        assert await store.history(CH, limit=3, after_id=ids[0]) == []


# --- a property: any run of changes comes back, one undo at a time -------------------------


def random_table(rng: random.Random, table: Table) -> Table:
    """Any next state: clock, settings, characters and monsters each maybe changed."""
    if rng.random() < 0.4:
        table = dataclasses.replace(table, clock=rng.randint(0, 10**6))
    if rng.random() < 0.3:
        settings_ = ChannelSettings(
            ties=rng.choice(["fail", "succeed"]), round_seconds=rng.choice([6, 10, 60])
        )
        table = dataclasses.replace(table, settings=settings_)
    for name in rng.sample(["Ann", "Bo", "Cy", "Dee"], rng.randint(0, 2)):
        if table.find(name) is not None and rng.random() < 0.3:
            table = table.without(name)
        else:
            fatigue = FatigueState(fp=rng.randint(0, 90), vp_damage=rng.randint(0, 2))
            owner = rng.choice([PIP, PER])
            character = Character(name, owner, level=rng.randint(1, 9), fatigue=fatigue)
            table = table.with_character(character)
    if rng.random() < 0.3:
        if table.find_monster("Orc") is not None and rng.random() < 0.5:
            table = table.without_monster("Orc")
        else:
            hp = rng.randint(-5, 30)
            table = table.with_monster(dataclasses.replace(ORC, hp=hp, facing=rng.choice("NESW")))
    return table


async def _undo_all(url: str, seed_: int) -> None:
    rng = random.Random(seed_)
    channel = CH + seed_  # each example on a channel of its own, in the one database
    async with Store.open(url) as store:
        states = [await store.read(channel, GUILD)]
        for n in range(rng.randint(1, 8)):
            await store.apply(
                channel, GUILD, GM, f"change {n}", lambda t: (random_table(rng, t), None)
            )
            now = await store.read(channel, GUILD)
            if now != states[-1]:
                states.append(now)
        for expected in reversed(states[:-1]):
            await store.undo_last(channel, GUILD, GM, True)
            assert_same(await store.read(channel, GUILD), expected)
        with pytest.raises(RulesError):
            await store.undo_last(channel, GUILD, GM, True)
        events: list[Event] = await store.history(channel, limit=100)
    undos = [e for e in events if e.undoes is not None]
    assert len(undos) == len(states) - 1
    assert sorted(e.undoes or 0 for e in undos) == sorted(e.id for e in events if e.undone_by)


# The database outlives the examples; each example uses a fresh channel in it.
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed_=st.integers(0, 2**32 - 1))
def test_any_run_of_changes_undoes_back_to_the_start(db: Database, seed_: int) -> None:
    asyncio.run(_undo_all(db.url, seed_))
