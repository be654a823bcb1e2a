"""Rolls, which are no change (no event, no undo, no web page told), saved two ways.

The roll log's rows (migration V20): each roll saved once by its interaction and place, trimmed
to a bound per channel (ROLL_LOG_KEEP), read for `/dice report` and `/export`; only the undo of
an import takes away the rolls it brought (`forget_imported`). Secret rolls: the full result
saved by the channel message that announces it, so the GM's peek and Reveal find it after a
restart too."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from store.backend import Backend, Tx, batches, moment
from table.dice_report import EVENING, DiceReport, dice_report
from table.evening import evening_start
from table.fatigue_series import CLOCK_SET
from table.roll_log import LoggedRoll, Rolled

# A roll's row: who rolled, where and when, then its `Rolled` fields by name, then its import.
ROLL_COLUMNS = (
    *("interaction_id", "place", "rolled_at", "clock", "actor_id", "secret"),
    *(f.name for f in dataclasses.fields(Rolled)),
    "came_with",
)
_ROW = f"({', '.join('?' * (len(ROLL_COLUMNS) + 1))})"  # a row's values: its channel, then those
TRIM_EVERY = 100  # rolls written to a channel between two trims: how far past its bound it runs
ROWS_AT_ONCE = 200  # rolls in one INSERT: 3,200 parameters, well within either database's bound
_SELECT = f"SELECT {', '.join(ROLL_COLUMNS)} FROM roll_log WHERE channel_id = ?"
_ORDER = " ORDER BY interaction_id, place"
NO_CHANNEL = 0  # the lock `log_rolls` takes: rolls need none (each is saved once by its key)


def roll_values(roll: LoggedRoll) -> tuple[Any, ...]:
    """A roll's row, in `ROLL_COLUMNS` order."""
    rolled = roll.rolled
    return (
        roll.interaction_id,
        roll.place,
        roll.at,
        roll.clock,
        roll.actor_id,
        int(roll.secret),
        rolled.kind,
        rolled.character,
        json.dumps(list(rolled.dice)),
        rolled.total,
        rolled.expression,
        rolled.difficulty,
        None if rolled.chance is None else str(rolled.chance),
        None if rolled.success is None else int(rolled.success),
        roll.came_with,
    )


def roll_of(values: Sequence[Any]) -> LoggedRoll:
    """A roll from its row, in `ROLL_COLUMNS` order."""
    (interaction_id, place, at, clock, actor_id, secret, kind, character) = values[:8]
    dice, total, expression, difficulty, chance, success, came_with = values[8:]
    return LoggedRoll(
        interaction_id,
        place,
        moment(at),
        clock,
        actor_id,
        bool(secret),
        Rolled(
            kind,
            character,
            tuple(json.loads(dice)),
            total,
            expression,
            difficulty,
            None if chance is None else Fraction(chance),
            None if success is None else bool(success),
        ),
        came_with,
    )


async def insert(tx: Tx, rows: Sequence[tuple[Any, ...]]) -> None:
    """Rows of (channel id, `ROLL_COLUMNS`…), many a statement; a roll saved already stays."""
    for chunk in batches(rows, ROWS_AT_ONCE):
        await tx.execute(
            f"INSERT INTO roll_log (channel_id, {', '.join(ROLL_COLUMNS)})"
            f" VALUES {', '.join([_ROW] * len(chunk))}"
            " ON CONFLICT (channel_id, interaction_id, place) DO NOTHING",
            *(value for row in chunk for value in row),
        )


async def trim(tx: Tx, channel_id: int, keep: int) -> None:
    """Only the channel's newest `keep` rolls stay."""
    edge = await tx.fetchone(
        "SELECT interaction_id, place FROM roll_log WHERE channel_id = ?"
        " ORDER BY interaction_id DESC, place DESC LIMIT 1 OFFSET ?",
        channel_id,
        keep,
    )
    if edge is not None:
        await tx.execute(
            "DELETE FROM roll_log WHERE channel_id = ?"
            " AND (interaction_id < ? OR (interaction_id = ? AND place <= ?))",
            channel_id,
            edge["interaction_id"],
            edge["interaction_id"],
            edge["place"],
        )


