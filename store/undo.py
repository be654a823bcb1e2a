"""`/undo` and `/redo` in the store: what they read, in one transaction (whether they may, and
what they give, is `table.undo`). The target is one indexed lookup, and a later change to the
same things another (`event_keys`), so either costs the same under 10 later events or 50,000.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.errors import RulesError
from store import event_log, links
from store.backend import Tx
from store.channel_read import load_for
from store.channel_write import save_change
from store.errors import StoreError
from store.event_log import UNDID, Request, event_from_row
from store.import_write import forget_import, is_import
from table.event import Event
from table.model import Table
from table.snapshot import touched_keys
from table.undo import (
    REDO_ACTION,
    UNDO_ACTION,
    GmTest,
    Redone,
    Undone,
    ask_first,
    changed_since_asked,
    nothing_to_redo,
    nothing_to_undo,
    plan_redo,
    plan_undo,
    too_many_since,
    too_old,
)

UNDOABLE = "channel_id = ? AND undone_by IS NULL AND undoes IS NULL"
REDOABLE = "channel_id = ? AND undoes IS NOT NULL AND undone_by IS NULL"  # an undo not redone
LATER_MAX = 500  # later changes to the same things read before a redo gives up


async def latest_event(
    tx: Tx, channel_id: int, actor_id: int | None, where: str = UNDOABLE
) -> Event | None:
    """The channel's latest event that `where` admits (a player's: their own latest), by the
    index that condition has (`events_undoable_by_actor`, `events_redoable_by_actor`)."""
    mine, args = ("", ()) if actor_id is None else (" AND actor_id = ?", (actor_id,))
    row = await tx.fetchone(
        f"SELECT *, {UNDID} AS undid FROM events WHERE {where}{mine} ORDER BY id DESC LIMIT 1",
        channel_id,
        *args,
    )
    return None if row is None else event_from_row(row)


async def _later(tx: Tx, target: Event) -> list[Event]:
    """The first later change that still stands and touched a character, monster or the turn
    order that `target` touched (or none): all `check_nothing_depends` needs, found through
    `event_keys`. Channel fields need no lookup: a player's target never touches them (GM-only),
    and a GM's target is the latest change that stands, with nothing standing after it."""
    keys = touched_keys(target.before, target.after)
    if not keys:
        return []
    match = " OR ".join(["(k.part = ? AND k.key = ?)"] * len(keys))
    row = await tx.fetchone(
        "SELECT e.* FROM event_keys k JOIN events e ON e.id = k.event_id"
        f" WHERE k.channel_id = ? AND ({match}) AND k.event_id > ?"
        " AND e.undone_by IS NULL AND e.undoes IS NULL ORDER BY k.event_id LIMIT 1",
        target.channel_id,
        *(value for key in keys for value in key),
        target.id,
    )
    return [] if row is None else [event_from_row(row)]


@dataclass(frozen=True)
class Asked:
    """How an undo or a redo is asked for (`Store.undo_last`'s arguments)."""

    is_gm: bool | GmTest
    manages_server: bool
    asks: bool
    expect: int | None

    async def load(self, tx: Tx, request: Request) -> tuple[Table, bool, bool]:
        """The channel, whether its row is stored, and whether the asker is its GM."""
        current, stored = await load_for(tx, request)
        gm = self.is_gm if isinstance(self.is_gm, bool) else self.is_gm(current.settings)
        return current, stored, gm


async def undo_last(tx: Tx, request: Request, asked: Asked) -> Undone:
    """`Store.undo_last`'s transaction."""
    current, stored, gm = await asked.load(tx, request)
    channel_id, actor_id, expect = request.channel_id, request.actor_id, asked.expect
    keep = current.settings.history_keep
    target = await latest_event(tx, channel_id, None if gm else actor_id)
    if expect is not None and (target is None or target.id != expect):
        raise RulesError(changed_since_asked(redo=False))
    _, newest = await event_log.newest(tx, channel_id)
    if target is None:
        if newest > keep:  # the log has reached its bound: older changes are gone
            raise RulesError(too_old(keep))
        latest = None if gm else await latest_event(tx, channel_id, None)
        raise RulesError(nothing_to_undo(gm, latest))
    if not event_log.still_kept(target, newest, keep):
        raise RulesError(too_old(keep, target))
    if links.is_link_change(target):  # the web page's link: not part of the table
        return await links.undo_link_change(tx, request, current, target, gm)
    undone = plan_undo(
        current, target, await _later(tx, target), actor_id, gm, asked.manages_server
    )
    if asked.asks:
        ask_first(current, undone, target, target.id, redo=False)
    if is_import(target):  # the imported history goes with it: nothing is logged
        return await forget_import(tx, request, current, undone, target)
    undo = await save_change(tx, request, current, undone, UNDO_ACTION, stored)
    await event_log.mark_undo(tx, undo.id, target.id)
    return Undone(target, replace(undo, undoes=target.id), undone)


async def _event(tx: Tx, event_id: int) -> Event:
    row = await tx.fetchone(f"SELECT *, {UNDID} AS undid FROM events WHERE id = ?", event_id)
    if row is None:  # retention keeps an undo's target as long as the undo
        raise StoreError(f"Event {event_id}, which an undo points at, is missing")
    return event_from_row(row)


async def _later_redone(tx: Tx, change: Event, undo: Event) -> list[Event]:
    """The events after `undo` that touched a character, monster or the turn order it touched,
    oldest first (all of them, so that `standing` can pair undos with what they undid)."""
    keys = touched_keys(undo.before, undo.after)
    if not keys:
        return []
    match = " OR ".join(["(part = ? AND key = ?)"] * len(keys))
    rows = await tx.fetchall(
        "SELECT * FROM events WHERE channel_id = ? AND id > ? AND id IN"
        f" (SELECT event_id FROM event_keys WHERE channel_id = ? AND event_id > ? AND ({match}))"
        " ORDER BY id LIMIT ?",
        undo.channel_id,
        undo.id,
        undo.channel_id,
        undo.id,
        *(value for key in keys for value in key),
        LATER_MAX + 1,
    )
    if len(rows) > LATER_MAX:
        raise RulesError(too_many_since(change, LATER_MAX))
    return [event_from_row(row) for row in rows]


async def redo_last(tx: Tx, request: Request, asked: Asked) -> Redone:
    """`Store.redo_last`'s transaction."""
    current, stored, gm = await asked.load(tx, request)
    channel_id, actor_id, expect = request.channel_id, request.actor_id, asked.expect
    undo = await latest_event(tx, channel_id, None if gm else actor_id, REDOABLE)
    if expect is not None and (undo is None or undo.id != expect):
        raise RulesError(changed_since_asked(redo=True))
    if undo is None or undo.undoes is None:
        raise RulesError(nothing_to_redo(gm))
    change = await _event(tx, undo.undoes)
    keep = current.settings.history_keep
    _, newest = await event_log.newest(tx, channel_id)
    if not event_log.still_kept(undo, newest, keep):
        raise RulesError(too_old(keep, change, redo=True))
    if links.is_link_change(change):  # the web page's link: not part of the table
        return await links.redo_link_change(tx, request, current, change, undo)
    later = await _later_redone(tx, change, undo)
    redone = plan_redo(current, change, undo, later, actor_id, gm, asked.manages_server)
    if asked.asks:
        ask_first(current, redone, change, undo.id, redo=True)
    redo = await save_change(tx, request, current, redone, REDO_ACTION, stored)
    await event_log.mark_undone(tx, undo.id, redo.id)
    return Redone(change, undo, redo, redone)
