"""Hostile files handed to /import: each refused with one line naming the first problem (and its
path), nothing written; and any file at all is either refused that way or imported, never a
crash (a property over documents spoiled at random)."""

from __future__ import annotations

import asyncio
import copy
import functools
import json
import random
import tempfile
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exports.document import VERSION
from exports.reading import BYTES_MAX, ImportRefused, check_size, read_export
from rules.errors import RulesError
from store import Store
from table.imported import CLOCK_SKEW, ImportProblem
from table.roll_log import roll_to_dict
from table.sheet import CHARACTERS_MAX
from tests.store.importing import GM, GUILD, ROLL_AT, ROLLS, checked, moved_once

EXPORT = Path(__file__).parent / "exports" / "v1-fc21989.json"
TARGET = 303
Doc = dict[str, Any]


def valid() -> Doc:
    """A current export of a played channel (an earlier release's, upgraded on the way in)."""
    document: Doc = json.loads(EXPORT.read_text("utf-8"))
    return document


@functools.cache
def _carrying() -> str:
    """A current export of a channel whose table an import replaced, so that it carries that
    import change (made once, through a real SQLite store), as JSON."""

    async def make(folder: str) -> str:
        async with Store.open(f"sqlite:///{folder}/tk.db") as store:
            return json.dumps((await moved_once(store))[1])

    with tempfile.TemporaryDirectory() as folder:
        return asyncio.run(make(folder))


def carrying() -> Doc:
    document: Doc = json.loads(_carrying())
    return document


def spoiled(change: Callable[[Doc], object]) -> bytes:
    document = valid()
    change(document)
    return json.dumps(document).encode("utf-8")


def _set(path: str, value: Any) -> Callable[[Doc], None]:
    def change(document: Doc) -> None:
        *parents, leaf = path.split(".")
        place: Any = document
        for step in parents:
            place = place[int(step)] if step.isdigit() else place[step]
        place[int(leaf) if leaf.isdigit() else leaf] = value

    return change


ROLLS_EXPORT = Path(__file__).parent / "exports" / "v2-db278be.json"


def rolled(change: Callable[[Doc], object]) -> bytes:
    """A current export with a roll log (the first roll a save), spoiled by `change`."""
    document: Doc = json.loads(ROLLS_EXPORT.read_text("utf-8"))
    document["version"] = VERSION
    document["rolls"] = [roll_to_dict(roll) for roll in ROLLS]
    change(document)
    return json.dumps(document).encode("utf-8")


def _roll_twice(document: Doc) -> None:
    document["rolls"].append(dict(document["rolls"][0]))


def _swap_rolls(document: Doc) -> None:
    document["rolls"][:2] = document["rolls"][1::-1]


def _twins(document: Doc) -> None:
    document["characters"][1]["name"] = document["characters"][0]["name"].upper()


def _many(count: int) -> Callable[[Doc], None]:
    def change(document: Doc) -> None:
        first = document["characters"][0]
        document["characters"] = [dict(first, name=f"Hero {n}") for n in range(count)]

    return change


def _unfit(document: Doc) -> None:
    document["characters"][0]["fatigue"]["fp"] += 7  # the history says otherwise


def _lost_link(document: Doc) -> None:
    document["history"][-1]["undoes"] = "999999"


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


