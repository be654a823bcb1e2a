"""`/party chart` and the "Chart" button of `/party show`: the channel's fatigue over game time,
read from its kept history (`store.chart`); the series is built from the rows as read, and drawn,
in the picture's worker (`pictures.fatigue`), off the event loop and the bot's interpreter lock."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.contexts import NotInServer
from bot.language import privately
from cogs._buttons import FixedButton
from cogs._picture import job, paint_built, send_picture
from cogs._shared import bot_of, table_channel_id
from lang import N_
from pictures import Picture
from pictures.painter import Job, Recipe
from render.charts import fatigue_chart_embed
from store.chart import series_of
from table.fatigue_series import (
    SINCE_ALL,
    SINCE_DAY,
    SINCE_EVENING,
    SINCE_LONG_REST,
    FatigueSeries,
)

SINCE_CHOICES = [
    app_commands.Choice(name=N_("This evening's play (default)"), value=SINCE_EVENING),
    app_commands.Choice(name=N_("The last Long Rest"), value=SINCE_LONG_REST),
    app_commands.Choice(name=N_("The start of the game day"), value=SINCE_DAY),
    app_commands.Choice(name=N_("Everything this channel keeps"), value=SINCE_ALL),
]
CHART_OPTIONS = {
    "character": N_("Chart one character (default: the whole party)"),
    "since": N_("From when (default: this evening's play)"),
}


async def chart_reply(
    interaction: discord.Interaction,
    character: str | None,
    since: str,
    private: bool | None = None,
) -> None:
    """Read, draw, reply: a chart that can't be drawn is a clear error, never a blank image."""
    series, picture = await draw_chart(interaction, character, since)
    await send_picture(interaction, fatigue_chart_embed(series), picture, private=private)


async def draw_chart(
    interaction: discord.Interaction, character: str | None, since: str
) -> tuple[FatigueSeries, Picture]:
    """The chart's series and picture: read once it is this chart's turn (`Painter.turn`), the
    series built and drawn in the picture's worker."""
    if interaction.guild_id is None:
        raise NotInServer()
    channel_id = await table_channel_id(interaction)  # a thread charts its channel's table
    store = bot_of(interaction).store
    guild_id = interaction.guild_id

    async def read() -> Job:
        rows = await store.fatigue_chart_rows(channel_id, guild_id, since, character)
        return job(interaction, "fatigue", Recipe(series_of, (rows,), FatigueSeries.as_now))

    series: FatigueSeries
    series, picture = await paint_built(interaction, read)
    return series, picture


class PartyChart(FixedButton, custom_id="tk:party:chart"):
    """ "Chart" on the party board: the party's fatigue this evening, shown only to whoever
    clicked (anyone here may look)."""

    text = N_("Chart")

    async def clicked(self, interaction: discord.Interaction) -> None:
        with privately(interaction):
            await chart_reply(interaction, None, SINCE_EVENING, private=True)
