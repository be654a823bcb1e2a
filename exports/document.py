"""The JSON document `/export` hands a GM: the channel's table (settings, which of them it set
itself, clock and round count, characters, monsters, the turn order), its whole history, oldest
first, and its roll log (`table.roll_log`), each roll on a line of its own: 25,000 rolls, the
most a channel keeps by default, take some 7.5 MB. Ids are strings, as in Discord's own JSON, so
a reader in any language keeps all 64 bits. Its shape is published as a JSON Schema
(`docs/export.schema.json`); `/import` reads it back (`exports.reading`), earlier versions too.

Versions: 1 had no `own_settings`, `round_start` or `round_first`; 2 adds them; 3 adds `rolls`.

A bot signs what it exports (`signed`: an HMAC of the document under a key it derives from its
own secret, as it does for web page links), so that an import can tell its own export, as it
was written, from a file anyone could have made or changed (`vouches`): only then, and only in
the server it was exported from, does an imported change keep who made it (`table.imported`).

An import change (one that replaced a table) records where the history that came with it starts
as an event number of its channel (`seq`), which means nothing in another channel: the document
gives it as a number of its own history instead (counted from 1), which `/import` turns into the
new channel's event number again (`store.import_write`)."""

from __future__ import annotations

import bisect
import dataclasses
import hashlib
import hmac
import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from store.migrate import load_migrations
from table.event import Event
from table.imported import IMPORT, holds_nothing
from table.model import Table
from table.roll_log import LoggedRoll, roll_to_dict
from table.snapshot import character_to_dict, monster_to_dict

FORMAT = "tablekeeper-export"
VERSION = 3
# The most Discord lets a bot upload (10 MiB): no export is larger (`fit`), and /import refuses a
# larger file by the size it declares, before a byte is downloaded.
BYTES_MAX = 10 * 2**20
SIGNATURE = "signature"  # the field a signed export carries its HMAC in
_PURPOSE = b"tablekeeper exports"


def is_empty(table: Table, events: list[Event], rolls: Sequence[LoggedRoll] = ()) -> bool:
    """Nothing a GM would want back: the table holds nothing (`holds_nothing`), no history,
    no roll in its roll log."""
    return holds_nothing(table) and not events and not rolls


def _id(value: int | None) -> str | None:
    return None if value is None else str(value)


def _event(event: Event, seqs: list[int]) -> dict[str, Any]:
    after = event.after
    if IMPORT in after:
        after = dict(after, **{IMPORT: {"history": {"from": _number(after, seqs)}}})
    return {
        "id": str(event.id),
        "actor_id": str(event.actor_id),
        "action": event.action,
        "created_at": event.created_at.isoformat(),
        "clock": event.clock,
        "before": event.before,
        "after": after,
        "undone_by": _id(event.undone_by),
        "undoes": _id(event.undoes),
    }


def _number(after: dict[str, Any], seqs: list[int]) -> int:
    """Where an import change's history starts, as a number of the exported history (from 1):
    the first exported change at or after the event number it logged (the changes it takes
    away are those numbered from there on; retention may have pruned some)."""
    return bisect.bisect_left(seqs, int(after[IMPORT]["history"]["from"])) + 1


def _roll(roll: LoggedRoll, seqs: list[int]) -> dict[str, Any]:
    """A roll an import brought names where that import's history starts as a number of the
    exported history, as the import change does (`_number`); none, if no change from there on
    is left to export (no undo could take the roll away)."""
    data = roll_to_dict(roll)
    if roll.came_with is not None:
        at = bisect.bisect_left(seqs, roll.came_with)
        data["came_with"] = at + 1 if at < len(seqs) else None
    return data


def _initiative(table: Table) -> dict[str, Any]:
    """The turn order, a player's id as text like every other id here."""
    order = table.initiative.to_dict()
    for combatant in order["combatants"]:
        combatant["owner_id"] = _id(combatant["owner_id"])
    return order


