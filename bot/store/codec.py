"""Tables and characters to and from plain dicts: the JSON of the event log and the SQL rows.

Fractions are kept exactly as text ("41/2"); classes as [[hd_size, level], ...].
"""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from typing import Any

from bot.table import ChannelSettings, Character, Table
from rules.fatigue import FatigueState

CHANNEL_SETTINGS = tuple(f.name for f in dataclasses.fields(ChannelSettings))
FATIGUE_FIELDS = tuple(f.name for f in dataclasses.fields(FatigueState))
CHARACTER_FIELDS = tuple(f.name for f in dataclasses.fields(Character) if f.name != "fatigue")

Snapshot = dict[str, Any]  # {"channel"?: {...}, "characters": {key: {...} | None}}


def channel_to_dict(table: Table) -> dict[str, Any]:
    return {
        "guild_id": table.guild_id,
        "clock": table.clock,
        "settings": dataclasses.asdict(table.settings),
    }


def character_to_dict(character: Character) -> dict[str, Any]:
    data = {name: getattr(character, name) for name in CHARACTER_FIELDS}
    data["classes"] = [list(pair) for pair in character.classes]
    data["fl_override"] = None if character.fl_override is None else str(character.fl_override)
    data["fatigue"] = dataclasses.asdict(character.fatigue)
    return data


def character_from_dict(data: dict[str, Any]) -> Character:
    fields = {name: data[name] for name in CHARACTER_FIELDS}
    fields["classes"] = tuple((size, level) for size, level in data["classes"])
    override = data["fl_override"]
    fields["fl_override"] = None if override is None else Fraction(override)
    return Character(**fields, fatigue=FatigueState(**data["fatigue"]))


def diff(before: Table, after: Table) -> tuple[Snapshot, Snapshot]:
    """Exactly what changed, as it was and as it became. A character missing on one side is
    None there; the channel part appears only when the clock, guild or settings changed."""
    old: Snapshot = {"characters": {}}
    new: Snapshot = {"characters": {}}
    if channel_to_dict(before) != channel_to_dict(after):
        old["channel"], new["channel"] = channel_to_dict(before), channel_to_dict(after)
    was = {c.key: c for c in before.characters}
    now = {c.key: c for c in after.characters}
    for key in sorted(was.keys() | now.keys()):
        if was.get(key) != now.get(key):
            old["characters"][key] = _maybe(was.get(key))
            new["characters"][key] = _maybe(now.get(key))
    return old, new


def _maybe(character: Character | None) -> dict[str, Any] | None:
    return None if character is None else character_to_dict(character)


def restore(table: Table, snapshot: Snapshot) -> Table:
    """Put a snapshot (an event's `before` or `after`) back onto `table`: the basis of /undo."""
    if "channel" in snapshot:
        channel = snapshot["channel"]
        table = dataclasses.replace(
            table,
            guild_id=channel["guild_id"],
            clock=channel["clock"],
            settings=ChannelSettings(**channel["settings"]),
        )
    characters = {c.key: c for c in table.characters}
    for key, data in snapshot["characters"].items():
        characters.pop(key, None)
        if data is not None:
            character = character_from_dict(data)
            characters[character.key] = character
    return dataclasses.replace(table, characters=tuple(characters.values()))


# --- SQL rows -------------------------------------------------------------------------------

CHANNEL_COLUMNS = ("channel_id", "guild_id", "clock", *CHANNEL_SETTINGS)
CHARACTER_COLUMNS = ("channel_id", "key", *CHARACTER_FIELDS, *FATIGUE_FIELDS)


def channel_row(table: Table) -> tuple[Any, ...]:
    settings = dataclasses.asdict(table.settings)
    return (table.channel_id, table.guild_id, table.clock, *(settings[n] for n in CHANNEL_SETTINGS))


def character_row(channel_id: int, character: Character) -> tuple[Any, ...]:
    data = character_to_dict(character)
    fatigue = data.pop("fatigue")
    data["classes"] = _json_classes(data["classes"])
    values = [data[name] for name in CHARACTER_FIELDS]
    values += [int(v) if isinstance(v, bool) else v for v in (fatigue[n] for n in FATIGUE_FIELDS)]
    return (channel_id, character.key, *values)


def _json_classes(classes: list[list[int]]) -> str:
    return json.dumps(classes, separators=(",", ":"))


def table_from_rows(
    channel_id: int,
    guild_id: int | None,
    channel: dict[str, Any] | None,
    characters: list[dict[str, Any]],
) -> Table:
    """Rows (as column → value dicts) back into a Table; no channel row means the defaults."""
    chars = []
    for row in characters:
        data = {name: row[name] for name in CHARACTER_FIELDS}
        data["classes"] = json.loads(row["classes"])
        data["fatigue"] = {name: row[name] for name in FATIGUE_FIELDS}
        chars.append(character_from_dict(data))
    if channel is None:
        return Table(channel_id, guild_id, characters=tuple(chars))
    settings = ChannelSettings(**{name: channel[name] for name in CHANNEL_SETTINGS})
    return Table(
        channel_id,
        channel["guild_id"] if channel["guild_id"] is not None else guild_id,
        channel["clock"],
        settings,
        tuple(chars),
    )
