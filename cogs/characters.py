"""`/character create|set|show|use|list|remove`: the channel's characters and their sheets;
`use` makes one of a player's characters their active one, which their commands take when they
name none (`table.active`)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.permissions import is_gm
from cogs._buttons import TableButton, buttons_view
from cogs._confirm import ANSWER, CONFIRM_SECONDS, NAME, PromptTimers, RemovalButton, ask
from cogs._options import INIT_BONUS_HELP, InitBonus
from cogs._reply import private, reply, update
from cogs._shared import apply_as, character_autocomplete, pick_character, read_table
from lang import N_, _
from render.active import active_embed
from render.characters import (
    confirm_remove_embed,
    removed_embed,
    roster_embed,
    sheet_embed,
)
from render.warning import with_warning
from rules.errors import RulesError
from rules.saves import MODIFIER_LIMIT
from table.active import make_active
from table.level_check import class_to_raise, new_disagreement, raised_class
from table.model import FL_MAX, LEVEL_MAX, Character, Table, check_can_change
from table.names import NAME_LIMIT
from table.parts import PARTY
from table.sheet import SheetOptions, change, create, format_classes, remove

log = logging.getLogger(__name__)

BOTS_OWN_NOTHING = N_("Bots can't own characters")

Level = app_commands.Range[int, 1, LEVEL_MAX]
Modifier = app_commands.Range[int, -MODIFIER_LIMIT, MODIFIER_LIMIT]
NewName = app_commands.Range[str, 1, NAME_LIMIT]
Name = app_commands.Range[str, 1, 100]  # a lookup: an unknown name gets a helpful error
Text = app_commands.Range[str, 1, 100]
Fl = app_commands.Range[float, 1, FL_MAX]

HD_CHOICES = [app_commands.Choice(name=f"d{size}", value=size) for size in (4, 6, 8, 10, 12, 20)]
COMBINE_CHOICES = [
    app_commands.Choice(name=N_("single class"), value="single"),
    app_commands.Choice(name=N_("multiclass (average HD and levels)"), value="multi"),
    app_commands.Choice(name=N_("dualclass (largest HD, highest level)"), value="dual"),
]
CLEAR_CHOICES = [
    app_commands.Choice(name=N_("Fatigue Level given directly"), value="fatigue_level"),
    app_commands.Choice(name=N_("Base HD"), value="base_hd"),
    app_commands.Choice(name=N_("Kin HD size"), value="kin_hd"),
    app_commands.Choice(name=N_("Classes"), value="classes"),
]
SHEET_DESCRIPTIONS = {
    "level": N_("Character level (sets the SR Bonus)"),
    "fortitude": N_("Fortitude, added to TSR"),
    "wisdom": N_("Wisdom, added to WSR"),
    "kin_tsr": N_("Kin bonus to TSR"),
    "kin_wsr": N_("Kin bonus to WSR"),
    "special_tsr": N_("Special modifier to every TSR (a ring, a blessing), -100 to 100"),
    "special_wsr": N_("Special modifier to every WSR (a ring, a blessing), -100 to 100"),
    "classes": N_("HD size and level per class, e.g. 10:5 or d10/5 d6/6"),
    "combine": N_("How several classes combine"),
    "toughness": N_("Toughness, -5 to 7 (or give constitution instead)"),
    "constitution": N_("Constitution 0-25, turned into Toughness"),
    "base_hd": N_("Base HD like 4+1 (monsters and kin such as Ogres)"),
    "kin_hd": N_("Kin HD size, used when larger than the class's"),
    "fatigue_level": N_("Fatigue Level given directly, e.g. 20.5 (instead of the inputs)"),
    "init_bonus": INIT_BONUS_HELP,
    "party": N_("False: a familiar or NPC, left out of party-wide commands"),
}


@dataclass(frozen=True)
class Changed:
    """What `/character set` did: the character after, whether anything changed, a warning
    (the level and the class levels disagree), and the HD size of the class to offer to raise
    with a level raised alone."""

    character: Character
    changed: bool
    warning: str | None
    raise_size: int | None


class RaiseClass(
    TableButton, template=r"tk:char:raise:(?P<size>\d{1,3}):(?P<level>\d{1,3}):(?P<name>.*)"
):
    """Offered when `level:` alone was raised above the class levels: raise the highest class
    of that HD size to the new level too (its owner or the GM, checked in the transaction),
    as `/character set classes:` would, logged as a `character set`."""

    def __init__(self, name: str, size: int, level: int) -> None:
        self.name, self.size, self.level = name, size, level
        label = _("Raise the d{size} class to level {level} too", size=size, level=level)
        super().__init__(f"tk:char:raise:{size}:{level}:{name}", label)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        return cls(match["name"], int(match["size"]), int(match["level"]))

    async def clicked(self, interaction: discord.Interaction) -> None:
        user_id = interaction.user.id

        def step(before: Table, gm: bool) -> tuple[Table, Character]:
            old = before.get(self.name)
            if old.level != self.level:
                raise RulesError(
                    _(
                        "{name} is level {level} now: nothing raised",
                        name=old.name,
                        level=old.level,
                    )
                )
            classes = format_classes(raised_class(old, self.size))
            return change(before, user_id, gm, old.name, SheetOptions(classes=classes))

        character = await apply_as(interaction, "character set", step, PARTY)
        title = _("Changed {name}", name=character.name)
        await update(interaction, embed=sheet_embed(character, title=title), view=None)


class CharacterRemoveAnswer(RemovalButton, template=r"tk:character:remove:" + ANSWER + NAME):
    """Remove or Cancel on a `/character remove` prompt."""

    PREFIX, COMMAND = "tk:character:remove", "/character remove"

    async def confirmed(self, interaction: discord.Interaction) -> None:
        # GM or not is asked again at the click, in its transaction: the GM role may have
        # gone since the prompt (only the asker gets this far).
        gone = await apply_as(
            interaction,
            "character remove",
            lambda table, gm: remove(table, self.asker_id, gm, self.name),
        )
        await update(interaction, embed=removed_embed(gone), view=None)


class Characters(commands.Cog):
    character = app_commands.Group(
        name="character",
        description=N_("Make, change, show and remove characters"),
        guild_only=True,
    )

    def __init__(self, confirm_seconds: float = CONFIRM_SECONDS) -> None:
        self.confirm_seconds = confirm_seconds  # tests shorten it on the running cog
        self.timers = PromptTimers()

    async def cog_unload(self) -> None:
        self.timers.cancel_all()

    @character.command(name="create", description=N_("Make a character in this channel"))
    @app_commands.describe(
        name=N_("The character's name (letters, numbers, spaces; up to 32)"),
        owner=N_("Who plays it (default: you; only the GM can pick someone else)"),
        **SHEET_DESCRIPTIONS,
    )
    @app_commands.choices(combine=COMBINE_CHOICES)
    @app_commands.choices(kin_hd=HD_CHOICES)  # apart: one decorator takes one choice type
    async def create(
        self,
        interaction: discord.Interaction,
        name: NewName,
        owner: discord.Member | None = None,
        level: Level | None = None,
        fortitude: Modifier | None = None,
        wisdom: Modifier | None = None,
        kin_tsr: Modifier | None = None,
        kin_wsr: Modifier | None = None,
        special_tsr: Modifier | None = None,
        special_wsr: Modifier | None = None,
        classes: Text | None = None,
        combine: str | None = None,
        toughness: int | None = None,
        constitution: int | None = None,
        base_hd: Text | None = None,
        kin_hd: int | None = None,
        fatigue_level: Fl | None = None,
        init_bonus: InitBonus | None = None,
        party: bool | None = None,
    ) -> None:
        if owner is not None and owner.bot:
            raise RulesError(_(BOTS_OWN_NOTHING))
        options = SheetOptions(
            level=level,
            fortitude=fortitude,
            wisdom=wisdom,
            kin_tsr=kin_tsr,
            kin_wsr=kin_wsr,
            special_tsr=special_tsr,
            special_wsr=special_wsr,
            classes=classes,
            combine=combine,
            toughness=toughness,
            constitution=constitution,
            base_hd=base_hd,
            kin_hd=kin_hd,
            fatigue_level=fatigue_level,
            init_bonus=init_bonus,
            party=party,
        )
        actor_id, owner_id = interaction.user.id, (owner or interaction.user).id

        def step(table: Table, gm: bool) -> tuple[Table, Character]:
            return create(
                table, actor_id=actor_id, is_gm=gm, name=name, owner_id=owner_id, options=options
            )

        # The whole table: a new name is compared with every name in the channel.
        made = await apply_as(interaction, "character create", step)
        title = _("Created {name}", name=made.name)
        embed = sheet_embed(made, title=title)
        await reply(interaction, embed=with_warning(embed, new_disagreement(None, made)))

    @character.command(name="set", description=N_("Change a character: only the options you give"))
    @app_commands.describe(
        name=N_("Which character (default: yours here)"),
        new_name=N_("Rename it"),
        owner=N_("GM: give it to another player"),
        clear=N_("Forget one input"),
        **SHEET_DESCRIPTIONS,
    )
    @app_commands.choices(combine=COMBINE_CHOICES, clear=CLEAR_CHOICES)
    @app_commands.choices(kin_hd=HD_CHOICES)
    @app_commands.autocomplete(name=character_autocomplete)
    async def set_(
        self,
        interaction: discord.Interaction,
        name: Name | None = None,
        new_name: NewName | None = None,
        owner: discord.Member | None = None,
        level: Level | None = None,
        fortitude: Modifier | None = None,
        wisdom: Modifier | None = None,
        kin_tsr: Modifier | None = None,
        kin_wsr: Modifier | None = None,
        special_tsr: Modifier | None = None,
        special_wsr: Modifier | None = None,
        classes: Text | None = None,
        combine: str | None = None,
        toughness: int | None = None,
        constitution: int | None = None,
        base_hd: Text | None = None,
        kin_hd: int | None = None,
        fatigue_level: Fl | None = None,
        init_bonus: InitBonus | None = None,
        party: bool | None = None,
        clear: str | None = None,
    ) -> None:
        if owner is not None and owner.bot:
            raise RulesError(_(BOTS_OWN_NOTHING))
        options = SheetOptions(
            level=level,
            fortitude=fortitude,
            wisdom=wisdom,
            kin_tsr=kin_tsr,
            kin_wsr=kin_wsr,
            special_tsr=special_tsr,
            special_wsr=special_wsr,
            classes=classes,
            combine=combine,
            toughness=toughness,
            constitution=constitution,
            base_hd=base_hd,
            kin_hd=kin_hd,
            fatigue_level=fatigue_level,
            init_bonus=init_bonus,
            party=party,
            clear=clear,
        )
        owner_id = None if owner is None else owner.id
        user_id = interaction.user.id

        def step(before: Table, gm: bool) -> tuple[Table, Changed]:
            old = pick_character(before, name, user_id)  # named, else the player's own
            after, character = change(before, user_id, gm, old.name, options, new_name, owner_id)
            warning = new_disagreement(old, character)
            size = class_to_raise(old, character, options.classes is not None)
            # The store writes only when the table differs.
            return after, Changed(character, after != before, warning, size)

        done = await apply_as(interaction, "character set", step)
        character = done.character
        title = (
            _("Changed {name}", name=character.name)
            if done.changed
            else _("Nothing changed: {name} was already so", name=character.name)
        )
        embed = with_warning(sheet_embed(character, title=title), done.warning)
        if done.raise_size is None:
            await reply(interaction, embed=embed)
            return
        offer = RaiseClass(character.name, done.raise_size, character.level)
        await reply(interaction, embed=embed, view=buttons_view(offer))

    @character.command(
        name="show",
        description=N_("Show a character's sheet: saves, fatigue, bands"),
    )
    @private(lambda options: not options.public)
    @app_commands.describe(
        name=N_("Which character (default: yours here)"),
        public=N_("Show it to the whole channel (default: only you)"),
    )
    @app_commands.autocomplete(name=character_autocomplete)
    async def show(
        self, interaction: discord.Interaction, name: Name | None = None, public: bool = False
    ) -> None:
        table = await read_table(interaction, PARTY)
        character = pick_character(table, name, interaction.user.id)
        await reply(interaction, embed=sheet_embed(character))

    @character.command(
        name="use",
        description=N_("Pick which of your characters your commands use here when you name none"),
    )
    @private()
    @app_commands.describe(name=N_("Which of your characters"))
    @app_commands.autocomplete(name=character_autocomplete)
    async def use_(self, interaction: discord.Interaction, name: Name) -> None:
        actor_id = interaction.user.id
        chosen = await apply_as(
            interaction,
            "character use",
            lambda table, gm: make_active(table, actor_id, name),
            PARTY,
        )
        await reply(interaction, embed=active_embed(chosen))

    @character.command(name="list", description=N_("Every character in this channel"))
    @private()
    async def list_(self, interaction: discord.Interaction) -> None:
        table = await read_table(interaction, PARTY)
        await reply(interaction, embed=roster_embed(table))

    @character.command(name="remove", description=N_("Remove a character (asks to confirm)"))
    @private()
    @app_commands.describe(name=N_("Which character"))
    @app_commands.autocomplete(name=character_autocomplete)
    async def remove_(self, interaction: discord.Interaction, name: Name) -> None:
        table = await read_table(interaction, PARTY)
        gm = is_gm(interaction, table.settings)
        character = table.get(name)
        check_can_change(interaction.user.id, gm, character)  # refuse now, not after a click
        embed = confirm_remove_embed(character)
        await ask(
            interaction,
            embed,
            CharacterRemoveAnswer,
            character.name,
            seconds=self.confirm_seconds,
            timers=self.timers,
        )


async def setup(bot: commands.Bot) -> None:
    # before any click, and after every restart
    bot.add_dynamic_items(CharacterRemoveAnswer, RaiseClass)
    await bot.add_cog(Characters())


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(CharacterRemoveAnswer, RaiseClass)