def export_document(
    table: Table,
    events: list[Event],
    exported_at: datetime,
    rolls: Sequence[LoggedRoll] = (),
) -> dict[str, Any]:
    settings = dataclasses.asdict(table.settings)
    settings["gm_role_id"] = _id(table.settings.gm_role_id)
    characters = [character_to_dict(c) | {"owner_id": str(c.owner_id)} for c in table.characters]
    seqs = [event.seq for event in events]  # oldest first, growing
    return {
        "format": FORMAT,
        "version": VERSION,
        "schema_version": load_migrations()[-1].version,
        "exported_at": exported_at.isoformat(),
        "channel_id": str(table.channel_id),
        "guild_id": _id(table.guild_id),
        "clock": table.clock,
        "round_start": table.round_start,
        "round_first": table.round_first,
        "settings": settings,
        "own_settings": sorted(table.own),
        "characters": characters,
        "monsters": [monster_to_dict(m) for m in table.monsters],
        "initiative": _initiative(table),
        "history": [_event(e, seqs) for e in events],
        "rolls": [_roll(roll, seqs) for roll in rolls],
    }


def export_bytes(document: dict[str, Any]) -> bytes:
    """The document as JSON, indented for a reader, but each roll on one line (a roll laid out
    a field a line is a dozen lines)."""
    rolls = document.get("rolls")
    laid_out = {**document, "rolls": []} if rolls else document
    text = json.dumps(laid_out, ensure_ascii=False, indent=2, sort_keys=True)
    if rolls:
        # The top level's own key: the only one indented by two spaces.
        lines = ",\n".join(map(_line, rolls))
        text = text.replace('\n  "rolls": []', f'\n  "rolls": [\n{lines}\n  ]', 1)
    return text.encode("utf-8")


def _line(roll: dict[str, Any]) -> str:
    return f"    {json.dumps(roll, ensure_ascii=False, sort_keys=True)}"


def fit(document: dict[str, Any], key: bytes, most: int = BYTES_MAX) -> tuple[bytes, int] | None:
    """The document signed, as a file of at most `most` bytes, and how many of its oldest rolls
    it had to leave out for that; None if it is larger even without any roll."""
    rolls = document["rolls"]
    data, dropped = export_bytes(signed(document, key)), 0
    while len(data) > most and dropped < len(rolls):
        excess = len(data) - most
        while excess > 0 and dropped < len(rolls):
            excess -= len(_line(rolls[dropped]).encode("utf-8")) + 2  # and its ",\n"
            dropped += 1
        data = export_bytes(signed({**document, "rolls": rolls[dropped:]}, key))
    return (data, dropped) if len(data) <= most else None


def export_key(secret: str) -> bytes:
    """The key exports are signed with, from the bot's own secret (its Discord token): the same
    in every process of the bot. A new secret leaves earlier exports unsigned to it."""
    return hmac.new(secret.encode(), _PURPOSE, hashlib.sha256).digest()


def _signature(document: dict[str, Any], key: bytes) -> str:
    """The HMAC-SHA256 of the document but its signature, as canonical JSON (keys sorted, no
    spaces, text as UTF-8): the same bytes from the document written and the document read."""
    unsigned = {k: v for k, v in document.items() if k != SIGNATURE}
    canonical = json.dumps(unsigned, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hmac.new(key, canonical.encode("utf-8"), hashlib.sha256).hexdigest()


def signed(document: dict[str, Any], key: bytes) -> dict[str, Any]:
    return dict(document, **{SIGNATURE: _signature(document, key)})


def vouches(document: dict[str, Any], key: bytes | None) -> bool:
    """Whether the document is this bot's export (signed with `key`), not a byte changed."""
    given = document.get(SIGNATURE)
    if key is None or not isinstance(given, str):
        return False
    return hmac.compare_digest(given, _signature(document, key))
