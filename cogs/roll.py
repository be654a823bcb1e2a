"""`/roll`: an open-ended d100 (plus a modifier), or an ordinary dice expression via d20."""

from __future__ import annotations

import random

import discord
from discord import app_commands
from discord.ext import commands

from bot.contexts import stateless
from bot.render.roll import dice_embed, open_ended_embed
from cogs._reply import reply
from rules.dice import DieSource, open_ended
from rules.errors import RulesError
from table.dice_expr import EXAMPLES, EXPRESSION_MAX, roll_expression


class Roll(commands.Cog):
    def __init__(self, rng: DieSource | None = None) -> None:
        # One generator for this cog's dice, never the module-level one.
        self.rng: DieSource = rng or random.SystemRandom()

    @stateless
    @app_commands.command(name="roll", description="Roll an open-ended d100, or any dice")
    @app_commands.describe(
        mod="Added to the open-ended d100, e.g. 25",
        dice=f"Roll these dice instead, e.g. {EXAMPLES.replace('`', '')}",
    )
    @app_commands.guild_only()
    async def roll(
        self,
        interaction: discord.Interaction,
        mod: app_commands.Range[int, -1000, 1000] = 0,
        dice: app_commands.Range[str, 1, EXPRESSION_MAX] | None = None,
    ) -> None:
        if dice is None:
            embed = open_ended_embed(open_ended(self.rng), mod)
        elif mod:
            raise RulesError(f"Put the modifier inside `dice:` (e.g. `{dice.strip()}{mod:+d}`)")
        else:
            rolled = roll_expression(dice, self.rng)
            embed = dice_embed(rolled.expression, rolled.working, rolled.total)
        await reply(interaction, embed=embed)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Roll())
