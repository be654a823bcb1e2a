"""`/save tsr`, `/save wsr` and `/save party`: Save Rolls. Nothing at the table changes; in a
server channel each roll is kept in its roll log after the reply, for `/dice report`.

Each reply has a "Roll again" button (`SaveAgain`, `PartySaveAgain`) whose custom_id holds the
save's options, so it rolls fresh dice for the same save even after a restart: the character's
numbers are read from the store again, and the new roll is a new message below the old one.
"""

from __future__ import annotations

import random
from typing import Any, Self, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.contexts import anywhere
from bot.permissions import is_gm
from cogs._buttons import (
    ID_CODE,
    TableButton,
    buttons_view,
    id_code,
    id_from_code,
    optional_int,
    optional_text,
)
from cogs._odds import no_secret_chart, reply_odds
from cogs._options import Label
from cogs._reply import reply
from cogs._roll_log import keep_rolls
from cogs._save_ids import (
    AGAINST_ID,
    MAYBE_INT_ID,
    MOD_ID,
    PER_ID,
    again_inputs,
    again_options,
    against_code,
    against_from_code,
)
from cogs._secret import send_secret
from cogs._shared import bot_of, character_autocomplete, read_table, require_gm
from lang import N_, _
from render.label import labelled
from render.saves import party_embed, save_embed
from rules.dice import DieSource, open_ended
from rules.errors import RulesError
from rules.saves import (
    CASTING_LIMIT,
    DC_MAX,
    DC_MIN,
    LEVEL_LIMIT,
    MODIFIER_LIMIT,
    PER_MAX,
    SaveKind,
)
from table.model import LEVEL_MAX, Forbidden, Table
from table.parts import PARTY
from table.roll_log import save_rolled
from table.savecalc import DifficultyOptions, SaveInputs, SaveOptions, party_inputs, save_inputs

# Discord checks these ranges before the bot sees the command; the rules check them again.
Level = app_commands.Range[int, 1, LEVEL_MAX]
AttackLevel = app_commands.Range[int, 1, LEVEL_LIMIT]
Dc = app_commands.Range[int, DC_MIN, DC_MAX]
Casting = app_commands.Range[int, -CASTING_LIMIT, CASTING_LIMIT]  # open-ended: may be < 0
Modifier = app_commands.Range[int, -MODIFIER_LIMIT, MODIFIER_LIMIT]
Per = app_commands.Range[int, 1, PER_MAX]

_AGAINST = {
    "vs": N_("Attack Level of the effect (sets the Difficulty)"),
    "dc": N_("A Difficulty number, instead of vs or spell"),
    "spell": N_("The caster's Spell Casting total, instead of vs or dc"),
    "mod": N_("Situational modifier, e.g. -10"),
    "per": N_("Count points of failure per this many points (an effect 'per 5')"),
    "label": N_("What the save is for, shown with it, e.g. Poison"),
    "secret": N_("Only you and the GM see the result; the channel sees that you rolled"),
    "chart": N_("Show the odds as a chart: each Attack Level, or each casting total"),
}
_ONE = {
    "level": N_("Defender's level (default: your character's)"),
    "kin": N_("Kin bonus (default: your character's)"),
    "character": N_("Whose save (default: your character here)"),
}


IN_A_DM = N_(
    "Characters live in server channels: use this in a server channel, or give `level:` "
    "(and `stat:`, `kin:`) for a plain roll here"
)
AGAIN = N_("Roll again")  # translated when shown
ODDS = N_("Odds")
PRIMARY, SECONDARY = discord.ButtonStyle.primary, discord.ButtonStyle.secondary
ROLLER_OR_GM = N_("Only the player who rolled this save, or the GM, can roll it again")
SAVE_WORDS = {SaveKind.TSR: N_("TSR (Toughness save)"), SaveKind.WSR: N_("WSR (Willpower save)")}


async def save_table(interaction: discord.Interaction, options: SaveOptions) -> Table:
    """The channel's table; outside a server, where a plain roll with numbers still works,
    an empty table with the default settings (no character lives in a DM)."""
    if interaction.guild_id is not None:
        return await read_table(interaction, PARTY)
    if options.character is not None or options.level is None:
        raise RulesError(_(IN_A_DM))
    return Table(interaction.channel_id or 1, None)


def secret_what(kind: SaveKind) -> str:
    """`WSR (Willpower save)`: the kind of save in words, with no number of the result."""
    return _(SAVE_WORDS[kind])


def saves_cog(interaction: discord.Interaction) -> Saves:
    cog = bot_of(interaction).get_cog("Saves")
    if cog is None:
        raise RuntimeError("the Saves cog is not loaded")
    return cast(Saves, cog)


