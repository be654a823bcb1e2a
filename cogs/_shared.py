"""What every cog needs: the channel's table, who may act, and picking a character."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.permissions import is_gm
from bot.table import Character, Table
from rules.errors import RulesError

if TYPE_CHECKING:
    from bot.client import Tablekeeper


def bot_of(interaction: discord.Interaction) -> Tablekeeper:
    return interaction.client  # type: ignore[return-value]


async def read_table(interaction: discord.Interaction) -> Table:
    return await bot_of(interaction).store.read(interaction.channel_id or 0, interaction.guild_id)


async def caller_is_gm(interaction: discord.Interaction, table: Table | None = None) -> bool:
    table = table or await read_table(interaction)
    return is_gm(interaction, table.settings)


GM_ONLY = "Only the GM can do that here (Manage Channels, or the channel's GM role)"


async def require_gm(interaction: discord.Interaction, table: Table | None = None) -> None:
    if not await caller_is_gm(interaction, table):
        raise RulesError(GM_ONLY)


def pick_character(table: Table, name: str | None, user_id: int) -> Character:
    """The named character, else the caller's only character in this channel."""
    if name:
        return table.get(name)
    own = [c for c in table.characters if c.owner_id == user_id]
    if not own:
        raise RulesError(
            "You have no character in this channel yet: make one with `/character create`, "
            "or name one with `character:`"
        )
    if len(own) > 1:
        names = ", ".join(c.name for c in own[:5])
        raise RulesError(f"You have several characters here ({names}): name one with `character:`")
    return own[0]


async def character_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The channel's characters, the caller's own first, filtered by what was typed."""
    table = await read_table(interaction)
    typed = current.casefold()
    names = sorted(
        (c for c in table.characters if typed in c.key),
        key=lambda c: (c.owner_id != interaction.user.id, c.key),
    )
    return [app_commands.Choice(name=c.name, value=c.name) for c in names[:25]]
