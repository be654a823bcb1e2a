"""`/redo` in the store: take back one undo in ONE transaction, or refuse and say why. Whether
it may and what it gives is `table.undo` (pure); here is only what it reads.

The undo to take back is one indexed lookup (`events_redoable`, `events_redoable_by_actor`);
what came after it on the same characters, monsters or turn order is another, through
`event_keys` (`standing` then decides which of those still stand). Like undo, redo stops at the
channel's retention edge (`history_keep`).
"""

from __future__ import annotations

from datetime import datetime

from rules.errors import RulesError
from store import event_log, links
from store.backend import Tx
from store.channel_read import load_channel
from store.channel_write import save_change
from store.errors import StoreError
from store.events import UNDID, event_from_row
from store.undo import latest_event
from table.event import Event
from table.undo import (
    REDO_ACTION,
    GmTest,
    Redone,
    ask_first,
    changed_since_asked,
    nothing_to_redo,
    plan_redo,
    too_many_since,
    too_old,
)

LATER_MAX = 500  # later changes to the same things read before a redo gives up
# An undo not yet redone.
_REDOABLE = "channel_id = ? AND undoes IS NOT NULL AND undone_by IS NULL"


async def _event(tx: Tx, event_id: int) -> Event:
    row = await tx.fetchone(f"SELECT *, {UNDID} AS undid FROM events WHERE id = ?", event_id)
    if row is None:  # retention keeps an undo's target as long as the undo
        raise StoreError(f"Event {event_id}, which an undo points at, is missing")
    return event_from_row(row)


async def _later(tx: Tx, change: Event, undo: Event) -> list[Event]:
    """The events after `undo` that touched a character, monster or the turn order it touched,
    oldest first (all of them, so that `standing` can pair undos with what they undid)."""
    keys = event_log.touched_keys(undo.before, undo.after)
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


async def redo_last(
    tx: Tx,
    now: datetime,
    channel_id: int,
    guild_id: int | None,
    actor_id: int,
    is_gm: bool | GmTest,
    manages_server: bool = False,
    *,
    interaction_id: int | None = None,
    asks: bool = False,
    expect: int | None = None,
) -> Redone:
    """`Store.redo_last`'s transaction."""
    current, stored = await load_channel(tx, channel_id, guild_id, interaction_id=interaction_id)
    gm = is_gm if isinstance(is_gm, bool) else is_gm(current.settings)
    undo = await latest_event(tx, channel_id, None if gm else actor_id, _REDOABLE)
    if expect is not None and (undo is None or undo.id != expect):
        raise RulesError(changed_since_asked(redo=True))
    if undo is None or undo.undoes is None:
        raise RulesError(nothing_to_redo(gm))
    change = await _event(tx, undo.undoes)
    keep = current.settings.history_keep
    if not event_log.still_kept(undo, await event_log.newest_seq(tx, channel_id), keep):
        raise RulesError(too_old(keep, change, redo=True))
    if links.is_link_change(change):  # the web page's link: not part of the table
        return await links.redo_link_change(
            tx, current, change, undo, actor_id, interaction_id, now
        )
    later = await _later(tx, change, undo)
    redone = plan_redo(current, change, undo, later, actor_id, gm, manages_server)
    if asks:
        ask_first(current, redone, change, undo.id, redo=True)
    redo = await save_change(
        tx, current, redone, actor_id, REDO_ACTION, now, stored, interaction_id
    )
    await tx.execute("UPDATE events SET undone_by = ? WHERE id = ?", redo.id, undo.id)
    return Redone(change, undo, redo, redone)
