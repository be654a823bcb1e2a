"""`/undo` and `/redo`'s rules: what they revert and whether they may, pure over the table
and logged events (the store reads the target and what came after it: `store.undo`).

An event's snapshots hold exactly what it changed. Undoing puts its `before` back with
`snapshot.restore`, but only when nothing later still builds on it: no later change that still
stands (`standing`: not cancelled by an undo or redo after it) touched the same thing, and
what it changed still reads as its `after`. The channel row counts field by field (the clock,
each setting), so undoing a settings change is not blocked by the clock moving since;
characters and monsters count whole. A player undoes only their own change, and only one that
touched only their characters.

A redo takes an undo back: it is an ordinary change (logged as "redo", itself undoable) that
reverts the undo's snapshots, and marks the undo `undone_by` it. The same tests hold: nothing
made after the undo still stands on what it touched, and what it put back still reads so. A
player redoes only their own undo. An undo or redo that would take a character or monster
away is asked about first (`AskFirst`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from lang import _
from rules.errors import RulesError

from table import snapshot
from table.actions import REDO_ACTION as REDO_ACTION  # the logged actions, named here too
from table.actions import UNDO_ACTION as UNDO_ACTION
from table.actions import action_text
from table.event import Event
from table.imported import IMPORT
from table.model import ChannelSettings, Forbidden, Table
from table.snapshot import SERVER, Change, Snapshot
from table.touched import Item, describe, item_names, narrowed, time_of, touched

GmTest = Callable[[ChannelSettings], bool]  # is the actor a GM by these channel settings?


@dataclass(frozen=True)
class Undone:
    target: Event  # the change that was reverted (as read before it was marked undone)
    undo: Event  # the "undo" event just logged: its before/after is what the undo did
    table: Table  # the channel afterwards


@dataclass(frozen=True)
class Redone:
    change: Event  # the change put back (as first logged, still marked undone by `undo`)
    undo: Event  # the undo taken back (as read before it was marked)
    redo: Event  # the "redo" event just logged: its before/after is what the redo did
    table: Table  # the channel afterwards


@dataclass(eq=False)  # an exception stays hashable, compared by identity
class AskFirst(Exception):
    """Nothing was written: the undo (or redo) of `change` would take away `removes` (names
    of characters and monsters), so the actor is asked first; `before`/`after` is what it would
    do, and `expect` the id the confirmed command must find as its target again (the change, or
    for a redo its undo), else the channel moved on since the question."""

    redo: bool
    change: Event
    expect: int
    removes: tuple[str, ...]
    before: Snapshot
    after: Snapshot


def _own_in_initiative(target: Event, actor_id: int) -> bool:
    """Whether the change to the turn order only added, took out or renamed the actor's own
    characters (a player's `/init add`, `/character set new_name:`): the others, the round and
    whose turn it is stay the same."""

    def mine(c: dict[str, Any]) -> bool:
        return c.get("kind") == "character" and c.get("owner_id") == actor_id

    def rest(order: dict[str, Any]) -> tuple[Any, ...]:
        everyone = order.get("combatants") or []
        turn = order.get("turn", 0)
        current = everyone[turn] if order.get("round") and turn < len(everyone) else None
        whose = None if current is None else ("mine",) if mine(current) else current["name"]
        return order.get("round", 0), whose, [c for c in everyone if not mine(c)]

    orders = Change.of(target).orders()
    return orders is None or rest(orders[0] or {}) == rest(orders[1] or {})


def _not_theirs(event: Event, actor_id: int) -> tuple[set[Item], set[Item]]:
    """What `event` touched besides the actor's own characters: other things (the clock,
    settings, monsters, the turn order beyond their own place in it), and others' characters."""
    others = {item for item in touched(event) if item[0] != "characters"}
    if _own_in_initiative(event, actor_id):
        others.discard((snapshot.INITIATIVE, snapshot.ORDER))
    foreign = {
        ("characters", key)
        for records in Change.of(event).records("characters")
        for key, record in records.items()
        if record is not None and record.get("owner_id") != actor_id
    }
    return others, foreign


