"""A database written by the V3 schema (before fatigue time and round anchors) opens, migrates
and plays: its characters, monster and events read back, its old events show and undo, and the
clock, rests and a new round length work on it. SQLite file and PostgreSQL both."""

from __future__ import annotations

import json

import aiosqlite

from bot.render.history import event_line
from bot.store import Store
from bot.store.migrate import load_migrations, migrate
from bot.store.undo import undo_last
from table import partyops
from table.sheet import SettingsOptions, change_settings
from tests.bot.conftest import Database

CH, GUILD, GM = 4242, 77, 9001
V3 = 3


def _fatigue(fp: int, temp: int = 0, expires: int | None = None, vp: int = 0) -> dict[str, object]:
    """A character's fatigue as V3 logged it: no `settled`."""
    return {
        "fp": fp,
        "temp": temp,
        "temp_expires": expires,
        "exhausted_cap": False,
        "shattered_cap": False,
        "vp_damage": vp,
    }


def _aria(fp: int) -> dict[str, object]:
    return {
        "name": "Aria",
        "owner_id": 5,
        "level": 3,
        "fortitude": 2,
        "wisdom": 1,
        "kin_tsr": 0,
        "kin_wsr": 0,
        "classes": [[10, 3]],
        "combine": "single",
        "toughness": 2,
        "base_hd": None,
        "kin_hd_size": None,
        "fl_override": None,
        "fatigue": _fatigue(fp, 4, 31_860, 1),
    }


def _channel(round_seconds: int) -> dict[str, object]:
    """A channel as V3 logged it: no round fields."""
    settings = {
        "ties": "fail",
        "round_seconds": round_seconds,
        "rest_rate": 1,
        "break_minutes": 10,
        "short_minutes": 60,
        "long_minutes": 480,
        "gm_role_id": None,
    }
    return {"guild_id": GUILD, "clock": 31_800, "settings": settings}


MONSTER_BUILD = {
    "agility": None,
    "armor": "heavy",
    "enchantments": [1],
    "extra_defense": 0,
    "extra_evasion": 0,
    "order": "normal",
    "rank": 2,
    "spots": ["back"],
    "trade": 0,
}


def _event(action: str, before: dict[str, object], after: dict[str, object]) -> str:
    return (
        "INSERT INTO events (channel_id, actor_id, action, created_at, clock, before, after) "
        f"VALUES ({CH}, {GM}, '{action}', '2026-12-01T20:00:00+00:00', 31800, "
        f"'{json.dumps(before)}', '{json.dumps(after)}')"
    )


V3_ROWS = [
    "INSERT INTO channels (channel_id, guild_id, clock, ties, round_seconds, rest_rate,"
    " break_minutes, short_minutes, long_minutes, gm_role_id)"
    f" VALUES ({CH}, {GUILD}, 31800, 'fail', 60, 1, 10, 60, 480, NULL)",
    "INSERT INTO characters (channel_id, key, name, owner_id, level, fortitude, wisdom, kin_tsr,"
    " kin_wsr, classes, combine, toughness, base_hd, kin_hd_size, fl_override, fp, temp,"
    " temp_expires, exhausted_cap, shattered_cap, vp_damage)"
    f" VALUES ({CH}, 'aria', 'Aria', 5, 3, 2, 1, 0, 0, '[[10,3]]', 'single', 2, NULL, NULL,"
    " NULL, 12, 4, 31860, 0, 0, 1)",
    "INSERT INTO characters (channel_id, key, name, owner_id, level, fortitude, wisdom, kin_tsr,"
    " kin_wsr, classes, combine, toughness, base_hd, kin_hd_size, fl_override, fp, temp,"
    " temp_expires, exhausted_cap, shattered_cap, vp_damage)"
    f" VALUES ({CH}, 'bo', 'Bo', 6, 1, 0, 0, 0, 0, '[]', 'single', 0, NULL, NULL,"
    " '20', 30, 0, NULL, 0, 0, 0)",
    "INSERT INTO monsters (channel_id, key, name, build, hp_max, hp, facing)"
    f" VALUES ({CH}, 'orc', 'Orc', '{json.dumps(MONSTER_BUILD)}', 30, 22, 'E')",
    _event(
        "settings set",
        {"channel": _channel(6), "characters": {}},
        {
            "channel": _channel(60),
            "characters": {},
        },
    ),
    _event(
        "fatigue spend",
        {"characters": {"aria": _aria(9)}},
        {"characters": {"aria": _aria(12)}},
    ),
]


async def _make_v3(db: Database) -> None:
    """The schema exactly as V3 left it, and rows as the V3 code wrote them."""
    migrations = load_migrations(db.dialect)[:V3]
    if db.path is not None:
        async with aiosqlite.connect(db.path) as conn:
            await migrate(conn, migrations)
    else:
        import asyncpg

        from bot.store.postgres import migrate_postgres

        conn = await asyncpg.connect(db.url)
        try:
            await migrate_postgres(conn, migrations)
        finally:
            await conn.close()
    for sql in V3_ROWS:
        await db.execute(sql)


async def test_a_v3_database_opens_migrates_and_plays(db: Database) -> None:
    await _make_v3(db)
    async with Store.open(db.url) as store:
        table = await store.read(CH, GUILD)
        aria = table.get("Aria")
        assert (aria.fatigue.fp, aria.fatigue.temp, aria.fatigue.vp_damage) == (12, 4, 1)
        assert aria.fatigue.settled == 0  # settled up to the clock, as V3 always was
        assert (table.round_start, table.round_first, table.round_number) == (0, 0, 531)
        assert table.get_monster("Orc").hp == 22

        # the old events read back, show in /history, and the latest undoes
        events = await store.history(CH, limit=5)
        assert [e.action for e in events] == ["fatigue spend", "settings set"]
        assert all(event_line(e, e.created_at) for e in events)
        undone = await undo_last(store, CH, GUILD, GM, True)
        assert undone.table.get("Aria").fatigue.fp == 9

        # and it plays: Aria rests alone, the clock catches up over it, rounds get shorter
        await store.apply(
            CH, GUILD, GM, "rest break", lambda t: partyops.rest_one(t, "Aria", "break")
        )
        await store.apply(CH, GUILD, GM, "clock pass", lambda t: partyops.pass_minutes(t, 10))
        after = await store.read(CH, GUILD)
        assert after.get("Aria").fatigue.temp == 0  # 4 converted while resting, none faded twice
        assert after.round_number == 541
        await store.apply(
            CH,
            GUILD,
            GM,
            "settings set",
            lambda t: change_settings(t, SettingsOptions(round_seconds=6)),
        )
        await store.apply(CH, GUILD, GM, "clock round", lambda t: partyops.pass_rounds(t, 1))
        final = await store.read(CH, GUILD)
        assert (final.round_number, final.clock) == (542, 31_800 + 600 + 6)
        # the settings change is undone after a later clock move: the rounds count as before
        undone = await undo_last(store, CH, GUILD, GM, True)
        assert undone.target.action == "clock round"
        undone = await undo_last(store, CH, GUILD, GM, True)
        assert undone.table.settings.round_seconds == 60
        assert undone.table.round_number == 541

    async with Store.open(db.url) as store:  # and again across a restart
        assert (await store.read(CH, GUILD)).round_number == 541
