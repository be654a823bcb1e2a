"""`/settings show|set`: the channel's table settings (docs/rules.md#02-conventions)."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.render.fatigue import clock_line
from bot.render.settings import settings_embed
from cogs._reply import PRIVATE, reply
from cogs._shared import CHANNEL_ONLY, apply_as, gm_only, read_table
from rules.errors import RulesError
from table.model import (
    HISTORY_KEEP_DEFAULT,
    HISTORY_KEEP_MAX,
    HISTORY_KEEP_MIN,
    ChannelSettings,
    Table,
)
from table.sheet import SettingsOptions, change_settings

IN_THREAD = "Whether threads share the table is set in their channel, not in a thread"


class Settings(commands.Cog):
    settings = app_commands.Group(
        name="settings", description="The table's rules settings for this channel", guild_only=True
    )

    @settings.command(name="show", description="Show this channel's settings", extras=PRIVATE)
    async def show(self, interaction: discord.Interaction) -> None:
        table = await read_table(interaction, CHANNEL_ONLY)
        await reply(interaction, embed=settings_embed(table.settings))

    @settings.command(name="set", description="GM: change settings; only the options you give")
    @app_commands.describe(
        ties="Does a Save Roll that ties the Difficulty fail (the text) or succeed?",
        round_seconds="Game seconds in a round (default 60)",
        rest_rate="FP removed per minute of rest (default 1)",
        break_minutes="Minutes in Take a Break (default 10)",
        short_minutes="Minutes in a Short Rest (default 60)",
        long_minutes="Minutes in a Long Rest (default 480)",
        gm_role="Members with this role are GMs here (besides Manage Channels)",
        clear_gm_role="Forget the GM role: only Manage Channels makes a GM",
        history_keep=(
            f"How many latest changes /history and /undo keep (default {HISTORY_KEEP_DEFAULT:,})"
        ),
        threads="Do this channel's threads play at its table (shared) or keep their own?",
    )
    async def set_(
        self,
        interaction: discord.Interaction,
        ties: Literal["fail", "succeed"] | None = None,
        round_seconds: int | None = None,
        rest_rate: int | None = None,
        break_minutes: int | None = None,
        short_minutes: int | None = None,
        long_minutes: int | None = None,
        gm_role: discord.Role | None = None,
        clear_gm_role: bool = False,
        history_keep: app_commands.Range[int, HISTORY_KEEP_MIN, HISTORY_KEEP_MAX] | None = None,
        threads: Literal["shared", "own"] | None = None,
    ) -> None:
        if threads is not None and isinstance(interaction.channel, discord.Thread):
            raise RulesError(IN_THREAD)
        options = SettingsOptions(
            ties=ties,
            round_seconds=round_seconds,
            rest_rate=rest_rate,
            break_minutes=break_minutes,
            short_minutes=short_minutes,
            long_minutes=long_minutes,
            gm_role_id=None if gm_role is None else gm_role.id,
            clear_gm_role=clear_gm_role,
            history_keep=history_keep,
            threads=threads,
        )
        everyone = gm_role is not None and gm_role.is_default()

        def step(table: Table) -> tuple[Table, tuple[ChannelSettings, ChannelSettings, str]]:
            if everyone:  # after the GM check, so a non-GM hears only that they aren't one
                raise RulesError("@everyone can't be the GM role: pick a role only GMs have")
            new, (old, changed) = change_settings(table, options)
            line = clock_line(new.clock, changed.round_seconds, new.round_number)
            return new, (old, changed, line)

        before, after, clock = await apply_as(
            interaction, "settings set", gm_only(step), parts=CHANNEL_ONLY
        )
        await reply(interaction, embed=settings_embed(after, changed=before, clock=clock))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Settings())
