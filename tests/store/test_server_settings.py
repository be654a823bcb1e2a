"""Server-wide settings in the store, on a SQLite file and on PostgreSQL: a channel reads its
own value, else its server's, else the default; the migration keeps what older channels set;
another server is untouched; undo puts a server's settings back; two channels changing
different server settings at once both keep their change."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from rules.errors import RulesError
from store import Store
from store.codec import SERVER_COLUMNS
from table.model import SETTING_NAMES, ChannelSettings, Table
from table.sheet import SettingsOptions, change_server_settings, change_settings
from tests.store.conftest import Database
from tests.store.test_migrate_v3 import CH, GM, GUILD, make_v3_database

OTHER_CH, SIDE_CH, FAR_CH, FAR_GUILD = 11, 12, 13, 21


Step = Callable[[Table], tuple[Table, None]]


def server(**options: Any) -> Step:
    def step(table: Table) -> tuple[Table, None]:
        return change_server_settings(table, SettingsOptions(**options))[0], None

    return step


def channel(**options: Any) -> Step:
    def step(table: Table) -> tuple[Table, None]:
        return change_settings(table, SettingsOptions(**options))[0], None

    return step


async def test_layers_and_sources(db: Database) -> None:
    async with Store.open(db.url) as store:
        await store.apply(CH, GUILD, GM, "settings set", channel(ties="succeed"))
        await store.apply(CH, GUILD, GM, "settings server", server(ties="fail", round_seconds=6))
        here = await store.read(CH, GUILD)
        assert (here.settings.ties, here.settings.round_seconds) == ("succeed", 6)
        assert (here.source("ties"), here.source("round_seconds")) == ("channel", "server")
        assert here.source("rest_rate") == "default"
        fresh = await store.read(OTHER_CH, GUILD)  # no row of its own: the server's values
        assert fresh.settings.round_seconds == 6 and fresh.settings.ties == "fail"
        far = await store.read(FAR_CH, FAR_GUILD)
        assert far.settings == ChannelSettings() and far.server == ()
        # The channel forgets its own ties: the server's apply.
        await store.apply(CH, GUILD, GM, "settings set", channel(reset="ties"))
        assert (await store.read(CH, GUILD)).settings.ties == "fail"
        # A server value the default sets nothing; resetting all puts the defaults back.
        await store.apply(SIDE_CH, GUILD, GM, "settings server", server(reset="all"))
        assert (await store.read(CH, GUILD)).settings == ChannelSettings()


async def test_server_limits_are_the_channels(db: Database) -> None:
    async with Store.open(db.url) as store:
        for bad in ({"round_seconds": 0}, {"long_minutes": 10**9}, {"rest_rate": -1}):
            with pytest.raises(RulesError) as at_server:
                await store.apply(CH, GUILD, GM, "settings server", server(**bad))
            with pytest.raises(RulesError) as at_channel:
                await store.apply(CH, GUILD, GM, "settings set", channel(**bad))
            assert str(at_server.value) == str(at_channel.value)
        assert await store.history(CH) == []


async def test_undo_puts_the_server_back_only_for_manage_server(db: Database) -> None:
    async with Store.open(db.url) as store:
        await store.apply(CH, GUILD, GM, "settings server", server(rest_rate=3))
        assert (await store.read(OTHER_CH, GUILD)).settings.rest_rate == 3
        with pytest.raises(RulesError, match="Manage Server"):
            await store.undo_last(CH, GUILD, GM, True)
        assert (await store.read(OTHER_CH, GUILD)).settings.rest_rate == 3
        await store.undo_last(CH, GUILD, GM, True, manages_server=True)
        assert (await store.read(OTHER_CH, GUILD)).settings.rest_rate == 1
        assert (await store.read(CH, GUILD)).server == ()


async def test_two_channels_change_different_server_settings_at_once(db: Database) -> None:
    async with Store.open(db.url) as store:
        await asyncio.gather(
            store.apply(CH, GUILD, GM, "settings server", server(rest_rate=2)),
            store.apply(OTHER_CH, GUILD, GM, "settings server", server(break_minutes=5)),
        )
        settings = (await store.read(SIDE_CH, GUILD)).settings
        assert (settings.rest_rate, settings.break_minutes) == (2, 5)


async def test_migration_keeps_what_older_channels_set(db: Database) -> None:
    await make_v3_database(db)
    await db.execute(f"UPDATE channels SET ties = 'succeed', rest_rate = 1 WHERE channel_id = {CH}")
    async with Store.open(db.url) as store:
        await store.apply(OTHER_CH, GUILD, GM, "settings server", server(ties="fail", rest_rate=4))
        old = await store.read(CH, GUILD)
        assert old.own == {"ties"}  # the value it had set; the default rest rate was not "set"
        assert (old.settings.ties, old.settings.rest_rate) == ("succeed", 4)


async def test_guild_settings_has_a_column_per_setting(db: Database) -> None:
    """A setting added to ChannelSettings needs its column in guild_settings (a migration)."""
    async with Store.open(db.url) as store:
        await store.apply(CH, GUILD, GM, "settings server", server(rest_rate=2))
    rows = (await db.dump())["guild_settings"]
    assert len(rows) == 1
    assert len(rows[0]) == len(SERVER_COLUMNS) == len(SETTING_NAMES) + 1


async def test_undo_refuses_when_the_server_changed_since_elsewhere(db: Database) -> None:
    async with Store.open(db.url) as store:
        await store.apply(CH, GUILD, GM, "settings server", server(rest_rate=3))
        await store.apply(OTHER_CH, GUILD, GM, "settings server", server(break_minutes=5))
        with pytest.raises(RulesError, match=r"the server's settings.* changed since"):
            await store.undo_last(CH, GUILD, GM, True, manages_server=True)
        settings = (await store.read(SIDE_CH, GUILD)).settings
        assert (settings.rest_rate, settings.break_minutes) == (3, 5)
        await store.undo_last(OTHER_CH, GUILD, GM, True, manages_server=True)
        await store.undo_last(CH, GUILD, GM, True, manages_server=True)
        assert (await store.read(SIDE_CH, GUILD)).settings == ChannelSettings()
