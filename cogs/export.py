"""`/export`: the GM takes the channel's table and history away as a JSON file."""

from __future__ import annotations

import asyncio
import io
from datetime import UTC, datetime

import discord
from discord import app_commands
from discord.ext import commands

from cogs._reply import private, reply
from cogs._shared import bot_of, require_gm, table_channel_id
from exports.document import BYTES_MAX, export_document, export_key, fit, is_empty
from lang import N_, _, n_
from rules.errors import RulesError
from table.parts import CHANNEL_ONLY

NOTHING = N_(
    "Nothing to export here yet: this channel has no characters, monsters, changed settings,"
    " history or rolls"
)
TOO_LARGE = N_(
    "This channel's export would be over the {most} MiB Discord lets a bot upload, even without"
    " its rolls: its history is too long. Keep fewer changes (`/settings set history_keep:`); the"
    " older ones go as the next changes are saved, then export again"
)


class Export(commands.Cog):
    @app_commands.command(
        name="export",
        description=N_("GM: this channel's table and history as a JSON file"),
    )
    @private()
    @app_commands.guild_only()
    async def export(self, interaction: discord.Interaction) -> None:
        channel_id = await table_channel_id(interaction)  # a thread's is its channel's table
        store = bot_of(interaction).store
        require_gm(interaction, await store.read(channel_id, interaction.guild_id, CHANNEL_ONLY))
        await bot_of(interaction).roll_log.flush()  # the rolls of this last moment too
        table, events, rolls = await store.read_with_history(channel_id, interaction.guild_id)
        if is_empty(table, events, rolls):
            raise RulesError(_(NOTHING))
        now = datetime.now(UTC)
        key = export_key(bot_of(interaction).settings.token)
        document = export_document(table, events, now, rolls)
        # Off the event loop: a file near the limit is written more than once to fit.
        fitted = await asyncio.to_thread(fit, document, key, BYTES_MAX)
        if fitted is None:
            raise RulesError(_(TOO_LARGE, most=BYTES_MAX // 2**20))
        data, left_out = fitted
        name = f"tablekeeper-{channel_id}-{now:%Y%m%d-%H%M%S}.json"
        summary = _(
            "This channel's table: {characters}, {monsters}, settings, clock and {changes}.",
            characters=n_("{n} character", "{n} characters", len(table.characters)),
            monsters=n_("{n} monster", "{n} monsters", len(table.monsters)),
            changes=n_("{n} change", "{n} changes", len(events)),
        )
        if len(rolls) > left_out:
            summary += " " + n_(
                "And {n} roll of its dice.", "And {n} rolls of its dice.", len(rolls) - left_out
            )
        if left_out:
            summary += " " + n_(
                "The oldest {n} roll is left out: with it, the file would be over the {most} MiB"
                " Discord lets a bot upload.",
                "The oldest {n} rolls are left out: with them, the file would be over the {most}"
                " MiB Discord lets a bot upload.",
                left_out,
                most=BYTES_MAX // 2**20,
            )
        await reply(interaction, summary, files=[discord.File(io.BytesIO(data), filename=name)])


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Export())
