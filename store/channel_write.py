"""Applying a change in its transaction: load the channel, run a pure function of its Table
(`apply_change`), write the rows that differ from the Table it was loaded as (upserted, or
deleted when gone), and log it (`event_log.log_change`).

On PostgreSQL the row writes are held back and sent with the event, in its one statement: one
round trip for them all, not one each (a rest of the party writes every character's row)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any, Protocol, TypeVar

from store import codec, event_log
from store.backend import Tx
from store.channel_read import load_channel
from store.errors import StoreError
from table import snapshot
from table.event import Event
from table.model import Table
from table.parts import Parts

R = TypeVar("R")


class Executes(Protocol):
    """What writes rows: a `Tx`, or (PostgreSQL) `event_log.HeldWrites`, which sends them later."""

    async def execute(self, sql: str, *args: Any) -> None: ...


async def apply_change(
    tx: Tx,
    now: datetime,
    channel_id: int,
    guild_id: int | None,
    actor_id: int,
    action: str,
    fn: Callable[[Table], tuple[Table, R]],
    parts: Parts,
    interaction_id: int | None,
) -> R:
    """`Store.apply`'s transaction: AlreadyApplied if this interaction's change is logged, else
    the channel's Table through `fn`, and what changed written and logged (nothing at all if
    nothing changed)."""
    before, stored = await load_channel(tx, channel_id, guild_id, parts, interaction_id)
    after, result = fn(before)
    if not isinstance(after, Table) or after.channel_id != channel_id:
        raise StoreError(f"{action}: must return the same channel's Table")
    if after != before:
        await save_change(tx, before, after, actor_id, action, now, stored, interaction_id)
    return result


async def save_change(
    tx: Tx,
    before: Table,
    after: Table,
    actor_id: int,
    action: str,
    now: datetime,
    stored: bool,
    interaction_id: int | None = None,
) -> Event:
    """Write what changed from `before` to `after` and log it (`stored`: the channel's row
    exists already); returns the new event, as `history` would read it."""
    old, new = snapshot.diff(before, after)
    held = event_log.HeldWrites() if tx.dialect == "postgres" else None
    await _write_rows(tx if held is None else held, after, old, new, stored)
    return await event_log.log_change(
        tx, after, actor_id, action, now, old, new, interaction_id, held=held
    )


async def write_rows(
    tx: Executes, before: Table, after: Table, stored: bool
) -> tuple[snapshot.Snapshot, snapshot.Snapshot]:
    """Write what changed from `before` to `after`, logging nothing (the caller logs what it
    did its own way: an import); returns the change's snapshots, as `diff` gives them."""
    old, new = snapshot.diff(before, after)
    await _write_rows(tx, after, old, new, stored)
    return old, new


async def _write_rows(
    rows: Executes, after: Table, old: snapshot.Snapshot, new: snapshot.Snapshot, stored: bool
) -> None:
    channel_id = after.channel_id
    if "channel" in new or not stored:  # events and characters need the channel row
        await upsert_channel(rows, after)
    if snapshot.SERVER in new:
        was, now_set = old[snapshot.SERVER]["settings"], new[snapshot.SERVER]["settings"]
        await _save_server(rows, after, [n for n in now_set if now_set[n] != was[n]])
    keyed: tuple[tuple[str, Callable[[int, Any], tuple[Any, ...]]], ...] = (
        ("characters", codec.character_row),
        ("monsters", codec.monster_row),
    )
    for part, encode in keyed:  # each changed key upserted if still at the table, else deleted
        current = {item.key: item for item in getattr(after, part)}
        for key in new.get(part, {}):
            if key in current:
                await rows.execute(_UPSERT[part], *encode(channel_id, current[key]))
            else:
                sql = f"DELETE FROM {part} WHERE channel_id = ? AND key = ?"
                await rows.execute(sql, channel_id, key)
    if snapshot.INITIATIVE in new:  # one row while the channel has a turn order
        state = snapshot.initiative_to_dict(after.initiative)
        if state is None:
            await rows.execute("DELETE FROM initiatives WHERE channel_id = ?", channel_id)
        else:
            state_json = json.dumps(state, ensure_ascii=False, sort_keys=True)
            await rows.execute(_UPSERT["initiatives"], channel_id, state_json)


async def upsert_channel(tx: Executes, table: Table) -> None:
    """The channel's row, written whole: a change that logs an event needs it to exist."""
    await tx.execute(_UPSERT["channels"], *codec.channel_row(table))


async def _save_server(tx: Executes, after: Table, names: Iterable[str]) -> None:
    """The server's settings: only the columns named are updated, so a change made from
    another channel at the same moment to another setting stays."""
    if after.guild_id is None:
        raise StoreError("Server settings need a server")
    row = dict(zip(codec.SERVER_COLUMNS, codec.server_row(after), strict=True))
    columns = ("guild_id", *(n for n in codec.SERVER_COLUMNS if n in set(names)))
    await tx.execute(_upsert_sql("guild_settings", columns, ("guild_id",)), *map(row.get, columns))


def _upsert_sql(table: str, columns: tuple[str, ...], keys: tuple[str, ...]) -> str:
    # Table and column names come from codec's constants, never from input; values are bound.
    updates = ", ".join(f"{c} = excluded.{c}" for c in columns if c not in keys)
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        f" ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {updates}"
    )


# A row of each table a change writes whole, inserted or updated by its key.
_UPSERT = {
    table: _upsert_sql(table, columns, keys)
    for table, columns, keys in (
        ("channels", codec.CHANNEL_COLUMNS, ("channel_id",)),
        ("characters", codec.CHARACTER_COLUMNS, ("channel_id", "key")),
        ("monsters", codec.MONSTER_COLUMNS, ("channel_id", "key")),
        ("initiatives", ("channel_id", "state"), ("channel_id",)),
    )
}
