"""An export document (checked against its schema: `store.import_file`) turned into a table and a
history for another channel, by the same checks the commands make: every name as
`/character create` and `/monster add` clean it (no `@everyone`, nothing Discord formats), every
value through the table's own types (their ranges), the settings as `/settings set` checks
them. A history must fit the table: its links point within it, and what it last did to each
character, monster and the turn order is what the table has.

A refusal names the first problem and where it is (`characters[3].name: …`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from lang import N_, _
from rules.errors import RulesError

from table.actions import IMPORT_ACTION
from table.combat import Initiative
from table.event import Event
from table.model import Character, Table
from table.monster import Monster
from table.names import clean_name
from table.roll_log import LoggedRoll, roll_from_dict
from table.settings import SETTING_NAMES, ChannelSettings, ServerLayer, layered
from table.snapshot import (
    INITIATIVE,
    ORDER,
    RECORDS,
    SERVER,
    WEB,
    Snapshot,
    character_from_dict,
    character_to_dict,
    monster_from_dict,
    monster_to_dict,
    restore,
)

IMPORT = "import"  # the part an import that replaced a table logs its history's extent in


class ImportProblem(RulesError):
    """The document can't be imported: str(error) is `path: what is wrong`."""


@dataclass(frozen=True)
class Imported:
    """A checked document: the table's parts (ids as numbers) and its history, oldest first
    (events keep the document's ids, to be given new ones where they are written)."""

    guild_id: int | None  # the server it was exported from
    clock: int
    round_start: int
    round_first: int
    own: dict[str, Any]  # the settings the channel set itself
    characters: tuple[Character, ...]
    monsters: tuple[Monster, ...]
    initiative: Initiative
    history: tuple[Event, ...]
    rolls: tuple[LoggedRoll, ...] = ()  # the roll log, oldest first

    def table(self, channel_id: int, guild_id: int | None, server: ServerLayer) -> Table:
        """The table in `channel_id` of `guild_id`, whose server's settings are `server`: the
        channel's own settings come along, the rest are that server's (or the defaults). A GM
        role is another server's role elsewhere: it stays behind."""
        own = self.own
        if guild_id != self.guild_id:
            own = {name: value for name, value in own.items() if name != "gm_role_id"}
        return Table(
            channel_id,
            guild_id,
            self.clock,
            layered(own, server),
            self.characters,
            self.monsters,
            self.round_start,
            self.round_first,
            own=frozenset(own),
            server=server,
            initiative=self.initiative,
        )


def _at(path: str, check: Any, *args: Any, **kwargs: Any) -> Any:
    """`check(*args, **kwargs)`, a refusal of it named by `path`."""
    try:
        return check(*args, **kwargs)
    except ImportProblem:
        raise
    except RulesError as error:
        raise ImportProblem(f"{path}: {error}") from None
    except (AttributeError, KeyError, TypeError, ValueError, ZeroDivisionError) as error:
        unreadable = _("not a value this bot can read")  # e.g. no text where a name goes
        raise ImportProblem(f"{path}: {unreadable} ({error})") from None


def _id(text: str | None) -> int | None:
    return None if text is None else int(text)


def imported(document: dict[str, Any]) -> Imported:
    """The document's table and history, checked; ImportProblem naming the first problem."""
    settings = dict(document["settings"], gm_role_id=_id(document["settings"]["gm_role_id"]))
    _at("settings", lambda: ChannelSettings(**settings))
    own = {name: settings[name] for name in document["own_settings"]}
    characters = tuple(
        _character(f"characters[{i}]", dict(record, owner_id=int(record["owner_id"])))
        for i, record in enumerate(document["characters"])
    )
    monsters = tuple(_monster(f"monsters[{i}]", r) for i, r in enumerate(document["monsters"]))
    for part, items in (("characters", characters), ("monsters", monsters)):
        _no_twins(part, items)
    order = dict(document["initiative"])
    order["combatants"] = [dict(c, owner_id=_id(c["owner_id"])) for c in order["combatants"]]
    for i, combatant in enumerate(order["combatants"]):
        _at(f"initiative.combatants[{i}].name", clean_name, combatant["name"], N_("combatant"))
    initiative = _at("initiative", Initiative.from_dict, order)
    table = _at(
        "(file)",
        Table,
        1,
        None,
        document["clock"],
        layered(own, ()),
        characters,
        monsters,
        document["round_start"],
        document["round_first"],
        own=frozenset(own),
        initiative=initiative,
    )
    history = tuple(_event(f"history[{i}]", e) for i, e in enumerate(document["history"]))
    for i, event in enumerate(history):  # what /undo and /redo will do with them
        for side, logged in (("before", event.before), ("after", event.after)):
            _at(f"history[{i}].{side}", restore, table, logged)
    _check_links(history)
    _check_imports(history)
    _check_fits(table, history)
    return Imported(
        _id(document["guild_id"]),
        table.clock,
        table.round_start,
        table.round_first,
        own,
        table.characters,
        table.monsters,
        table.initiative,
        history,
        _rolls(document["rolls"], len(history)),
    )