class SaveAgain(
    TableButton,
    template=(
        r"tk:(?P<what>save|odds):(?P<kind>tsr|wsr):"
        + AGAINST_ID
        + ":"
        + MOD_ID
        + ":"
        + PER_ID
        + r":(?P<roller>"
        + ID_CODE
        + r"):(?P<level>\d{0,3}):(?P<stat>"
        + MAYBE_INT_ID
        + r"):(?P<kin>"
        + MAYBE_INT_ID
        + r"):(?P<name>.*)"
    ),
):
    """Roll a `/save tsr|wsr` again (the roller or the GM), or show its odds (`odds`: anyone,
    privately); the name comes last (it may hold colons) and is empty for a plain roll, whose
    level, stat and kin are all kept."""

    def __init__(
        self, kind: SaveKind, options: SaveOptions, roller_id: int, odds: bool = False
    ) -> None:
        self.kind, self.options, self.roller_id, self.odds = kind, options, roller_id, odds
        pieces = (
            "tk:odds" if odds else "tk:save",
            kind.value,
            against_code(options.against),
            str(options.mod),
            optional_text(options.per),
            id_code(roller_id),
            optional_text(options.level),
            optional_text(options.stat),
            optional_text(options.kin),
            options.character or "",
        )
        label, style = (_(ODDS), SECONDARY) if odds else (_(AGAIN), PRIMARY)
        super().__init__(":".join(pieces), label, style=style)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        options = SaveOptions(
            against_from_code(match["against"]),
            level=optional_int(match["level"]),
            stat=optional_int(match["stat"]),
            kin=optional_int(match["kin"]),
            mod=int(match["mod"]),
            per=optional_int(match["per"]),
            character=match["name"] or None,
        )
        roller = id_from_code(match["roller"])
        return cls(SaveKind(match["kind"]), options, roller, match["what"] == "odds")

    async def clicked(self, interaction: discord.Interaction) -> None:
        table = await save_table(interaction, self.options)
        if self.odds:
            inputs = again_inputs(self.kind, self.options, table, self.roller_id)
            await reply_odds(interaction, [inputs], self.options.against, private=True)
            return
        if interaction.user.id != self.roller_id and not is_gm(interaction, table.settings):
            raise Forbidden(_(ROLLER_OR_GM))
        inputs = again_inputs(self.kind, self.options, table, self.roller_id)
        cog = saves_cog(interaction)
        await cog.reply_one(interaction, inputs, self.options, self.roller_id, table=table)


class PartySaveAgain(
    TableButton,
    template=r"tk:(?P<what>psave|podds):(?P<kind>tsr|wsr):"
    + AGAINST_ID
    + ":"
    + MOD_ID
    + ":"
    + PER_ID,
):
    """Roll a `/save party` again for everyone here now (the GM only), or show everyone's odds
    (`odds`: anyone, privately)."""

    def __init__(
        self,
        kind: SaveKind,
        against: DifficultyOptions,
        mod: int,
        per: int | None,
        odds: bool = False,
    ) -> None:
        self.kind, self.against, self.mod, self.per, self.odds = kind, against, mod, per, odds
        what = "tk:podds" if odds else "tk:psave"
        pieces = (what, kind.value, against_code(against), str(mod), optional_text(per))
        label, style = (_(ODDS), SECONDARY) if odds else (_(AGAIN), PRIMARY)
        super().__init__(":".join(pieces), label, style=style)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        against = against_from_code(match["against"])
        kind, odds = SaveKind(match["kind"]), match["what"] == "podds"
        return cls(kind, against, int(match["mod"]), optional_int(match["per"]), odds)

    async def clicked(self, interaction: discord.Interaction) -> None:
        if self.odds:
            table = await read_table(interaction, PARTY)
            everyone = party_inputs(self.kind, self.against, table, mod=self.mod, per=self.per)
            await reply_odds(interaction, everyone, self.against, private=True)
            return
        cog = saves_cog(interaction)
        await cog.roll_party(interaction, self.kind, self.against, self.mod, self.per)


