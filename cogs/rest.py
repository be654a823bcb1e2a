"""`/rest break|short|long|minutes`: the whole party (GM) or one character (its owner or GM;
the GM alone during a fight, or where the channel sets `player_rests:gm`: `table.rest_rights`).
A player's rest without `character:` is of the character their commands use, as everywhere.

A party rest moves the channel clock on by the rest's length; one character resting alone
leaves the clock where it is (the rest of the table carries on) and is settled through its
rest's end: the clock later passing over that span changes nothing of theirs
(docs/rules.md#36-every-span-of-game-time-counts-once).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs._fatigue import change_character
from cogs._options import Minutes
from cogs._reply import reply
from cogs._several import characters_autocomplete
from cogs._shared import apply_as, pick_character
from lang import N_, _
from render.fatigue import change_embed, fight_round, report_embed
from table import partyops
from table.active import own_characters
from table.model import Forbidden, Table
from table.parts import PARTY
from table.partyops import CharacterChange, PartyReport
from table.rest_rights import check_may_rest

CHARACTER_HELP = N_("Rest only these: Aria, or Aria, Bórin (default: the party; a player's own)")
PARTY_REST_IS_GMS = N_(
    "Only the GM can rest the whole party; to rest your own character, add `character:`"
)
# "{name} takes a Break", "The party takes a Break": whole sentences, so each language can
# order its own words.
_ONE_DOES = {
    "break": N_("{name} takes a Break"),
    "short": N_("{name} takes a Short Rest"),
    "long": N_("{name} takes a Long Rest"),
    "minutes": N_("{name} rests"),
}
_SEVERAL_DO = {
    "break": N_("{names} take a Break"),
    "short": N_("{names} take a Short Rest"),
    "long": N_("{names} take a Long Rest"),
    "minutes": N_("{names} rest"),
}
_PARTY_DOES = {
    "break": N_("The party takes a Break"),
    "short": N_("The party takes a Short Rest"),
    "long": N_("The party takes a Long Rest"),
    "minutes": N_("The party rests"),
}


async def _rest(
    interaction: discord.Interaction, kind: str, character: str | None, minutes: int | None = None
) -> None:
    action = f"rest {kind}"
    if character is not None:
        await change_character(
            interaction,
            character,
            action,
            lambda table, name: partyops.rest_one(table, name, kind, minutes),
            lambda name: _(_ONE_DOES[kind], name=name),
            may=check_may_rest,
            several=lambda names: _(_SEVERAL_DO[kind], names=names),
        )
        return
    user_id = interaction.user.id

    def run(table: Table, gm: bool) -> tuple[Table, tuple[PartyReport | CharacterChange, Table]]:
        """The GM rests the party; a player, the character their commands use (as with
        `character:` naming it), where the channel lets players rest."""
        if gm:
            new, report = partyops.party_rest(table, kind, minutes)
            return new, (report, new)
        if not own_characters(table, user_id):
            raise Forbidden(_(PARTY_REST_IS_GMS))
        own = pick_character(table, None, user_id)
        check_may_rest(table, gm)
        new, done = partyops.rest_one(table, own.name, kind, minutes)
        return new, (done, new)

    done, after = await apply_as(interaction, action, run, PARTY)
    if isinstance(done, PartyReport):
        embed = report_embed(_(_PARTY_DOES[kind]), done, after.settings.round_seconds)
    else:
        embed = change_embed(
            _(_ONE_DOES[kind], name=done.name), done, after.clock, fight_round(after)
        )
    await reply(interaction, embed=embed)


class Rest(commands.Cog):
    rest = app_commands.Group(
        name="rest", description=N_("Rest off FP: the party (GM) or one character"), guild_only=True
    )

    @rest.command(
        name="break", description=N_("Take a Break: clears the Exhausted cap, then rests")
    )
    @app_commands.describe(character=CHARACTER_HELP)
    @app_commands.autocomplete(character=characters_autocomplete)
    async def take_break(
        self, interaction: discord.Interaction, character: str | None = None
    ) -> None:
        await _rest(interaction, "break", character)

    @rest.command(name="short", description=N_("Short Rest: clears both caps, then rests"))
    @app_commands.describe(character=CHARACTER_HELP)
    @app_commands.autocomplete(character=characters_autocomplete)
    async def short(self, interaction: discord.Interaction, character: str | None = None) -> None:
        await _rest(interaction, "short", character)

    @rest.command(
        name="long",
        description=N_("Long Rest: FP and Temporary FP to 0, caps cleared; VP damage stays"),
    )
    @app_commands.describe(character=CHARACTER_HELP)
    @app_commands.autocomplete(character=characters_autocomplete)
    async def long(self, interaction: discord.Interaction, character: str | None = None) -> None:
        await _rest(interaction, "long", character)

    @rest.command(name="minutes", description=N_("Rest some minutes: no cap is cleared"))
    @app_commands.describe(minutes=N_("Game minutes of rest"), character=CHARACTER_HELP)
    @app_commands.autocomplete(character=characters_autocomplete)
    async def minutes(
        self, interaction: discord.Interaction, minutes: Minutes, character: str | None = None
    ) -> None:
        await _rest(interaction, "minutes", character, minutes)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Rest())
