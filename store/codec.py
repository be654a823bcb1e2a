"""Tables to and from SQL rows: the columns of `channels`, `guild_settings`, `characters` and
`monsters`, and a Table rebuilt from them. The event log's snapshot dicts are `table.snapshot`'s."""

from __future__ import annotations

import functools
import json
from typing import Any

from table.combat import Initiative
from table.model import SETTING_NAMES, Character, Monster, ServerLayer, Table, layered
from table.snapshot import (
    CHANNEL_SETTINGS,
    CHARACTER_FIELDS,
    FATIGUE_FIELDS,
    MONSTER_FIELDS,
    ROUND_FIELDS,
    character_from_dict,
    character_to_dict,
    monster_from_dict,
    monster_to_dict,
    settings_to_dict,
)

CHANNEL_COLUMNS = (
    "channel_id",
    "guild_id",
    "clock",
    *CHANNEL_SETTINGS,
    *ROUND_FIELDS,
    "own_settings",
)
SERVER_COLUMNS = ("guild_id", *SETTING_NAMES)  # the guild_settings table
SERVER_PREFIX = "server_"  # the guild_settings columns as a channel read returns them
CHARACTER_COLUMNS = ("channel_id", "key", *CHARACTER_FIELDS, *FATIGUE_FIELDS)
MONSTER_COLUMNS = ("channel_id", "key", *MONSTER_FIELDS)


def channel_row(table: Table) -> tuple[Any, ...]:
    settings = settings_to_dict(table.settings)
    rounds = (getattr(table, name) for name in ROUND_FIELDS)
    return (
        table.channel_id,
        table.guild_id,
        table.clock,
        *(settings[n] for n in CHANNEL_SETTINGS),  # the ones it doesn't set: as it reads them
        *rounds,
        " ".join(sorted(table.own)),
    )


def server_row(table: Table) -> tuple[Any, ...]:
    server = dict(table.server)
    return (table.guild_id, *(server.get(n) for n in SETTING_NAMES))


def character_row(channel_id: int, character: Character) -> tuple[Any, ...]:
    data = character_to_dict(character)
    fatigue = data.pop("fatigue")
    data["classes"] = json.dumps(data["classes"], separators=(",", ":"))
    values = [int(v) if isinstance(v, bool) else v for v in (data[n] for n in CHARACTER_FIELDS)]
    values += [int(v) if isinstance(v, bool) else v for v in (fatigue[n] for n in FATIGUE_FIELDS)]
    return (channel_id, character.key, *values)


def monster_row(channel_id: int, monster: Monster) -> tuple[Any, ...]:
    data = monster_to_dict(monster)
    data["build"] = json.dumps(data["build"], separators=(",", ":"), sort_keys=True)
    values = (int(v) if isinstance(v, bool) else v for v in (data[n] for n in MONSTER_FIELDS))
    return (channel_id, monster.key, *values)


def table_from_rows(
    channel_id: int,
    guild_id: int | None,
    channel: dict[str, Any] | None,
    characters: list[tuple[Any, ...]],
    monsters: list[tuple[Any, ...]] | None = None,
    initiative: str | None = None,
) -> Table:
    """Rows back into a Table: the channel's as a column → value dict (no channel row means the
    defaults), characters' and monsters' as tuples in `CHARACTER_ROW` and `MONSTER_FIELDS`
    order; `initiative` is the JSON of the turn order, if the channel has one."""
    order = Initiative.from_dict(json.loads(initiative)) if initiative else Initiative()
    beasts = tuple(_monster(tuple(row)) for row in monsters or ())
    chars = tuple(_character(tuple(row)) for row in characters)
    server = _server_from(channel)
    if channel is None or channel.get("channel_id") is None:
        return Table(
            channel_id,
            guild_id,
            settings=layered({}, server),
            characters=chars,
            monsters=beasts,
            initiative=order,
            server=server,
        )
    own = {name: channel[name] for name in (channel["own_settings"] or "").split()}
    table = Table(
        channel_id,
        channel["guild_id"] if channel["guild_id"] is not None else guild_id,
        channel["clock"],
        layered(own, server),
        chars,
        beasts,
        initiative=order,
        **{name: channel[name] for name in ROUND_FIELDS},
        own=frozenset(own),
        server=server,
    )
    return table.counted_at(channel["round_seconds"])  # the length its row was written at


def _server_from(row: dict[str, Any] | None) -> ServerLayer:
    """The server's settings from the `server_…` columns a channel read joins in."""
    if row is None:
        return ()
    values = {n: row.get(SERVER_PREFIX + n) for n in SETTING_NAMES}
    return tuple(sorted((n, v) for n, v in values.items() if v is not None))


CHARACTER_ROW = (*CHARACTER_FIELDS, *FATIGUE_FIELDS)  # a character's row, as `_character` takes it
DECODED_MAX = 4096  # characters' rows, and monsters', decoded once, at most


@functools.lru_cache(maxsize=DECODED_MAX)
def _character(values: tuple[Any, ...]) -> Character:
    """A character's row decoded, once per stored version of the row: it is immutable, so
    equal rows share one (its Fatigue Level worked out, its checks made, once). At most
    4,096 rows (DECODED_MAX; the least recently read forgotten first), about 0.7 KB each.
    Every look and every change reads its channel's party afresh, and decoding is most of
    that read (docs/benchmarks.md, "Decoded once")."""
    row = dict(zip(CHARACTER_ROW, values, strict=True))
    data = {name: row[name] for name in CHARACTER_FIELDS}
    data["classes"] = json.loads(row["classes"])
    data["fatigue"] = {name: row[name] for name in FATIGUE_FIELDS}
    return character_from_dict(data)


@functools.lru_cache(maxsize=DECODED_MAX)
def _monster(values: tuple[Any, ...]) -> Monster:
    """A monster's row decoded, once per stored version, as `_character` (its stat block built
    once): at most 4,096 rows (DECODED_MAX), about 1 KB each."""
    data = dict(zip(MONSTER_FIELDS, values, strict=True))
    return monster_from_dict({**data, "build": json.loads(data["build"])})
