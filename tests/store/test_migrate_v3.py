"""A database written by the V3 schema (before special modifiers, armor and weapon enchantments
apart, and spots that can be hidden) opens, reads, plays, shows its history and undoes its old
events, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import json
from collections.abc import Mapping

import aiosqlite

from render.history import change_parts
from rules.defense import UnarmoredSpot
from store import Store
from store.migrate import load_migrations
from store.sqlite import migrate_sqlite
from table import bestiary, sheet
from table.sheet import SheetOptions
from tests.store.conftest import Database

CH, GUILD, GM, PIP = 10, 20, 30, 40
# Rows and event snapshots exactly as V3's code wrote them: no special modifiers, one list of
# enchantments, spots as plain names.
OLD_BUILD = {
    "rank": 3,
    "armor": "heavy",
    "trade": 0,
    "agility": None,
    "extra_defense": 0,
    "extra_evasion": 0,
    "spots": ["back"],
    "enchantments": [1, 2],
    "order": "boss",
}
OLD_FATIGUE = {
    "fp": 5,
    "temp": 0,
    "temp_expires": None,
    "exhausted_cap": False,
    "shattered_cap": False,
    "vp_damage": 0,
}


def old_character(level: int) -> dict[str, object]:
    return {
        "name": "Aria",
        "owner_id": PIP,
        "level": level,
        "fortitude": 10,
        "wisdom": 5,
        "kin_tsr": 2,
        "kin_wsr": 3,
        "classes": [[10, level]],
        "combine": "single",
        "toughness": 0,
        "base_hd": None,
        "kin_hd_size": None,
        "fl_override": None,
        "fatigue": OLD_FATIGUE,
    }


def old_monster(hp: int) -> dict[str, object]:
    return {"name": "Troll", "build": OLD_BUILD, "hp_max": 30, "hp": hp, "facing": "N"}


def event_sql(action: str, before: Mapping[str, object], after: Mapping[str, object]) -> str:
    def text(snapshot: Mapping[str, object]) -> str:
        return json.dumps(snapshot).replace("'", "''")

    return (
        "INSERT INTO events (channel_id, actor_id, action, created_at, clock, before, after) "
        f"VALUES ({CH}, {GM}, '{action}', '2026-01-01T00:00:00+00:00', 0, "
        f"'{text(before)}', '{text(after)}')"
    )


async def make_v3_database(db: Database) -> None:
    v3 = [m for m in load_migrations(db.dialect) if m.version <= 3]
    if db.path is not None:
        async with aiosqlite.connect(db.path, isolation_level=None) as conn:
            await migrate_sqlite(conn, v3)
    else:
        import asyncpg

        from store.postgres import migrate_postgres

        conn = await asyncpg.connect(db.url)
        try:
            await migrate_postgres(conn, v3)
        finally:
            await conn.close()
    await db.execute(f"INSERT INTO channels (channel_id, guild_id) VALUES ({CH}, {GUILD})")
    await db.execute(
        "INSERT INTO characters (channel_id, key, name, owner_id, level, fortitude, wisdom, "
        "kin_tsr, kin_wsr, classes, combine, toughness, base_hd, kin_hd_size, fl_override, fp, "
        "temp, temp_expires, exhausted_cap, shattered_cap, vp_damage) VALUES "
        f"({CH}, 'aria', 'Aria', {PIP}, 4, 10, 5, 2, 3, '[[10,4]]', 'single', 0, NULL, NULL, "
        "NULL, 5, 0, NULL, 0, 0, 0)"
    )
    await db.execute(
        "INSERT INTO monsters (channel_id, key, name, build, hp_max, hp, facing) VALUES "
        f"({CH}, 'troll', 'Troll', '{json.dumps(OLD_BUILD)}', 30, 23, 'N')"
    )
    monsters = {"characters": {}, "monsters": {"troll": None}}
    await db.execute(
        event_sql("monster create", monsters, {**monsters, "monsters": {"troll": old_monster(30)}})
    )
    await db.execute(
        event_sql(
            "monster hit",
            {"characters": {}, "monsters": {"troll": old_monster(30)}},
            {"characters": {}, "monsters": {"troll": old_monster(23)}},
        )
    )
    await db.execute(
        event_sql(
            "character set",
            {"characters": {"aria": old_character(3)}},
            {"characters": {"aria": old_character(4)}},
        )
    )


async def test_a_v3_database_opens_plays_and_undoes_its_old_events(db: Database) -> None:
    await make_v3_database(db)
    async with Store.open(db.url) as store:
        versions = sorted(row[0] for row in (await db.dump())["schema_version"])
        assert versions == [m.version for m in load_migrations(db.dialect)]
        table = await store.read(CH, GUILD)
        aria, troll = table.get("aria"), table.get_monster("troll")
        assert (aria.level, aria.special_tsr, aria.special_wsr) == (4, 0, 0)
        block = troll.block
        assert (block.armor_enchantments, block.weapon_enchantments) == ((1, 2), ())
        assert block.spots == (UnarmoredSpot("back", hard_to_hit=True, revealed=False),)
        assert (block.material_drop, troll.hp) == (12, 23)  # Boss 10 + 2 enchantments

        # The old events still read in /history.
        for event in await store.history(CH):
            assert change_parts(event.before, event.after, numbers=True)

        # It plays: a new special modifier, a reveal, a hit; then undo everything back.
        await store.apply(
            CH,
            GUILD,
            PIP,
            "character set",
            lambda t: sheet.change(t, PIP, False, "aria", SheetOptions(special_tsr=6)),
        )
        await store.apply(
            CH,
            GUILD,
            GM,
            "monster reveal",
            lambda t: bestiary.reveal(t, is_gm=True, name="troll", spot="back"),
        )
        played = await store.read(CH, GUILD)
        assert played.get("aria").special_tsr == 6
        assert played.get_monster("troll").block.hidden_spots == 0
        for action in ("monster reveal", "character set", "character set", "monster hit"):
            undone = await store.undo_last(CH, GUILD, GM, True)
            assert undone.target.action == action
        back = await store.read(CH, GUILD)
        assert back.get("aria").level == 3 and back.get("aria").special_tsr == 0
        assert back.get_monster("troll").hp == 30
        assert back.get_monster("troll").block.armor_enchantments == (1, 2)

    async with Store.open(db.url) as store:  # and again after a restart
        assert await store.read(CH, GUILD) == back
