"""`/roll`: an open-ended d100 (plus a modifier), or an ordinary dice expression via d20;
`label:` names it, `secret:` rolls it behind the screen (see `cogs._secret`); in a server
channel the roll goes to its roll log, for `/dice report` (`cogs._roll_log`).

`dice` is the first option: what a player types right after `/roll` fills it, so `/roll 2d6+3`
rolls those dice and `/roll 25` (a plain number) is the open-ended d100 plus 25, as `mod:25` is;
`/roll d100oe+25` says the same in dice. A bare `/roll d100` is an ordinary die, with a note."""

from __future__ import annotations

import random
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.contexts import anywhere
from bot.translator import described
from cogs._options import Label
from cogs._reply import reply
from cogs._roll_log import keep_rolls
from cogs._secret import send_secret
from lang import N_, _
from render.label import labelled
from render.roll import dice_embed, open_ended_embed, with_open_ended_note
from rules.dice import DieSource, open_ended
from rules.errors import RulesError
from table.dice_expr import EXAMPLES, EXPRESSION_MAX, roll_expression
from table.open_ended_expr import MOD_MAX, is_plain_d100, open_ended_modifier
from table.roll_log import d100_rolled, dice_rolled

# The dice expressions `EXAMPLES` shows, one by one: the sentence around them is translated.
FIRST, SECOND, THIRD = re.findall(r"`([^`]+)`", EXAMPLES)


class Roll(commands.Cog):
    def __init__(self, rng: DieSource | None = None) -> None:
        # One generator for this cog's dice, never the module-level one.
        self.rng: DieSource = rng or random.SystemRandom()

    @anywhere
    @app_commands.command(name="roll", description=N_("Roll an open-ended d100, or any dice"))
    @app_commands.describe(
        dice=described(
            N_(
                "Dice, e.g. {first}, {second} or {third}; d100oe or a plain number: the "
                "open-ended d100"
            ),
            first=FIRST,
            second=SECOND,
            third=THIRD,
        ),
        mod=N_("Added to the open-ended d100, e.g. 25"),
        label=N_("What the roll is for, shown with it, e.g. Sneak attack"),
        secret=N_("Only you and the GM see the result; the channel sees that you rolled"),
    )
    async def roll(
        self,
        interaction: discord.Interaction,
        dice: app_commands.Range[str, 1, EXPRESSION_MAX] | None = None,
        mod: app_commands.Range[int, -MOD_MAX, MOD_MAX] = 0,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        if dice is not None and (number := open_ended_modifier(dice, MOD_MAX)) is not None:
            if number and mod:
                raise RulesError(
                    _("Give the d100's modifier once: `/roll {total:+d}`", total=number + mod)
                )
            dice, mod = None, number + mod  # one of the two is 0
        if dice is None:
            d100 = open_ended(self.rng)
            embed = open_ended_embed(d100, mod)
            what = _("d100 roll")
            rolled = d100_rolled(d100, mod)
        elif mod:
            raise RulesError(
                _(
                    "Put the modifier inside `dice:` (e.g. `{dice}{mod:+d}`)",
                    dice=dice.strip(),
                    mod=mod,
                )
            )
        else:
            expression = roll_expression(dice, self.rng)
            embed = dice_embed(expression.expression, expression.working, expression.total)
            if is_plain_d100(dice):
                embed = with_open_ended_note(embed)
            what = _("dice roll")
            rolled = dice_rolled(expression)
        embed = labelled(embed, label)
        if secret:
            await send_secret(interaction, what, [embed], label)
        else:
            await reply(interaction, embed=embed)
        await keep_rolls(interaction, [rolled], secret=secret)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Roll())
