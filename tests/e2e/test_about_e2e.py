"""`/about` through the real client and the local Discord: in a server channel, in the bot's
DM and in a group DM; its links from the settings, or where to look without them."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from cogs.about import shard_of, tablekeeper_version
from render.about import NO_SOURCE, NO_SUPPORT, uptime_text
from tests.e2e.helpers import fields, snapshot


@pytest.mark.parametrize("where", ["table", "dm", "group"])
async def test_about_everywhere(env: Any, where: str) -> None:
    d = env.discord
    channel = {"table": d.table, "dm": d.dm(d.player), "group": d.group_dm(d.player, d.owner)}
    before = await snapshot(env)
    reply = await d.slash("about", user=d.player, channel=channel[where])
    assert reply.ephemeral
    shown = fields(reply)
    assert shown["Version"] == tablekeeper_version() != ""
    assert shown["Database"] == "SQLite"
    assert shown["Uptime"].endswith(f"(since <t:{int(env.bot.started_at.timestamp())}:f>)")
    count = env.bot.shard_count or 1
    guild_id = d.guild.id if where == "table" else None
    assert shown["Shard"].startswith(f"{shard_of(guild_id, count)} (of {count}, counted from 0)")
    assert f"**Source**: {NO_SOURCE}" in shown["Links"]
    assert "**Rules reference**: `docs/rules.md` in Tablekeeper's source" in shown["Links"]
    assert f"**Support**: {NO_SUPPORT}" in shown["Links"]
    assert await snapshot(env) == before


async def test_about_shows_the_configured_links(env: Any) -> None:
    d = env.discord
    source = "https://github.com/example/tablekeeper"
    env.bot.settings = dataclasses.replace(
        env.bot.settings, source_url=source, support_url="https://discord.gg/example"
    )
    links = fields(await d.slash("about", user=d.gm))["Links"]
    assert f"**Source**: {source}" in links
    assert f"**Rules reference**: {source}/blob/main/docs/rules.md" in links
    assert "**Support**: https://discord.gg/example" in links
    env.bot.settings = dataclasses.replace(env.bot.settings, rules_url="https://example.org/r")
    links = fields(await d.slash("about", user=d.gm))["Links"]
    assert "**Rules reference**: https://example.org/r" in links


def test_uptime_text() -> None:
    assert uptime_text(0) == "0 s"
    assert uptime_text(42.7) == "42 s"
    assert uptime_text(2 * 3600 + 5 * 60 + 9) == "2 h 5 min"
    assert uptime_text(3 * 86_400 + 4 * 3600 + 1) == "3 d 4 h"


def test_shard_of_follows_discords_formula() -> None:
    assert shard_of(None, 4) == 0
    guild = 197038439483310086
    assert shard_of(guild, 4) == (guild >> 22) % 4
    assert shard_of(guild, 1) == 0
