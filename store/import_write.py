"""`/import`'s one transaction: a checked file (`table.imported.Imported`, made by
`exports.reading`) written into a channel under its lock, and `/undo` of an import that replaced a
table.

Into an empty channel (nothing but changes to its server's settings or its web link) the table
is written and its history logged after any the channel had, each change under a new id, its
undo links following it. Into a channel with a table only when asked (`replace`, the newest change
the asker saw): the same, then the replacement as one more change ("import") whose `import` part
records where the imported history starts; its `/undo` puts the table back and takes away every
change since that start, and the rolls that came with it.

Only what the channel keeps is written: its newest `history_keep` changes with those their undos
took back (as `event_log.prune` leaves them), and the newest `rolls_keep` rolls. Rows go many to a
statement: the transaction holds the channel (and, on SQLite, every channel) for as long as they
take, so everything else was done before, in `exports.reading`.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from lang import _
from rules.errors import RulesError
from store import event_log, roll_log
from store.backend import Tx, batches
from store.channel_read import load_channel
from store.channel_write import write_rows
from store.errors import StoreError
from store.events import read_log
from table.actions import IMPORT_ACTION
from table.event import Event
from table.imported import IMPORT, Imported, holds_nothing
from table.model import Table
from table.roll_log import KEEP_DEFAULT
from table.settings import HISTORY_KEEP_MAX
from table.snapshot import Change
from table.undo import UNDO_ACTION, Undone

Check = Callable[[Table], None]  # refuses (raises) by the table the transaction read


@dataclass(frozen=True, slots=True)
class Prepared:
    """An imported change as it will be logged: snapshots as JSON text, the keys it touched,
    and its links and an import change's start as indexes into the imported history."""

    actor_id: int
    action: str
    created_at: datetime
    clock: int
    before: str
    after: str
    keys: tuple[tuple[str, str], ...]
    undoes: int | None
    undone_by: int | None
    starts: int | None  # an import change: the index its history starts at (`after.import`)


@dataclass(eq=False)  # an exception stays hashable, and takes its traceback
class TableThere(Exception):
    """Nothing was written: the channel has a table, which the import would replace. `newest`
    is the id of its newest change (None: none), for the confirmed import to find again."""

    table: Table
    changes: int
    newest: int | None


@dataclass(frozen=True)
class ImportDone:
    table: Table
    changes: int  # changes of the imported history logged
    replaced: bool  # a table was replaced (one more change: "import")
    left_out: int = 0  # older changes of the file's, past what the channel keeps
    rolls: int = 0  # rolls of the file's written to the roll log
    rolls_left_out: int = 0  # older rolls of the file's, past what the roll log keeps


def anyone(table: Table) -> None:
    return None


async def _is_empty(tx: Tx, table: Table, logged: bool) -> bool:
    """Nothing an import could replace: the table holds nothing, and its history (if `logged`)
    only changes to its server's settings or its web link, which stay, the import's after."""
    if not holds_nothing(table):
        return False
    for event in await read_log(tx, table.channel_id) if logged else ():
        change = Change.of(event)
        if not (change.only_server_settings() or change.only_link()):
            return False
    return True


async def import_channel(
    tx: Tx,
    now: datetime,
    channel_id: int,
    guild_id: int | None,
    actor_id: int,
    imported: Imported,
    *,
    check: Check = anyone,
    replace: tuple[int | None] | None = None,
    interaction_id: int | None = None,
    rolls_keep: int = KEEP_DEFAULT,
) -> ImportDone:
    """`Store.import_channel`'s transaction."""
    if guild_id != imported.guild_id:  # its actors, GM role and settings are that server's
        raise StoreError("An import checked for another server")
    current, stored = await load_channel(tx, channel_id, guild_id, interaction_id=interaction_id)
    check(current)
    newest = await tx.fetchone(
        "SELECT id, seq FROM events WHERE channel_id = ? ORDER BY id DESC LIMIT 1", channel_id
    )
    newest_id = None if newest is None else int(newest["id"])
    empty = await _is_empty(tx, current, newest is not None)
    if not empty and replace is None:
        count = await tx.fetchone(
            "SELECT COUNT(*) AS n FROM events WHERE channel_id = ?", channel_id
        )
        raise TableThere(current, int(count["n"]) if count else 0, newest_id)
    if replace is not None and replace[0] != newest_id:
        raise RulesError(
            _(
                "Nothing was imported: the channel has changed since you were asked. Run "
                "/import again to see what it would replace now"
            )
        )
    table = imported.table(channel_id, current.server)
    first_seq = (0 if newest is None else int(newest["seq"] or 0)) + 1
    old, new = await write_rows(tx, current, table, stored)
    history = imported.history
    kept = kept_changes(history, min(table.settings.history_keep, HISTORY_KEEP_MAX))
    await _log_history(tx, channel_id, history, kept, first_seq)
    rolls = imported.rolls[-rolls_keep:]  # the newest: a file's come in the order rolled
    own = None if empty else first_seq  # where this import's history starts, if it replaces
    await roll_log.insert(tx, [(channel_id, *_roll(r, kept, first_seq, own)) for r in rolls])
    await roll_log.trim(tx, channel_id, rolls_keep)
    if not empty:
        new = dict(new, **{IMPORT: {"history": {"from": first_seq}}})
        await event_log.log_change(
            tx, table, actor_id, IMPORT_ACTION, now, old, new, interaction_id
        )
    left_out = len(history) - len(kept)
    return ImportDone(
        table, len(kept), not empty, left_out, len(rolls), len(imported.rolls) - len(rolls)
    )


