"""A V3 database (before fatigue time and round anchors) opens, migrates and plays its fatigue
and clock: characters read as settled up to the clock, rounds count as they did, old events show
and undo, and rests, the clock and a new round length work on it. SQLite file and PostgreSQL."""

from __future__ import annotations

from render.history import event_line
from store import Store
from table import partyops
from table.sheet import SettingsOptions, change_settings
from tests.store.conftest import Database
from tests.store.test_migrate_v3 import CH, GM, GUILD, event_sql, make_v3_database, old_character


def _aria(fp: int) -> dict[str, object]:
    """Aria as V3 logged her, with a Temporary FP pool and VP damage: no `settled`."""
    fatigue = {
        "fp": fp,
        "temp": 4,
        "temp_expires": 31_860,
        "exhausted_cap": False,
        "shattered_cap": False,
        "vp_damage": 1,
    }
    return {**old_character(4), "fatigue": fatigue}


def _channel(round_seconds: int) -> dict[str, object]:
    """The channel as V3 logged it: no round fields."""
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


async def _make_v3(db: Database) -> None:
    """The shared V3 database, then a clock at round 531, Aria's pool and VP damage, and a
    settings change and a spend logged as V3 logged them."""
    await make_v3_database(db)
    await db.execute(f"UPDATE channels SET clock = 31800 WHERE channel_id = {CH}")
    await db.execute(
        "UPDATE characters SET fp = 12, temp = 4, temp_expires = 31860, vp_damage = 1"
        f" WHERE channel_id = {CH} AND key = 'aria'"
    )
    await db.execute(
        event_sql(
            "settings set",
            {"channel": _channel(6), "characters": {}},
            {"channel": _channel(60), "characters": {}},
        )
    )
    await db.execute(
        event_sql(
            "fatigue spend",
            {"characters": {"aria": _aria(9)}},
            {"characters": {"aria": _aria(12)}},
        )
    )


async def test_a_v3_database_opens_migrates_and_plays(db: Database) -> None:
    await _make_v3(db)
    async with Store.open(db.url) as store:
        table = await store.read(CH, GUILD)
        aria = table.get("Aria")
        assert (aria.fatigue.fp, aria.fatigue.temp, aria.fatigue.vp_damage) == (12, 4, 1)
        assert aria.fatigue.settled == 0  # settled up to the clock, as V3 always was
        assert (table.round_start, table.round_first, table.round_number) == (0, 0, 531)
        assert table.get_monster("Troll").hp == 23

        # the old events read back, show in /history, and the latest undoes
        events = await store.history(CH, limit=2)
        assert [e.action for e in events] == ["fatigue spend", "settings set"]
        assert all(event_line(e, e.created_at, numbers=True) for e in events)
        undone = await store.undo_last(CH, GUILD, GM, True)
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
        undone = await store.undo_last(CH, GUILD, GM, True)
        assert undone.target.action == "clock round"
        undone = await store.undo_last(CH, GUILD, GM, True)
        assert undone.table.settings.round_seconds == 60
        assert undone.table.round_number == 541

    async with Store.open(db.url) as store:  # and again across a restart
        assert (await store.read(CH, GUILD)).round_number == 541