DEEP = (
    b'{"format": "tablekeeper-export", "version": 1, "x": ' + b"[" * 10_000 + b"]" * 10_000 + b"}"
)
HOSTILE: list[tuple[str, bytes, str]] = [
    ("not JSON", b"name,level\nAria,3\n", "not JSON"),
    ("not UTF-8", b'{"format": "tablekeeper-export", "x": "\xff\xfe"}', "not UTF-8"),
    ("another program's JSON", b'{"name": "Aria", "hp": 12}', "not a Tablekeeper export"),
    ("a list", b"[1, 2, 3]", "not a Tablekeeper export"),
    ("a future version", spoiled(_set("version", 4)), "version: 4 is not"),
    ("a version as text", spoiled(_set("version", "1")), 'version: "1" is not'),
    ("nested 10,000 deep", DEEP, "nests deeper"),
    ("nested 40 deep", spoiled(_set("characters.0.classes", _nested(40))), "nests deeper"),
    (
        "a level of 10**30",
        spoiled(_set("characters.1.level", 10**30)),
        "characters[1].level: 10**30 is above 100",
    ),
    (
        "a modifier past the rules",
        spoiled(_set("characters.0.wisdom", 101)),
        "characters[0].wisdom: 101 is above 100",
    ),
    (
        "FP past a 64-bit row",
        spoiled(_set("characters.0.fatigue.fp", 2**63)),
        "characters[0].fatigue.fp",
    ),
    (
        "5,000 digits",
        b'{"format": "tablekeeper-export", "clock": ' + b"9" * 5000 + b"}",
        "a number of 5,000 digits",
    ),
    (
        "a lone surrogate",
        b'{"format": "tablekeeper-export", "x": "\\ud800"}',
        "text that is not Unicode",
    ),
    ("an action of markup", spoiled(_set("history.0.action", "**@here**")), "history[0].action"),
    ("NaN", b'{"format": "tablekeeper-export", "version": 1, "clock": NaN}', "NaN"),
    ("Infinity", b'{"format": "tablekeeper-export", "version": 1, "clock": Infinity}', "Infinity"),
    (
        "-Infinity",
        b'{"format": "tablekeeper-export", "version": 1, "clock": -Infinity}',
        "-Infinity",
    ),
    ("a clock as a float", spoiled(_set("clock", 600.0)), "a number with a fraction (600.0)"),
    ("a key twice", b'{"format": "tablekeeper-export", "format": "x"}', '"format" twice'),
    (
        "twins after case-folding",
        spoiled(_twins),
        "characters[1].name: ARIA is named like characters[0]",
    ),
    ("a name of 41 characters", spoiled(_set("characters.0.name", "A" * 41)), "characters[0].name"),
    (
        "a name of 33 characters",
        spoiled(_set("characters.0.name", "A" * 33)),
        "characters[0].name: A character's name must be 32",
    ),
    (
        "@everyone",
        spoiled(_set("characters.0.name", "@everyone")),
        "characters[0].name: A name can't contain '@'",
    ),
    ("a monster @here", spoiled(_set("monsters.0.name", "Troll @here")), "monsters[0].name"),
    (
        "a combatant's mention",
        spoiled(_set("initiative.combatants.1.name", "<@&1>")),
        "initiative.combatants[1].name",
    ),
    (
        "a setting past the rules",
        spoiled(_set("settings.history_keep", 5)),
        "settings.history_keep: 5 is below 10",
    ),
    (
        "a setting that isn't one",
        spoiled(_set("settings.volume", 11)),
        'settings: "volume" is not a field',
    ),
    (
        "a history that doesn't fit",
        spoiled(_unfit),
        "history[8].after.characters.aria: the history's latest",
    ),
    (
        "a change /undo can't put back",
        spoiled(_set("history.3.before.channel", {"clock": 5})),
        "history[3].before: ",
    ),
    ("an undo of nothing", spoiled(_lost_link), "history[8].undoes: no earlier change"),
    (  # this evening's play is found by the changes' times
        "a change from the future",
        spoiled(_set("history.2.created_at", "2999-01-01T00:00:00+00:00")),
        "history[2].created_at: 2999-01-01T00:00:00+00:00 is later than this import",
    ),
    ("100,000 characters", spoiled(_many(100_000)), "bytes: an export is at most 10,485,760"),
    (
        "a character past the most a channel keeps",
        spoiled(_many(CHARACTERS_MAX + 1)),
        f"characters: {CHARACTERS_MAX + 1} items, at most {CHARACTERS_MAX}",
    ),
    (
        "an id that isn't one",
        spoiled(_set("characters.0.owner_id", "-5")),
        "characters[0].owner_id",
    ),
    ("a chain no d100 rolls", rolled(_set("rolls.0.dice", [97])), "rolls[0]: A first die of 97"),
    (
        "a chance the save never had",
        rolled(_set("rolls.0.chance", "1/3")),
        "rolls[0]: 1/3 is not the chance this save had",
    ),
    ("a chance as a float", rolled(_set("rolls.0.chance", 0.5)), "a number with a fraction"),
    (
        "an outcome its total doesn't make",
        rolled(_set("rolls.0.success", True)),
        "rolls[0]: this save's outcome",
    ),
    ("a roll twice", rolled(_roll_twice), "rolls[6]: rolls come in the order rolled"),
    ("rolls out of order", rolled(_swap_rolls), "rolls[1]: rolls come in the order rolled"),
    (
        "a roll for @everyone",
        rolled(_set("rolls.0.character", "@everyone")),
        "rolls[0].character: A name can't contain '@'",
    ),
    (
        "a control character in a roll",
        rolled(_set("rolls.5.expression", "4d6\u202e")),
        "rolls[5].expression: text can't contain control characters",
    ),
    (
        "a roll's actor that isn't an id",
        rolled(_set("rolls.0.actor_id", "Aria")),
        "rolls[0].actor_id",
    ),
    ("a kind of roll there isn't", rolled(_set("rolls.0.kind", "d20")), "rolls[0].kind"),
    (
        "an import's roll past the history",
        rolled(_set("rolls.0.came_with", 99)),
        "rolls[0].came_with: 99 is past the history's last change",
    ),
    (  # it would outlive every real roll as the log is trimmed, the newest kept
        "a roll from the future",
        rolled(_set("rolls.5.at", "2999-01-01T00:00:00+00:00")),
        "rolls[5].at: 2999-01-01T00:00:00+00:00 is later than this import",
    ),
    (
        "a roll of a future interaction",
        rolled(_set("rolls.5.interaction_id", "9000000000000000000")),
        "rolls[5].interaction_id: 9000000000000000000 is later than this import",
    ),
]