async def log_rolls(
    backend: Backend,
    rolls: Sequence[tuple[int, LoggedRoll]],
    keep: int,
    trimmed: Iterable[int] = (),
) -> None:
    """`Store.log_rolls`."""

    async def body(tx: Tx) -> None:
        await insert(tx, [(channel_id, *roll_values(roll)) for channel_id, roll in rolls])
        for channel_id in trimmed:
            await trim(tx, channel_id, keep)

    await backend.write(NO_CHANNEL, body)


async def read_rolls(tx: Tx, channel_id: int) -> list[LoggedRoll]:
    """The channel's roll log, oldest first, secret rolls too (/export)."""
    return [roll_of(values) for values in await tx.fetchvalues(_SELECT + _ORDER, channel_id)]


@dataclass(frozen=True)
class ReportRows:
    """A dice report's rolls as read (`ROLL_COLUMNS`, oldest first), and what was asked."""

    values: list[tuple[Any, ...]]
    since: str
    start: datetime | None
    whose: str | None
    secret: bool


def report_of(rows: ReportRows) -> DiceReport:
    """The report from its rows: pure, and picklable by name for a worker process."""
    rolls = [roll_of(values) for values in rows.values]
    return dice_report(rolls, rows.since, rows.start, rows.whose, rows.secret)


async def report_rows(
    backend: Backend, channel_id: int, since: str, whose: str | None, secret: bool
) -> ReportRows:
    """`Store.dice_report_rows`."""
    shown = "" if secret else " AND secret = 0"

    async def body(tx: Tx) -> tuple[datetime | None, list[tuple[Any, ...]]]:
        if since != EVENING:
            return None, await tx.fetchvalues(_SELECT + shown + _ORDER, channel_id)
        times = await tx.fetchvalues(
            "SELECT created_at FROM events WHERE channel_id = ?"
            f" UNION ALL SELECT rolled_at FROM roll_log WHERE channel_id = ?{shown}",
            channel_id,
            channel_id,
        )
        # The GM's latest `/clock set` that stands marks the evening's start, as for the chart.
        clock_set = await tx.fetchvalues(
            "SELECT created_at FROM events WHERE channel_id = ? AND action = ?"
            " AND undone_by IS NULL AND undoes IS NULL ORDER BY id DESC LIMIT 1",
            channel_id,
            CLOCK_SET,
        )
        start = evening_start(
            (moment(at) for (at,) in times),
            clock_set=moment(clock_set[0][0]) if clock_set else None,
        )
        if start is None:
            return None, []
        sql = _SELECT + shown + " AND rolled_at >= ?" + _ORDER
        # In UTC, as rolls are saved: SQLite compares the times as text.
        return start, await tx.fetchvalues(sql, channel_id, start.astimezone(UTC))

    start, values = await backend.read(body)
    return ReportRows(values, since, start, whose, secret)


async def forget_imported(tx: Tx, channel_id: int, start: int) -> None:
    """The rolls the import whose history starts at event `start` (or later) brought."""
    await tx.execute(
        "DELETE FROM roll_log WHERE channel_id = ? AND came_with >= ?", channel_id, start
    )


# --- secret rolls ------------------------------------------------------------------------


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


_SECRET_COLUMNS = "message_id, channel_id, guild_id, table_id, roller_id, roller_name, label, what"
_SECRET_READ = (
    f"SELECT {_SECRET_COLUMNS}, result, revealed_by FROM secret_rolls WHERE message_id = ?"
)
_SECRET_SAVE = (
    f"INSERT INTO secret_rolls ({_SECRET_COLUMNS}, result, revealed_by, created_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (message_id) DO NOTHING"
)


async def save_secret(backend: Backend, roll: SecretRoll) -> None:
    """`Store.save_secret`."""
    values = [getattr(roll, name) for name in _SECRET_COLUMNS.split(", ")]
    result = json.dumps(list(roll.embeds), ensure_ascii=False, sort_keys=True)
    now = datetime.now(UTC)
    await backend.write(
        roll.table_id, lambda tx: tx.execute(_SECRET_SAVE, *values, result, roll.revealed_by, now)
    )


async def find_secret(backend: Backend, message_id: int) -> SecretRoll | None:
    """`Store.find_secret`."""
    row = await backend.read(lambda tx: tx.fetchone(_SECRET_READ, message_id), single=True)
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
