"""`/dice report`: the dice's own report, from the channel's roll log (`cogs._roll_log` keeps
every `/save` and `/roll`). Are a character's dice cursed? Their saves against the exact odds,
with a verdict in plain words, a picture, and the first d100s against a flat die.

The report is read (`store.roll_log`) once it is the picture's turn, and built and drawn in the
picture's worker (`store.roll_log.report_of`, `pictures.dice`), off the event loop. The table's
report never counts a secret roll; the GM's `secret:True` counts them and is shown to the GM
alone; a player asking for it is refused, politely, and nothing is shown.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.permissions import is_gm
from cogs._picture import job, reply_built_picture
from cogs._reply import private
from cogs._shared import CHANNEL_ONLY, bot_of, character_autocomplete, read_table
from lang import N_, _
from pictures.painter import Job, Recipe
from render.dice import dice_report_embed
from store.roll_log import report_of
from table.dice_report import ALL, EVENING
from table.model import Forbidden

Name = app_commands.Range[str, 1, 100]  # a lookup in the log: an unknown name gets a clear error
SECRET_IS_THE_GMS = N_(
    "Only the GM sees the report with secret rolls counted: `/dice report` without `secret:` "
    "shows the table's"
)


class Dice(commands.Cog):
    dice = app_commands.Group(
        name="dice",
        description=N_("The dice's own report: are they cursed?"),
        guild_only=True,
    )

    @dice.command(
        name="report",
        description=N_("Each character's saves against the exact odds, and the d100s, as a chart"),
    )
    @private(lambda options: options.secret)
    @app_commands.describe(
        since=N_("From when (default: this evening)"),
        character=N_("One character's dice (default: everyone's)"),
        secret=N_("GM: count secret rolls too, shown only to you (a player asking is refused)"),
    )
    @app_commands.choices(
        since=[
            app_commands.Choice(name=N_("This evening (default)"), value=EVENING),
            app_commands.Choice(name=N_("Everything this channel keeps"), value=ALL),
        ]
    )
    @app_commands.autocomplete(character=character_autocomplete)
    async def report(
        self,
        interaction: discord.Interaction,
        since: str = EVENING,
        character: Name | None = None,
        secret: bool = False,
    ) -> None:
        table = await read_table(interaction, CHANNEL_ONLY)  # a thread's is its channel's
        if secret and not is_gm(interaction, table.settings):
            raise Forbidden(_(SECRET_IS_THE_GMS))
        bot = bot_of(interaction)

        async def read() -> Job:
            await bot.roll_log.flush()  # the rolls of this last moment count too
            rows = await bot.store.dice_report_rows(table.channel_id, since, character, secret)
            return job(interaction, "dice", Recipe(report_of, (rows,)))

        await reply_built_picture(interaction, read, dice_report_embed)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Dice())
