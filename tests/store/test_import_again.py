"""A channel whose table an import replaced moves again: its export (which carries that import
change) imports into an empty channel and over another table, on SQLite and on PostgreSQL, and
exports again as the same document. The import change's start means the same changes wherever
it goes, so its `/undo` there takes away the history that came with it and nothing else (not
the channel's own, not a change it didn't bring), only by a GM; a file can't point it elsewhere.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest

from exports.reading import HISTORY_ITEMS_MAX, schema
from rules.errors import RulesError
from store import Store
from table.actions import COMMAND_LINE, IMPORT_ACTION, IMPORTED
from table.event import Event
from table.imported import IMPORT, Imported
from table.model import Character, Forbidden, Monster
from tests.store.conftest import Database
from tests.store.importing import (
    GM,
    GUILD,
    MIDDLE,
    PLAYER,
    SOURCE,
    adds,
    checked,
    exported,
    moved_once,
    own_table,
    play,
    replace_with,
    without_ids_and_times,
)
from tests.store.test_server_settings import channel, server

THIRD, FOURTH, FIFTH = 303, 404, 505
Doc = dict[str, Any]


def _read(document: Doc, guild: int = GUILD) -> Imported:
    return checked(document, guild)


def _imports(log: list[Event]) -> list[Event]:
    return [e for e in log if e.action == IMPORT_ACTION and IMPORT in e.after]


def _start(log: list[Event], change: Event) -> Event:
    """The logged change an import change's history starts at (by its event number, `seq`)."""
    (first,) = [e for e in log if e.seq == change.after[IMPORT]["history"]["from"]]
    return first


def _as_logged(event: Event) -> tuple[Any, ...]:
    return event.action, event.actor_id, event.created_at, event.before, event.after


def _clock_at(clock: int) -> Any:
    return lambda table: (dataclasses.replace(table, clock=clock), None)


def _table_part(document: Doc) -> Doc:
    return {
        k: v for k, v in without_ids_and_times(document).items() if k not in ("history", "rolls")
    }


async def test_a_moved_channel_moves_again_and_exports_the_same(db: Database) -> None:
    async with Store.open(db.url) as store:
        _was, second = await moved_once(store)
        assert second["history"][-1]["after"][IMPORT] == {"history": {"from": 3}}
        source_first = (await store.read_with_history(SOURCE, GUILD))[1][0]

        await store.import_channel(THIRD, GUILD, GM, _read(second))  # an empty channel
        third = await exported(store, THIRD)
        assert without_ids_and_times(third) == without_ids_and_times(second)

        await own_table(store, FOURTH, "Dara")  # a channel with a table of its own
        dara = await exported(store, FOURTH)
        own = len(dara["history"])
        await replace_with(store, FOURTH, second)
        fourth = await exported(store, FOURTH)
        assert _table_part(fourth) == _table_part(second)
        # Its own history, the file's (the carried import's start counted past its own), then
        # its own import change, which starts where the file's history does.
        shifted = copy.deepcopy(second)
        shifted["history"][-1]["after"][IMPORT]["history"]["from"] += own
        history = without_ids_and_times(fourth)["history"]
        assert history[own:-1] == without_ids_and_times(shifted)["history"]
        # Its rolls came with the carried import: they name where its history starts, as it.
        assert {r["came_with"] for r in second["rolls"]} == {3}
        for roll in shifted["rolls"]:
            roll["came_with"] += own
        assert fourth["rolls"] == shifted["rolls"]
        assert fourth["history"][-1]["after"][IMPORT] == {"history": {"from": own + 1}}

        # In every channel the carried import change starts at a copy of SOURCE's first change.
        for channel in (MIDDLE, THIRD, FOURTH):
            log = (await store.read_with_history(channel, GUILD))[1]
            carried = _imports(log)[0]
            assert _as_logged(_start(log, carried)) == _as_logged(source_first)

        # Two imports deep, and again: the same document.
        await store.import_channel(FIFTH, GUILD, GM, _read(fourth))
        assert without_ids_and_times(await exported(store, FIFTH)) == without_ids_and_times(fourth)

        # FOURTH's own import is its latest change: /undo takes it, and all that came with it.
        assert (await store.undo_last(FOURTH, GUILD, GM, True)).target.seq == own + 15
        assert without_ids_and_times(await exported(store, FOURTH)) == without_ids_and_times(dara)


