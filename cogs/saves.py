"""`/save tsr`, `/save wsr` and `/save party`: Save Rolls, read-only (nothing is stored).

Each reply has a "Roll again" button (`SaveAgain`, `PartySaveAgain`) whose custom_id holds the
save's options, so it rolls fresh dice for the same save even after a restart: the character's
numbers are read from the store again, and the new roll is a new message below the old one.
"""

from __future__ import annotations

import random
from dataclasses import replace
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
from cogs._reply import reply
from cogs._shared import PARTY, bot_of, character_autocomplete, read_table, require_gm
from cogs.roll import Label
from cogs.secret import send_secret
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
ROLLER_OR_GM = N_("Only the player who rolled this save, or the GM, can roll it again")
SAVE_WORDS = {SaveKind.TSR: N_("TSR (Toughness save)"), SaveKind.WSR: N_("WSR (Willpower save)")}
_AGAINST_OPTIONS = {"v": "vs", "d": "dc", "s": "spell"}
# Pieces of the custom_ids: every number's digits are bounded, so parsing one cannot fail.
_AGAINST_ID = r"(?P<against>[vds]-?\d{1,4})"
_MOD_ID = r"(?P<mod>-?\d{1,3})"
_PER_ID = r"(?P<per>\d{0,4})"
_MAYBE_INT_ID = r"(?:-?\d{1,3})?"


def against_code(against: DifficultyOptions) -> str:
    """`v7`, `d85` or `s120`: the difficulty option that was given, and its value."""
    for letter, option in _AGAINST_OPTIONS.items():
        value = getattr(against, option)
        if value is not None:
            return f"{letter}{value}"
    raise ValueError("a save without a difficulty gets no button")


def against_from_code(code: str) -> DifficultyOptions:
    return DifficultyOptions(**{_AGAINST_OPTIONS[code[0]]: int(code[1:])})


def again_options(options: SaveOptions, inputs: SaveInputs) -> SaveOptions:
    """What "Roll again" keeps: a character's name (its numbers are read again when clicked)
    and only the numbers typed over it; for a plain roll, all its numbers."""
    if inputs.name is not None:
        return replace(options, character=inputs.name)
    return replace(options, level=inputs.level, stat=inputs.stat, kin=inputs.kin, character=None)


