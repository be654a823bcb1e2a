"""An imported history as the store logs it (`store.import_write`): each change prepared once,
before the transaction (`exports.reading`), and which of them a channel keeps, numbered after
its own changes."""

from __future__ import annotations

import bisect
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from table.imported import IMPORT


@dataclass(frozen=True, slots=True)
class Prepared:
    """An imported change as it will be logged: snapshots as JSON text (the database writes the
    keys they touch), and its links and an import change's start as indexes into the imported
    history."""

    actor_id: int
    action: str
    created_at: datetime
    clock: int
    before: str
    after: str
    undoes: int | None
    undone_by: int | None
    starts: int | None  # an import change: the index its history starts at (`after.import`)


def kept_changes(history: Sequence[Prepared], keep: int) -> list[int]:
    """The indexes of the changes a channel keeping `keep` keeps, as `event_log.prune` leaves
    them: the newest `keep`, and those their undos took back (so every link finds its change)."""
    edge = max(len(history) - keep, 0)
    taken_back = {e.undoes for e in history[edge:] if e.undoes is not None and e.undoes < edge}
    return sorted(taken_back) + list(range(edge, len(history)))


def after_as_logged(event: Prepared, kept: list[int], first: int) -> str:
    """The change's after as logged here: an import change's with its start as a seq here."""
    if event.starts is None:
        return event.after
    start = seq_at(kept, first, event.starts)
    after = dict(json.loads(event.after), **{IMPORT: {"history": {"from": start}}})
    return json.dumps(after, ensure_ascii=False, sort_keys=True)


def seq_at(kept: list[int], first: int, index: int) -> int | None:
    """The event number here of the first kept change at or after the file's change `index`;
    None: no kept change is."""
    at = bisect.bisect_left(kept, index)
    return first + at if at < len(kept) else None


def roll_as_written(
    values: tuple[Any, ...], kept: list[int], first: int, own: int | None
) -> tuple[Any, ...]:
    """A file's roll row (its import's start last) as written here: with the start of the file's
    import that brought it as numbered here, else this import's own (None: it replaces none)."""
    came_with = values[-1]
    start = own if came_with is None else seq_at(kept, first, came_with - 1)
    return (*values[:-1], start)
