"""A table's parts to and from plain dicts: the snapshots of the event log (`diff` what a change
did, `restore` one onto a table: the basis of /undo), and `Change`, how everything outside the
store reads a logged change (`fatigue_at`: a character's fatigue in it). Storage-free; the SQL
rows are in `store.codec`.

Fractions are kept exactly as text ("41/2"); classes as [[hd_size, level], ...].
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.errors import RulesError
from rules.fatigue import FatigueState

from table.combat import Initiative
from table.event import Event
from table.model import Character, Monster, Table, fatigue_level
from table.settings import SETTING_NAMES, ChannelSettings, layered, server_layer

CHANNEL_SETTINGS = tuple(f.name for f in dataclasses.fields(ChannelSettings))
FATIGUE_FIELDS = tuple(f.name for f in dataclasses.fields(FatigueState))
CHARACTER_FIELDS = tuple(f.name for f in dataclasses.fields(Character) if f.name != "fatigue")
MONSTER_FIELDS = tuple(f.name for f in dataclasses.fields(Monster))

ROUND_FIELDS = ("round_start", "round_first")  # where today's round length starts counting
SERVER = "server"  # the part of a snapshot for the server's settings
WEB = "web"  # the part a web page link's changes are logged in (`store.links`)

# {"channel"?: {...}, "characters": {key: {...} | None}, "monsters"?: {key: {...} | None},
#  "initiative"?: {"order": {...} | None}}
Snapshot = dict[str, Any]


def settings_to_dict(settings: ChannelSettings) -> dict[str, Any]:
    # Flat fields: a plain getattr per field (dataclasses.asdict deep-copies, and is slow).
    return {name: getattr(settings, name) for name in CHANNEL_SETTINGS}


# What a snapshot's channel part is made of, as the Table has it (`diff` compares these first).
CHANNEL_PARTS = ("guild_id", "clock", "settings", "own", *ROUND_FIELDS)


def channel_to_dict(table: Table) -> dict[str, Any]:
    data = {name: getattr(table, name) for name in CHANNEL_PARTS}
    data["settings"] = settings_to_dict(table.settings)  # as the channel reads them
    data["own"] = sorted(table.own)  # ... of which the channel set these itself
    return data


def server_to_dict(table: Table) -> dict[str, Any]:
    """The server's settings, every name present (None: the server doesn't set it)."""
    server = dict(table.server)
    return {"guild_id": table.guild_id, "settings": {n: server.get(n) for n in SETTING_NAMES}}


def _own_in(channel: dict[str, Any]) -> dict[str, Any]:
    """A logged channel's own settings; one logged before server settings existed set
    whatever differs from the defaults (the same rule its migration applied to the rows)."""
    settings = channel["settings"]
    if "own" in channel:
        return {name: settings[name] for name in channel["own"]}
    defaults = dataclasses.asdict(ChannelSettings())
    return {n: v for n, v in settings.items() if v != defaults[n]}


def character_to_dict(character: Character) -> dict[str, Any]:
    data = {name: getattr(character, name) for name in CHARACTER_FIELDS}
    data["classes"] = [list(pair) for pair in character.classes]
    data["fl_override"] = None if character.fl_override is None else str(character.fl_override)
    data["fatigue"] = {name: getattr(character.fatigue, name) for name in FATIGUE_FIELDS}
    return data


def character_from_dict(data: dict[str, Any]) -> Character:
    # A field added later (the special modifiers) is missing from older events: its default.
    fields = {name: data[name] for name in CHARACTER_FIELDS if name in data}
    fields["classes"] = tuple((size, level) for size, level in data["classes"])
    override = data["fl_override"]
    fields["fl_override"] = None if override is None else Fraction(override)
    # Events logged before the fatigue_time migration have no `settled`: the default, 0.
    return Character(**fields, fatigue=FatigueState(**data["fatigue"]))


def monster_to_dict(monster: Monster) -> dict[str, Any]:
    data = {name: getattr(monster, name) for name in MONSTER_FIELDS}
    data["build"] = dict(monster.build)  # a copy: the snapshot must not share the monster's dict
    return data


def monster_from_dict(data: dict[str, Any]) -> Monster:
    # A field added later (hidden, the initiative bonus) is missing from older events: its default.
    return Monster(**{name: data[name] for name in MONSTER_FIELDS if name in data})


def diff(before: Table, after: Table) -> tuple[Snapshot, Snapshot]:
    """Exactly what changed, as it was and as it became. A character missing on one side is
    None there; the channel part appears only when the clock, guild or settings changed."""
    old: Snapshot = {"characters": {}}
    new: Snapshot = {"characters": {}}
    if _channel_fields(before) != _channel_fields(after):
        old["channel"], new["channel"] = channel_to_dict(before), channel_to_dict(after)
    if before.server != after.server:  # only where a change to the server was made
        old[SERVER], new[SERVER] = server_to_dict(before), server_to_dict(after)
    was = {c.key: c for c in before.characters}
    now = {c.key: c for c in after.characters}
    for key in sorted(was.keys() | now.keys()):
        if _changed(was.get(key), now.get(key)):
            old["characters"][key] = _maybe(was.get(key))
            new["characters"][key] = _maybe(now.get(key))
    # Monsters appear only when one changed, so older events keep their shape.
    was_m = {m.key: m for m in before.monsters}
    now_m = {m.key: m for m in after.monsters}
    for key in sorted(was_m.keys() | now_m.keys()):
        if _changed(was_m.get(key), now_m.get(key)):
            old.setdefault("monsters", {})[key] = _maybe_monster(was_m.get(key))
            new.setdefault("monsters", {})[key] = _maybe_monster(now_m.get(key))
    # The turn order appears only when it changed, as one thing ("order").
    if before.initiative != after.initiative:
        old[INITIATIVE] = {ORDER: initiative_to_dict(before.initiative)}
        new[INITIATIVE] = {ORDER: initiative_to_dict(after.initiative)}
    return old, new


INITIATIVE, ORDER = "initiative", "order"
# What a change touched, as `event_keys` records it (`/undo` finds later changes by it):
# characters and monsters by name key, the turn order as one item.
KEYED_PARTS = ("characters", "monsters", INITIATIVE)


def touched_keys(*snapshots: Snapshot) -> list[tuple[str, str]]:
    """(part, key) of every character and monster in the snapshots, sorted, each once."""
    return sorted(
        {(part, key) for side in snapshots for part in KEYED_PARTS for key in side.get(part, {})}
    )


def _channel_fields(table: Table) -> tuple[Any, ...]:
    """Equal exactly when the two tables' `channel_to_dict` are, without making the dicts."""
    return tuple(getattr(table, name) for name in CHANNEL_PARTS)


