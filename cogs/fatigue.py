"""`/fatigue spend|recover|temp|clear_vp|show`: one character's Fatigue Points.

Players change their own characters, the GM anyone's. Removing FP directly (`recover`) and
granting Temporary FP (`temp`, which lowers FP first) are the GM's alone
(docs/rules.md#37-recovery-and-rests); players rest it off (`/rest ... character:`) where the
channel lets them.
VP damage is a tally the GM applies on the sheet: only the GM's `clear_vp` (or `/party reset`)
clears it (docs/rules.md#33-gaining-fp-and-vp-damage).
`/fatigue show` and `/fatigue spend` replies carry a button that spends 1 FP more on the same
character (`cogs._fatigue.SpendOne`).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs._buttons import buttons_view
from cogs._fatigue import SPEND_ONE, SpendOne, change_character, spend_fp
from cogs._options import Amount, Minutes
from cogs._reply import reply
from cogs._several import characters_autocomplete
from cogs._shared import character_autocomplete, pick_character, read_table
from lang import N_, _
from render.fatigue import character_embed, fight_round
from table import partyops
from table.parts import PARTY

CHARACTER_HELP = N_("Whose fatigue (default: your character here)")
CHARACTERS_HELP = N_("Whose fatigue; several at once: Aria, Bórin (default: your character here)")
RECOVER_IS_GMS = N_("Only the GM can remove FP directly; rest it off with `/rest` and `character:`")
CLEAR_VP_IS_GMS = N_("Only the GM can clear VP damage, once it is applied to the character sheet")
TEMP_IS_GMS = N_("Only the GM can grant Temporary FP: lowering FP is an effect the GM grants")


class Fatigue(commands.Cog):
    fatigue = app_commands.Group(
        name="fatigue", description=N_("Spend, recover and show a character's FP"), guild_only=True
    )

    @fatigue.command(name="spend", description=N_("An action costs FP: Temporary FP absorbs first"))
    @app_commands.describe(amount=N_("FP the action costs (default 1)"), character=CHARACTERS_HELP)
    @app_commands.autocomplete(character=characters_autocomplete)
    async def spend(
        self, interaction: discord.Interaction, amount: Amount = 1, character: str | None = None
    ) -> None:
        await spend_fp(interaction, amount, character)

    @fatigue.command(name="recover", description=N_("GM: remove FP directly (a cap's floor holds)"))
    @app_commands.describe(amount=N_("FP to remove (default 1)"), character=CHARACTERS_HELP)
    @app_commands.autocomplete(character=characters_autocomplete)
    async def recover(
        self, interaction: discord.Interaction, amount: Amount = 1, character: str | None = None
    ) -> None:
        await change_character(
            interaction,
            character,
            "fatigue recover",
            lambda table, name: partyops.recover(table, name, amount),
            lambda name: _("{name} recovers up to {amount} FP", name=name, amount=amount),
            gm_only=RECOVER_IS_GMS,
            several=lambda names: _(
                "{names} recover up to {amount} FP", names=names, amount=amount
            ),
        )

    @fatigue.command(
        name="temp", description=N_("GM: grant Temporary FP: lowers FP first, then pools")
    )
    @app_commands.describe(
        amount=N_("Temporary FP granted"),
        minutes=N_("How long it lasts in game minutes (default 10)"),
        character=CHARACTERS_HELP,
    )
    @app_commands.autocomplete(character=characters_autocomplete)
    async def temp(
        self,
        interaction: discord.Interaction,
        amount: Amount,
        minutes: Minutes | None = None,
        character: str | None = None,
    ) -> None:
        await change_character(
            interaction,
            character,
            "fatigue temp",
            lambda table, name: partyops.temp(table, name, amount, minutes),
            lambda name: _("{name} gains {amount} Temporary FP", name=name, amount=amount),
            gm_only=TEMP_IS_GMS,
            several=lambda names: _(
                "{names} gain {amount} Temporary FP each", names=names, amount=amount
            ),
        )

    @fatigue.command(
        name="clear_vp",
        description=N_(
            "GM: clear the VP damage tally once applied to the sheet (no rest clears it)"
        ),
    )
    @app_commands.describe(character=CHARACTERS_HELP)
    @app_commands.autocomplete(character=characters_autocomplete)
    async def clear_vp(
        self, interaction: discord.Interaction, character: str | None = None
    ) -> None:
        await change_character(
            interaction,
            character,
            "fatigue clear_vp",
            partyops.clear_vp,
            lambda name: _("{name}'s VP damage tally is cleared", name=name),
            gm_only=CLEAR_VP_IS_GMS,
            several=lambda names: _("VP damage tallies cleared: {names}", names=names),
        )

    @fatigue.command(name="show", description=N_("A character's FP, band, caps and Temporary FP"))
    @app_commands.describe(character=CHARACTER_HELP)
    @app_commands.autocomplete(character=character_autocomplete)
    async def show(self, interaction: discord.Interaction, character: str | None = None) -> None:
        table = await read_table(interaction, PARTY)
        found = pick_character(table, character, interaction.user.id)
        view = buttons_view(SpendOne(found.name, SPEND_ONE))
        embed = character_embed(found, table.clock, fight_round(table))
        await reply(interaction, embed=embed, view=view)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(SpendOne)  # before any click, and after every restart
    await bot.add_cog(Fatigue())


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(SpendOne)
