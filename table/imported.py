"""An export document (checked against its schema: `exports.reading`) turned into a table and a
history for a channel of a given server, by the same checks the commands make: every name as a
new one is (`table.names`: no `@everyone`, nothing Discord formats, nothing invisible, no
look-alike of another), every value through the table's own types (their ranges), the settings
as `/settings set` checks them (no @everyone GM role, no control characters), every change one
this bot makes, and who made it as this bot can vouch for (`IMPORTED` otherwise). A history
must fit the table: its links point within it, and what it last did to each character, monster
and the turn order is what the table has. A roll of the roll log is one a command could have
rolled (`table.roll_log.roll_from_dict`), in the order rolled, each once, and who rolled it is
vouched for as a change's maker is.

The table's parts are checked first, then the history change by change, then the rolls roll by
roll, each once, so the time is linear in the file and a refusal names the first problem and
where it is (`characters[3].name: …`, `history[3].after.characters.aria: …`, `rolls[7]: …`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from lang import N_, _
from rules.errors import RulesError

from table.actions import IMPORT_ACTION, IMPORTED
from table.checks import control_character
from table.combat import Initiative
from table.event import Event
from table.lookalikes import first_alike
from table.model import Character, Table
from table.monster import Monster
from table.names import clean_name
from table.roll_log import LoggedRoll, roll_from_dict
from table.settings import ChannelSettings, ServerLayer, check_gm_role, layered
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
CheckRaw = Callable[[int, Any], None]  # the schema's check of history[i] (rolls[i]), as it is


class ImportProblem(RulesError):
    """The document can't be imported: str(error) is `path: what is wrong`."""


