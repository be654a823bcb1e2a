"""The largest table a channel may hold, written straight through the store: what the web page's
tests and its benchmark build a page of. Its party is as big as a channel allows, with names as
long as a command takes; its newest changes are party-wide, so each one's snapshot carries every
character, and the page's chart walks all of them through every change it covers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction

from rules.fatigue import FatigueState
from store import Store
from table import initiative
from table.bestiary import MONSTERS_MAX
from table.model import Character, Table
from table.monster import Monster
from table.names import NAME_LIMIT
from table.parts import PARTY
from table.partyops import party_spend
from table.settings import HISTORY_KEEP_MAX
from table.sheet import CHARACTERS_MAX
from web.chart import CHART_CHANGES

CHARACTERS = CHARACTERS_MAX  # a channel's party at most
MONSTERS = MONSTERS_MAX  # its bestiary at most, each in the turn order
HISTORY = HISTORY_KEEP_MAX  # the changes a channel keeps at most
OWNER = 100  # the first character's owner id; each has an owner of its own


def _name(what: str, n: int) -> str:
    return f"{what} {n:03d} ".ljust(NAME_LIMIT, "x")


def _everyone(table: Table) -> tuple[Table, None]:
    table = table.relayered({"history_keep": HISTORY})
    for n in range(CHARACTERS):
        fatigue = FatigueState(fp=n % 50, temp=n % 3, temp_expires=600 if n % 3 else None)
        character = Character(
            _name("Adventurer", n), OWNER + n, fl_override=Fraction(20), fatigue=fatigue
        )
        table = table.with_character(character)
    for n in range(MONSTERS):
        monster = Monster(_name("Monster", n), {"rank": 3, "armor": "heavy"}, hp_max=100)
        table = table.with_monster(monster)
        table, _joined = initiative.add(table, actor_id=1, is_gm=True, name=monster.name, score=n)
    return table, None


def _all_spend(table: Table) -> tuple[Table, object]:
    return party_spend(table, 1)


def one_spends(n: int) -> Callable[[Table], tuple[Table, None]]:
    def step(table: Table) -> tuple[Table, None]:
        character = table.characters[n % len(table.characters)]
        fatigue = replace(character.fatigue, fp=(character.fatigue.fp + 1) % 50)
        return table.with_character(character.with_fatigue(fatigue)), None

    return step


async def write_largest(
    store: Store,
    channel_id: int,
    guild_id: int,
    gm_id: int,
    changes: int = CHART_CHANGES,
    history: int = 0,
) -> None:
    """The largest table in the channel, with `history` changes logged in all (the table's
    own, and one character's each), the newest `changes` of them party-wide (by default, as
    many as the page's chart covers)."""
    await store.apply(channel_id, guild_id, gm_id, "import", _everyone)
    for n in range(history - changes - 1):
        await store.apply(channel_id, guild_id, gm_id, "fatigue spend", one_spends(n), PARTY)
    for _ in range(changes):
        await store.apply(channel_id, guild_id, gm_id, "party spend", _all_spend)
