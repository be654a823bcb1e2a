"""`/save tsr`, `/save wsr` and `/save party`: Save Rolls, read-only (nothing is stored)."""

from __future__ import annotations

import random

import discord
from discord import app_commands
from discord.ext import commands

from bot.render.saves import party_embed, save_embed
from bot.savecalc import DifficultyOptions, SaveOptions, party_inputs, save_inputs
from bot.table import LEVEL_MAX
from cogs._shared import character_autocomplete, read_table, require_gm
from rules.dice import DieSource, open_ended
from rules.saves import DC_MAX, DC_MIN, MODIFIER_LIMIT, SaveKind

# Discord checks these ranges before the bot sees the command; the rules check them again.
Level = app_commands.Range[int, 1, LEVEL_MAX]
AttackLevel = app_commands.Range[int, 1, 1000]
Dc = app_commands.Range[int, DC_MIN, DC_MAX]
Casting = app_commands.Range[int, -1000, 1000]  # an open-ended casting roll can go negative
Modifier = app_commands.Range[int, -MODIFIER_LIMIT, MODIFIER_LIMIT]
Per = app_commands.Range[int, 1, 1000]

_AGAINST = {
    "vs": "Attack Level of the effect (sets the Difficulty)",
    "dc": "A Difficulty number, instead of vs or spell",
    "spell": "The caster's Spell Casting total, instead of vs or dc",
    "mod": "Situational modifier, e.g. -10",
    "per": "Count points of failure per this many points (an effect 'per 5')",
}
_ONE = {
    "level": "Defender's level (default: your character's)",
    "kin": "Kin bonus (default: your character's)",
    "character": "Whose save (default: your character here)",
}


class Saves(commands.Cog):
    save = app_commands.Group(
        name="save",
        description="Roll a Save Roll with all its working",
        guild_only=True,
        allowed_contexts=app_commands.AppCommandContext(guild=True),
    )

    def __init__(self, rng: DieSource | None = None) -> None:
        # One generator for this cog's dice, never the module-level one.
        self.rng: DieSource = rng or random.SystemRandom()

    async def _one(
        self, interaction: discord.Interaction, kind: SaveKind, options: SaveOptions
    ) -> None:
        table = await read_table(interaction)
        inputs = save_inputs(kind, options, table, interaction.user.id)
        result = inputs.resolve(open_ended(self.rng))
        await interaction.response.send_message(embed=save_embed(result, inputs.name))

    @save.command(name="tsr", description="Toughness Save Roll: poison, disease, fatigue")
    @app_commands.describe(**_AGAINST, **_ONE, stat="Fortitude (default: your character's)")
    @app_commands.autocomplete(character=character_autocomplete)
    async def tsr(
        self,
        interaction: discord.Interaction,
        vs: AttackLevel | None = None,
        dc: Dc | None = None,
        spell: Casting | None = None,
        level: Level | None = None,
        stat: Modifier | None = None,
        kin: Modifier | None = None,
        mod: Modifier = 0,
        per: Per | None = None,
        character: str | None = None,
    ) -> None:
        against = DifficultyOptions(vs=vs, dc=dc, spell=spell)
        options = SaveOptions(
            against, level=level, stat=stat, kin=kin, mod=mod, per=per, character=character
        )
        await self._one(interaction, SaveKind.TSR, options)

    @save.command(name="wsr", description="Willpower Save Roll: fear, illusions, mind control")
    @app_commands.describe(**_AGAINST, **_ONE, stat="Wisdom (default: your character's)")
    @app_commands.autocomplete(character=character_autocomplete)
    async def wsr(
        self,
        interaction: discord.Interaction,
        vs: AttackLevel | None = None,
        dc: Dc | None = None,
        spell: Casting | None = None,
        level: Level | None = None,
        stat: Modifier | None = None,
        kin: Modifier | None = None,
        mod: Modifier = 0,
        per: Per | None = None,
        character: str | None = None,
    ) -> None:
        against = DifficultyOptions(vs=vs, dc=dc, spell=spell)
        options = SaveOptions(
            against, level=level, stat=stat, kin=kin, mod=mod, per=per, character=character
        )
        await self._one(interaction, SaveKind.WSR, options)

    @save.command(name="party", description="GM: the same save for every character here")
    @app_commands.describe(kind="Toughness (TSR) or Willpower (WSR)", **_AGAINST)
    @app_commands.choices(
        kind=[
            app_commands.Choice(name="TSR (Toughness)", value="tsr"),
            app_commands.Choice(name="WSR (Willpower)", value="wsr"),
        ]
    )
    async def party(
        self,
        interaction: discord.Interaction,
        kind: str,
        vs: AttackLevel | None = None,
        dc: Dc | None = None,
        spell: Casting | None = None,
        mod: Modifier = 0,
        per: Per | None = None,
    ) -> None:
        table = await read_table(interaction)
        await require_gm(interaction, table)
        save_kind = SaveKind(kind)
        against = DifficultyOptions(vs=vs, dc=dc, spell=spell)
        everyone = party_inputs(save_kind, against, table, mod=mod, per=per)
        results = [(i.name or "", i.resolve(open_ended(self.rng))) for i in everyone]
        embed = party_embed(save_kind, everyone[0].difficulty, results, mod=mod, per=per)
        await interaction.response.send_message(embed=embed)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Saves())
