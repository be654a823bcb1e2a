"""`/import`'s one transaction (`Store.import_channel`) and `/undo` of an import that replaced a
table. An import change's `import` part records where the imported history starts: its `/undo`
takes away every change since, and the rolls that came with it. Only what the channel keeps is
written (as `event_log.prune` and the roll log's trim would leave it), many rows a statement:
the transaction holds the channel (on SQLite, every channel) meanwhile, so all else was done
before, in `exports.reading`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lang import _
from rules.errors import RulesError
from store import event_log, roll_log
from store.backend import Tx, batches
from store.channel_read import Check, anyone, load_for
from store.channel_write import write_rows
from store.errors import StoreError
from store.event_log import Request, read_log
from table.actions import IMPORT_ACTION
from table.event import Event
from table.imported import IMPORT, Imported, holds_nothing
from table.imported_history import Prepared, after_as_logged, kept_changes, roll_as_written
from table.model import Table
from table.roll_log import KEEP_DEFAULT
from table.settings import HISTORY_KEEP_MAX
from table.snapshot import Change
from table.undo import UNDO_ACTION, Undone


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
    request: Request,
    imported: Imported,
    check: Check = anyone,
    replace: tuple[int | None] | None = None,
    rolls_keep: int = KEEP_DEFAULT,
) -> ImportDone:
    """`Store.import_channel`'s transaction."""
    if request.guild_id != imported.guild_id:  # its actors, GM role and settings are that server's
        raise StoreError("An import checked for another server")
    current, stored = await load_for(tx, request)
    check(current)
    channel_id = request.channel_id
    newest_id, newest_seq = await event_log.newest(tx, channel_id)
    empty = await _is_empty(tx, current, newest_id is not None)
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
    first_seq = newest_seq + 1
    old, new = await write_rows(tx, current, table, stored)
    history = imported.history
    kept = kept_changes(history, min(table.settings.history_keep, HISTORY_KEEP_MAX))
    await _log_history(tx, channel_id, history, kept, first_seq)
    rolls = imported.rolls[-rolls_keep:]  # the newest: a file's come in the order rolled
    own = None if empty else first_seq  # where this import's history starts, if it replaces
    await roll_log.insert(
        tx, [(channel_id, *roll_as_written(r, kept, first_seq, own)) for r in rolls]
    )
    await roll_log.trim(tx, channel_id, rolls_keep)
    if not empty:
        new = dict(new, **{IMPORT: {"history": {"from": first_seq}}})
        await event_log.log_change(tx, request, table, IMPORT_ACTION, old, new)
    left_out = len(history) - len(kept)
    return ImportDone(
        table, len(kept), not empty, left_out, len(rolls), len(imported.rolls) - len(rolls)
    )


EVENTS_AT_ONCE = 500  # rows a statement writes: 4,000 parameters, within both databases' bound


_INSERT = (
    "INSERT INTO events (channel_id, actor_id, action, created_at, clock, before, after, seq)"
    " VALUES "
)


async def _log_history(
    tx: Tx, channel_id: int, history: Sequence[Prepared], kept: list[int], first: int
) -> None:
    """The kept changes, oldest first, numbered from `first` (the database writes their keys);
    then their undo links to their new ids."""
    id_of: dict[int, int] = {}
    for batch in batches(range(len(kept)), EVENTS_AT_ONCE):
        rows: list[Any] = []
        for n in batch:  # the n-th kept change is numbered first + n
            e = history[kept[n]]
            after = after_as_logged(e, kept, first)
            rows += [channel_id, e.actor_id, e.action, e.created_at, e.clock, e.before, after]
            rows.append(first + n)
        sql = _INSERT + ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?)"] * len(batch)) + " RETURNING id, seq"
        for row in await tx.fetchall(sql, *rows):
            id_of[kept[int(row["seq"]) - first]] = int(row["id"])
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


def is_import(event: Event) -> bool:
    """An import that replaced a table (its undo takes the history away)."""
    return event.action == IMPORT_ACTION and IMPORT in event.after


async def forget_import(
    tx: Tx, request: Request, current: Table, undone: Table, target: Event
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
    undo = Event(0, request.actor_id, UNDO_ACTION, request.now, old, new, channel, undone.clock)
    return Undone(target, undo, undone)