def _changed(was: object, now: object) -> bool:
    # A change leaves most of a party as the very same objects: no field-by-field comparison.
    return was is not now and was != now


def initiative_to_dict(initiative: Initiative) -> dict[str, Any] | None:
    """None for no turn order at all."""
    return initiative.to_dict() if initiative != Initiative() else None


def _maybe_monster(monster: Monster | None) -> dict[str, Any] | None:
    return None if monster is None else monster_to_dict(monster)


def _maybe(character: Character | None) -> dict[str, Any] | None:
    return None if character is None else character_to_dict(character)


def restore(table: Table, snapshot: Snapshot) -> Table:
    """Put a snapshot (an event's `before` or `after`) back onto `table`: the basis of /undo."""
    server = table.server
    if SERVER in snapshot:
        server = server_layer(snapshot[SERVER]["settings"])
    own = table.own_settings()
    if "channel" in snapshot:
        channel = snapshot["channel"]
        own = _own_in(channel)
        table = dataclasses.replace(
            table,
            guild_id=channel["guild_id"],
            clock=channel["clock"],
            # events logged before the fatigue_time migration have no round fields: keep these
            **{name: channel.get(name, getattr(table, name)) for name in ROUND_FIELDS},
        )
    if "channel" in snapshot or SERVER in snapshot:
        # Settings put back as layers, the round fields as logged (not moved again).
        table = dataclasses.replace(
            table, settings=layered(own, server), own=frozenset(own), server=server
        )
    characters = {c.key: c for c in table.characters}
    for key, data in snapshot["characters"].items():
        characters.pop(key, None)
        if data is not None:
            character = character_from_dict(data)
            characters[character.key] = character
    monsters = {m.key: m for m in table.monsters}
    for key, data in snapshot.get("monsters", {}).items():
        monsters.pop(key, None)
        if data is not None:
            monster = monster_from_dict(data)
            monsters[monster.key] = monster
    if INITIATIVE in snapshot:
        table = dataclasses.replace(
            table, initiative=Initiative.from_dict(snapshot[INITIATIVE][ORDER])
        )
    return dataclasses.replace(
        table, characters=tuple(characters.values()), monsters=tuple(monsters.values())
    )


# --- reading a logged change ----------------------------------------------------------------

Record = dict[str, Any]  # a character's or monster's fields as a snapshot logs them
RECORDS = ("characters", "monsters")  # the parts that hold a record per key


@dataclass(frozen=True)
class LoggedFatigue:
    """A character's fatigue as a snapshot logged it: its FP, and the Fatigue Level its logged
    inputs give (None without classes or an override)."""

    fp: int
    fl: Fraction | None