@pytest.mark.parametrize(
    ("data", "problem"), [(d, p) for _n, d, p in HOSTILE], ids=[n for n, _d, _p in HOSTILE]
)
async def test_a_hostile_file_is_refused_by_its_first_problem_and_nothing_is_written(
    data: bytes, problem: str, tmp_path: Path
) -> None:
    async with Store.open(f"sqlite:///{tmp_path / 'tk.db'}") as store:
        with pytest.raises(RulesError) as refused:
            await store.import_channel(TARGET, GUILD, GM, checked(data))
        line = str(refused.value)
        assert problem in line
        assert "\n" not in line and len(line) < 300
        table, events, _rolls = await store.read_with_history(TARGET, GUILD)
        assert (table.characters, events) == ((), [])
        assert (await store.read_with_history(TARGET)).rolls == []


def test_a_file_of_20_mb_is_refused_by_its_declared_size() -> None:
    check_size(BYTES_MAX)  # the largest a bot can upload still comes in
    with pytest.raises(ImportRefused, match="20,971,520 bytes"):
        check_size(20 * 2**20)
    with pytest.raises(ImportRefused, match="bytes: an export is at most"):
        read_export(b" " * (BYTES_MAX + 1), GUILD)


def _changed_the_day_before(document: Doc) -> None:
    for change in document["history"]:  # before the rolls: only theirs are in question here
        change["created_at"] = (ROLL_AT - timedelta(days=1)).isoformat()


def test_a_roll_is_no_later_than_the_import_give_or_take_a_minute() -> None:
    data = rolled(_changed_the_day_before)
    assert len(read_export(data, GUILD, now=ROLL_AT).rolls) == len(ROLLS)
    assert len(read_export(data, GUILD, now=ROLL_AT - CLOCK_SKEW).rolls) == len(ROLLS)
    with pytest.raises(ImportProblem, match=r"^rolls\[0\]\.at: .* is later than this import"):
        read_export(data, GUILD, now=ROLL_AT - CLOCK_SKEW - timedelta(seconds=1))


def test_the_valid_documents_import() -> None:  # what the hostile ones are spoiled from
    assert [c.name for c in checked(valid()).characters] == ["Aria", "Bórin"]
    history = checked(carrying()).history
    assert [e.action for e in history][-1] == "import"


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _leaves(v, (*path, k))] or [path]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _leaves(v, (*path, i))] or [path]
    return [path]


ODD = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=50),
    st.sampled_from(["@everyone", "<@1>", "", " ", "x" * 41, "1/0", "-1", "\ud800"]),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), value=ODD, count=st.integers(1, 3), carries=st.booleans())
@example(seed=51409699, value=None, count=1, carries=False)  # a logged monster's name to null
@example(seed=729, value=-1, count=1, carries=True)  # its import change's start, to -1
def test_any_spoiled_export_is_refused_cleanly_or_imports(
    seed: int, value: Any, count: int, carries: bool
) -> None:
    """`carries`: the export of a channel whose table an import replaced (with that change)."""
    rng = random.Random(seed)
    document = carrying() if carries else valid()
    for _ in range(count):
        path = rng.choice(_leaves(document))
        if path:
            place: Any = document
            for step in path[:-1]:
                place = place[step]
            place[path[-1]] = copy.deepcopy(value)
    data = json.dumps(document).encode("utf-8")
    try:
        checked(data)
    except RulesError as refused:  # anything else is a crash
        line = str(refused)
        assert line and "\n" not in line and "Traceback" not in line
