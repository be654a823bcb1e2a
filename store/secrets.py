"""Secret rolls in the store: the full result kept by the channel message that announces it.

Rolling changes nothing at the table, so a secret roll is no event in the log (nothing to undo);
it is kept only so the GM's peek and Reveal find the result again, after a restart too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from store.backend import Backend, Row, Tx


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


async def keep_secret(backend: Backend, roll: SecretRoll) -> None:
    """`Store.keep_secret`."""

    async def body(tx: Tx) -> None:
        await tx.execute(
            "INSERT INTO secret_rolls (message_id, channel_id, guild_id, table_id, roller_id,"
            " roller_name, label, what, result, revealed_by, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (message_id) DO NOTHING",
            roll.message_id,
            roll.channel_id,
            roll.guild_id,
            roll.table_id,
            roll.roller_id,
            roll.roller_name,
            roll.label,
            roll.what,
            json.dumps(list(roll.embeds), ensure_ascii=False, sort_keys=True),
            roll.revealed_by,
            datetime.now(UTC),
        )

    await backend.write(roll.table_id, body)


async def find_secret(backend: Backend, message_id: int) -> SecretRoll | None:
    """`Store.find_secret`."""

    async def body(tx: Tx) -> Row | None:
        return await tx.fetchone("SELECT * FROM secret_rolls WHERE message_id = ?", message_id)

    row = await backend.read(body, single=True)
    if row is None:
        return None
    return SecretRoll(
        message_id=row["message_id"],
        channel_id=row["channel_id"],
        guild_id=row["guild_id"],
        table_id=row["table_id"],
        roller_id=row["roller_id"],
        roller_name=row["roller_name"],
        label=row["label"],
        what=row["what"],
        embeds=tuple(json.loads(row["result"])),
        revealed_by=row["revealed_by"],
    )


async def mark_revealed(backend: Backend, roll: SecretRoll, gm_id: int) -> bool:
    """`Store.mark_revealed`."""

    async def body(tx: Tx) -> bool:
        row = await tx.fetchone(
            "SELECT revealed_by FROM secret_rolls WHERE message_id = ?", roll.message_id
        )
        if row is None or row["revealed_by"] is not None:
            return False
        await tx.execute(
            "UPDATE secret_rolls SET revealed_by = ? WHERE message_id = ?", gm_id, roll.message_id
        )
        return True

    return await backend.write(roll.table_id, body)