EVENTS_AT_ONCE = 500  # rows a statement writes: 4,000 parameters, within both databases' bound


def kept_changes(history: Sequence[Prepared], keep: int) -> list[int]:
    """The indexes of the changes a channel keeping `keep` keeps, as `event_log.prune` leaves
    them: the newest `keep`, and those their undos took back (so every link finds its change)."""
    edge = max(len(history) - keep, 0)
    taken_back = {e.undoes for e in history[edge:] if e.undoes is not None and e.undoes < edge}
    return sorted(taken_back) + list(range(edge, len(history)))


_INSERT = (
    "INSERT INTO events (channel_id, actor_id, action, created_at, clock, before, after, seq)"
    " VALUES "
)


async def _log_history(
    tx: Tx, channel_id: int, history: Sequence[Prepared], kept: list[int], first: int
) -> None:
    """The kept changes, oldest first, numbered from `first`; then their keys, and their undo
    links to their new ids."""
    id_of: dict[int, int] = {}
    for batch in batches(range(len(kept)), EVENTS_AT_ONCE):
        rows: list[Any] = []
        for n in batch:  # the n-th kept change is numbered first + n
            e = history[kept[n]]
            after = _after(e, kept, first)
            rows += [channel_id, e.actor_id, e.action, e.created_at, e.clock, e.before, after]
            rows.append(first + n)
        sql = _INSERT + ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?)"] * len(batch)) + " RETURNING id, seq"
        for row in await tx.fetchall(sql, *rows):
            id_of[kept[int(row["seq"]) - first]] = int(row["id"])
    keys = [(channel_id, part, key, id_of[i]) for i in kept for part, key in history[i].keys]
    await event_log.insert_keys(tx, keys)
    for column in ("undoes", "undone_by"):
        links = [
            (id_of[i], id_of[target])
            for i in kept
            if (target := getattr(history[i], column)) is not None
        ]
        for batch_links in batches(links, EVENTS_AT_ONCE):
            cases = " ".join(["WHEN ? THEN CAST(? AS BIGINT)"] * len(batch_links))
            marks = ", ".join(["?"] * len(batch_links))
            await tx.execute(
                f"UPDATE events SET {column} = CASE id {cases} END WHERE id IN ({marks})",
                *(value for link in batch_links for value in link),
                *(event_id for event_id, _target in batch_links),
            )


def _after(event: Prepared, kept: list[int], first: int) -> str:
    """The change's after as logged here: an import change's with its start as a seq here."""
    if event.starts is None:
        return event.after
    start = _seq_at(kept, first, event.starts)
    after = dict(json.loads(event.after), **{IMPORT: {"history": {"from": start}}})
    return json.dumps(after, ensure_ascii=False, sort_keys=True)


def _seq_at(kept: list[int], first: int, index: int) -> int | None:
    """The event number here of the first kept change at or after the file's change `index`;
    None: no kept change is."""
    at = bisect.bisect_left(kept, index)
    return first + at if at < len(kept) else None


def _roll(values: tuple[Any, ...], kept: list[int], first: int, own: int | None) -> tuple[Any, ...]:
    """A file's roll row (its import's start last) as written here: with the start of the file's
    import that brought it as numbered here, else this import's own (None: it replaces none)."""
    came_with = values[-1]
    start = own if came_with is None else _seq_at(kept, first, came_with - 1)
    return (*values[:-1], start)


def is_import(event: Event) -> bool:
    """An import that replaced a table (its undo takes the history away)."""
    return event.action == IMPORT_ACTION and IMPORT in event.after


async def forget_import(
    tx: Tx, current: Table, undone: Table, target: Event, actor_id: int, now: datetime
) -> Undone:
    """`/undo` of an import that replaced a table: the table as it was (`undone`), and every
    change since the imported history began taken away (the import too) with the rolls that
    came with it, so the history reads as it did; nothing logged."""
    old, new = await write_rows(tx, current, undone, True)
    start = int(target.after[IMPORT]["history"]["from"])
    since = "SELECT id FROM events WHERE channel_id = ? AND seq >= ?"
    channel = current.channel_id
    await tx.execute(
        f"UPDATE events SET undone_by = NULL WHERE channel_id = ? AND seq < ?"
        f" AND undone_by IN ({since})",
        channel,
        start,
        channel,
        start,
    )
    await tx.execute(
        f"DELETE FROM event_keys WHERE channel_id = ? AND event_id IN ({since})",
        channel,
        channel,
        start,
    )
    await tx.execute("DELETE FROM events WHERE channel_id = ? AND seq >= ?", channel, start)
    await roll_log.forget_imported(tx, channel, start)
    if tx.dialect == "postgres":  # no event is logged, whose insert would say the channel changed
        await tx.execute(
            "SELECT pg_notify('tablekeeper_changes', CAST(CAST(? AS BIGINT) AS TEXT))", channel
        )
    undo = Event(0, actor_id, UNDO_ACTION, now, old, new, channel, undone.clock)
    return Undone(target, undo, undone)
