"""A channel's settings as layers: its own value, else its server's, else the default; a
property over any values the limits allow, and the options that change each layer."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lang import TABLE_LOCALES
from rules.errors import RulesError
from table.model import Table
from table.settings import (
    DEFAULT_SETTINGS,
    HISTORY_KEEP_MAX,
    HISTORY_KEEP_MIN,
    SETTING_NAMES,
    layered,
    server_layer,
)
from table.sheet import SettingsOptions, change_server_settings, change_settings

GUILD = 2  # the tables' server
VALUES: dict[str, st.SearchStrategy[Any]] = {
    "ties": st.sampled_from(["fail", "succeed"]),
    "round_seconds": st.integers(1, 3600),
    "rest_rate": st.integers(0, 100),
    "break_minutes": st.integers(1, 24 * 60),
    "short_minutes": st.integers(1, 24 * 60),
    "long_minutes": st.integers(1, 24 * 60),
    "gm_role_id": st.integers(GUILD + 1, 2**63 - 1),  # never @everyone's, the server's own id
    "threads": st.sampled_from(["shared", "own"]),
    "history_keep": st.integers(HISTORY_KEEP_MIN, HISTORY_KEEP_MAX),
    "player_rests": st.sampled_from(["allowed", "gm"]),
    "init_dice": st.sampled_from(["1d10", "1d20", "1d6+2", "2d8"]),
    "monster_stats": st.sampled_from(["shown", "hidden"]),
    "language": st.sampled_from(TABLE_LOCALES),
}


def some_settings() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({}, optional=VALUES)


def test_the_strategies_cover_every_setting() -> None:
    assert set(VALUES) == set(SETTING_NAMES)


@given(own=some_settings(), server=some_settings())
def test_own_then_server_then_default(own: dict[str, Any], server: dict[str, Any]) -> None:
    layer = server_layer(server)
    table = Table(1, GUILD).relayered(own, layer)
    for name in SETTING_NAMES:
        value = getattr(table.settings, name)
        if name in own:
            assert value == own[name] and table.source(name) == "channel"
        elif name in server and server[name] != getattr(DEFAULT_SETTINGS, name):
            assert value == server[name] and table.source(name) == "server"
        else:
            assert value == getattr(DEFAULT_SETTINGS, name)
            assert table.source(name) in ("default", "server")
    assert table.settings == layered(own, layer)


@given(own=some_settings(), server=some_settings(), new=some_settings())
def test_a_server_change_keeps_what_the_channel_set(
    own: dict[str, Any], server: dict[str, Any], new: dict[str, Any]
) -> None:
    table = Table(1, GUILD).relayered(own, server_layer(server))
    options = SettingsOptions(**new) if new else SettingsOptions(reset="all")
    changed, _ = change_server_settings(table, options)
    for name in own:
        assert getattr(changed.settings, name) == own[name]
    assert changed.own == table.own
    assert dict(changed.server) == {
        n: v
        for n, v in ({} if not new else {**server, **new}).items()
        if v != getattr(DEFAULT_SETTINGS, n)
    }


def test_reset_forgets_and_clear_gm_role_follows_the_server() -> None:
    table = Table(1, GUILD).relayered(
        {"rest_rate": 5, "gm_role_id": 7}, server_layer({"gm_role_id": 9})
    )
    assert table.settings.gm_role_id == 7
    cleared, _ = change_settings(table, SettingsOptions(clear_gm_role=True))
    assert cleared.settings.gm_role_id == 9 and cleared.source("gm_role_id") == "server"
    reset, _ = change_settings(table, SettingsOptions(reset="rest_rate"))
    assert reset.settings.rest_rate == 1 and reset.source("rest_rate") == "default"
    with pytest.raises(RulesError, match="not both"):
        change_settings(table, SettingsOptions(rest_rate=2, reset="rest_rate"))
    with pytest.raises(RulesError, match="no setting"):
        change_settings(table, SettingsOptions(reset="colour"))


def test_server_settings_need_a_server() -> None:
    with pytest.raises(RulesError, match="need a server"):
        change_server_settings(Table(1, None), SettingsOptions(rest_rate=2))
