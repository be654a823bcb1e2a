"""`/about`: version, uptime, database, shard and links; it works anywhere, a DM included."""

from __future__ import annotations

import time
from importlib.metadata import PackageNotFoundError, version

import discord
from discord import app_commands
from discord.ext import commands

from bot.contexts import anywhere
from cogs._reply import private, reply
from cogs._shared import bot_of
from lang import N_, _
from render.about import About, about_embed


def tablekeeper_version() -> str:
    try:
        return version("tablekeeper")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return _("unknown (not installed)")


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that carries a server's events (Discord's formula); DMs come on shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % max(1, shard_count)


class AboutCog(commands.Cog, name="About"):
    @anywhere
    @app_commands.command(
        name="about", description=N_("Version, uptime, database, shard and links")
    )
    @private()
    async def about(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        count = bot.shard_count or 1
        shard_id = shard_of(interaction.guild_id, count)
        shard = bot.get_shard(shard_id)
        settings = bot.settings
        about = About(
            version=tablekeeper_version(),
            started=int(bot.started_at.timestamp()),
            uptime=time.monotonic() - bot.started_monotonic,
            database=bot.store.dialect,
            shard_id=shard_id,
            shard_count=count,
            latency=float("nan") if shard is None else shard.latency,
            source_url=settings.source_url,
            rules_url=settings.rules_url,
            support_url=settings.support_url,
        )
        await reply(interaction, embed=about_embed(about))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(AboutCog())
