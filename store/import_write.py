"""An import in the store: a checked file (`table.imported.Imported`, its changes prepared by
`store.import_file`) written into a channel in ONE transaction that holds its lock, and an
import that replaced a table taken back by `/undo`.

Into an empty channel (no one, nothing, no settings of its own, no history but changes to its
server's settings; rolls in its roll log are no table) the table's rows are written and its
history logged as it was, each change under a new id (its undo links following it), numbered
after any the channel had: `/history` and `/undo` go on from it. Into a channel with a table
only when asked for (`replace`, the newest change the asker saw): the history is logged the same
way, then the replacement itself as one more change ("import"), whose part `import` records
where the imported history starts. `/undo` of it puts the table back as it was and takes away
every change logged since that start, so the channel's history reads as before. An import change
that came in the file (its channel had been replaced by an import) keeps its start, renumbered:
its `/undo` here takes away the history that came with it and nothing else.

Only the history the channel keeps is logged: its newest `history_keep` changes (at most
HISTORY_KEEP_MAX), and the changes the undos among them took back, as pruning keeps them
(`event_log.prune`); the rest is left out, not logged and pruned. What is logged goes in
statements of many rows each (EVENTS_AT_ONCE), a few dozen for the largest file, all of them in
the one transaction (and so do the rolls, `roll_log.ROWS_AT_ONCE` a statement): every other
write of the channel waits for it (its lock), and on SQLite, whose one writing connection runs a
transaction at a time, every other channel's change too, for as long as the rows take to write,
which is why nothing but writing happens in it (the file was read, checked and made into rows
before). On PostgreSQL other channels' changes go on meanwhile on other connections.

The file's rolls join the channel's roll log (one it has already stays as it was), the newest
`rolls_keep` of them (the roll log's bound, ROLL_LOG_KEEP), and the log is trimmed to that bound.
Those that came with an import are marked by where its history starts, as its change is (the
first kept change at or after it): its `/undo` takes them away with that history; those of a
file that replaces a table come with this import, and go with its `/undo`.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from lang import _
from rules.errors import RulesError
from store import event_log, roll_log
from store.backend import Tx
from store.channel_read import load_channel
from store.channel_write import write_rows
from store.errors import StoreError
from store.events import read_log
from store.export import holds_nothing
from store.import_file import Prepared
from table.actions import IMPORT_ACTION
from table.event import Event
from table.imported import IMPORT, Imported
from table.model import Table
from table.roll_log import KEEP_DEFAULT
from table.settings import HISTORY_KEEP_MAX
from table.snapshot import Change
from table.undo import UNDO_ACTION, Undone

T = TypeVar("T")
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
    left_out: int = 0  # older changes of the file's, past what the channel keeps
    rolls: int = 0  # rolls of the file's written to the roll log
    rolls_left_out: int = 0  # older rolls of the file's, past what the roll log keeps


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
    await roll_log.insert_rows(tx, channel_id, [_roll(r, kept, first_seq, own) for r in rolls])
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
    """Which of the history's changes (indexes, oldest first) a channel keeping `keep` keeps,
    as `event_log.prune` would leave them: the newest `keep`, and the changes the undos among
    them took back. Every link of a kept change points at a kept one: an undo is newer than
    what it took back, and what undid a change is newer than it."""
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
    """The kept changes, oldest first, numbered from `first`, in statements of EVENTS_AT_ONCE
    rows; then the keys they touched, and their undo links to their new ids. An import change
    among them (`starts`) has its history's start numbered as here: the first kept change at
    or after the one it names."""
    seq_of = {index: first + n for n, index in enumerate(kept)}
    by_seq = {seq: index for index, seq in seq_of.items()}
    id_of: dict[int, int] = {}
    for batch in _batches(kept, EVENTS_AT_ONCE):
        rows: list[Any] = []
        for index in batch:
            event = history[index]
            rows += [
                channel_id,
                event.actor_id,
                event.action,
                event.created_at,
                event.clock,
                event.before,
                _after(event, kept, first),
                seq_of[index],
            ]
        sql = _INSERT + ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?)"] * len(batch)) + " RETURNING id, seq"
        for row in await tx.fetchall(sql, *rows):
            id_of[by_seq[int(row["seq"])]] = int(row["id"])
    keys = [(channel_id, part, key, id_of[i]) for i in kept for part, key in history[i].keys]
    for batch_keys in _batches(keys, EVENTS_AT_ONCE * 2):
        await tx.execute(
            "INSERT INTO event_keys (channel_id, part, key, event_id) VALUES "
            + ", ".join(["(?, ?, ?, ?)"] * len(batch_keys)),
            *(value for row in batch_keys for value in row),
        )
    for column in ("undoes", "undone_by"):
        links = [
            (id_of[i], id_of[target])
            for i in kept
            if (target := getattr(history[i], column)) is not None
        ]
        for batch_links in _batches(links, EVENTS_AT_ONCE):
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
    """The event number here of the first kept change (`kept`, growing, numbered from `first`)
    at or after the file's change `index`; None: no kept change is."""
    at = bisect.bisect_left(kept, index)
    return first + at if at < len(kept) else None


def _roll(values: tuple[Any, ...], kept: list[int], first: int, own: int | None) -> tuple[Any, ...]:
    """A file's roll (`store.roll_log.roll_values`, its import's start last) as written here:
    brought by an import in the file, with that import's start as numbered here
    (`_seq_at`); else this import's own start `own` (None: it replaces nothing)."""
    came_with = values[-1]
    start = own if came_with is None else _seq_at(kept, first, came_with - 1)
    return (*values[:-1], start)


def _batches(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    for at in range(0, len(items), size):
        yield items[at : at + size]


def is_import(event: Event) -> bool:
    """Whether `event` is an import that replaced a table (its undo takes the history away)."""
    return event.action == IMPORT_ACTION and IMPORT in event.after


async def forget_import(
    tx: Tx, current: Table, undone: Table, target: Event, actor_id: int, now: datetime
) -> Undone:
    """`/undo` of an import that replaced a table (checked by `table.undo.plan_undo` as any
    change): the table as it was before (`undone`), and every change logged since the imported
    history began taken away, the import too, so the history reads as it did, and the rolls
    that came with it; nothing logged."""
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
