"""`/settings show|set` through the real client and a local Discord."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from rules.errors import RulesError
from table.settings import (
    HISTORY_KEEP_EARLIER_MAX,
    HISTORY_KEEP_MAX,
    HISTORY_KEEP_MIN,
    ChannelSettings,
)
from tests.e2e.helpers import snapshot


async def refused(env: Any, user: Any, **options: Any) -> str:
    """`/settings set` that must fail: an ephemeral error, nothing written or logged."""
    before = await snapshot(env)
    reply = await env.discord.slash("settings set", user=user, **options)
    assert reply.ephemeral and not reply.embeds, reply.text
    assert await snapshot(env) == before
    return reply.text


async def test_show_is_open_to_everyone_and_starts_at_the_defaults(env: Any) -> None:
    d = env.discord
    reply = await d.slash("settings show", user=d.player)
    assert reply.ephemeral
    for line in ("**Ties**: fail", "**Round length**: 60 s", "**Long Rest**: 480 min"):
        assert line in reply.text
    assert "**GM role**: none" in reply.text


async def test_the_gm_changes_only_what_is_given(env: Any) -> None:
    d = env.discord
    reply = await d.slash("settings set", user=d.gm, ties="succeed", round_seconds=6)
    assert not reply.ephemeral
    assert "**Round length**: 60 s → **6 s**" in reply.text
    expected = dataclasses.replace(ChannelSettings(), ties="succeed", round_seconds=6)
    assert (await env.table()).settings == expected
    history = await env.store.history(d.table.id)
    assert [(e.action, e.actor_id) for e in history] == [("settings set", d.gm.id)]


async def test_a_player_may_not_change_settings(env: Any) -> None:
    d = env.discord
    assert "Only the GM" in await refused(env, d.player, rest_rate=5)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({}, "at least one"),
        ({"round_seconds": 0}, "Round length"),
        ({"rest_rate": -1}, "Rest rate"),
        ({"long_minutes": 10**8}, "Long Rest"),
        ({"gm_role": "GM", "clear_gm_role": True}, "not both"),
    ],
)
async def test_bad_settings_are_refused(env: Any, options: dict[str, Any], words: str) -> None:
    d = env.discord
    if "gm_role" in options:
        options["gm_role"] = d.guild.role(options["gm_role"])
    assert words in await refused(env, d.gm, **options)


async def test_everyone_cannot_be_the_gm_role(env: Any) -> None:
    d = env.discord
    everyone = next(r for r in d.guild.roles if r.id == d.guild.id)
    assert "@everyone" in await refused(env, d.gm, gm_role=everyone)


async def test_a_gm_role_makes_its_members_gms_until_cleared(env: Any) -> None:
    d = env.discord
    role = d.guild.role("GM")  # no Manage Channels: only the setting makes nim a GM
    await refused(env, d.named_gm, rest_rate=2)
    await d.slash("settings set", user=d.gm, gm_role=role)
    assert (await env.table()).settings.gm_role_id == role.id
    await d.slash("settings set", user=d.named_gm, rest_rate=2)
    assert (await env.table()).settings.rest_rate == 2
    await d.slash("settings set", user=d.gm, clear_gm_role=True)
    assert (await env.table()).settings.gm_role_id is None
    await refused(env, d.named_gm, rest_rate=3)


async def test_settings_survive_a_restart(env: Any) -> None:
    d = env.discord
    await d.slash("settings set", user=d.gm, ties="succeed", break_minutes=15)
    await env.restart()
    reply = await d.slash("settings show", user=d.player)
    assert "**Ties**: succeed" in reply.text and "**Take a Break**: 15 min" in reply.text
    settings = (await env.table()).settings
    assert (settings.ties, settings.break_minutes) == ("succeed", 15)


async def test_setting_what_is_already_set_says_nothing_changed(env: Any) -> None:
    d = env.discord
    before = await snapshot(env)
    reply = await d.slash("settings set", user=d.gm, ties="fail", round_seconds=60)
    assert reply.embed["title"] == "Nothing changed: the settings were already so"
    assert "→" not in reply.text
    assert await snapshot(env) == before  # and nothing was logged for /undo to find


async def test_the_gm_sets_how_much_history_the_channel_keeps(env: Any) -> None:
    d = env.discord
    shown = await d.slash("settings show", user=d.player)
    assert "**History kept**: 1,000 latest changes" in shown.text
    reply = await d.slash("settings set", user=d.gm, history_keep=50)
    assert "**History kept**: 1,000 latest changes → **50 latest changes**" in reply.text
    assert (await env.table()).settings.history_keep == 50
    history = await d.slash("history", user=d.player)
    assert "history kept" in history.text  # the change itself is in the log, named
    assert "Only the GM" in await refused(env, d.player, history_keep=500)


async def test_history_keep_has_the_bounds_discord_is_told(env: Any) -> None:
    d = env.discord
    (command,) = [c for c in d.commands() if c["name"] == "settings"]
    (set_,) = [o for o in command["options"] if o["name"] == "set"]
    (option,) = [o for o in set_["options"] if o["name"] == "history_keep"]
    assert (option["min_value"], option["max_value"]) == (HISTORY_KEEP_MIN, HISTORY_KEEP_MAX)
    # Past them (had Discord let it through) `bot.options` refuses it; what a channel may hold
    # reaches further, up to what earlier versions let a channel set: it keeps working.
    assert ChannelSettings(history_keep=HISTORY_KEEP_EARLIER_MAX).history_keep > HISTORY_KEEP_MAX
    for bad in (HISTORY_KEEP_MIN - 1, HISTORY_KEEP_EARLIER_MAX + 1):
        with pytest.raises(RulesError, match="History kept must be between 10 and 100000"):
            ChannelSettings(history_keep=bad)
