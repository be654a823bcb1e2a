"""Export documents as large as an import takes, built straight as JSON (no store behind them):
a party of characters, a bestiary, and a history of spends that fits the table, one character
at a time, until it has as many changes, or the file as many bytes, as asked. For the tests of
files built to the limits, and for the import benchmark (`tests.benchmarks.imports`)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from exports.document import FORMAT, VERSION
from table.model import Character, Monster
from table.settings import DEFAULT_SETTINGS
from table.snapshot import character_to_dict, monster_to_dict, settings_to_dict

GUILD, GM, PLAYER = 22, 33, 44
START = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def file_bytes(document: dict[str, Any], compact: bool = False) -> bytes:
    """The document as /export writes it (indented), or `compact` (as small as JSON goes)."""
    if compact:
        return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True).encode("utf-8")


def _in_place(event: dict[str, Any], compact: bool) -> int:
    """The bytes `event` takes in its file's history list, with what separates it."""
    if compact:
        return len(file_bytes(event, True)) + 1
    text = json.dumps(event, ensure_ascii=False, indent=2, sort_keys=True)
    return len(text.encode("utf-8")) + 4 * (text.count("\n") + 1) + 2


def _event(n: int, action: str, before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(n),
        "actor_id": str(GM if n % 2 else PLAYER),
        "action": action,
        "created_at": (START + timedelta(seconds=n)).isoformat(),
        "clock": 0,
        "before": before,
        "after": after,
        "undone_by": None,
        "undoes": None,
    }


def big_export(
    characters: int,
    changes: int | None = None,
    *,
    monsters: int = 0,
    keep: int | None = None,
    size: int | None = None,
    compact: bool = False,
) -> dict[str, Any]:
    """A channel of `characters` (each made by a logged change) and `monsters`, whose history
    goes on with spends, a character at a time, to `changes` in all, or while its file (as
    `file_bytes` writes it, `compact` or not) stays within `size` bytes. `keep`: the channel's
    own `history_keep`."""
    party = [
        Character(f"Hero {i}", PLAYER + i % 5, level=3, classes=((8, 3),), wisdom=i % 10)
        for i in range(1, characters + 1)
    ]
    records = {c.key: character_to_dict(c) for c in party}
    settings = dict(settings_to_dict(DEFAULT_SETTINGS), gm_role_id=None)
    if keep is not None:
        settings["history_keep"] = keep
    document: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "schema_version": 18,
        "exported_at": START.isoformat(),
        "channel_id": "101",
        "guild_id": str(GUILD),
        "clock": 0,
        "round_start": 0,
        "round_first": 0,
        "settings": settings,
        "own_settings": [] if keep is None else ["history_keep"],
        "characters": [],
        "monsters": [
            monster_to_dict(Monster(f"Goblin {i}", {"rank": 2, "armor": "light"}, hp_max=12))
            for i in range(1, monsters + 1)
        ],
        "initiative": {"combatants": [], "round": 0, "turn": 0, "reached": 0},
        "history": [],
        "rolls": [],
    }
    history: list[dict[str, Any]] = document["history"]
    # The file but its history's changes, with the party as it will end (the same size).
    used = len(file_bytes(dict(document, characters=_listed(records)), compact))
    keys = list(records)
    for n, (key, record) in enumerate(records.items(), start=1):
        history.append(
            _event(
                n, "character create", {"characters": {key: None}}, {"characters": {key: record}}
            )
        )
        used += _in_place(history[-1], compact)
    while changes is None or len(history) < changes:
        n = len(history) + 1
        key = keys[n % len(keys)]
        was = records[key]
        now = dict(was, fatigue=dict(was["fatigue"], fp=was["fatigue"]["fp"] + 1))
        event = _event(n, "fatigue spend", {"characters": {key: was}}, {"characters": {key: now}})
        if size is not None:
            took = _in_place(event, compact)
            if used + took > size:
                break
            used += took
        history.append(event)
        records[key] = now
    document["characters"] = _listed(records)
    if size is not None:  # the party's numbers grew a digit here and there: trimmed to fit
        over = len(file_bytes(document, compact)) - size
        while over > 0:
            last = history.pop()
            over -= _in_place(last, compact)
            ((key, was),) = last["before"]["characters"].items()
            records[key] = was
        document["characters"] = _listed(records)
    return document


def _listed(records: dict[str, Any]) -> list[dict[str, Any]]:
    return [dict(r, owner_id=str(r["owner_id"])) for r in records.values()]


def small_changes(count: int) -> dict[str, Any]:
    """A table of nothing, and `count` changes that change nothing: as many changes as a file of
    a given size can hold (about 190 bytes each)."""
    document = big_export(1, 1)
    document["characters"], document["history"] = [], []
    for n in range(1, count + 1):
        document["history"].append(
            _event(n, "clock pass", {"characters": {}}, {"characters": {}})
            | {"created_at": START.isoformat()}
        )
    return document


def d100_rolls(count: int, first: int = 1_300_000_000_000_000_000) -> list[dict[str, Any]]:
    """`count` rolls of `/roll` (a d100 that fell 50), in the order rolled, as /export writes
    them: a roll log for a file."""
    return [
        {
            "interaction_id": str(first + n),
            "place": 0,
            "at": (START + timedelta(seconds=n)).isoformat(),
            "clock": 0,
            "actor_id": str(PLAYER),
            "secret": False,
            "kind": "d100",
            "character": None,
            "dice": [50],
            "total": 50,
            "expression": None,
            "difficulty": None,
            "chance": None,
            "success": None,
            "came_with": None,
        }
        for n in range(count)
    ]
