"""Seeding for `tests.benchmarks.commands`: the table every command reads, and big databases
written straight into SQLite (fast) at the schema of V1–V3, so the store's own later
migrations run on them at open, as they would on a live database being upgraded."""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

import aiosqlite

from rules.fatigue import FatigueState
from store.codec import CHARACTER_COLUMNS, character_row
from store.migrate import load_migrations
from store.sqlite import migrate_sqlite
from store.store import Store
from table.model import Character, Monster, Table
from table.snapshot import character_to_dict
from tests.localdiscord.client import LocalDiscord

PARTY = 10
BASE_SCHEMA = 3  # what the raw seeders write; later migrations upgrade it at open
TROLL = Monster("Troll", {"rank": 3, "armor": "heavy"}, hp_max=100_000)


def aria(owner: int) -> Character:
    # FL 1000: bands of 1000 FP, so a few thousand spends keep the reply the same kind of reply.
    return Character("Aria", owner, level=5, wisdom=10, kin_wsr=5, fl_override=Fraction(1000))


def party(discord_: LocalDiscord) -> list[Character]:
    """The caller's character and 9 others: the table every command reads."""
    others = [
        Character(
            f"Companion {i}",
            discord_.player2.id,
            level=i,
            classes=((10, i),),
            toughness=i % 3,
            fatigue=FatigueState(fp=7 * i, temp=i % 2, temp_expires=600 if i % 2 else None),
        )
        for i in range(1, PARTY)
    ]
    return [aria(discord_.player.id), *others]


async def seed_table(store: Store, discord_: LocalDiscord, monsters: bool = True) -> None:
    channel = discord_.table
    characters = party(discord_)

    def put(t: Table) -> tuple[Table, None]:
        for character in characters:
            t = t.with_character(character)
        return (t.with_monster(TROLL) if monsters else t), None

    await store.apply(channel.id, channel.guild_id, discord_.gm.id, "benchmark seed", put)


async def seed_channels(store: Store, channel_ids: list[int], guild_id: int, owner: int) -> None:
    """One character of `owner`'s in each channel, through the store."""
    for channel_id in channel_ids:
        await store.apply(
            channel_id,
            guild_id,
            owner,
            "benchmark seed",
            lambda t: (t.with_character(aria(owner)), None),
        )


# --- straight into SQLite --------------------------------------------------------------------


class Raw:
    """An aiosqlite connection to a new file at schema V1..V3, inside one transaction."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self.columns: dict[str, list[str]] = {}

    async def cols(self, table: str) -> list[str]:
        if table not in self.columns:
            async with self.db.execute(f"PRAGMA table_info({table})") as cursor:
                self.columns[table] = [row["name"] for row in await cursor.fetchall()]
        return self.columns[table]

    async def insert(self, table: str, rows: list[dict[str, Any]]) -> None:
        if not rows:
            return
        names = [c for c in await self.cols(table) if c in rows[0]]
        sql = f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
        await self.db.executemany(sql, [tuple(r[n] for n in names) for r in rows])

    async def channel(self, channel_id: int, guild_id: int) -> None:
        await self.insert("channels", [{"channel_id": channel_id, "guild_id": guild_id}])

    async def characters(self, channel_id: int, characters: list[Character]) -> None:
        rows = [
            dict(zip(CHARACTER_COLUMNS, character_row(channel_id, c), strict=True))
            for c in characters
        ]
        await self.insert("characters", rows)


async def raw_database(path: Path) -> Raw:
    db = await aiosqlite.connect(path, isolation_level=None)
    await db.execute("PRAGMA journal_mode = WAL")
    await migrate_sqlite(db, [m for m in load_migrations("sqlite") if m.version <= BASE_SCHEMA])
    await db.execute("BEGIN")
    return Raw(db)


async def finish(raw: Raw) -> None:
    await raw.db.execute("COMMIT")
    await raw.db.close()


async def seed_characters(path: Path, discord_: LocalDiscord, total: int) -> None:
    """The table's party of 10, and `total - 10` more characters, 100 to a channel."""
    raw = await raw_database(path)
    guild = discord_.guild.id
    await raw.channel(discord_.table.id, guild)
    await raw.characters(discord_.table.id, party(discord_))
    left, channel_id = total - PARTY, 10**12
    while left > 0:
        channel_id += 1
        count = min(100, left)
        await raw.channel(channel_id, guild)
        owner = discord_.player2.id
        await raw.characters(
            channel_id, [Character(f"Filler {i}", owner, level=3) for i in range(count)]
        )
        left -= count
    await finish(raw)


def _event(channel_id: int, actor: int, before: Character, after: Character) -> dict[str, Any]:
    old = {"characters": {before.key: character_to_dict(before)}}
    new = {"characters": {after.key: character_to_dict(after)}}
    return {
        "channel_id": channel_id,
        "actor_id": actor,
        "action": "fatigue spend",
        "created_at": datetime.now(UTC).isoformat(),
        "clock": 0,
        "before": json.dumps(old, ensure_ascii=False, sort_keys=True),
        "after": json.dumps(new, ensure_ascii=False, sort_keys=True),
    }


def _spent(character: Character) -> Character:
    fatigue = dataclasses.replace(character.fatigue, fp=character.fatigue.fp + 1)
    return dataclasses.replace(character, fatigue=fatigue)


async def seed_events(path: Path, discord_: LocalDiscord, mine: int, later: int) -> None:
    """`mine` spends by the player on Aria, then `later` spends by the GM on the companions
    (one after another, so each can be undone in turn): the player's own last change lies
    under `later` others, as in a busy channel."""
    raw = await raw_database(path)
    channel_id, gm, player = discord_.table.id, discord_.gm.id, discord_.player.id
    current = {c.key: c for c in party(discord_)}
    companions = [key for key in current if key != "aria"]
    await raw.channel(channel_id, discord_.guild.id)
    rows = []
    for _ in range(mine):
        now = _spent(current["aria"])
        rows.append(_event(channel_id, player, current["aria"], now))
        current["aria"] = now
    for i in range(later):
        key = companions[i % len(companions)]
        now = _spent(current[key])
        rows.append(_event(channel_id, gm, current[key], now))
        current[key] = now
    for start in range(0, len(rows), 5000):
        await raw.insert("events", rows[start : start + 5000])
    await raw.characters(channel_id, list(current.values()))
    await finish(raw)


async def keep_all_history(path: Path, channel_id: int) -> None:
    """Where the store has a history retention setting, raise it past the seeded events, so
    the growth figures time the lookups rather than a refusal at the retention edge."""
    async with aiosqlite.connect(path, isolation_level=None) as db:
        async with db.execute("PRAGMA table_info(channels)") as cursor:
            columns = [row[1] for row in await cursor.fetchall()]
        if "history_keep" in columns:
            await db.execute(
                "UPDATE channels SET history_keep = 100000 WHERE channel_id = ?", (channel_id,)
            )
        if "own_settings" in columns:  # the channel's own value counts where this names it
            await db.execute(
                "UPDATE channels SET own_settings = TRIM(COALESCE(own_settings, '')"
                " || ' history_keep') WHERE channel_id = ?"
                " AND ' ' || COALESCE(own_settings, '') || ' ' NOT LIKE '% history_keep %'",
                (channel_id,),
            )