def check_player_may_undo(target: Event, actor_id: int) -> None:
    """A player undoes only their own change, and only one that touched only their characters."""
    if target.actor_id != actor_id:
        raise Forbidden(_("You can only undo your own changes; ask the GM"))
    others, foreign = _not_theirs(target, actor_id)
    if others:
        raise Forbidden(
            _(
                "Only the GM can undo your {action} at {at}: it also changed {names}",
                action=action_text(target.action),
                at=time_of(target),
                names=item_names(target, others),
            )
        )
    if foreign:
        raise Forbidden(
            _(
                "Only the GM can undo your {action} at {at}: it touched {names}, who isn't yours",
                action=action_text(target.action),
                at=time_of(target),
                names=item_names(target, foreign),
            )
        )


def check_player_may_redo(change: Event, undo: Event, actor_id: int) -> None:
    """A player redoes only their own undo, and only one that touched only their characters."""
    if undo.actor_id != actor_id:
        raise Forbidden(_("You can only redo what you undid yourself; ask the GM"))
    others, foreign = _not_theirs(undo, actor_id)
    if others or foreign:
        raise Forbidden(
            _(
                "Only the GM can redo {change}: it touched {names}",
                change=describe(change),
                names=item_names(undo, others | foreign),
            )
        )


def standing(since: int, later: Iterable[Event]) -> list[Event]:
    """Of the events `later` than the event `since`, the ones whose change still stands,
    oldest first. An event cancels the one it marks `undone_by` it (an undo its target, a redo
    its undo), and a cancelled event and its canceller stand no more: so a change undone and
    redone stands (as the redo), and one undone, redone and undone again does not."""
    open_: dict[int, Event] = {}  # standing so far, by the id of the event that would cancel it
    for event in sorted((e for e in later if e.id > since), key=lambda e: e.id):
        if open_.pop(event.id, None) is None:  # it cancels nothing still standing: it stands
            open_[event.undone_by if event.undone_by is not None else -event.id] = event
    return sorted(open_.values(), key=lambda e: e.id)


def _stands_on(event: Event, later: Sequence[Event]) -> tuple[Event, frozenset[Item]] | None:
    """The first later change that still stands and touched something `event` touched, and
    what they share; None when there is none."""
    mine = touched(event)
    for other in standing(event.id, later):
        shared = mine & touched(other)
        if shared:
            return other, shared
    return None


def check_nothing_depends(target: Event, later: Sequence[Event]) -> None:
    """Refuse an undo when a later change that still stands touched the same character,
    monster, setting or clock: undoing under it would tear it apart."""
    found = _stands_on(target, later)
    if found is not None:
        event, shared = found
        raise RulesError(
            _(
                "Can't undo {target}: a later change, {later}, also touched {names}: that "
                "must be undone first (a GM's /undo takes the latest change)",
                target=describe(target),
                later=describe(event),
                names=item_names(event, shared),
            )
        )


def check_nothing_stands_on(change: Event, undo: Event, later: Sequence[Event]) -> None:
    """Refuse a redo when a change made after the undo still stands and touched the same
    character, monster or turn order: it was made on the table the undo left."""
    found = _stands_on(undo, later)
    if found is not None:
        event, shared = found
        raise RulesError(
            _(
                "Can't redo {change}: a later change, {later}, also touched {names} since it "
                "was undone",
                change=describe(change),
                later=describe(event),
                names=item_names(event, shared),
            )
        )


def _check_server(change: Event, manages_server: bool, redo: bool = False) -> None:
    if manages_server or not Change.of(change).touches(SERVER):
        return
    if redo:
        refusal = _(
            "Only members with Manage Server can redo {change}: it changed the server's settings",
            change=describe(change),
        )
    else:
        refusal = _(
            "Only members with Manage Server can undo {change}: it changed the server's settings",
            change=describe(change),
        )
    raise Forbidden(refusal)


def _reverted(current: Table, event: Event) -> Table | None:
    """`current` with `event`'s `before` put back; None when what it changed no longer reads
    as its `after`."""
    before, after = narrowed(event, current)
    if snapshot.restore(current, after) != current:
        return None
    return snapshot.restore(current, before)


def plan_undo(
    current: Table,
    target: Event,
    later: Sequence[Event],
    actor_id: int,
    is_gm: bool,
    manages_server: bool = False,
) -> Table:
    """The channel with `target` undone, or a RulesError saying why it can't be. A change to
    the server's settings is undone only by a member who may change them (Manage Server)."""
    if target.undoes is not None:
        raise RulesError(_("An undo is taken back with /redo, not /undo"))
    if target.undone_by is not None:
        raise RulesError(_("That change is undone already"))
    _check_server(target, manages_server)
    if not is_gm:
        check_player_may_undo(target, actor_id)
    check_nothing_depends(target, later)
    undone = _reverted(current, target)
    if undone is None:
        raise RulesError(
            _(
                "Can't undo {change}: {names} changed since",
                change=describe(target),
                names=item_names(target, touched(target)),
            )
        )
    if undone == current and IMPORT not in target.after:  # an import also takes its history
        raise RulesError(_("{change} left nothing to put back", change=describe(target)))
    return undone