def _rolls(items: list[dict[str, Any]], changes: int) -> tuple[LoggedRoll, ...]:
    """The roll log, each roll as a command rolls it (`table.roll_log.roll_from_dict`), and
    each once: no two of one interaction and place; one an import brought names a change of
    the file's history (of `changes`) where its history starts."""
    rolls: tuple[LoggedRoll, ...] = tuple(
        _at(f"rolls[{i}]", roll_from_dict, item) for i, item in enumerate(items)
    )
    seen: dict[tuple[int, int], int] = {}
    for i, roll in enumerate(rolls):
        first = seen.setdefault((roll.interaction_id, roll.place), i)
        if first != i:
            raise ImportProblem(f"rolls[{i}]: " + _("the same roll as rolls[{first}]", first=first))
        if roll.came_with is not None and roll.came_with > changes:
            raise ImportProblem(
                f"rolls[{i}].came_with: "
                + _("{start} is past the history's last change", start=roll.came_with)
            )
    return rolls


def _character(path: str, record: dict[str, Any]) -> Character:
    _at(f"{path}.name", clean_name, record["name"], N_("character"))
    character: Character = _at(path, character_from_dict, record)
    return character


def _monster(path: str, record: dict[str, Any]) -> Monster:
    _at(f"{path}.name", clean_name, record["name"], N_("monster"))
    monster: Monster = _at(path, monster_from_dict, record)
    return monster


def _no_twins(part: str, items: tuple[Character | Monster, ...]) -> None:
    seen: dict[str, int] = {}
    for i, item in enumerate(items):
        if item.key in seen:
            raise ImportProblem(
                f"{part}[{i}].name: "
                + _(
                    "{name} is named like {part}[{first}]",
                    name=item.name,
                    part=part,
                    first=seen[item.key],
                )
            )
        seen[item.key] = i


def _event(path: str, data: dict[str, Any]) -> Event:
    created_at = _at(f"{path}.created_at", datetime.fromisoformat, data["created_at"])
    if created_at.tzinfo is None:
        raise ImportProblem(f"{path}.created_at: " + _("a time needs its UTC offset"))
    for side in ("before", "after"):
        _check_snapshot(f"{path}.{side}", data[side])
    return Event(
        id=int(data["id"]),
        actor_id=int(data["actor_id"]),
        action=data["action"],
        created_at=created_at,
        before=data["before"],
        after=data["after"],
        clock=data["clock"],
        undone_by=_id(data["undone_by"]),
        undoes=_id(data["undoes"]),
    )


_MONSTER_DEFAULTS = {"hp_max": None, "hp": None, "facing": "N"}  # before monsters had them


def _record(part: str, path: str, record: dict[str, Any]) -> dict[str, Any]:
    """A logged character or monster, read as `/undo` would put it back, as a plain dict."""
    if part == "characters":
        return character_to_dict(_at(path, character_from_dict, record))
    return monster_to_dict(_at(path, monster_from_dict, {**_MONSTER_DEFAULTS, **record}))


def _check_snapshot(path: str, snapshot: Snapshot) -> None:
    for part in RECORDS:
        for key, record in (snapshot.get(part) or {}).items():
            if record is not None:
                where = f"{path}.{part}.{key}"
                _at(f"{where}.name", clean_name, record.get("name"), N_(part[:-1]))
                _record(part, where, record)
    channel = snapshot.get("channel")
    if channel is not None:
        _at(f"{path}.channel.settings", _logged_settings, channel.get("settings") or {})
    if INITIATIVE in snapshot:
        _at(f"{path}.{INITIATIVE}", Initiative.from_dict, (snapshot[INITIATIVE] or {}).get(ORDER))


