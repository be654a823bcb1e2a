"""Discord's shard arithmetic, and guilds made to land on a chosen shard.

A guild belongs to shard `(guild_id >> 22) % shard_count`; events without a guild (DMs) go to
shard 0 (https://discord.com/developers/docs/events/gateway#sharding).
"""

from __future__ import annotations

from typing import Any

from tests.localdiscord.default_world import World
from tests.localdiscord.world import Guild, new_guild, new_id

_LOW_BITS = (1 << 22) - 1


def shard_of(guild_id: int, shard_count: int) -> int:
    return (guild_id >> 22) % shard_count


def event_shard(data: dict[str, Any], shard_count: int) -> int:
    """The shard a dispatch goes to: its guild's, or 0 for an event outside any guild."""
    guild_id = data.get("guild_id")
    return 0 if guild_id is None else shard_of(int(guild_id), shard_count)


def id_on_shard(shard: int, shard_count: int) -> int:
    """A fresh snowflake whose timestamp bits put it on `shard`. The local ids count up one by
    one, so without this every guild of a test would share one shard."""
    base = new_id()
    stamp = base >> 22
    stamp += (shard - stamp) % shard_count
    return (stamp << 22) | (base & _LOW_BITS)


def add_guild_on_shard(world: World, name: str, shard: int, shard_count: int) -> Guild:
    """A new guild on `shard` with a #table, the world's GM, players and the bot as members
    (the GM owns it, so is GM in every channel)."""
    guild = new_guild(name, world.gm)
    guild.id = id_on_shard(shard, shard_count)
    guild.roles[0].id = guild.id  # @everyone's id is the guild's
    guild.add_channel("table")
    for user in (world.bot, world.player, world.player2):
        guild.add_member(user)
    world.guilds.append(guild)
    return guild
