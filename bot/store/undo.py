"""`/undo` in the store: revert one logged change in ONE transaction, or refuse and say why.

An event's snapshots hold exactly what it changed. Undoing puts its `before` back with
`codec.restore`, but only when nothing later still builds on it: no later change that is
neither undone nor itself an undo touched the same thing, and what it changed still reads as
its `after`. The channel row counts field by field (the clock, each setting), so undoing a
settings change is not blocked by the clock moving since; characters and monsters count whole.

Nothing here reads the log beyond what it needs: the target is one indexed lookup (a player's
own latest by `events_undoable_by_actor`), and "a later change to the same character or monster"
another (`event_keys`), so an undo costs the same under 10 later events or 50,000. Undo stops at
the channel's retention edge (`history_keep`, `bot.store.retention`) and says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.store import codec, retention
from bot.store.backend import Tx
from bot.store.codec import SERVER, Snapshot
from bot.store.store import Event, Store, event_from_row
from rules.errors import RulesError
from table.model import ChannelSettings, Forbidden, Table

UNDO_ACTION = "undo"
CHANNEL = "channel"
CHANNEL_WORDS = {
    "clock": "the game clock",
    "guild_id": "the channel's server",
    "own": "the settings",
}
_NAMED_MAX = 3  # things named in a refusal before "…"

Item = tuple[str, str]  # ("channel", "clock" | "settings.ties" | …) or (part, key)
GmTest = Callable[[ChannelSettings], bool]  # is the actor a GM by these channel settings?


@dataclass(frozen=True)
class Undone:
    target: Event  # the change that was reverted (as read before it was marked undone)
    undo: Event  # the "undo" event just logged: its before/after is what the undo did
    table: Table  # the channel afterwards


# --- pure planning ----------------------------------------------------------------------------


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


def _channel_changes(before: Snapshot, after: Snapshot) -> dict[str, tuple[Any, Any]]:
    if CHANNEL not in before and CHANNEL not in after:
        return {}
    old, new = _flat(before.get(CHANNEL, {})), _flat(after.get(CHANNEL, {}))
    names = sorted(old.keys() | new.keys())
    return {k: (old.get(k), new.get(k)) for k in names if old.get(k) != new.get(k)}


def touched(event: Event) -> frozenset[Item]:
    """Everything an event changed: channel fields one by one, characters and monsters by key."""
    items = {(CHANNEL, name) for name in _channel_changes(event.before, event.after)}
    for side in (event.before, event.after):
        for part, entries in side.items():
            if part != CHANNEL and isinstance(entries, dict):
                items.update((part, key) for key in entries)
    return frozenset(items)


def _name(event: Event, item: Item) -> str:
    part, key = item
    if part == SERVER:
        return "the server's settings"
    if part == codec.INITIATIVE:
        return "the initiative"
    if part == CHANNEL:
        if key.startswith("settings."):
            return "the settings"
        return CHANNEL_WORDS.get(key, "the channel")
    for side in (event.after, event.before):
        data = side.get(part, {}).get(key)
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            return data["name"]
    return key


def _names(event: Event, items: Iterable[Item]) -> str:
    names = sorted({_name(event, item) for item in items})
    shown = ", ".join(names[:_NAMED_MAX])
    return shown + (", …" if len(names) > _NAMED_MAX else "")


def _at(event: Event) -> str:
    return f"<t:{int(event.created_at.timestamp())}:t>"  # shown in each reader's time zone


def describe(event: Event) -> str:
    """`fatigue spend by <@1> at <t:…:t>`: how a refusal names a change (mentions never ping)."""
    return f"{event.action} by <@{event.actor_id}> at {_at(event)}"


def _own_in_initiative(target: Event, actor_id: int) -> bool:
    """Whether the change to the turn order only added, took out or renamed the actor's own
    characters (a player's `/init add`, `/character set new_name:`): the others, the round and
    whose turn it is stay the same."""

    def mine(c: dict[str, Any]) -> bool:
        return c.get("kind") == "character" and c.get("owner_id") == actor_id

    def rest(side: Snapshot) -> tuple[Any, ...]:
        order = (side.get(codec.INITIATIVE) or {}).get(codec.ORDER) or {}
        everyone = order.get("combatants") or []
        turn = order.get("turn", 0)
        current = everyone[turn] if order.get("round") and turn < len(everyone) else None
        whose = None if current is None else ("mine",) if mine(current) else current["name"]
        return order.get("round", 0), whose, [c for c in everyone if not mine(c)]

    return rest(target.before) == rest(target.after)


def check_player_may_undo(target: Event, actor_id: int) -> None:
    """A player undoes only their own change, and only one that touched only their characters."""
    if target.actor_id != actor_id:
        raise Forbidden("You can only undo your own changes; ask the GM")
    others = {item for item in touched(target) if item[0] != "characters"}
    if _own_in_initiative(target, actor_id):
        others.discard((codec.INITIATIVE, codec.ORDER))
    if others:
        raise Forbidden(
            f"Only the GM can undo your {target.action} at {_at(target)}: it also changed "
            f"{_names(target, others)}"
        )
    foreign = set()
    for side in (target.before, target.after):
        for key, data in side.get("characters", {}).items():
            if data is not None and data.get("owner_id") != actor_id:
                foreign.add(("characters", key))
    if foreign:
        raise Forbidden(
            f"Only the GM can undo your {target.action} at {_at(target)}: it touched "
            f"{_names(target, foreign)}, who isn't yours"
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
                f"Can't undo {describe(target)}: a later change, {describe(event)}, also "
                f"touched {_names(event, shared)}: that must be undone first "
                "(a GM's /undo takes the latest change)"
            )


def narrowed(target: Event, current: Table) -> tuple[Snapshot, Snapshot]:
    """The event's before and after, with the channel part cut down to the fields it changed
    (the rest taken from `current`), so restoring it leaves later clock moves alone."""
    before = {k: v for k, v in target.before.items() if k != CHANNEL}
    after = {k: v for k, v in target.after.items() if k != CHANNEL}
    changes = _channel_changes(target.before, target.after)
    if changes:
        now = codec.channel_to_dict(current)
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
        raise RulesError("An undo can't itself be undone")
    if target.undone_by is not None:
        raise RulesError("That change is undone already")
    if not manages_server and (SERVER in target.before or SERVER in target.after):
        raise Forbidden(
            f"Only members with Manage Server can undo {describe(target)}: it changed the "
            "server's settings"
        )
    if not is_gm:
        check_player_may_undo(target, actor_id)
    check_nothing_depends(target, later)
    before, after = narrowed(target, current)
    if codec.restore(current, after) != current:
        raise RulesError(
            f"Can't undo {describe(target)}: {_names(target, touched(target))} changed since"
        )
    undone = codec.restore(current, before)
    if undone == current:
        raise RulesError(f"{describe(target)} left nothing to put back")
    return undone


def nothing_to_undo(is_gm: bool, latest: Event | None = None) -> str:
    """Why there is nothing to undo; `latest` is the channel's latest undoable change, which
    a player who has none of their own may not undo."""
    if is_gm:
        return "Nothing left to undo here (an undo can't itself be undone)"
    if latest is not None:
        return (
            f"You can only undo your own changes, and you have none here left to undo; the "
            f"latest is {describe(latest)}: ask the GM"
        )
    return "You have no change here left to undo (an undo can't itself be undone)"


# --- the transaction --------------------------------------------------------------------------

_UNDOABLE = "channel_id = ? AND undone_by IS NULL AND undoes IS NULL"


def too_old(keep: int, target: Event | None = None) -> str:
    """Why undo stops at the retention edge: `target` is past it, or (None) whatever the
    actor could undo is."""
    what = "that change is" if target is None else f"{describe(target)} is"
    start = "Nothing left to undo here: " if target is None else "Can't undo: "
    return (
        f"{start}{what} older than this channel keeps (its last {keep:,} changes; a GM can "
        "keep more with `/settings set history_keep:`)"
    )


async def _latest(tx: Tx, channel_id: int, actor_id: int | None) -> Event | None:
    mine, args = ("", ()) if actor_id is None else (" AND actor_id = ?", (actor_id,))
    row = await tx.fetchone(
        f"SELECT * FROM events WHERE {_UNDOABLE}{mine} ORDER BY id DESC LIMIT 1", channel_id, *args
    )
    return None if row is None else event_from_row(row)


async def _later(tx: Tx, target: Event) -> list[Event]:
    """The first later change that still stands and touched a character, monster or the turn
    order that `target` touched (or none): all `check_nothing_depends` needs, found through
    `event_keys`. Channel fields need no lookup: a player's target never touches them (GM-only),
    and a GM's target is the latest change that stands, with nothing standing after it."""
    keys = retention.touched_keys(target.before, target.after)
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


async def undo_last(
    store: Store,
    channel_id: int,
    guild_id: int | None,
    actor_id: int,
    is_gm: bool | GmTest,
    manages_server: bool = False,
    *,
    interaction_id: int | None = None,
) -> Undone:
    """Undo the channel's latest change that isn't undone (a GM) or the actor's own latest
    (a player): restore, log an "undo" event, mark the target, all in one transaction that
    holds the channel's lock, as `Store.apply` does. `is_gm` may be a test of the channel's
    settings: it is then asked of the settings this transaction loads (a GM role cleared just
    before can't count). Undo stops at the channel's retention edge (`history_keep`).
    Raises RulesError (nothing written) when there is nothing to undo or it can't be undone, and
    AlreadyApplied when this `interaction_id` undid something already (a second delivery)."""

    async def body(tx: Tx) -> Undone:
        current, stored = await store._load(tx, channel_id, guild_id, interaction_id=interaction_id)
        gm = is_gm if isinstance(is_gm, bool) else is_gm(current.settings)
        keep = current.settings.history_keep
        target = await _latest(tx, channel_id, None if gm else actor_id)
        newest = await retention.newest_seq(tx, channel_id)
        if target is None:
            if newest > keep:  # the log has reached its bound: older changes are gone
                raise RulesError(too_old(keep))
            latest = None if gm else await _latest(tx, channel_id, None)
            raise RulesError(nothing_to_undo(gm, latest))
        if not retention.kept(target, newest, keep):
            raise RulesError(too_old(keep, target))
        undone = plan_undo(current, target, await _later(tx, target), actor_id, gm, manages_server)
        undo = await store._save(tx, current, undone, actor_id, UNDO_ACTION, stored, interaction_id)
        await tx.execute("UPDATE events SET undoes = ? WHERE id = ?", target.id, undo.id)
        await tx.execute("UPDATE events SET undone_by = ? WHERE id = ?", undo.id, target.id)
        return Undone(target, replace(undo, undoes=target.id), undone)

    return await store._backend.write(channel_id, body)