async def test_a_channel_that_keeps_few_changes_moves_again(db: Database) -> None:
    """MIDDLE keeps its last 10 changes: its export starts past its first ones (pruned), and
    the import change's start still names the first change that came with it."""
    async with Store.open(db.url) as store:
        await play(store, SOURCE)
        await store.apply(MIDDLE, GUILD, GM, "settings set", channel(history_keep=10))
        for minute in range(1, 50):
            await store.apply(MIDDLE, GUILD, GM, "clock pass", _clock_at(60 * minute))
        before = await exported(store, MIDDLE)
        kept = len(before["history"])
        assert kept < 50  # the first ones pruned
        await replace_with(store, MIDDLE, await exported(store, SOURCE))
        second = await exported(store, MIDDLE)
        assert second["history"][-1]["after"][IMPORT] == {"history": {"from": kept + 1}}

        await store.import_channel(THIRD, GUILD, GM, _read(second))
        assert without_ids_and_times(await exported(store, THIRD)) == without_ids_and_times(second)
        assert (await store.undo_last(THIRD, GUILD, GM, True)).target.action == IMPORT_ACTION
        assert without_ids_and_times(await exported(store, THIRD)) == without_ids_and_times(before)


async def test_undo_of_a_carried_import_takes_away_only_what_came_with_it(db: Database) -> None:
    """In a channel whose own history is a change to its server's settings (still empty), the
    GM's /undo takes a later change first, then the carried import: back to MIDDLE's table and
    history as they were before it, with the channel's own change kept."""
    other = GUILD + 1
    async with Store.open(db.url) as store:
        was, second = await moved_once(store)
        await store.apply(THIRD, other, GM, "settings server", server(rest_rate=3))
        await store.import_channel(THIRD, other, GM, _read(second, other))
        await store.apply(THIRD, other, GM, "character create", adds(Character("Eda", PLAYER)))

        first = await store.undo_last(THIRD, other, GM, True)
        assert first.target.action == "character create"
        undone = await store.undo_last(THIRD, other, GM, True)
        assert undone.target.action == IMPORT_ACTION

        after = await exported(store, THIRD, other)
        kept = without_ids_and_times(after)
        expected = without_ids_and_times(was)
        assert [e["action"] for e in kept["history"]] == [
            "settings server",
            "character create",
            "clock pass",
        ]
        # From another server, whose members this bot can't vouch for: imported, by anyone.
        assert {e["actor_id"] for e in kept["history"][1:]} == {str(IMPORTED)}
        assert [dict(e, actor_id=None) for e in kept["history"][1:]] == [
            dict(e, actor_id=None) for e in expected["history"]
        ]
        for part in ("characters", "monsters", "clock", "own_settings", "initiative"):
            assert kept[part] == expected[part]
        assert undone.table.settings.rest_rate == 3  # its server's, as before


async def test_a_carried_import_never_reaches_the_channels_own_history(db: Database) -> None:
    """A file that says its import change took away everything in it (its start at 1): /undo
    of it takes away only what the file brought, the channel's own change stays (the table is
    what the change's `before` says: the file's word, as for any change it carries)."""
    async with Store.open(db.url) as store:
        _was, second = await moved_once(store)
        second["history"][-1]["after"][IMPORT]["history"]["from"] = 1
        await store.apply(THIRD, GUILD + 1, GM, "settings server", server(rest_rate=3))
        own = (await store.read_with_history(THIRD, GUILD + 1))[1]
        await store.import_channel(THIRD, GUILD + 1, GM, _read(second, GUILD + 1))
        await store.undo_last(THIRD, GUILD + 1, GM, True)
        table, log, _rolls = await store.read_with_history(THIRD, GUILD + 1)
        assert [(e.id, e.action, e.seq) for e in log] == [(e.id, e.action, e.seq) for e in own]
        assert [c.name for c in table.characters] == ["Cora"]  # as the change's before says