def _logged_settings(logged: dict[str, Any]) -> ChannelSettings:
    """A logged channel's settings (a GM role as a number, or in older logs as text)."""
    known = {n: v for n, v in dict(logged).items() if n in SETTING_NAMES}
    if isinstance(known.get("gm_role_id"), str):
        known["gm_role_id"] = int(known["gm_role_id"])
    return ChannelSettings(**known)


def _check_links(history: tuple[Event, ...]) -> None:
    """Ids in order, each once; an undo's target earlier, what undid a change later, both in
    the document."""
    ids = {event.id: i for i, event in enumerate(history)}
    previous = 0
    for i, event in enumerate(history):
        if event.id <= previous:
            raise ImportProblem(f"history[{i}].id: " + _("ids must grow, each used once"))
        previous = event.id
        if event.undoes is not None and not ids.get(event.undoes, i) < i:
            raise ImportProblem(f"history[{i}].undoes: " + _("no earlier change has that id"))
        if event.undone_by is not None and not ids.get(event.undone_by, i) > i:
            raise ImportProblem(f"history[{i}].undone_by: " + _("no later change has that id"))


def _check_imports(history: tuple[Event, ...]) -> None:
    """An import change's `import` part (only in its `after`) says where the history its undo
    takes away starts, as a number of this history (from 1; the schema holds it to a number):
    at or before the change itself, so that undo takes away only changes that came in this file
    (`store.import_write` makes it the new channel's event number)."""
    for i, event in enumerate(history):
        if IMPORT in event.before:
            raise ImportProblem(
                f"history[{i}].before.{IMPORT}: " + _("only an import change's after has this part")
            )
        if IMPORT not in event.after:
            continue
        if event.action != IMPORT_ACTION:
            raise ImportProblem(
                f"history[{i}].after.{IMPORT}: " + _("only an import change's after has this part")
            )
        start = event.after[IMPORT]["history"]["from"]
        if start > i + 1:
            raise ImportProblem(
                f"history[{i}].after.{IMPORT}.history.from: "
                + _(
                    "{start} is past this change: the history it takes away starts at most at "
                    "{most}",
                    start=start,
                    most=i + 1,
                )
            )


def _check_fits(table: Table, history: tuple[Event, ...]) -> None:
    """What the history last did to each character and monster, and to the turn order, is what
    the table has; its latest change left the clock where the table has it."""
    if history and history[-1].clock != table.clock:
        raise ImportProblem(
            f"history[{len(history) - 1}].clock: "
            + _(
                "the latest change left the clock at {logged}, the table has {clock}",
                logged=history[-1].clock,
                clock=table.clock,
            )
        )
    now = {
        "characters": {c.key: character_to_dict(c) for c in table.characters},
        "monsters": {m.key: monster_to_dict(m) for m in table.monsters},
    }
    settled: set[tuple[str, str]] = set()
    for i in range(len(history) - 1, -1, -1):
        after = history[i].after
        for part in RECORDS:
            for key, record in (after.get(part) or {}).items():
                if (part, key) in settled:
                    continue
                settled.add((part, key))
                logged = None if record is None else _record(part, "", record)
                if logged != now[part].get(key):
                    raise ImportProblem(
                        f"history[{i}].after.{part}.{key}: "
                        + _("the history's latest change to it doesn't match the table")
                    )
        if INITIATIVE in after and (INITIATIVE, ORDER) not in settled:
            settled.add((INITIATIVE, ORDER))
            if Initiative.from_dict((after[INITIATIVE] or {}).get(ORDER)) != table.initiative:
                raise ImportProblem(
                    f"history[{i}].after.{INITIATIVE}: "
                    + _("the history's latest change to it doesn't match the table")
                )


def carried(event: Event, guild_id: int | None) -> tuple[Snapshot, Snapshot]:
    """An imported event's snapshots as the target channel logs them: a change to the server's
    settings or the web link keeps none of it (another server's settings are never written by
    an undo here; a link is its channel's own), and the channel part names the new server."""
    return _carried(event.before, guild_id), _carried(event.after, guild_id)


def _carried(snapshot: Snapshot, guild_id: int | None) -> Snapshot:
    kept = {part: value for part, value in snapshot.items() if part not in (SERVER, WEB)}
    if "channel" in kept:
        kept["channel"] = dict(kept["channel"], guild_id=guild_id)
    return kept
