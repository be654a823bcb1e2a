"""`/undo`'s rules: what an undo reverts and whether it may, pure over the table and logged
events (the store reads the target and what came after it: `store.undo`).

An event's snapshots hold exactly what it changed. Undoing puts its `before` back with
`snapshot.restore`, but only when nothing later still builds on it: no later change that is
neither undone nor itself an undo touched the same thing, and what it changed still reads as
its `after`. The channel row counts field by field (the clock, each setting), so undoing a
settings change is not blocked by the clock moving since; characters and monsters count whole.
A player undoes only their own change, and only one that touched only their characters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from lang import N_, _
from rules.errors import RulesError

from table import snapshot
from table.event import Event
from table.model import ChannelSettings, Forbidden, Table
from table.snapshot import SERVER, Change, Snapshot

UNDO_ACTION = "undo"
CHANNEL = "channel"
CHANNEL_WORDS = {
    "clock": N_("the game clock"),
    "guild_id": N_("the channel's server"),
    "own": N_("the settings"),
}
_NAMED_MAX = 3  # things named in a refusal before "…"

Item = tuple[str, str]  # ("channel", "clock" | "settings.ties" | …) or (part, key)
GmTest = Callable[[ChannelSettings], bool]  # is the actor a GM by these channel settings?


@dataclass(frozen=True)
class Undone:
    target: Event  # the change that was reverted (as read before it was marked undone)
    undo: Event  # the "undo" event just logged: its before/after is what the undo did
    table: Table  # the channel afterwards


def _flat(channel: dict[str, Any]) -> dict[str, Any]:
    """`{"clock": 5, "settings": {"ties": "fail"}}` → `{"clock": 5, "settings.ties": "fail"}`."""
    flat: dict[str, Any] = {}
    for name, value in channel.items():
        if isinstance(value, dict):
            flat.update({f"{name}.{inner}": v for inner, v in _flat(value).items()})
        else:
            flat[name] = value
    return flat


def _overlay(channel: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    """A copy of `channel` with the flattened `fields` set in it."""
    out = {k: dict(v) if isinstance(v, dict) else v for k, v in channel.items()}
    for path, value in fields.items():
        *parents, leaf = path.split(".")
        place = out
        for parent in parents:
            place = place[parent]
        place[leaf] = value
    return out


def _channel_changes(change: Change) -> dict[str, tuple[Any, Any]]:
    if not change.touches(CHANNEL):
        return {}
    old, new = (_flat(side) for side in change.channel())
    names = sorted(old.keys() | new.keys())
    return {k: (old.get(k), new.get(k)) for k in names if old.get(k) != new.get(k)}


def touched(event: Event) -> frozenset[Item]:
    """Everything an event changed: channel fields one by one, characters and monsters by key."""
    change = Change.of(event)
    items = {(CHANNEL, name) for name in _channel_changes(change)}
    return frozenset(items | change.keys())


def _name(event: Event, item: Item) -> str:
    part, key = item
    if part == SERVER:
        return _("the server's settings")
    if part == snapshot.INITIATIVE:
        return _("the initiative")
    if part == CHANNEL:
        if key.startswith("settings."):
            return _("the settings")
        return _(CHANNEL_WORDS[key]) if key in CHANNEL_WORDS else _("the channel")
    name = Change.of(event).name_of(part, key)
    return key if name is None else name


def _names(event: Event, items: Iterable[Item]) -> str:
    names = sorted({_name(event, item) for item in items})
    shown = ", ".join(names[:_NAMED_MAX])
    return shown + (", …" if len(names) > _NAMED_MAX else "")


def _at(event: Event) -> str:
    return f"<t:{int(event.created_at.timestamp())}:t>"  # shown in each reader's time zone


def describe(event: Event) -> str:
    """`fatigue spend by <@1> at <t:…:t>`: how a refusal names a change (mentions never ping)."""
    return _(
        "{action} by <@{actor}> at {at}", action=event.action, actor=event.actor_id, at=_at(event)
    )


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


def check_player_may_undo(target: Event, actor_id: int) -> None:
    """A player undoes only their own change, and only one that touched only their characters."""
    if target.actor_id != actor_id:
        raise Forbidden(_("You can only undo your own changes; ask the GM"))
    others = {item for item in touched(target) if item[0] != "characters"}
    if _own_in_initiative(target, actor_id):
        others.discard((snapshot.INITIATIVE, snapshot.ORDER))
    if others:
        raise Forbidden(
            _(
                "Only the GM can undo your {action} at {at}: it also changed {names}",
                action=target.action,
                at=_at(target),
                names=_names(target, others),
            )
        )
    foreign = set()
    for records in Change.of(target).records("characters"):
        for key, record in records.items():
            if record is not None and record.get("owner_id") != actor_id:
                foreign.add(("characters", key))
    if foreign:
        raise Forbidden(
            _(
                "Only the GM can undo your {action} at {at}: it touched {names}, who isn't yours",
                action=target.action,
                at=_at(target),
                names=_names(target, foreign),
            )
        )


def check_nothing_depends(target: Event, later: Sequence[Event]) -> None:
    """Refuse when a later change that still stands (neither undone nor an undo) touched the
    same character, monster, setting or clock: undoing under it would tear it apart."""
    mine = touched(target)
    for event in later:
        if event.id <= target.id or event.undone_by is not None or event.undoes is not None:
            continue
        shared = mine & touched(event)
        if shared:
            raise RulesError(
                _(
                    "Can't undo {target}: a later change, {later}, also touched {names}: that "
                    "must be undone first (a GM's /undo takes the latest change)",
                    target=describe(target),
                    later=describe(event),
                    names=_names(event, shared),
                )
            )


def narrowed(target: Event, current: Table) -> tuple[Snapshot, Snapshot]:
    """The event's before and after, with the channel part cut down to the fields it changed
    (the rest taken from `current`), so restoring it leaves later clock moves alone."""
    before = {k: v for k, v in target.before.items() if k != CHANNEL}
    after = {k: v for k, v in target.after.items() if k != CHANNEL}
    changes = _channel_changes(Change.of(target))
    if changes:
        now = snapshot.channel_to_dict(current)
        before[CHANNEL] = _overlay(now, {k: old for k, (old, _) in changes.items()})
        after[CHANNEL] = _overlay(now, {k: new for k, (_, new) in changes.items()})
    return before, after


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
        raise RulesError(_("An undo can't itself be undone"))
    if target.undone_by is not None:
        raise RulesError(_("That change is undone already"))
    if not manages_server and Change.of(target).touches(SERVER):
        raise Forbidden(
            _(
                "Only members with Manage Server can undo {change}: it changed the server's "
                "settings",
                change=describe(target),
            )
        )
    if not is_gm:
        check_player_may_undo(target, actor_id)
    check_nothing_depends(target, later)
    before, after = narrowed(target, current)
    if snapshot.restore(current, after) != current:
        raise RulesError(
            _(
                "Can't undo {change}: {names} changed since",
                change=describe(target),
                names=_names(target, touched(target)),
            )
        )
    undone = snapshot.restore(current, before)
    if undone == current:
        raise RulesError(_("{change} left nothing to put back", change=describe(target)))
    return undone


def nothing_to_undo(is_gm: bool, latest: Event | None = None) -> str:
    """Why there is nothing to undo; `latest` is the channel's latest undoable change, which
    a player who has none of their own may not undo."""
    if is_gm:
        return _("Nothing left to undo here (an undo can't itself be undone)")
    if latest is not None:
        return _(
            "You can only undo your own changes, and you have none here left to undo; the "
            "latest is {change}: ask the GM",
            change=describe(latest),
        )
    return _("You have no change here left to undo (an undo can't itself be undone)")


def too_old(keep: int, target: Event | None = None) -> str:
    """Why undo stops at the retention edge: `target` is past it, or (None) whatever the
    actor could undo is."""
    if target is None:
        return _(
            "Nothing left to undo here: that change is older than this channel keeps (its last "
            "{keep:,} changes; a GM can keep more with `/settings set history_keep:`)",
            keep=keep,
        )
    return _(
        "Can't undo: {change} is older than this channel keeps (its last {keep:,} changes; a GM "
        "can keep more with `/settings set history_keep:`)",
        change=describe(target),
        keep=keep,
    )