class Saves(commands.Cog):
    # Anywhere, a DM included, with the numbers given; stored characters and `/save party`
    # need a server channel (the party's own `guild_only` is the bot's check alone: Discord
    # applies contexts to the whole /save command).
    save = anywhere(
        app_commands.Group(name="save", description=N_("Roll a Save Roll with all its working"))
    )

    def __init__(self, rng: DieSource | None = None) -> None:
        # One generator for this cog's dice, never the module-level one.
        self.rng: DieSource = rng or random.SystemRandom()

    async def _one(
        self,
        interaction: discord.Interaction,
        kind: SaveKind,
        options: SaveOptions,
        label: str | None = None,
        secret: bool = False,
        chart: bool = False,
    ) -> None:
        no_secret_chart(secret, chart)
        table = await save_table(interaction, options)
        inputs = save_inputs(kind, options, table, interaction.user.id)
        again = again_options(options, inputs)
        user = interaction.user.id
        await self.reply_one(interaction, inputs, again, user, label, secret, chart, table)

    async def reply_one(
        self,
        interaction: discord.Interaction,
        inputs: SaveInputs,
        again: SaveOptions,
        roller_id: int,
        label: str | None = None,
        secret: bool = False,
        chart: bool = False,
        table: Table | None = None,
    ) -> None:
        """Roll, and reply with the working, buttons to roll the same save again and to see its
        odds, and with `chart` the odds' picture (a secret save has none of these: rolling
        again would show it to the channel); then keep the roll in `table`'s roll log."""
        result = inputs.resolve(open_ended(self.rng))
        embed = labelled(save_embed(result, inputs.name), label)
        rolled = [save_rolled(result, inputs.name)]
        if secret:
            what = secret_what(inputs.kind)
            if inputs.name:
                what = _("{what} for {name}", what=what, name=inputs.name)
            await send_secret(interaction, what, [embed], label)
            await keep_rolls(interaction, rolled, secret=True, table=table)
            return
        view = buttons_view(
            SaveAgain(inputs.kind, again, roller_id), SaveAgain(inputs.kind, again, roller_id, True)
        )
        if chart:
            await reply_odds(interaction, [inputs], again.against, embed=embed, view=view)
        else:
            await reply(interaction, embed=embed, view=view)
        await keep_rolls(interaction, rolled, table=table)

    async def roll_party(
        self,
        interaction: discord.Interaction,
        kind: SaveKind,
        against: DifficultyOptions,
        mod: int,
        per: int | None,
        label: str | None = None,
        secret: bool = False,
        chart: bool = False,
    ) -> None:
        """The GM's party save, from the command or its "Roll again" button."""
        table = await read_table(interaction, PARTY)
        require_gm(interaction, table)
        everyone = party_inputs(kind, against, table, mod=mod, per=per)
        results = [(i.name or "", i.resolve(open_ended(self.rng))) for i in everyone]
        embed = party_embed(kind, everyone[0].difficulty, results, mod=mod, per=per)
        embed = labelled(embed, label)
        rolled = [save_rolled(result, name or None) for name, result in results]
        if secret:
            what = _("party {what}", what=secret_what(kind))
            await send_secret(interaction, what, [embed], label)
            await keep_rolls(interaction, rolled, secret=True, table=table)
            return
        view = buttons_view(
            PartySaveAgain(kind, against, mod, per), PartySaveAgain(kind, against, mod, per, True)
        )
        if chart:
            await reply_odds(interaction, everyone, against, embed=embed, view=view)
        else:
            await reply(interaction, embed=embed, view=view)
        await keep_rolls(interaction, rolled, table=table)

    @save.command(name="tsr", description=N_("Toughness Save Roll: poison, disease, fatigue"))
    @app_commands.describe(**_AGAINST, **_ONE, stat=N_("Fortitude (default: your character's)"))
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
        label: Label | None = None,
        secret: bool = False,
        chart: bool = False,
    ) -> None:
        against = DifficultyOptions(vs=vs, dc=dc, spell=spell)
        options = SaveOptions(
            against, level=level, stat=stat, kin=kin, mod=mod, per=per, character=character
        )
        await self._one(interaction, SaveKind.TSR, options, label, secret, chart)

    @save.command(name="wsr", description=N_("Willpower Save Roll: fear, illusions, mind control"))
    @app_commands.describe(**_AGAINST, **_ONE, stat=N_("Wisdom (default: your character's)"))
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
        label: Label | None = None,
        secret: bool = False,
        chart: bool = False,
    ) -> None:
        against = DifficultyOptions(vs=vs, dc=dc, spell=spell)
        options = SaveOptions(
            against, level=level, stat=stat, kin=kin, mod=mod, per=per, character=character
        )
        await self._one(interaction, SaveKind.WSR, options, label, secret, chart)

    @save.command(name="party", description=N_("GM: the same save for every character here"))
    @app_commands.guild_only()
    @app_commands.describe(kind=N_("Toughness (TSR) or Willpower (WSR)"), **_AGAINST)
    @app_commands.choices(
        kind=[
            app_commands.Choice(name=N_("TSR (Toughness)"), value="tsr"),
            app_commands.Choice(name=N_("WSR (Willpower)"), value="wsr"),
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
        label: Label | None = None,
        secret: bool = False,
        chart: bool = False,
    ) -> None:
        no_secret_chart(secret, chart)
        against = DifficultyOptions(vs=vs, dc=dc, spell=spell)
        await self.roll_party(interaction, SaveKind(kind), against, mod, per, label, secret, chart)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(SaveAgain, PartySaveAgain)  # before any click, after every restart
    await bot.add_cog(Saves())


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(SaveAgain, PartySaveAgain)
