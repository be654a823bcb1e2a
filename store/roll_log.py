"""The roll log in the store (migration V20, `roll_log`): rolls written in batches off the replies'
path (`store.roll_writer`), each saved once by its interaction and place; trimmed to a bound per
channel (ROLL_LOG_KEEP), oldest first; read for `/dice report` (`report_rows`, built into a report
by `report_of` in the picture's worker) and for `/export`, written by `/import`.

A roll is no change: no event is logged, nothing is undone (but the rolls an import brought, by
its `/undo`: `forget_imported`), no web page is told.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from store.backend import Backend, Tx
from table.dice_report import EVENING, DiceReport, dice_report
from table.evening import evening_start
from table.fatigue_series import CLOCK_SET
from table.roll_log import LoggedRoll, Rolled

# A roll's columns, in the order `roll_of` reads them.
ROLL_COLUMNS = (
    "interaction_id",
    "place",
    "rolled_at",
    "clock",
    "actor_id",
    "secret",
    "kind",
    "character",
    "dice",
    "total",
    "expression",
    "difficulty",
    "chance",
    "success",
    "came_with",
)
_ROW = f"({', '.join('?' * (len(ROLL_COLUMNS) + 1))})"
# Rolls written to a channel between two trims (`store.roll_writer`): a log runs at most this
# far past its bound, and so may an export of it.
TRIM_EVERY = 100
ROWS_AT_ONCE = 200  # rolls in one INSERT: 3,200 parameters, well within either database's bound
_SELECT = f"SELECT {', '.join(ROLL_COLUMNS)} FROM roll_log WHERE channel_id = ?"
_ORDER = " ORDER BY interaction_id, place"
# The flushes' lock: no channel has this id. Rolls need none (each is saved once by its key,
# whoever writes it first), but a backend's write takes one.
NO_CHANNEL = 0


def roll_values(roll: LoggedRoll) -> tuple[Any, ...]:
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
    """A roll from its row's values in `ROLL_COLUMNS` order (SQLite keeps its time as text)."""
    (interaction_id, place, at, clock, actor_id, secret, kind, character) = values[:8]
    dice, total, expression, difficulty, chance, success, came_with = values[8:]
    return LoggedRoll(
        interaction_id,
        place,
        datetime.fromisoformat(at) if isinstance(at, str) else at,
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


async def insert_rows(tx: Tx, channel_id: int, rows: Sequence[tuple[Any, ...]]) -> None:
    """Save rolls in the channel's log, each given as its row's values (`roll_values`), once:
    one saved already stays as it was (/import)."""
    await _insert(tx, [(channel_id, *values) for values in rows])


async def insert_pairs(tx: Tx, rolls: Sequence[tuple[int, LoggedRoll]]) -> None:
    """Save each (channel id, roll), once."""
    await _insert(tx, [(channel_id, *roll_values(roll)) for channel_id, roll in rolls])


async def _insert(tx: Tx, rows: Sequence[tuple[Any, ...]]) -> None:
    """Rows of (channel id, `ROLL_COLUMNS`…), up to `ROWS_AT_ONCE` of them in a statement (one
    round trip to PostgreSQL for a second's rolls, not one each); a roll saved already is left
    as it was."""
    for at in range(0, len(rows), ROWS_AT_ONCE):
        chunk = rows[at : at + ROWS_AT_ONCE]
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
        await insert_pairs(tx, rolls)
        for channel_id in trimmed:
            await trim(tx, channel_id, keep)

    await backend.write(NO_CHANNEL, body)


async def channel_rolls(backend: Backend, channel_id: int) -> list[LoggedRoll]:
    """`Store.channel_rolls`."""

    async def body(tx: Tx) -> list[tuple[Any, ...]]:
        return await tx.fetchvalues(_SELECT + _ORDER, channel_id)

    return [roll_of(values) for values in await backend.read(body, single=True)]


@dataclass(frozen=True)
class ReportRows:
    """What a dice report is built from: the rolls of its window as read (`ROLL_COLUMNS`
    order, oldest first), and what it was asked for."""

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
            (_moment(at) for (at,) in times),
            clock_set=_moment(clock_set[0][0]) if clock_set else None,
        )
        if start is None:
            return None, []
        sql = _SELECT + shown + " AND rolled_at >= ?" + _ORDER
        # In UTC, as rolls are saved: SQLite compares the times as text.
        return start, await tx.fetchvalues(sql, channel_id, start.astimezone(UTC))

    start, values = await backend.read(body)
    return ReportRows(values, since, start, whose, secret)


def _moment(at: Any) -> datetime:
    """A time as the database gives it: SQLite's ISO text, PostgreSQL's datetime."""
    return datetime.fromisoformat(at) if isinstance(at, str) else at


async def forget_imported(tx: Tx, channel_id: int, start: int) -> None:
    """The rolls an import brought, whose history starts at event number `start` (or later),
    taken away with it by its /undo."""
    await tx.execute(
        "DELETE FROM roll_log WHERE channel_id = ? AND came_with >= ?", channel_id, start
    )
