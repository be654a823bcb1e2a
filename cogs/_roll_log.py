"""Keeping a command's rolls in the channel's roll log, for `/dice report`: after its reply
has gone out, handed to the bot's writer (`bot.roll_writer`), which writes them within a
second, off the reply's path.

Only where a table can be: a server channel of a server that installed the bot (a DM, or a
server where only the player added Tablekeeper, keeps nothing). A thread that plays at its
channel's table keeps them there. A roll that can't be kept (the database out, for `/roll`'s
look at the clock) is left out, with a line in the log: it never costs the reply."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from cogs._shared import CHANNEL_ONLY, bot_of, read_table
from table.model import Table
from table.roll_log import LoggedRoll, Rolled

log = logging.getLogger(__name__)


async def keep_rolls(
    interaction: discord.Interaction,
    rolled: Sequence[Rolled],
    *,
    secret: bool = False,
    table: Table | None = None,
) -> None:
    """Keep `rolled` (in the order rolled: a party save's characters) as this interaction's,
    at the game time of `table` (the channel's, read here when not given)."""
    if interaction.guild_id is None or not interaction.is_guild_integration():
        return
    try:
        if table is None:
            table = await read_table(interaction, CHANNEL_ONLY)
    except Exception as error:  # the reply is out: nothing may fail it now
        log.warning("Roll of interaction %s not kept: %r", interaction.id, error)
        return
    rolls = [
        LoggedRoll(
            interaction.id,
            place,
            interaction.created_at,
            table.clock,
            interaction.user.id,
            secret,
            one,
        )
        for place, one in enumerate(rolled)
    ]
    bot_of(interaction).roll_log.add(table.channel_id, rolls)
