"""Export documents of earlier versions, brought to the current one on the way in.

Version 1 (every release before own settings and the round count were exported) wrote what its
tables had: a field added to a character, a monster, the settings or the turn order since is
missing from it, and takes the value the migration that added it gave the stored rows (the
field's default). Its channel's own settings are those that differ from the defaults (the rule
migration V9 applied when server settings came). Its round count starts at the clock's zero.
Version 2 (before the roll log) had no `rolls`: it imports with none.
Anything not of the expected kind is left as it is, for the schema to name.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from rules.fatigue import FatigueState
from table.combat import Combatant, Initiative
from table.model import Character
from table.monster import Monster
from table.settings import DEFAULT_SETTINGS
from table.snapshot import settings_to_dict


def _defaults(kind: type) -> dict[str, Any]:
    """The fields of a table value that have a plain default, with it (JSON's list for ())."""
    return {
        f.name: [] if f.default == () else f.default
        for f in dataclasses.fields(kind)
        if f.default is not dataclasses.MISSING
    }


_DEFAULT_CHARACTER = _defaults(Character)
_DEFAULT_MONSTER = _defaults(Monster)
_DEFAULT_FATIGUE = _defaults(FatigueState)
_DEFAULT_COMBATANT = _defaults(Combatant)
_DEFAULT_SETTINGS = settings_to_dict(DEFAULT_SETTINGS)


def upgrade(document: dict[str, Any]) -> dict[str, Any]:
    """The document in the current version's shape (a new dict; the given one is unchanged)."""
    if document.get("version") == 1:
        document = _from_1(document)
    if document.get("version") == 2:
        document = {"rolls": [], **document, "version": 3}
    return document


def _from_1(document: dict[str, Any]) -> dict[str, Any]:
    new = dict(document, version=2)
    settings = document.get("settings")
    if isinstance(settings, dict):
        settings = {**_DEFAULT_SETTINGS, **settings}
        new["settings"] = settings
        changed = [n for n, v in settings.items() if v != _DEFAULT_SETTINGS.get(n, v)]
        new.setdefault("own_settings", sorted(changed))
    new.setdefault("round_start", 0)
    new.setdefault("round_first", 0)
    new["initiative"] = _initiative(document.get("initiative", {}))
    new["characters"] = _each(document.get("characters"), _character)
    new["monsters"] = _each(document.get("monsters", []), _monster)
    return new


def _each(items: Any, fill: Any) -> Any:
    return [fill(item) for item in items] if isinstance(items, list) else items


def _character(record: Any) -> Any:
    if not isinstance(record, dict):
        return record
    filled = {**_DEFAULT_CHARACTER, **record}
    fatigue = record.get("fatigue")
    if isinstance(fatigue, dict):
        filled["fatigue"] = {**_DEFAULT_FATIGUE, **fatigue}
    return filled


def _initiative(order: Any) -> Any:
    if not isinstance(order, dict):
        return order
    filled = {**Initiative().to_dict(), **order}
    filled["combatants"] = _each(filled["combatants"], _combatant)
    return filled


def _combatant(record: Any) -> Any:
    return {**_DEFAULT_COMBATANT, **record} if isinstance(record, dict) else record


def _monster(record: Any) -> Any:
    if not isinstance(record, dict):
        return record
    return {**_DEFAULT_MONSTER, **record}