def plan_redo(
    current: Table,
    change: Event,
    undo: Event,
    later: Sequence[Event],
    actor_id: int,
    is_gm: bool,
    manages_server: bool = False,
) -> Table:
    """The channel with `undo` (which undid `change`) taken back, or a RulesError saying why it
    can't be: `later` holds the events after the undo that touched what it did."""
    if undo.undoes != change.id:
        raise RulesError(_("Only an undo can be redone"))
    if undo.undone_by is not None:
        raise RulesError(_("That undo is redone already"))
    _check_server(change, manages_server, redo=True)
    if not is_gm:
        check_player_may_redo(change, undo, actor_id)
    check_nothing_stands_on(change, undo, later)
    redone = _reverted(current, undo)
    if redone is None:
        raise RulesError(
            _(
                "Can't redo {change}: {names} changed since it was undone",
                change=describe(change),
                names=item_names(undo, touched(undo)),
            )
        )
    return redone


def removes(current: Table, planned: Table) -> tuple[str, ...]:
    """The names of the characters and monsters `planned` no longer has (a rename, one record
    gone and one come, takes nothing away)."""
    old, new = snapshot.diff(current, planned)
    change = Change(old, new)
    names: list[str] = []
    for part in snapshot.RECORDS:
        was, now = change.records(part)
        if change.renamed(part) is None:
            names += [r["name"] for k, r in was.items() if r is not None and now.get(k) is None]
    return tuple(names)


def ask_first(current: Table, planned: Table, change: Event, expect: int, redo: bool) -> None:
    """Raise AskFirst (nothing written) when going from `current` to `planned` takes a
    character or monster away: an undo or redo that does is confirmed first."""
    gone = removes(current, planned)
    if gone:
        raise AskFirst(redo, change, expect, gone, *snapshot.diff(current, planned))


def changed_since_asked(redo: bool) -> str:
    """A confirmed undo (or redo) whose target is no longer the one asked about."""
    if redo:
        return _(
            "Nothing was redone: the channel has changed since you were asked. Run /redo again "
            "to see what it would redo now."
        )
    return _(
        "Nothing was undone: the channel has changed since you were asked. Run /undo again to "
        "see what it would undo now."
    )


def nothing_to_undo(is_gm: bool, latest: Event | None = None) -> str:
    """Why there is nothing to undo; `latest` is the channel's latest undoable change, which
    a player who has none of their own may not undo."""
    if is_gm:
        return _("Nothing left to undo here (/redo puts back what an undo took back)")
    if latest is not None:
        return _(
            "You can only undo your own changes, and you have none here left to undo; the "
            "latest is {change}: ask the GM",
            change=describe(latest),
        )
    return _("You have no change here left to undo (/redo puts back what an undo took back)")


def nothing_to_redo(is_gm: bool) -> str:
    if is_gm:
        return _("Nothing to redo here: no undo is left that hasn't been redone")
    return _("You have no undo here left to redo (a player redoes only their own undos)")


def too_many_since(change: Event, count: int) -> str:
    """A redo that gives up reading the later changes to what it would put back."""
    return _(
        "Can't redo {change}: more than {count:,} later changes touched the same things",
        change=describe(change),
        count=count,
    )


def too_old(keep: int, target: Event | None = None, redo: bool = False) -> str:
    """Why undo (or redo, of `target`) stops at the retention edge: `target` is past it, or
    (None) whatever the actor could undo is."""
    if target is None:
        return _(
            "Nothing left to undo here: that change is older than this channel keeps (its last "
            "{keep:,} changes; a GM can keep more with `/settings set history_keep:`)",
            keep=keep,
        )
    if redo:
        return _(
            "Can't redo: {change} was undone longer ago than this channel keeps (its last "
            "{keep:,} changes)",
            change=describe(target),
            keep=keep,
        )
    return _(
        "Can't undo: {change} is older than this channel keeps (its last {keep:,} changes; a GM "
        "can keep more with `/settings set history_keep:`)",
        change=describe(target),
        keep=keep,
    )