def again_inputs(kind: SaveKind, options: SaveOptions, table: Table, roller_id: int) -> SaveInputs:
    """The inputs of a roll again from `again_options`: a character as it is stored now."""
    if options.character is not None:
        return save_inputs(kind, options, table, roller_id)
    assert options.level is not None  # again_options keeps a plain roll's level
    return SaveInputs(
        kind=kind,
        name=None,
        level=options.level,
        stat=options.stat or 0,
        kin=options.kin or 0,
        mod=options.mod,
        difficulty=options.against.difficulty(),
        per=options.per,
        ties_succeed=table.settings.ties_succeed,
    )


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
        r"tk:save:(?P<kind>tsr|wsr):"
        + _AGAINST_ID
        + ":"
        + _MOD_ID
        + ":"
        + _PER_ID
        + r":(?P<roller>"
        + ID_CODE
        + r"):(?P<level>\d{0,3}):(?P<stat>"
        + _MAYBE_INT_ID
        + r"):(?P<kin>"
        + _MAYBE_INT_ID
        + r"):(?P<name>.*)"
    ),
):
    """Roll a `/save tsr|wsr` again: the roller or the GM; the name comes last (it may hold
    colons) and is empty for a plain roll, whose level, stat and kin are all kept."""

    def __init__(self, kind: SaveKind, options: SaveOptions, roller_id: int) -> None:
        self.kind, self.options, self.roller_id = kind, options, roller_id
        pieces = (
            "tk:save",
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
        super().__init__(":".join(pieces), _(AGAIN), style=discord.ButtonStyle.primary)

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
        return cls(SaveKind(match["kind"]), options, id_from_code(match["roller"]))

    async def clicked(self, interaction: discord.Interaction) -> None:
        table = await save_table(interaction, self.options)
        if interaction.user.id != self.roller_id and not is_gm(interaction, table.settings):
            raise Forbidden(_(ROLLER_OR_GM))
        inputs = again_inputs(self.kind, self.options, table, self.roller_id)
        await saves_cog(interaction).reply_one(interaction, inputs, self.options, self.roller_id)


class PartySaveAgain(
    TableButton,
    template=r"tk:psave:(?P<kind>tsr|wsr):" + _AGAINST_ID + ":" + _MOD_ID + ":" + _PER_ID,
):
    """Roll a `/save party` again for everyone here now: the GM only."""

    def __init__(
        self, kind: SaveKind, against: DifficultyOptions, mod: int, per: int | None
    ) -> None:
        self.kind, self.against, self.mod, self.per = kind, against, mod, per
        pieces = ("tk:psave", kind.value, against_code(against), str(mod), optional_text(per))
        super().__init__(":".join(pieces), _(AGAIN), style=discord.ButtonStyle.primary)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        against = against_from_code(match["against"])
        kind = SaveKind(match["kind"])
        return cls(kind, against, int(match["mod"]), optional_int(match["per"]))

    async def clicked(self, interaction: discord.Interaction) -> None:
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
    ) -> None:
        table = await save_table(interaction, options)
        inputs = save_inputs(kind, options, table, interaction.user.id)
        again = again_options(options, inputs)
        await self.reply_one(interaction, inputs, again, interaction.user.id, label, secret)

    async def reply_one(
        self,
        interaction: discord.Interaction,
        inputs: SaveInputs,
        again: SaveOptions,
        roller_id: int,
        label: str | None = None,
        secret: bool = False,
    ) -> None:
        """Roll, and reply with the working and a button to roll the same save again (a
        secret save has none: rolling again would show it to the channel)."""
        result = inputs.resolve(open_ended(self.rng))
        embed = labelled(save_embed(result, inputs.name), label)
        if secret:
            what = secret_what(inputs.kind)
            if inputs.name:
                what = _("{what} for {name}", what=what, name=inputs.name)
            await send_secret(interaction, what, [embed], label)
            return
        view = buttons_view(SaveAgain(inputs.kind, again, roller_id))
        await reply(interaction, embed=embed, view=view)

    async def roll_party(
        self,
        interaction: discord.Interaction,
        kind: SaveKind,
        against: DifficultyOptions,
        mod: int,
        per: int | None,
        label: str | None = None,
        secret: bool = False,
    ) -> None:
        """The GM's party save, from the command or its "Roll again" button."""
        table = await read_table(interaction, PARTY)
        require_gm(interaction, table)
        everyone = party_inputs(kind, against, table, mod=mod, per=per)
        results = [(i.name or "", i.resolve(open_ended(self.rng))) for i in everyone]
        embed = party_embed(kind, everyone[0].difficulty, results, mod=mod, per=per)
        embed = labelled(embed, label)
        if secret:
            what = _("party {what}", what=secret_what(kind))
            await send_secret(interaction, what, [embed], label)
            return
        view = buttons_view(PartySaveAgain(kind, against, mod, per))
        await reply(interaction, embed=embed, view=view)

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
    ) -> None:
        against = DifficultyOptions(vs=vs, dc=dc, spell=spell)
        options = SaveOptions(
            against, level=level, stat=stat, kin=kin, mod=mod, per=per, character=character
        )
        await self._one(interaction, SaveKind.TSR, options, label, secret)

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
    ) -> None:
        against = DifficultyOptions(vs=vs, dc=dc, spell=spell)
        options = SaveOptions(
            against, level=level, stat=stat, kin=kin, mod=mod, per=per, character=character
        )
        await self._one(interaction, SaveKind.WSR, options, label, secret)

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
    ) -> None:
        against = DifficultyOptions(vs=vs, dc=dc, spell=spell)
        await self.roll_party(interaction, SaveKind(kind), against, mod, per, label, secret)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(SaveAgain, PartySaveAgain)  # before any click, after every restart
    await bot.add_cog(Saves())


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(SaveAgain, PartySaveAgain)
