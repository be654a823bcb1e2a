"""Reading a channel: its row, its turn order, its server's settings and the parts a command
asks for (the party, the bestiary), decoded into one Table.

The channel's row, its turn order, its server's settings and "was this interaction applied
already?" come in one statement. PostgreSQL reads the party and the bestiary in that statement
too (one round trip for the whole load); SQLite reads each in a statement of its own, which
costs no trip to a server."""

from __future__ import annotations

import itertools
from typing import NamedTuple

from store import codec
from store.backend import Tx
from store.errors import AlreadyApplied
from store.event_log import Guard
from table import snapshot
from table.model import PARTS, SETTING_NAMES, Table

CHARACTERS, MONSTERS, INITIATIVE = PARTS
Parts = frozenset[str]  # what a command loads besides the channel row
EVERYTHING: Parts = frozenset(PARTS)
# Every set of parts a Table may be read with: eight.
ALL_PARTS = tuple(
    frozenset(c) for n in range(len(PARTS) + 1) for c in itertools.combinations(PARTS, n)
)

# A channel read: its row (if any), its turn order (a row of its own while it has one) as
# `initiative_state`, its server's settings (if any) as `server_<name>`, and the event already
# logged for an interaction (if any) as `applied_id` and `applied_action`. The parameters are
# the channel id, the guild id (NULL outside a server: no server settings) and the interaction
# id (NULL when not asked): one round trip for what a change needs to know before it runs.
_CHANNEL_AND_SERVER = (
    "SELECT c.*, i.state AS initiative_state, a.id AS applied_id, a.action AS applied_action, "
    + ", ".join(f"g.{n} AS {codec.SERVER_PREFIX}{n}" for n in SETTING_NAMES)
    + " FROM (SELECT CAST(? AS BIGINT) AS channel_id, CAST(? AS BIGINT) AS guild_id,"
    " CAST(? AS BIGINT) AS interaction_id) AS k"
    " LEFT JOIN channels AS c ON c.channel_id = k.channel_id"
    " LEFT JOIN initiatives AS i ON i.channel_id = k.channel_id"
    " LEFT JOIN guild_settings AS g ON g.guild_id = COALESCE(k.guild_id, c.guild_id)"
    " LEFT JOIN events AS a ON a.interaction_id = k.interaction_id"
)

# PostgreSQL reads the party and the bestiary in the same statement, as arrays of rows. The
# rows come back in the same column order as SQLite's SELECTs below.
_PG_PARTS = {
    CHARACTERS: (
        f"ARRAY(SELECT ROW({', '.join(codec.CHARACTER_ROW)}) FROM characters"
        " WHERE channel_id = k.channel_id ORDER BY key) AS party_rows"
    ),
    MONSTERS: (
        f"ARRAY(SELECT ROW({', '.join(snapshot.MONSTER_FIELDS)}) FROM monsters"
        " WHERE channel_id = k.channel_id ORDER BY key) AS bestiary_rows"
    ),
}

# For a change, PostgreSQL also reads the channel's newest event and its server's settings'
# version (migration V12): written in one statement, it checks they are still what was read
# (`event_log.Guard`).
_PG_NEWEST = (
    ", (SELECT id FROM events WHERE channel_id = k.channel_id ORDER BY id DESC LIMIT 1)"
    " AS newest_event, tk_server_version(COALESCE(k.guild_id, c.guild_id)) AS server_version"
)


def _pg_channel_sql(parts: Parts, guarded: bool) -> str:
    arrays = "".join(f", {_PG_PARTS[p]}" for p in (CHARACTERS, MONSTERS) if p in parts)
    if guarded:
        arrays += _PG_NEWEST
    return _CHANNEL_AND_SERVER.replace(" FROM (SELECT CAST(", f"{arrays} FROM (SELECT CAST(", 1)


# PostgreSQL's statement for each set of parts a Table may be read with, guarded or not.
_PG_CHANNEL = {
    (parts, guarded): _pg_channel_sql(parts, guarded)
    for parts in ALL_PARTS
    for guarded in (False, True)
}


# Characters and monsters come back as tuples in the order their decoders take (`codec`).
_CHARACTERS_SQL = (
    f"SELECT {', '.join(codec.CHARACTER_ROW)} FROM characters WHERE channel_id = ? ORDER BY key"
)
_MONSTERS_SQL = (
    f"SELECT {', '.join(snapshot.MONSTER_FIELDS)} FROM monsters WHERE channel_id = ? ORDER BY key"
)


class Loaded(NamedTuple):
    table: Table
    stored: bool  # the channel's row is in the database (a change need not insert it)
    guard: Guard | None  # PostgreSQL, when asked: what a change in one statement checks


async def load_channel(
    tx: Tx,
    channel_id: int,
    guild_id: int | None,
    parts: Parts = EVERYTHING,
    interaction_id: int | None = None,
    guarded: bool = False,
) -> Loaded:
    """The channel's Table (an unknown channel reads as the defaults); `parts` names what to
    load besides the channel row: a Table read without "monsters" simply has none.

    With `interaction_id`, it first raises AlreadyApplied if a change of that interaction is
    logged: inside the writing transaction, which holds the channel's lock, a concurrent second
    delivery waits for the first to commit and then finds it; a change in one statement
    (PostgreSQL) finds it on its next read, its write refused by the first's event (the unique
    index backs both up). `guarded` (PostgreSQL): also what a change written in one statement
    checks is still so."""
    together = tx.dialect == "postgres"  # the party and bestiary in the same statement
    sql = _PG_CHANNEL[parts, guarded] if together else _CHANNEL_AND_SERVER
    channel = await tx.fetchone(sql, channel_id, guild_id, interaction_id)
    if channel is not None and channel["applied_id"] is not None:
        applied = channel["applied_id"], channel["applied_action"]
        raise AlreadyApplied(interaction_id or 0, *applied)
    stored = channel is not None and channel["channel_id"] is not None
    guard = None
    if together and guarded and channel is not None:
        server = guild_id if guild_id is not None else channel["guild_id"]  # as it is read
        newest, version = channel.pop("newest_event"), channel.pop("server_version")
        guard = Guard(newest, server, version)
    characters = monsters = None
    order = channel["initiative_state"] if channel and INITIATIVE in parts else None
    if together and channel is not None:
        characters = channel.pop("party_rows", None)
        monsters = channel.pop("bestiary_rows", None) if MONSTERS in parts else None
    elif stored:  # no row: nothing of the channel's is stored
        if CHARACTERS in parts:
            characters = await tx.fetchvalues(_CHARACTERS_SQL, channel_id)
        if MONSTERS in parts:
            monsters = await tx.fetchvalues(_MONSTERS_SQL, channel_id)
    table = codec.table_from_rows(channel_id, guild_id, channel, characters or [], monsters, order)
    return Loaded(table, stored, guard)


async def check_not_applied(tx: Tx, interaction_id: int | None) -> None:
    """AlreadyApplied if a change of this interaction is logged (`load_channel` checks this in
    its channel statement; a change that needs no load asks here)."""
    if interaction_id is None:
        return
    row = await tx.fetchone(
        "SELECT id, action FROM events WHERE interaction_id = ?", interaction_id
    )
    if row is not None:
        raise AlreadyApplied(interaction_id, row["id"], row["action"])
