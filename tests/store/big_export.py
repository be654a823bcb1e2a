"""Export documents as large as an import takes, built straight as JSON (no store behind them):
a party of characters, a full bestiary, and a history of spends that fits the table, grown
until the file is as large as asked. For the tests of files built to the limits, and for the
import benchmark (`tests.benchmarks.imports`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from rules.fatigue import FatigueState
from store.export import FORMAT, VERSION, export_bytes
from table.model import Character, Monster
from table.settings import DEFAULT_SETTINGS
from table.snapshot import character_to_dict, monster_to_dict, settings_to_dict

GUILD, GM, PLAYER = 22, 33, 44
START = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


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
    changes: int,
    *,
    monsters: int = 0,
    keep: int | None = None,
    size: int | None = None,
) -> dict[str, Any]:
    """A channel of `characters` (each made by a logged change) and `monsters`, whose history
    goes on with spends, one character at a time, to `changes` in all, or (with `size`) for as
    long as the file stays within `size` bytes. `keep`: the channel's own `history_keep`."""
    party = [
        Character(f"Hero {i}", PLAYER + i % 5, level=3, classes=((8, 3),), wisdom=i % 10)
        for i in range(1, characters + 1)
    ]
    records = {c.key: character_to_dict(c) for c in party}
    history = [
        _event(n, "character create", {"characters": {key: None}}, {"characters": {key: record}})
        for n, (key, record) in enumerate(records.items(), start=1)
    ]
    keys = list(records)
    fp = dict.fromkeys(keys, 0)
    per_change = 0
    budget = changes if size is None else 10**9
    while len(history) < budget:
        n = len(history) + 1
        key = keys[n % len(keys)]
        was = records[key]
        fp[key] += 1
        now = dict(was, fatigue=dict(was["fatigue"], fp=fp[key]))
        records[key] = now
        history.append(
            _event(n, "fatigue spend", {"characters": {key: was}}, {"characters": {key: now}})
        )
        if size is not None and not per_change and n > characters + 10:
            per_change = len(export_bytes({"h": history[-10:]})) // 10
            budget = len(history) + (size - _size(records, history, monsters, keep)) // per_change
    settings = settings_to_dict(DEFAULT_SETTINGS)
    own = []
    if keep is not None:
        settings["history_keep"], own = keep, ["history_keep"]
    document = {
        "format": FORMAT,
        "version": VERSION,
        "schema_version": 18,
        "exported_at": START.isoformat(),
        "channel_id": "101",
        "guild_id": str(GUILD),
        "clock": 0,
        "round_start": 0,
        "round_first": 0,
        "settings": dict(settings, gm_role_id=None),
        "own_settings": own,
        "characters": [dict(r, owner_id=str(r["owner_id"])) for r in records.values()],
        "monsters": [
            monster_to_dict(Monster(f"Goblin {i}", {"rank": 2, "armor": "light"}, hp_max=12))
            for i in range(1, monsters + 1)
        ],
        "initiative": {"combatants": [], "round": 0, "turn": 0, "reached": 0},
        "history": history,
    }
    if size is not None:
        while len(export_bytes(document)) > size:
            _drop_last_spend(document)
    return document


def _size(
    records: dict[str, Any], history: list[dict[str, Any]], monsters: int, keep: int | None
) -> int:
    """The file's size so far, within a few hundred bytes (the fixed parts are small)."""
    return len(export_bytes({"c": list(records.values()), "h": history})) + 400 * monsters + 2000


def _drop_last_spend(document: dict[str, Any]) -> None:
    """The latest spend taken away, the table as it left it: the file a change shorter."""
    last = document["history"].pop()
    key, was = next(iter(last["before"]["characters"].items()))
    for i, record in enumerate(document["characters"]):
        if record["name"] == was["name"]:
            document["characters"][i] = dict(was, owner_id=str(was["owner_id"]))
    del key


def fresh_fatigue() -> dict[str, Any]:
    return {name: getattr(FatigueState(), name) for name in ("fp", "temp")}
