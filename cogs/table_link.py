"""`/table link` and `/table revoke`: the channel's table on a live, read-only web page.

The GM gets the link privately; anyone who has it watches the table follow the game (web/).
Making and revoking a link are changes like any other (`store.links`): `/history` lists them
and `/undo` takes them back. A thread with a table of its own gets a link of its own."""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot.ack import mark_saved
from cogs._reply import private, reply
from cogs._shared import bot_of, require_gm, table_channel_id
from lang import N_, _
from render.links import NOT_SET_UP, link_text, revoked_text
from rules.errors import RulesError
from store.links import MAKE, REVOKE, link_key
from table.model import Table


def _gm_only(interaction: discord.Interaction) -> Callable[[Table], None]:
    """The check a link's change makes of the table its own transaction reads: the GM only,
    by the settings it finds (a GM role cleared a moment before can't count)."""

    def check(table: Table) -> None:
        require_gm(interaction, table)

    return check


class TableLink(commands.Cog):
    table = app_commands.Group(
        name="table",
        description=N_("GM: this channel's table on a live web page"),
        guild_only=True,
    )

    @table.command(
        name="link",
        description=N_("GM: a link to a live, read-only web page of this channel's table"),
    )
    @private()
    async def link(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        public = bot.settings.public_url
        if public is None:
            raise RulesError(_(NOT_SET_UP))

        token, made = await bot.store.make_link(
            await table_channel_id(interaction),
            interaction.guild_id,
            interaction.user.id,
            str(interaction.locale),
            link_key(bot.settings.token),
            check=_gm_only(interaction),
            interaction_id=interaction.id,
        )
        if made:
            mark_saved(interaction, MAKE)
        await reply(interaction, link_text(f"{public}/t/{token}", made))

    @table.command(
        name="revoke",
        description=N_("GM: kill this channel's web page link at once"),
    )
    @private()
    async def revoke(self, interaction: discord.Interaction) -> None:
        revoked = await bot_of(interaction).store.revoke_link(
            await table_channel_id(interaction),
            interaction.guild_id,
            interaction.user.id,
            check=_gm_only(interaction),
            interaction_id=interaction.id,
        )
        if revoked:
            mark_saved(interaction, REVOKE)
        await reply(interaction, revoked_text(revoked))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TableLink())
