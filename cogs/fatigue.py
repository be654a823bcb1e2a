"""`/fatigue spend|recover|temp|show`: one character's Fatigue Points.

Players change their own characters, the GM anyone's. Removing FP directly (`recover`) is the
GM's alone, as RULES.md §3 has it; players lose FP by resting (`/rest ... character:`).
"""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot import partyops
from bot.partyops import CharacterChange
from bot.render.fatigue import change_embed, character_embed
from bot.table import Table, check_can_change
from cogs._shared import bot_of, caller_is_gm, character_autocomplete, pick_character, read_table
from rules.errors import RulesError

FP_MAX_AT_ONCE = 1000  # more FP in one go is surely a typo
Amount = app_commands.Range[int, 1, FP_MAX_AT_ONCE]
Minutes = app_commands.Range[int, 1, partyops.MINUTES_MAX]
CHARACTER_HELP = "Whose fatigue (default: your character here)"
RECOVER_IS_GMS = "Only the GM can remove FP directly; rest it off with `/rest` and `character:`."
OneChange = Callable[[Table, str], tuple[Table, CharacterChange]]


async def change_character(
    interaction: discord.Interaction,
    name: str | None,
    action: str,
    change: OneChange,
    title: Callable[[str], str],
    gm_only: str | None = None,
) -> None:
    """Apply `change` to the picked character in one transaction (its owner or the GM only;
    with `gm_only`, the GM alone, and that text tells anyone else), then reply with the work.
    `title` gets the character's name."""
    user_id = interaction.user.id
    gm = await caller_is_gm(interaction)
    if gm_only is not None and not gm:
        raise RulesError(gm_only)

    def run(table: Table) -> tuple[Table, tuple[CharacterChange, int]]:
        character = pick_character(table, name, user_id)
        check_can_change(user_id, gm, character)
        new, done = change(table, character.name)
        return new, (done, new.clock)

    done, clock = await bot_of(interaction).store.apply(
        interaction.channel_id or 0, interaction.guild_id, user_id, action, run
    )
    await interaction.response.send_message(embed=change_embed(title(done.name), done, clock))


class Fatigue(commands.Cog):
    fatigue = app_commands.Group(
        name="fatigue", description="Spend, recover and show a character's FP", guild_only=True
    )

    @fatigue.command(name="spend", description="An action costs FP: Temporary FP absorbs first")
    @app_commands.describe(amount="FP the action costs (default 1)", character=CHARACTER_HELP)
    @app_commands.autocomplete(character=character_autocomplete)
    async def spend(
        self, interaction: discord.Interaction, amount: Amount = 1, character: str | None = None
    ) -> None:
        await change_character(
            interaction,
            character,
            "fatigue spend",
            lambda table, name: partyops.spend(table, name, amount),
            lambda name: f"{name} spends {amount} FP",
        )

    @fatigue.command(name="recover", description="GM: remove FP directly (a cap's floor holds)")
    @app_commands.describe(amount="FP to remove (default 1)", character=CHARACTER_HELP)
    @app_commands.autocomplete(character=character_autocomplete)
    async def recover(
        self, interaction: discord.Interaction, amount: Amount = 1, character: str | None = None
    ) -> None:
        await change_character(
            interaction,
            character,
            "fatigue recover",
            lambda table, name: partyops.remove(table, name, amount),
            lambda name: f"{name} recovers up to {amount} FP",
            gm_only=RECOVER_IS_GMS,
        )

    @fatigue.command(name="temp", description="Grant Temporary FP: lowers FP first, then pools")
    @app_commands.describe(
        amount="Temporary FP granted",
        minutes="How long it lasts in game minutes (default 10)",
        character=CHARACTER_HELP,
    )
    @app_commands.autocomplete(character=character_autocomplete)
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
            lambda table, name: partyops.give_temp(table, name, amount, minutes),
            lambda name: f"{name} gains {amount} Temporary FP",
        )

    @fatigue.command(name="show", description="A character's FP, band, caps and Temporary FP")
    @app_commands.describe(character=CHARACTER_HELP)
    @app_commands.autocomplete(character=character_autocomplete)
    async def show(self, interaction: discord.Interaction, character: str | None = None) -> None:
        table = await read_table(interaction)
        found = pick_character(table, character, interaction.user.id)
        await interaction.response.send_message(embed=character_embed(found, table.clock))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Fatigue())