async def test_only_a_gm_undoes_a_carried_import(db: Database) -> None:
    """A player's /undo reaches their own latest change, whatever others did since: a carried
    import change of theirs (it touched only their characters) is still the GM's to undo (it
    takes away every change since, the GM's own too)."""
    async with Store.open(db.url) as store:
        await store.apply(
            SOURCE, GUILD, PLAYER, "character create", adds(Character("Aria", PLAYER))
        )
        await store.apply(MIDDLE, GUILD, PLAYER, "character create", adds(Character("Bo", PLAYER)))
        await replace_with(store, MIDDLE, await exported(store, SOURCE), actor=PLAYER)
        await store.import_channel(THIRD, GUILD, GM, _read(await exported(store, MIDDLE)))
        troll = Monster("Troll", {"rank": 3, "armor": "medium"})
        add = dataclasses.replace
        await store.apply(
            THIRD, GUILD, GM, "monster create", lambda t: (add(t, monsters=(troll,)), None)
        )
        rows = await db.dump()
        with pytest.raises(Forbidden, match="Only the GM can undo your import"):
            await store.undo_last(THIRD, GUILD, PLAYER, False)
        assert await db.dump() == rows
        assert (await store.undo_last(THIRD, GUILD, GM, True)).target.action == "monster create"
        assert (await store.undo_last(THIRD, GUILD, GM, True)).target.action == IMPORT_ACTION
        assert [c.name for c in (await store.read(THIRD, GUILD)).characters] == ["Bo"]


async def test_an_import_from_the_command_line_moves_again(db: Database) -> None:
    """An import change made from a shell (logged as no Discord user) comes along as such."""
    async with Store.open(db.url) as store:
        await play(store, SOURCE)
        await own_table(store, MIDDLE, "Cora")
        await replace_with(store, MIDDLE, await exported(store, SOURCE), actor=COMMAND_LINE)
        second = await exported(store, MIDDLE)
        assert second["history"][-1]["actor_id"] == "0"
        await store.import_channel(THIRD, GUILD, GM, _read(second))
        assert (await store.history(THIRD, 1))[0].actor_id == COMMAND_LINE
        assert without_ids_and_times(await exported(store, THIRD)) == without_ids_and_times(second)


def _spoil(document: Doc, where: str, value: Any) -> Doc:
    spoiled = copy.deepcopy(document)
    *parents, leaf = where.split(".")
    place: Any = spoiled
    for step in parents:
        place = place[int(step)] if step.isdigit() else place[step]
    place[leaf] = value
    return spoiled


LAST = "history.13"  # the import change in MIDDLE's export (its history is 14 long)
HOSTILE = [
    (f"{LAST}.after.import.history.from", 0, "history[13].after.import.history.from: 0 is below 1"),
    (f"{LAST}.after.import.history.from", -3, "history[13].after.import.history.from: -3 is below"),
    (f"{LAST}.after.import.history.from", "3", 'history[13].after.import.history.from: "3" is not'),
    (f"{LAST}.after.import.history.from", None, "history[13].after.import.history.from: null"),
    (f"{LAST}.after.import.history.from", 15, "history[13].after.import.history.from: 15 is past"),
    (f"{LAST}.after.import.history.from", 10**6, f"from: 1000000 is above {HISTORY_ITEMS_MAX}"),
    (f"{LAST}.after.import.history", {"from": 3, "to": 9}, '.history: "to" is not a field'),
    (f"{LAST}.after.import", {}, "history[13].after.import: history is missing"),
    ("history.2.before.import", {"history": {"from": 1}}, "history[2].before.import: only"),
    ("history.5.after.import", {"history": {"from": 1}}, "history[5].after.import: only"),
]


@pytest.mark.parametrize(("where", "value", "problem"), HOSTILE)
async def test_a_file_cannot_point_an_import_change_elsewhere(
    where: str, value: Any, problem: str, db: Database
) -> None:
    async with Store.open(db.url) as store:
        _was, second = await moved_once(store)
        assert second["history"][13]["action"] == IMPORT_ACTION
        await own_table(store, FOURTH, "Dara")
        newest = (await store.history(FOURTH, 1))[0].id
        rows = await db.dump()
        for channel, replace in ((THIRD, None), (FOURTH, (newest,))):
            with pytest.raises(RulesError) as refused:
                imported = checked(_spoil(second, where, value))
                await store.import_channel(channel, GUILD, GM, imported, replace=replace)
            line = str(refused.value)
            assert problem in line and "\n" not in line and len(line) < 300
        assert await db.dump() == rows


def test_the_schema_bounds_an_import_changes_start_by_the_history() -> None:
    start = schema()["$defs"]["import_part"]["properties"]["history"]["properties"]["from"]
    assert (start["minimum"], start["maximum"]) == (
        1,
        schema()["properties"]["history"]["maxItems"],
    )