def fatigue_at(record: Record) -> LoggedFatigue | None:
    """A character's fatigue in one of an event's snapshots; None when the record no longer
    reads as one (an old event must never break /history). Only the Fatigue Level's inputs are
    read, through the table's cached `fatigue_level`, never a whole Character."""
    try:
        fp = record["fatigue"]["fp"]
        override = record["fl_override"]
        fl: Fraction | None = None
        if override is not None:
            fl = Fraction(override)
        else:
            classes = tuple((size, level) for size, level in record["classes"])
            if classes:
                fl = fatigue_level(
                    classes,
                    record.get("combine", "single"),
                    record.get("toughness", 0),
                    record.get("base_hd"),
                    record.get("kin_hd_size"),
                )
    except (KeyError, TypeError, ValueError, ZeroDivisionError, RulesError):
        return None
    return LoggedFatigue(fp, fl)


@dataclass(frozen=True)
class Change:
    """What one logged change did, read by what it holds instead of by key paths: an event's
    `before` and `after` snapshots (`diff`'s pair). A part an older version did not log reads
    as empty."""

    before: Snapshot
    after: Snapshot

    @classmethod
    def of(cls, event: Event) -> Change:
        return cls(event.before, event.after)

    def touches(self, part: str) -> bool:
        """Whether the change logged `part` ("channel", "server", "characters", …) at all."""
        return part in self.before or part in self.after

    def keys(self) -> set[tuple[str, str]]:
        """(part, key) of everything logged besides the channel's fields: each character and
        monster by key, the server's part, the turn order."""
        return {
            (part, key)
            for side in (self.before, self.after)
            for part, entries in side.items()
            if part != "channel" and isinstance(entries, dict)
            for key in entries
        }

    def name_of(self, part: str, key: str) -> str | None:
        """The name a character's or monster's record gives (as it became, else as it was)."""
        for records in reversed(self.records(part)):
            record = records.get(key)
            if isinstance(record, dict) and isinstance(record.get("name"), str):
                name: str = record["name"]
                return name
        return None

    def channel(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """The channel part as it was and became; both empty when the clock, guild and
        settings stayed as they were."""
        return self.before.get("channel") or {}, self.after.get("channel") or {}

    def server_settings(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """The server's settings as they were and became (empty unless this changed them)."""
        return (
            (self.before.get(SERVER) or {}).get("settings") or {},
            (self.after.get(SERVER) or {}).get("settings") or {},
        )

    def only_link(self) -> bool:
        """Whether the change made, revoked or restored the channel's web page link and nothing
        else (`store.links`)."""
        sides = (self.before, self.after)
        return self.touches(WEB) and not any(
            value for side in sides for part, value in side.items() if part != WEB
        )

    def only_server_settings(self) -> bool:
        """Whether the change set its server's settings and nothing that is the channel's own:
        the settings it reads followed (what it inherits), its own, clock and all else stayed."""
        if not self.touches(SERVER):
            return False
        others = {
            part
            for side in (self.before, self.after)
            for part, value in side.items()
            if value and part not in ("channel", SERVER)
        }
        was, now = ({k: v for k, v in side.items() if k != "settings"} for side in self.channel())
        return not others and was == now

    def behind_screen(self) -> frozenset[str]:
        """The keys of the monsters this change touched while they were the GM's preparation
        on both sides of it (hidden, or not there): what the players may not read of it. A
        change that shows one (hidden before, not after) or hides one again is theirs."""
        old, new = self.records("monsters")
        return frozenset(
            key
            for key in old.keys() | new.keys()
            if all(r is None or bool(r.get("hidden")) for r in (old.get(key), new.get(key)))
        )

    def only_behind_screen(self) -> bool:
        """Whether the change touched nothing but monsters behind the GM's screen: the players
        may not even read what kind of change it was."""
        masked = self.behind_screen()
        if not masked:
            return False
        was, now = self.channel()
        others = {
            (part, key) for part, key in self.keys() if part != "monsters" or key not in masked
        }
        return was == now and not others

    def records(self, part: str) -> tuple[dict[str, Record | None], dict[str, Record | None]]:
        """Key → record of `part` ("characters" or "monsters") as it was and became: None where
        there was none (created) or is none (removed)."""
        return self.before.get(part) or {}, self.after.get(part) or {}

    def renamed(self, part: str) -> tuple[str, str] | None:
        """(old key, new key) when the change took away exactly one record of `part` and
        brought exactly one: a name is the key, so a rename logs as a removal and a creation."""
        old, new = self.records(part)
        keys = old.keys() | new.keys()
        gone = [k for k in keys if old.get(k) is not None and new.get(k) is None]
        came = [k for k in keys if old.get(k) is None and new.get(k) is not None]
        return (gone[0], came[0]) if len(gone) == len(came) == 1 else None

    def orders(self) -> tuple[dict[str, Any] | None, dict[str, Any] | None] | None:
        """The turn order as it was and became (None: there was none, or is none); None when
        the change left the turn order alone."""
        if not self.touches(INITIATIVE):
            return None
        return (
            (self.before.get(INITIATIVE) or {}).get(ORDER),
            (self.after.get(INITIATIVE) or {}).get(ORDER),
        )