@dataclass(frozen=True)
class Imported:
    """A checked document, for a channel of `guild_id`: the table's parts (ids as numbers), its
    history and its roll log, oldest first, each change and roll as the store will write it
    (`exports.reading`)."""

    guild_id: int | None  # the server the channel it goes to is in
    source_guild_id: int | None  # the server it was exported from
    clock: int
    round_start: int
    round_first: int
    own: dict[str, Any]  # the settings the channel set itself
    characters: tuple[Character, ...]
    monsters: tuple[Monster, ...]
    initiative: Initiative
    history: tuple[Any, ...]  # each change, as the store prepared it to be logged
    rolls: tuple[Any, ...] = ()  # each roll, as the store prepared it to be written

    def table(self, channel_id: int, server: ServerLayer) -> Table:
        """The table in `channel_id`, whose server's settings are `server`: the channel's own
        settings come along, the rest are that server's (or the defaults). A GM role is another
        server's role elsewhere: it stays behind."""
        own = self.own
        if self.guild_id != self.source_guild_id:
            own = {name: value for name, value in own.items() if name != "gm_role_id"}
        return Table(
            channel_id,
            self.guild_id,
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


# Discord's clock (an interaction's id) and the bot's (a roll's time) may differ by seconds.
CLOCK_SKEW = timedelta(minutes=1)
DISCORD_EPOCH_MS = 1_420_070_400_000  # a snowflake counts milliseconds from 2015
FROM_THE_FUTURE = N_("{value} is later than this import: no roll comes from the future")
CHANGE_FROM_THE_FUTURE = N_("{value} is later than this import: no change comes from the future")


def snowflake_time(snowflake: int) -> datetime:
    """When Discord made the id `snowflake` (its top 42 bits)."""
    return datetime.fromtimestamp(((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000, UTC)


def holds_nothing(table: Table) -> bool:
    """No one, nothing, no turn order, the clock at 0, no settings of its own (its server's may
    be anything: they are the server's, and stay with it)."""
    return (
        not (table.characters or table.monsters or table.clock or table.own)
        and table.initiative == Initiative()
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


def first_control(value: Any, path: str) -> None:
    """Refuse the first text in `value` (its keys too) that holds a control character, named
    by its path: no text a command takes may hold one, and none in a file does."""
    if isinstance(value, str):
        found = control_character(value)
        if found is not None:
            raise ImportProblem(
                f"{path}: " + _("text can't contain control characters ({code} here)", code=found)
            )
    elif isinstance(value, dict):
        for key, item in value.items():
            first_control(key, path)
            first_control(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            first_control(item, f"{path}[{i}]")


@dataclass(frozen=True)
class Checked:
    """The document's table, checked (`table_part`), and what the history is checked with."""

    imported: Imported
    table: Table  # as the file has it, to check the history against
    guild_id: int | None
    vouched: bool  # its actors stand: this bot's own export, of this server
    controls: bool  # its text may hold a control character: each part is looked through


def table_part(
    document: dict[str, Any], guild_id: int | None, vouched: bool, controls: bool = True
) -> Checked:
    """Everything but the history, for a channel of `guild_id`; `vouched`: the document is this
    bot's own export, unchanged (`exports.document.vouches`); `controls`: its text may hold a
    control character (else no text is looked through for one)."""
    if controls:
        first_control({k: v for k, v in document.items() if k not in ("history", "rolls")}, "")
    settings = dict(document["settings"], gm_role_id=_id(document["settings"]["gm_role_id"]))
    _at("settings", lambda: ChannelSettings(**settings))
    _at("settings.gm_role_id", check_gm_role, settings["gm_role_id"], guild_id)
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
        _new_name(f"initiative.combatants[{i}].name", combatant["name"], N_("combatant"))
    initiative = _at("initiative", Initiative.from_dict, order)
    _no_lookalikes(characters, monsters, initiative)
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
    imported = Imported(
        guild_id,
        _id(document["guild_id"]),
        table.clock,
        table.round_start,
        table.round_first,
        own,
        table.characters,
        table.monsters,
        table.initiative,
        (),
    )
    same_server = vouched and imported.source_guild_id == guild_id
    return Checked(imported, table, guild_id, same_server, controls)


def _new_name(path: str, name: Any, noun: str) -> None:
    """A name in the file, checked as a new one is, and written as the bot keeps it."""
    cleaned = _at(path, clean_name, name, noun)
    if cleaned != name:
        raise ImportProblem(
            f"{path}: "
            + _(
                "{name} is not written as the bot writes a name: {cleaned}",
                name=repr(name),
                cleaned=repr(cleaned),
            )
        )


def _character(path: str, record: dict[str, Any]) -> Character:
    _new_name(f"{path}.name", record["name"], N_("character"))
    character: Character = _at(path, character_from_dict, record)
    return character


def _monster(path: str, record: dict[str, Any]) -> Monster:
    _new_name(f"{path}.name", record["name"], N_("monster"))
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


def _no_lookalikes(
    characters: Sequence[Character], monsters: Sequence[Monster], initiative: Initiative
) -> None:
    """No new name looks like another without being it: characters, monsters, the turn order,
    in the file's order (`table.lookalikes`)."""
    paths = [
        *(f"characters[{i}].name" for i in range(len(characters))),
        *(f"monsters[{i}].name" for i in range(len(monsters))),
        *(f"initiative.combatants[{i}].name" for i in range(len(initiative.combatants))),
    ]
    names = [
        *(c.name for c in characters),
        *(m.name for m in monsters),
        *(c.name for c in initiative.combatants),
    ]
    found = first_alike(names)
    if found is not None:
        raise ImportProblem(f"{paths[found[0]]}: {found[1]}")


_EMPTY = Table(1, None)  # what a change's parts other than its records are put back onto


def history(
    document: dict[str, Any], checked: Checked, check_raw: CheckRaw, now: datetime
) -> Iterator[Event]:
    """The document's changes, oldest first, each checked once as it comes (`check_raw` first:
    the schema's check), then the whole history against the table once the last has come. None
    is later than `now`, the import's time (this evening's play is found by the changes' times).
    Each as the channel will log it: its snapshots `carried`, who made it as this bot can vouch
    (`IMPORTED` otherwise), its links and an import change's start (`after.import`) as indexes
    into this history."""
    raw = document["history"]
    ids = {e["id"]: i for i, e in enumerate(raw) if isinstance(e, dict) and _is_text(e.get("id"))}
    latest: dict[tuple[str, str], tuple[int, Any]] = {}  # the last change to each record
    names: set[str] = set()  # logged names found good: each is looked at once
    previous = 0
    for i, data in enumerate(raw):
        check_raw(i, data)
        path = f"history[{i}]"
        if checked.controls:
            first_control(data, path)
        event = _event(path, data)
        if event.created_at > now + CLOCK_SKEW:
            value = data["created_at"]
            raise ImportProblem(f"{path}.created_at: " + _(CHANGE_FROM_THE_FUTURE, value=value))
        if event.id <= previous:
            raise ImportProblem(f"{path}.id: " + _("ids must grow, each used once"))
        previous = event.id
        _check_links(path, i, data, ids)
        _check_import(path, i, event)
        for side in ("before", "after"):
            _check_snapshot(f"{path}.{side}", getattr(event, side), checked.guild_id, names)
        for part in RECORDS:
            for key, record in (event.after.get(part) or {}).items():
                latest[(part, key)] = (i, record)
        if INITIATIVE in event.after:
            latest[(INITIATIVE, ORDER)] = (i, (event.after[INITIATIVE] or {}).get(ORDER))
        before, after = carried(event, checked.guild_id)
        yield Event(
            id=event.id,
            actor_id=event.actor_id if checked.vouched else IMPORTED,
            action=event.action,
            created_at=event.created_at,
            before=before,
            after=after,
            clock=event.clock,
            undoes=None if data["undoes"] is None else ids[data["undoes"]],
            undone_by=None if data["undone_by"] is None else ids[data["undone_by"]],
        )
    _check_fits(checked.table, raw, latest)


def _is_text(value: Any) -> bool:
    return isinstance(value, str)


def _event(path: str, data: dict[str, Any]) -> Event:
    created_at = _at(f"{path}.created_at", datetime.fromisoformat, data["created_at"])
    if created_at.tzinfo is None:
        raise ImportProblem(f"{path}.created_at: " + _("a time needs its UTC offset"))
    return Event(
        id=int(data["id"]),
        actor_id=int(data["actor_id"]),
        action=data["action"],
        created_at=created_at,
        before=data["before"],
        after=data["after"],
        clock=data["clock"],
    )


def _check_links(path: str, i: int, data: dict[str, Any], ids: dict[Any, int]) -> None:
    """An undo's target earlier, what undid a change later, both in the document."""
    if data["undoes"] is not None and not ids.get(data["undoes"], i) < i:
        raise ImportProblem(f"{path}.undoes: " + _("no earlier change has that id"))
    if data["undone_by"] is not None and not ids.get(data["undone_by"], i) > i:
        raise ImportProblem(f"{path}.undone_by: " + _("no later change has that id"))


def _check_import(path: str, i: int, event: Event) -> None:
    """An import change's `import` part (only in its `after`) says where the history its undo
    takes away starts, as a number of this history (from 1; the schema holds it to a number):
    at or before the change itself, so that undo takes away only changes that came in this file
    (`store.import_write` makes it the new channel's event number)."""
    if IMPORT in event.before:
        raise ImportProblem(
            f"{path}.before.{IMPORT}: " + _("only an import change's after has this part")
        )
    if IMPORT not in event.after:
        return
    if event.action != IMPORT_ACTION:
        raise ImportProblem(
            f"{path}.after.{IMPORT}: " + _("only an import change's after has this part")
        )
    start = event.after[IMPORT]["history"]["from"]
    if start > i + 1:
        raise ImportProblem(
            f"{path}.after.{IMPORT}.history.from: "
            + _(
                "{start} is past this change: the history it takes away starts at most at {most}",
                start=start,
                most=i + 1,
            )
        )


def _check_snapshot(path: str, snapshot: Snapshot, guild_id: int | None, names: set[str]) -> None:
    """What `/undo` and `/redo` will put back of a change: each record as it reads it, every
    name one a command could have given (`names`: those found so already); the channel's, the
    server's and the turn order's parts as `restore` reads them (onto an empty table: each part
    is checked on its own, so the cost is the snapshot's, not the table's); no logged GM role
    that is this server's @everyone."""
    for part in RECORDS:
        for key, record in (snapshot.get(part) or {}).items():
            if record is not None:
                where = f"{path}.{part}.{key}"
                if record.get("name") not in names:
                    _at(f"{where}.name", clean_name, record.get("name"), N_(part[:-1]))
                    names.add(record["name"])
                _record(part, where, record)
    others = {part: value for part, value in snapshot.items() if part not in RECORDS}
    if others:
        _at(path, restore, _EMPTY, dict(others, characters={}))
    role = ((snapshot.get("channel") or {}).get("settings") or {}).get("gm_role_id")
    if role is not None:  # a number, or in older logs text
        where = f"{path}.channel.settings.gm_role_id"
        _at(where, check_gm_role, _at(where, int, role), guild_id)


def _record(part: str, path: str, record: dict[str, Any]) -> Character | Monster:
    """A logged character or monster, read as `/undo` would put it back."""
    if part == "characters":
        character: Character = _at(path, character_from_dict, record)
        return character
    monster: Monster = _at(path, monster_from_dict, record)
    return monster


def _check_fits(
    table: Table, raw: list[dict[str, Any]], latest: dict[tuple[str, str], tuple[int, Any]]
) -> None:
    """What the history last did to each character and monster, and to the turn order, is what
    the table has; its latest change left the clock where the table has it. The first change
    that doesn't fit is named."""
    if raw and raw[-1]["clock"] != table.clock:
        raise ImportProblem(
            f"history[{len(raw) - 1}].clock: "
            + _(
                "the latest change left the clock at {logged}, the table has {clock}",
                logged=raw[-1]["clock"],
                clock=table.clock,
            )
        )
    now = {
        "characters": {c.key: character_to_dict(c) for c in table.characters},
        "monsters": {m.key: monster_to_dict(m) for m in table.monsters},
    }
    unfit = []
    for (part, key), (i, logged) in latest.items():
        if part == INITIATIVE:
            fits = Initiative.from_dict(logged) == table.initiative
        else:
            fits = (None if logged is None else _as_dict(_record(part, "", logged))) == now[
                part
            ].get(key)
        if not fits:
            where = f"history[{i}].after.{part}" + ("" if part == INITIATIVE else f".{key}")
            unfit.append((i, where))
    if unfit:
        raise ImportProblem(
            f"{min(unfit)[1]}: " + _("the history's latest change to it doesn't match the table")
        )


def _as_dict(item: Character | Monster) -> dict[str, Any]:
    return character_to_dict(item) if isinstance(item, Character) else monster_to_dict(item)


def carried(event: Event, guild_id: int | None) -> tuple[Snapshot, Snapshot]:
    """An imported event's snapshots as the target channel logs them: a change to the server's
    settings or the web link keeps none of it (another server's settings are never written by
    an undo here; a link is its channel's own), and the channel part names the new server."""
    return _carried(event.before, guild_id), _carried(event.after, guild_id)


def rolls(
    document: dict[str, Any], checked: Checked, check_raw: CheckRaw, now: datetime
) -> Iterator[LoggedRoll]:
    """The document's roll log, oldest first, each roll checked once as it comes (`check_raw`
    first: the schema's check), as a command rolls one (`table.roll_log.roll_from_dict`): in
    the order rolled (by interaction and place), each once, so the newest come last; none
    later than `now`, the import's time, by its time or its interaction's (a roll from the
    future would outlive every real one as the log is trimmed, newest kept); whose save it was
    a name a command could have given; the start of the import that brought it (`came_with`)
    a change of the file's history. Who rolled it as this bot can vouch (`IMPORTED`
    otherwise), as for a change."""
    changes = len(document["history"])
    names: set[str] = set()  # character names found good: each is looked at once
    previous = (-1, -1)
    for i, data in enumerate(document["rolls"]):
        check_raw(i, data)
        path = f"rolls[{i}]"
        if checked.controls:
            first_control(data, path)
        roll: LoggedRoll = _at(path, roll_from_dict, data)
        if (roll.interaction_id, roll.place) <= previous:
            raise ImportProblem(
                f"{path}: "
                + _("rolls come in the order rolled (interaction_id, then place), each once")
            )
        previous = (roll.interaction_id, roll.place)
        late = now + CLOCK_SKEW
        if roll.at > late or snowflake_time(roll.interaction_id) > late:
            field = "at" if roll.at > late else "interaction_id"
            raise ImportProblem(f"{path}.{field}: " + _(FROM_THE_FUTURE, value=data[field]))
        name = roll.rolled.character
        if name is not None and name not in names:
            _at(f"{path}.character", clean_name, name, N_("character"))
            names.add(name)
        if roll.came_with is not None and roll.came_with > changes:
            raise ImportProblem(
                f"{path}.came_with: "
                + _("{start} is past the history's last change", start=roll.came_with)
            )
        yield roll if checked.vouched else replace(roll, actor_id=IMPORTED)


def _carried(snapshot: Snapshot, guild_id: int | None) -> Snapshot:
    kept = {part: value for part, value in snapshot.items() if part not in (SERVER, WEB)}
    if "channel" in kept:
        kept["channel"] = dict(kept["channel"], guild_id=guild_id)
    return kept
