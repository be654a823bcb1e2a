"""A channel played through the store (characters, a monster, settings, the clock, the turn
order, a spend undone and redone), to export and import back: what the import tests start from."""

from __future__ import annotations

import dataclasses
import random
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from exports.document import export_bytes, export_document, export_key, signed
from exports.reading import read_export
from rules.dice import OpenEndedRoll
from rules.fatigue import FatigueState
from rules.saves import Difficulty, SaveKind, resolve
from store import Store
from table.combat import Combatant, Initiative
from table.dice_expr import roll_expression
from table.imported import Imported
from table.model import Character, Monster, Table
from table.roll_log import LoggedRoll, Rolled, d100_rolled, dice_rolled, save_rolled

GUILD, GM, PLAYER, PLAYER2 = 22, 33, 44, 55
EXPORTED_AT = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
TOKEN = "the token of the bot under test"
KEY = export_key(TOKEN)  # what its exports are signed with


def checked(file: bytes | dict[str, Any], guild: int | None = GUILD) -> Imported:
    """A file (or a document, as /export writes it) read and checked by this bot (`KEY`), for a
    channel of `guild`."""
    data = file if isinstance(file, bytes) else export_bytes(file)
    return read_export(data, guild, KEY)


def _step(fn: Any) -> Any:
    def run(table: Table) -> tuple[Table, None]:
        return fn(table), None

    return run


def _spend(name: str, fp: int) -> Any:
    def spend(table: Table) -> Table:
        character = table.get(name)
        return table.with_character(character.with_fatigue(FatigueState(fp=fp)))

    return _step(spend)


async def play(store: Store, channel: int, guild: int | None = GUILD) -> None:
    """Changes as the commands make them, each one logged."""
    aria = Character("Aria", PLAYER, level=3, fl_override=Fraction(20), classes=((8, 3),))
    borin = Character("Bórin", PLAYER2, special_tsr=2, active=True)
    troll = Monster("Troll", {"rank": 3, "armor": "medium"}, hp_max=40, hp=22, facing="SW")
    for actor, action, fn in (
        (PLAYER, "character create", _step(lambda t: t.with_character(aria))),
        (GM, "character create", _step(lambda t: t.with_character(borin))),
        (GM, "monster create", _step(lambda t: dataclasses.replace(t, monsters=(troll,)))),
        (GM, "settings set", _step(lambda t: t.relayered({"ties": "succeed", "round_seconds": 6}))),
        (GM, "clock pass", _step(lambda t: dataclasses.replace(t, clock=600))),
        (PLAYER, "fatigue spend", _spend("Aria", 3)),
        (PLAYER, "fatigue spend", _spend("Aria", 5)),
        (
            GM,
            "init add",
            _step(
                lambda t: dataclasses.replace(
                    t,
                    initiative=Initiative(
                        (
                            Combatant("Aria", 12, 0, "character", PLAYER),
                            Combatant("Troll", 7, 1, "monster"),
                        ),
                        1,
                        0,
                        1,
                    ),
                )
            ),
        ),
    ):
        await store.apply(channel, guild, actor, action, fn)
    await store.undo_last(channel, guild, GM, True)  # the turn order
    await store.undo_last(channel, guild, PLAYER, False)  # the second spend
    await store.redo_last(channel, guild, GM, True)  # the turn order again
    await store.log_rolls([(channel, roll) for roll in ROLLS], keep=1000)


def _save(kind: SaveKind, dice: tuple[int, ...], name: str, level: int) -> Rolled:
    roll = OpenEndedRoll.from_dice(dice)
    return save_rolled(
        resolve(kind, level=level, difficulty=Difficulty.attack_level(7), roll=roll), name
    )


ROLL_AT = datetime(2026, 1, 2, 2, 0, tzinfo=UTC)
# The rolls `play` logs: a save, a party save (one interaction, two places), a secret save, a
# d100 that rolled high, and dice.
ROLLS = tuple(
    LoggedRoll(1_300_000_000_000_000_000 + 1000 * i, place, ROLL_AT, 600, actor, secret, rolled)
    for i, place, actor, secret, rolled in (
        (0, 0, PLAYER, False, _save(SaveKind.WSR, (42,), "Aria", 3)),
        (1, 0, GM, False, _save(SaveKind.TSR, (97, 98, 12), "Aria", 3)),
        (1, 1, GM, False, _save(SaveKind.TSR, (3, 50), "Bórin", 1)),
        (2, 0, PLAYER2, True, _save(SaveKind.WSR, (77,), "Bórin", 1)),
        (3, 0, PLAYER, False, d100_rolled(OpenEndedRoll.from_dice((99, 20)), 25)),
        (4, 0, PLAYER2, False, dice_rolled(roll_expression("4d6kh3", random.Random(4)))),
    )
)


async def exported(store: Store, channel: int, guild: int | None = GUILD) -> dict[str, Any]:
    table, events, rolls = await store.read_with_history(channel, guild)
    return signed(export_document(table, events, EXPORTED_AT, rolls), KEY)


def without_ids_and_times(document: dict[str, Any]) -> dict[str, Any]:
    """The document less what an import gives anew: ids of the channel, its changes, and times."""
    given = ("channel_id", "guild_id", "exported_at", "signature")
    kept = {k: v for k, v in document.items() if k not in given}
    kept["history"] = [
        {k: v for k, v in e.items() if k not in ("id", "undone_by", "undoes", "created_at")}
        | {"links": (e["undone_by"] is not None, e["undoes"] is not None)}
        for e in document["history"]
    ]
    for event in kept["history"]:
        for side in ("before", "after"):
            if "channel" in event[side]:
                event[side] = dict(event[side], channel=dict(event[side]["channel"], guild_id=None))
    return kept


SOURCE, MIDDLE = 101, 202  # a channel played, and one whose own table its export replaces


def adds(character: Character) -> Any:
    return lambda table: (table.with_character(character), None)


async def own_table(store: Store, channel: int, name: str) -> None:
    """A table of the channel's own, two changes long."""
    await store.apply(channel, GUILD, GM, "character create", adds(Character(name, PLAYER2)))
    clock = dataclasses.replace
    await store.apply(channel, GUILD, GM, "clock pass", lambda t: (clock(t, clock=60), None))


async def replace_with(
    store: Store, channel: int, document: dict[str, Any], actor: int = GM
) -> None:
    """The document imported over the channel's table, as a GM confirms it."""
    newest = (await store.history(channel, 1))[0].id
    imported = checked(document)
    done = await store.import_channel(channel, GUILD, actor, imported, replace=(newest,))
    assert done.replaced


async def moved_once(store: Store) -> tuple[dict[str, Any], dict[str, Any]]:
    """SOURCE played and its export imported over MIDDLE's own table: MIDDLE's export before,
    and after (its 2 changes, SOURCE's 11, then the import change, which starts at the 3rd)."""
    await play(store, SOURCE)
    await own_table(store, MIDDLE, "Cora")
    before = await exported(store, MIDDLE)
    await replace_with(store, MIDDLE, await exported(store, SOURCE))
    return before, await exported(store, MIDDLE)
