"""Reading a channel: its row, its turn order, its server's settings and the parts a command asks
for (`table.parts`: the party, the bestiary), decoded into one Table, in ONE statement (its own
snapshot: a look needs no transaction around it; one trip to the database, on either).

The parts come as one value each: PostgreSQL an array of rows, SQLite a JSON array of arrays,
both in the column order `store.codec` decodes."""

from __future__ import annotations

import itertools
import json
from typing import NamedTuple

from store import codec
from store.backend import Tx
from store.errors import AlreadyApplied
from table import snapshot
from table.model import SETTING_NAMES, Table
from table.parts import CHARACTERS, EVERYTHING, INITIATIVE, MONSTERS, PARTS, Parts

# A channel read: its row (if any), its turn order (a row of its own while it has one) as
# `initiative_state`, its server's settings (if any) as `server_<name>`, the event already
# logged for an interaction (if any) as `applied_id` and `applied_action`, and the parts asked
# for. The parameters are the channel id, the guild id (NULL outside a server: no server
# settings) and the interaction id (NULL when not asked).
_CHANNEL = (
    "SELECT c.*, i.state AS initiative_state, a.id AS applied_id, a.action AS applied_action, "
    + ", ".join(f"g.{n} AS {codec.SERVER_PREFIX}{n}" for n in SETTING_NAMES)
    + "{parts} FROM (SELECT CAST(? AS BIGINT) AS channel_id, CAST(? AS BIGINT) AS guild_id,"
    " CAST(? AS BIGINT) AS interaction_id) AS k"
    " LEFT JOIN channels AS c ON c.channel_id = k.channel_id"
    " LEFT JOIN initiatives AS i ON i.channel_id = k.channel_id"
    " LEFT JOIN guild_settings AS g ON g.guild_id = COALESCE(k.guild_id, c.guild_id)"
    " LEFT JOIN events AS a ON a.interaction_id = k.interaction_id"
)
_ROWS = {
    CHARACTERS: ("characters", codec.CHARACTER_ROW),
    MONSTERS: ("monsters", snapshot.MONSTER_FIELDS),
}
_ARRAY = {
    "postgres": "ARRAY(SELECT ROW({columns}) FROM {table} WHERE channel_id = k.channel_id)",
    "sqlite": "(SELECT json_group_array(json_array({columns})) FROM {table}"
    " WHERE channel_id = k.channel_id)",
}


def _channel_sql(dialect: str, parts: Parts) -> str:
    arrays = "".join(
        f", {_ARRAY[dialect].format(table=table, columns=', '.join(columns))} AS {part}_rows"
        for part, (table, columns) in _ROWS.items()
        if part in parts
    )
    return _CHANNEL.format(parts=arrays)


# The statement for each dialect and each set of parts a Table may be read with (eight).
_CHANNEL_SQL = {
    (dialect, frozenset(parts)): _channel_sql(dialect, frozenset(parts))
    for dialect in _ARRAY
    for n in range(len(PARTS) + 1)
    for parts in itertools.combinations(PARTS, n)
}


class Loaded(NamedTuple):
    table: Table
    stored: bool  # the channel's row is in the database (a change need not insert it)


async def load_channel(
    tx: Tx,
    channel_id: int,
    guild_id: int | None,
    parts: Parts = EVERYTHING,
    interaction_id: int | None = None,
) -> Loaded:
    """The channel's Table (an unknown channel reads as the defaults); `parts` names what to
    load besides the channel row: a Table read without "monsters" simply has none.

    With `interaction_id`, it raises AlreadyApplied if a change of that interaction is logged:
    inside the writing transaction, which holds the channel's lock, a concurrent second
    delivery waits for the first to commit and then finds it (the unique index backs it up)."""
    sql = _CHANNEL_SQL[tx.dialect, parts]
    channel = await tx.fetchone(sql, channel_id, guild_id, interaction_id)
    assert channel is not None  # the keys' row is always there, joined to what exists
    if channel["applied_id"] is not None:
        raise AlreadyApplied(interaction_id or 0, channel["applied_id"], channel["applied_action"])
    rows = {part: _rows(channel.pop(f"{part}_rows", None)) for part in _ROWS}
    order = channel["initiative_state"] if INITIATIVE in parts else None
    table = codec.table_from_rows(
        channel_id, guild_id, channel, rows[CHARACTERS] or [], rows[MONSTERS], order
    )
    return Loaded(table, channel["channel_id"] is not None)


def _rows(found: object) -> list[tuple[object, ...]] | None:
    """A part's rows as tuples: from SQLite's JSON text, or PostgreSQL's array of records."""
    if found is None:
        return None
    rows = json.loads(found) if isinstance(found, str) else found
    assert isinstance(rows, list)
    return [tuple(row) for row in rows]
