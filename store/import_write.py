"""An import in the store: a checked document (`table.imported.Imported`) written into a channel
in ONE transaction that holds its lock, and an import that replaced a table taken back by
`/undo`.

Into an empty channel (no one, nothing, no settings of its own, no history but changes to its
server's settings; rolls in its log are no table) the table's rows are written and its history
logged as it was, each change under a new id (its undo links following it), numbered after any
the channel had: `/history` and `/undo` go on from it. Into a channel with a table only when
asked for (`replace`, the newest change the asker saw): the history is logged the same way,
then the replacement itself as one more change ("import"), whose part `import` records where
the imported history starts. `/undo` of it puts the table back as it was and takes away every
change logged since that start, so the channel's history reads as before. An import change that
came in the file (its channel had been replaced by an import) keeps its start, renumbered: its
`/undo` here takes away the history that came with it and nothing else.

The file's rolls join the channel's roll log (one it keeps already stays as it was). Those that
came with an import are marked by where its history starts, as its change is: its `/undo` takes
them away with that history.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from lang import _
from rules.errors import RulesError
from store import event_log, roll_log
from store.backend import Tx
from store.change import Changes
from store.channel_read import load_channel
from store.channel_write import write_rows
from store.events import read_log
from store.export import holds_nothing
from table.actions import IMPORT_ACTION
from table.event import Event
from table.imported import IMPORT, Imported, carried
from table.model import Table
from table.roll_log import LoggedRoll
from table.snapshot import Change
from table.undo import UNDO_ACTION, Undone

Check = Callable[[Table], None]  # refuses (raises) by the table the transaction read


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


def anyone(table: Table) -> None:
    return None


async def _is_empty(tx: Tx, table: Table, logged: bool) -> bool:
    """The table holds nothing (`store.export.holds_nothing`), and its history (if `logged`)
    nothing but changes to its server's settings made from here, or to its web page's link
    (undone and redone too): there is nothing an import could replace, and that history stays,
    the import's after it."""
    if not holds_nothing(table):
        return False
    if not logged:
        return True
    log = await read_log(tx, table.channel_id)
    return all(_replaces_nothing(event) for event in log)


def _replaces_nothing(event: Event) -> bool:
    """A change an import has nothing of to replace: to the server's settings (the server's, not
    the channel's), or to the channel's web page link (the page goes on, showing what comes)."""
    change = Change.of(event)
    return change.only_server_settings() or change.only_link()


async def import_channel(
    changes: Changes,
    channel_id: int,
    guild_id: int | None,
    actor_id: int,
    imported: Imported,
    *,
    check: Check = anyone,
    replace: tuple[int | None] | None = None,
    interaction_id: int | None = None,
) -> ImportDone:
    """`Store.import_channel`."""

    async def body(tx: Tx) -> ImportDone:
        current, stored, _read_as = await load_channel(
            tx, channel_id, guild_id, interaction_id=interaction_id
        )
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
        table = imported.table(channel_id, current.guild_id or guild_id, current.server)
        first_seq = (0 if newest is None else int(newest["seq"] or 0)) + 1
        old, new = await write_rows(tx, current, table, stored)
        await _log_history(tx, table, imported.history, first_seq)
        await roll_log.insert_rolls(tx, channel_id, _rolls(imported, first_seq, empty))
        if not empty:
            new = dict(new, **{IMPORT: {"history": {"from": first_seq}}})
            await event_log.log_change(
                tx, table, actor_id, IMPORT_ACTION, changes.now(), old, new, interaction_id
            )
        return ImportDone(table, len(imported.history), not empty)

    return await changes.locked(channel_id, body)


def _rolls(imported: Imported, first: int, empty: bool) -> list[LoggedRoll]:
    """The file's rolls as this channel keeps them: each one an import brought renumbered as
    its history is (`_log_history`); the rest came with this import, if it replaces a table."""
    return [
        replace(roll, came_with=first + roll.came_with - 1)
        if roll.came_with is not None
        else replace(roll, came_with=None if empty else first)
        for roll in imported.rolls
    ]


_INSERT = (
    "INSERT INTO events (channel_id, actor_id, action, created_at, clock, before, after,"
    " undoes, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"
)


async def _log_history(tx: Tx, table: Table, history: tuple[Event, ...], first: int) -> None:
    """The imported changes, oldest first, under new ids and numbered from `first`; their undo
    links follow them to their new ids, and an import change among them (`is_import`) has its
    history's start, a number of the file's history (`store.export`), numbered as here."""
    new_ids: dict[int, int] = {}
    for seq, event in enumerate(history, start=first):
        before, after = carried(event, table.guild_id)
        if IMPORT in after:  # an import change the file carries: its start as a seq here
            start = first + after[IMPORT]["history"]["from"] - 1
            after = dict(after, **{IMPORT: {"history": {"from": start}}})
        undoes = None if event.undoes is None else new_ids[event.undoes]
        row = await tx.fetchone(
            _INSERT,
            table.channel_id,
            event.actor_id,
            event.action,
            event.created_at,
            event.clock,
            json.dumps(before, ensure_ascii=False, sort_keys=True),
            json.dumps(after, ensure_ascii=False, sort_keys=True),
            undoes,
            seq,
        )
        assert row is not None  # RETURNING gives the one row inserted
        new_ids[event.id] = int(row["id"])
        keys = event_log.touched_keys(before, after)
        for part, key in keys:
            await tx.execute(
                "INSERT INTO event_keys (channel_id, part, key, event_id) VALUES (?, ?, ?, ?)",
                table.channel_id,
                part,
                key,
                new_ids[event.id],
            )
    for event in history:
        if event.undone_by is not None:
            await tx.execute(
                "UPDATE events SET undone_by = ? WHERE id = ?",
                new_ids[event.undone_by],
                new_ids[event.id],
            )


def is_import(event: Event) -> bool:
    """Whether `event` is an import that replaced a table (its undo takes the history away)."""
    return event.action == IMPORT_ACTION and IMPORT in event.after


async def forget_import(
    tx: Tx, current: Table, undone: Table, target: Event, actor_id: int, now: datetime
) -> Undone:
    """`/undo` of an import that replaced a table (checked by `table.undo.plan_undo` as any
    change): the table as it was before (`undone`), and every change logged since the imported
    history began taken away, the import too, so the history reads as it did; nothing logged."""
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
