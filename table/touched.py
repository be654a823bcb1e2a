"""What a logged change touched, item by item, and how a refusal names it: the channel's fields
one by one (the clock, each setting), characters and monsters by key, the server's settings
and the turn order whole. `/undo` and `/redo` (`table.undo`) decide by these items."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from lang import N_, _

from table import snapshot
from table.actions import action_text, actor_text
from table.event import Event
from table.model import Table
from table.snapshot import SERVER, Change, Snapshot

CHANNEL = "channel"
CHANNEL_WORDS = {
    "clock": N_("the game clock"),
    "guild_id": N_("the channel's server"),
    "own": N_("the settings"),
}
_NAMED_MAX = 3  # things named in a refusal before "…"

Item = tuple[str, str]  # ("channel", "clock" | "settings.ties" | …) or (part, key)


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


def channel_changes(change: Change) -> dict[str, tuple[Any, Any]]:
    if not change.touches(CHANNEL):
        return {}
    old, new = (_flat(side) for side in change.channel())
    names = sorted(old.keys() | new.keys())
    return {k: (old.get(k), new.get(k)) for k in names if old.get(k) != new.get(k)}


def touched(event: Event) -> frozenset[Item]:
    """Everything an event changed: channel fields one by one, characters and monsters by key."""
    change = Change.of(event)
    items = {(CHANNEL, name) for name in channel_changes(change)}
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


def item_names(event: Event, items: Iterable[Item]) -> str:
    """`Aria, Bo, the game clock, …`: the things named, up to a few."""
    names = sorted({_name(event, item) for item in items})
    shown = ", ".join(names[:_NAMED_MAX])
    return shown + (", …" if len(names) > _NAMED_MAX else "")


def time_of(event: Event) -> str:
    """When the change was made, as Discord shows a time in each reader's time zone."""
    return f"<t:{int(event.created_at.timestamp())}:t>"


def describe(event: Event) -> str:
    """`fatigue spend by <@1> at <t:…:t>`: how a refusal names a change (mentions never ping)."""
    return _(
        "{action} by {actor} at {at}",
        action=action_text(event.action),
        actor=actor_text(event.actor_id),
        at=time_of(event),
    )


def narrowed(target: Event, current: Table) -> tuple[Snapshot, Snapshot]:
    """The event's before and after, with the channel part cut down to the fields it changed
    (the rest taken from `current`), so restoring it leaves later clock moves alone."""
    before = {k: v for k, v in target.before.items() if k != CHANNEL}
    after = {k: v for k, v in target.after.items() if k != CHANNEL}
    changes = channel_changes(Change.of(target))
    if changes:
        now = snapshot.channel_to_dict(current)
        before[CHANNEL] = _overlay(now, {k: old for k, (old, _) in changes.items()})
        after[CHANNEL] = _overlay(now, {k: new for k, (_, new) in changes.items()})
    return before, after
