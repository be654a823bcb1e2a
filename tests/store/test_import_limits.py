"""Files built to the limits, and past them, on a real SQLite file and a real PostgreSQL: the
most an import takes comes in whole, in one transaction; a file past a limit is refused by its
first problem with nothing written; the history kept is what the channel keeps, as pruning
would leave it; who made each change stands only for this bot's own export, unchanged, in the
server it came from; and the same of the roll log."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from exports.document import export_key, signed
from exports.reading import BYTES_MAX, HISTORY_ITEMS_MAX, ROLLS_ITEMS_MAX, read_export
from rules.errors import RulesError
from store import Store
from table.actions import IMPORTED
from table.imported_history import kept_changes
from table.roll_log import KEEP_MIN
from table.settings import HISTORY_KEEP_MAX
from table.sheet import CHARACTERS_MAX
from tests.store.big_export import (
    GUILD,
    PLAYER,
    big_export,
    d100_rolls,
    file_bytes,
    small_changes,
)
from tests.store.conftest import Database

TARGET, GM = 303, 33
KEY = export_key("the token of the bot under test")
Doc = dict[str, Any]


async def _nothing_written(store: Store, channel: int = TARGET) -> None:
    table, events, _rolls = await store.read_with_history(channel, GUILD)
    assert (table.characters, table.monsters, events) == ((), (), [])
    assert (await store.read_with_history(channel)).rolls == []


def _too_many_rolls() -> Doc:
    """More rolls than any export holds (each empty: the list's length is refused first)."""
    return dict(big_export(1, 1), rolls=[{}] * (ROLLS_ITEMS_MAX + 1))


async def test_the_largest_file_comes_in_whole_within_its_cap(db: Database) -> None:
    """10 MiB as small as JSON goes: the most characters and monsters a channel keeps, and more
    changes than it keeps: the newest 10,000 are logged, /history and /undo go on from them."""
    document = big_export(
        CHARACTERS_MAX, monsters=25, keep=HISTORY_KEEP_MAX, size=BYTES_MAX, compact=True
    )
    data = file_bytes(document, compact=True)
    assert BYTES_MAX - 1000 < len(data) <= BYTES_MAX
    assert len(document["history"]) > HISTORY_KEEP_MAX
    async with Store.open(db.url) as store:
        done = await store.import_channel(TARGET, GUILD, GM, read_export(data, GUILD))
        assert (done.changes, done.left_out) == (
            HISTORY_KEEP_MAX,
            len(document["history"]) - HISTORY_KEEP_MAX,
        )
        table, events, _rolls = await store.read_with_history(TARGET, GUILD)
        assert len(table.characters) == CHARACTERS_MAX and len(table.monsters) == 25
        assert len(events) == HISTORY_KEEP_MAX
        assert [e.seq for e in events] == list(range(1, HISTORY_KEEP_MAX + 1))
        newest = document["history"][-1]
        assert events[-1].after == newest["after"] and events[-1].actor_id == IMPORTED
        undone = await store.undo_last(TARGET, GUILD, GM, True)
        ((key, record),) = newest["before"]["characters"].items()
        assert undone.table.get(record["name"]).fatigue.fp == record["fatigue"]["fp"]
        assert key in {c.key for c in undone.table.characters}


@pytest.mark.parametrize(
    ("name", "document", "problem"),
    [
        (
            "a character more than a channel keeps",
            big_export(CHARACTERS_MAX + 1, CHARACTERS_MAX + 1),
            f"characters: {CHARACTERS_MAX + 1} items, at most {CHARACTERS_MAX}",
        ),
        ("a monster more", big_export(1, 1, monsters=26), "monsters: 26 items, at most 25"),
        (
            "a history_keep past the most",
            big_export(1, 1, keep=HISTORY_KEEP_MAX + 1),
            f"settings.history_keep: {HISTORY_KEEP_MAX + 1} is above {HISTORY_KEEP_MAX}",
        ),
        (
            "more changes than any export holds",
            small_changes(HISTORY_ITEMS_MAX + 1),
            f"history: {HISTORY_ITEMS_MAX + 1:,} items, at most {HISTORY_ITEMS_MAX:,}",
        ),
        (
            "more rolls than any export holds",
            _too_many_rolls(),
            f"rolls: {ROLLS_ITEMS_MAX + 1:,} items, at most {ROLLS_ITEMS_MAX:,}",
        ),
    ],
    ids=["characters", "monsters", "history_keep", "changes", "rolls"],
)
async def test_a_file_one_past_a_limit_is_refused_and_nothing_written(
    name: str, document: Doc, problem: str, db: Database
) -> None:
    async with Store.open(db.url) as store:
        with pytest.raises(RulesError) as refused:
            await store.import_channel(TARGET, GUILD, GM, read_export(file_bytes(document), GUILD))
        assert str(refused.value).startswith(problem)
        await _nothing_written(store)


def test_the_first_problem_is_named_not_the_last() -> None:
    """Spoiled at its 4th change and at its last: the 4th is named, found without the rest."""
    document = big_export(20, 3000)
    for at, value in ((3, "Her\x00o"), (-1, "\u3164")):
        ((_key, record),) = document["history"][at]["after"]["characters"].items()
        record["name"] = value
    with pytest.raises(RulesError) as refused:
        read_export(file_bytes(document), GUILD)
    assert str(refused.value).startswith("history[3].after.characters.hero 4.name:")


def test_a_rolls_problem_is_named_after_the_historys_and_the_first_of_its_own() -> None:
    document = dict(big_export(3, 6), rolls=d100_rolls(40))
    for at in (1, -1):
        document["rolls"][at]["dice"] = [97]  # a high die rolls again: not a whole chain
    with pytest.raises(RulesError) as refused:
        read_export(file_bytes(document), GUILD)
    assert str(refused.value).startswith("rolls[1]: A first die of 97")
    document["history"][4]["actor_id"] = "-5"
    with pytest.raises(RulesError) as refused:
        read_export(file_bytes(document), GUILD)
    assert str(refused.value).startswith("history[4].actor_id")


async def test_a_file_brings_the_newest_rolls_the_log_keeps(db: Database) -> None:
    """As many as the channel's log keeps, the newest; the log then holds no more than that,
    its own older rolls trimmed; the reply's count says what was left out."""
    document = dict(big_export(2, 4), rolls=d100_rolls(KEEP_MIN + 50))
    async with Store.open(db.url) as store:
        older = read_export(file_bytes(dict(big_export(0, 0), rolls=d100_rolls(10, 7))), GUILD)
        await store.import_channel(TARGET, GUILD, GM, older, rolls_keep=KEEP_MIN)
        assert len((await store.read_with_history(TARGET)).rolls) == 10  # rolls alone are no table
        imported = read_export(file_bytes(document), GUILD)
        done = await store.import_channel(TARGET, GUILD, GM, imported, rolls_keep=KEEP_MIN)
        assert (done.rolls, done.rolls_left_out) == (KEEP_MIN, 50)
        kept = [str(r.interaction_id) for r in (await store.read_with_history(TARGET)).rolls]
        assert kept == [r["interaction_id"] for r in document["rolls"][50:]]


@pytest.mark.parametrize(
    ("spoil", "problem"),
    [
        (
            lambda d: d["characters"][0].update(name="Hero 1\u3164"),
            "characters[0].name: A name can't contain invisible characters (U+1160 here)",
        ),
        (
            lambda d: d["characters"][1].update(name="H\u0435ro 1"),  # a Cyrillic е
            "characters[1].name: 'Hеro 1' looks just like 'Hero 1'",
        ),
        (
            lambda d: d["characters"][0].update(name="\uff28ero 1"),  # a full-width H
            "characters[0].name: 'Ｈero 1' is not written as the bot writes a name: 'Hero 1'",
        ),
        (
            lambda d: d["history"][2].update(action="admin deleted your character"),
            'history[2].action: "admin deleted your character" is not allowed here',
        ),
        (
            lambda d: d["history"][2].update(actor_id="-5"),
            'history[2].actor_id: "-5" is not allowed here',
        ),
        (
            lambda d: d["settings"].update(init_dice="1d10\r"),
            "settings.init_dice: text can't contain control characters (U+000D here)",
        ),
        (
            lambda d: d["settings"].update(gm_role_id=str(GUILD)),
            "settings.gm_role_id: @everyone can't be the GM role",
        ),
    ],
)
async def test_a_hostile_file_is_refused_by_the_commands_own_checks(
    spoil: Any, problem: str, db: Database
) -> None:
    document = big_export(3, 6)
    spoil(document)
    async with Store.open(db.url) as store:
        with pytest.raises(RulesError) as refused:
            await store.import_channel(TARGET, GUILD, GM, read_export(file_bytes(document), GUILD))
        assert str(refused.value).startswith(problem), str(refused.value)
        await _nothing_written(store)


def test_the_history_kept_is_what_pruning_keeps() -> None:
    """The newest `keep`, and the older changes the undos among them took back."""
    document = big_export(2, 30)
    history = document["history"]
    for undo, target in ((25, 3), (27, 26)):  # an undo of an old change, and of a recent one
        history[undo]["undoes"] = history[target]["id"]
        history[target]["undone_by"] = history[undo]["id"]
        history[undo]["before"], history[undo]["after"] = (
            copy.deepcopy(history[undo]["after"]),
            copy.deepcopy(history[undo]["before"]),
        )
    imported = read_export(file_bytes(document), GUILD)
    assert kept_changes(imported.history, 10) == [3, *range(20, 30)]
    assert kept_changes(imported.history, 100) == list(range(30))


@pytest.mark.parametrize("same", [True, False], ids=["same server", "another server"])
async def test_who_made_a_change_stands_only_for_the_bots_own_export_of_this_server(
    same: bool, db: Database
) -> None:
    document = dict(big_export(2, 4), rolls=d100_rolls(3))
    guild = GUILD if same else GUILD + 1
    async with Store.open(db.url) as store:
        for channel, file in ((TARGET, signed(document, KEY)), (TARGET + 1, document)):
            await store.import_channel(
                channel, guild, GM, read_export(file_bytes(file), guild, KEY)
            )
        actors = [e.actor_id for e in await store.history(TARGET, 4)]
        assert actors == ([PLAYER, GM, PLAYER, GM] if same else [IMPORTED] * 4)
        unsigned = [e.actor_id for e in await store.history(TARGET + 1, 4)]
        assert unsigned == [IMPORTED] * 4
        rolled = [r.actor_id for r in (await store.read_with_history(TARGET)).rolls]
        assert rolled == [PLAYER if same else IMPORTED] * 3  # who rolled: as who changed
        assert {r.actor_id for r in (await store.read_with_history(TARGET + 1)).rolls} == {IMPORTED}
    changed = signed(document, KEY)
    changed["history"][1]["actor_id"] = str(GM)  # the GM claims the player's change
    forged = read_export(file_bytes(changed), GUILD, KEY)
    assert {e.actor_id for e in forged.history} == {IMPORTED}
    changed = signed(document, KEY)
    changed["rolls"][0]["actor_id"] = str(GM)  # a roll claimed by another
    forged = read_export(file_bytes(changed), GUILD, KEY)
    assert {e.actor_id for e in forged.history} == {IMPORTED}
    assert {roll[4] for roll in forged.rolls} == {IMPORTED}  # ROLL_COLUMNS: actor_id 5th
    elsewhere = read_export(file_bytes(signed(document, export_key("another bot"))), GUILD, KEY)
    assert {e.actor_id for e in elsewhere.history} == {IMPORTED}
