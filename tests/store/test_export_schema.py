"""The published JSON Schema of the export: the copy in docs/ is the one the bot checks with,
its bounds and fields are the code's (one source for every limit), and what /export writes
passes it."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import jsonschema

from exports.reading import HISTORY_ITEMS_MAX, ROLLS_ITEMS_MAX, schema
from rules.fatigue import FatigueState
from rules.saves import MODIFIER_LIMIT
from store import Store
from table.actions import ACTIONS
from table.bestiary import MONSTERS_MAX
from table.combat import COMBATANTS_MAX, INIT_BONUS_MAX, ROLLOFF_DIE, Combatant
from table.dice_expr import DICE_MAX, EXPRESSION_MAX
from table.model import LEVEL_MAX
from table.monster import HP_MAX
from table.names import NAME_MAX
from table.roll_log import DIFFICULTY_MAX, KEEP_MAX, KINDS, NUMBER_MAX, PLACES_MAX, roll_to_dict
from table.settings import HISTORY_KEEP_MAX, HISTORY_KEEP_MIN, SETTING_NAMES
from table.sheet import CHARACTERS_MAX
from table.snapshot import CHARACTER_FIELDS, MONSTER_FIELDS
from tests.store.conftest import Database
from tests.store.importing import ROLLS, exported, play

ROOT = Path(__file__).parents[2]
DOCS = ROOT / "docs" / "export.schema.json"


def test_the_published_schema_is_the_one_the_bot_checks_with() -> None:
    assert DOCS.read_text("utf-8") == (ROOT / "exports" / "export.schema.json").read_text("utf-8")
    assert json.loads(DOCS.read_text("utf-8")) == schema()
    jsonschema.Draft202012Validator.check_schema(schema())


def test_its_bounds_are_the_commands() -> None:
    defs: dict[str, Any] = schema()["$defs"]
    character = defs["character"]["properties"]
    assert character["level"]["maximum"] == LEVEL_MAX
    assert defs["modifier"] == {
        "type": "integer",
        "minimum": -MODIFIER_LIMIT,
        "maximum": MODIFIER_LIMIT,
    }
    assert defs["name"]["maxLength"] == NAME_MAX
    assert schema()["properties"]["monsters"]["maxItems"] == MONSTERS_MAX
    assert schema()["properties"]["characters"]["maxItems"] == CHARACTERS_MAX
    assert schema()["properties"]["history"]["maxItems"] == HISTORY_ITEMS_MAX
    started = defs["import_part"]["properties"]["history"]["properties"]["from"]
    assert started["maximum"] == HISTORY_ITEMS_MAX
    assert set(defs["event"]["properties"]["action"]["enum"]) == ACTIONS  # the bot's own list
    assert defs["initiative"]["properties"]["combatants"]["maxItems"] == COMBATANTS_MAX
    bonus = defs["init_bonus"]
    assert (bonus["minimum"], bonus["maximum"]) == (-INIT_BONUS_MAX, INIT_BONUS_MAX)
    rolloff = defs["combatant"]["properties"]["rolloff"]
    assert (rolloff["minimum"], rolloff["maximum"]) == (0, ROLLOFF_DIE)
    keep = defs["settings"]["properties"]["history_keep"]
    assert (keep["minimum"], keep["maximum"]) == (HISTORY_KEEP_MIN, HISTORY_KEEP_MAX)
    assert defs["monster"]["properties"]["hp_max"]["oneOf"][0]["maximum"] == HP_MAX


def test_its_fields_are_the_tables() -> None:
    defs: dict[str, Any] = schema()["$defs"]
    fields = {f.name for f in dataclasses.fields(FatigueState)}
    assert set(defs["fatigue"]["required"]) == set(defs["fatigue"]["properties"]) == fields
    assert set(defs["character"]["properties"]) == {*CHARACTER_FIELDS, "fatigue"}
    assert set(defs["monster"]["properties"]) == set(MONSTER_FIELDS)
    assert set(defs["combatant"]["properties"]) == {f.name for f in dataclasses.fields(Combatant)}
    assert set(defs["settings"]["required"]) == set(SETTING_NAMES)
    assert set(defs["setting_name"]["enum"]) == set(SETTING_NAMES)


def test_a_rolls_fields_and_bounds_are_the_roll_logs() -> None:
    roll: dict[str, Any] = schema()["$defs"]["roll"]
    fields = roll["properties"]
    assert set(roll["required"]) == set(fields) == set(roll_to_dict(ROLLS[0]))
    assert schema()["properties"]["rolls"]["maxItems"] == ROLLS_ITEMS_MAX > KEEP_MAX
    assert fields["place"]["maximum"] == PLACES_MAX - 1
    assert fields["kind"]["enum"] == list(KINDS)
    assert fields["dice"]["maxItems"] == DICE_MAX
    assert fields["dice"]["items"]["maximum"] == NUMBER_MAX
    assert fields["total"]["oneOf"][1]["maximum"] == NUMBER_MAX
    assert fields["expression"]["oneOf"][1]["maxLength"] == EXPRESSION_MAX
    assert fields["difficulty"]["oneOf"][1]["maximum"] == DIFFICULTY_MAX
    assert fields["came_with"]["oneOf"][1]["maximum"] == HISTORY_ITEMS_MAX
    assert fields["actor_id"] == {"$ref": "#/$defs/actor_id"}  # who rolled: as who changed


async def test_what_export_writes_passes_it(db: Database) -> None:
    async with Store.open(db.url) as store:
        await play(store, 101)
        document = json.loads(json.dumps(await exported(store, 101)))
    jsonschema.validate(document, schema(), cls=jsonschema.Draft202012Validator)
