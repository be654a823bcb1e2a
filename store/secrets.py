"""Secret rolls: the full result saved by the channel message that announces it, so the GM's
peek and Reveal find it after a restart too. A roll is no change: no event, nothing to undo."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from store.backend import Backend


@dataclass(frozen=True)
class SecretRoll:
    message_id: int  # the channel message that says a secret roll was made
    channel_id: int  # where that message is
    guild_id: int | None
    table_id: int  # the table (and so the GM) it belongs to: a thread's parent, or itself
    roller_id: int
    roller_name: str  # as shown when it was rolled
    label: str | None
    what: str  # the kind of roll in words: "d100 roll", "WSR (Willpower save)"
    embeds: tuple[dict[str, Any], ...]  # the full result, as Discord embed dicts
    revealed_by: int | None = None


_COLUMNS = "message_id, channel_id, guild_id, table_id, roller_id, roller_name, label, what"
_READ = f"SELECT {_COLUMNS}, result, revealed_by FROM secret_rolls WHERE message_id = ?"
_KEEP = (
    f"INSERT INTO secret_rolls ({_COLUMNS}, result, revealed_by, created_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (message_id) DO NOTHING"
)


async def save_secret(backend: Backend, roll: SecretRoll) -> None:
    """`Store.save_secret`."""
    values = [getattr(roll, name) for name in _COLUMNS.split(", ")]
    result = json.dumps(list(roll.embeds), ensure_ascii=False, sort_keys=True)
    now = datetime.now(UTC)
    await backend.write(
        roll.table_id, lambda tx: tx.execute(_KEEP, *values, result, roll.revealed_by, now)
    )


async def find_secret(backend: Backend, message_id: int) -> SecretRoll | None:
    """`Store.find_secret`."""
    row = await backend.read(lambda tx: tx.fetchone(_READ, message_id), single=True)
    if row is None:
        return None
    embeds = tuple(json.loads(row.pop("result")))
    return SecretRoll(**row, embeds=embeds)


async def mark_revealed(backend: Backend, roll: SecretRoll, gm_id: int) -> bool:
    """`Store.mark_revealed`."""
    sql = (
        "UPDATE secret_rolls SET revealed_by = ? WHERE message_id = ? AND revealed_by IS NULL"
        " RETURNING message_id"
    )
    marked = await backend.write(roll.table_id, lambda tx: tx.fetchone(sql, gm_id, roll.message_id))
    return marked is not None
