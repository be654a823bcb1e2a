"""One logged change to a channel, as `/history` shows it and `/undo` reverts it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class Event:
    """One change to a channel, newest first from `Store.history`."""

    id: int
    actor_id: int
    action: str
    created_at: datetime  # wall time, UTC
    before: dict[str, Any]  # snapshot.Snapshot: what changed, as it was
    after: dict[str, Any]  # ... and as it became; snapshot.restore(table, before) undoes it
    channel_id: int = 0
    clock: int = 0  # the game clock after the change
    undone_by: int | None = None  # the id of the undo event that reverted this one
    undoes: int | None = None  # on an undo event: the id of the event it reverted
    seq: int = 0  # its number among the channel's events (1, 2, …): how retention counts
    # On an undo (a redo): the action of the change it took back (put back again), while that
    # change is logged; how its line reads what it did (`table.actions.renames_in`).
    undid: str | None = None
