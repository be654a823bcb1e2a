"""`/character create|set|show|use|list|remove`: the channel's characters and their sheets;
`use` makes one of a player's characters their active one, which their commands take when they
name none (`table.active`)."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.permissions import is_gm
from cogs._confirm import ANSWER, CONFIRM_SECONDS, NAME, PromptTimers, RemovalButton, ask
from cogs._created import SheetButton
from cogs._forms import given_options
from cogs._options import InitBonus
from cogs._pickers import Names, Picker, choosing
from cogs._reply import open_form, private, reply, update
from cogs._shared import (
    NO_CHARACTER,
    apply_as,
    character_autocomplete,
    pick_character,
    read_table,
)
from cogs._sheet import (
    COMBINE_CHOICES,
    SHEET_DESCRIPTIONS,
    RaiseClass,
    create_character,
    set_character,
)
from cogs._sheet_form import CharacterAgain, CharacterForm, SheetAgain, sheet_form
from lang import N_, _
from render.active import active_embed
from render.characters import (
    confirm_remove_embed,
    removed_embed,
    roster_embed,
    sheet_embed,
)
from rules.errors import RulesError
from rules.saves import MODIFIER_LIMIT
from table.active import make_active, own_characters
from table.model import FL_MAX, LEVEL_MAX, Character, check_can_change
from table.names import NAME_LIMIT
from table.parts import PARTY
from table.sheet import SheetOptions, remove

log = logging.getLogger(__name__)

Level = app_commands.Range[int, 1, LEVEL_MAX]
Modifier = app_commands.Range[int, -MODIFIER_LIMIT, MODIFIER_LIMIT]
NewName = app_commands.Range[str, 1, NAME_LIMIT]
Name = app_commands.Range[str, 1, 100]  # a lookup: an unknown name gets a helpful error
Text = app_commands.Range[str, 1, 100]
Fl = app_commands.Range[float, 1, FL_MAX]

HD_CHOICES = [app_commands.Choice(name=f"d{size}", value=size) for size in (4, 6, 8, 10, 12, 20)]
CLEAR_CHOICES = [
    app_commands.Choice(name=N_("Fatigue Level given directly"), value="fatigue_level"),
    app_commands.Choice(name=N_("Base HD"), value="base_hd"),
    app_commands.Choice(name=N_("Kin HD size"), value="kin_hd"),
    app_commands.Choice(name=N_("Classes"), value="classes"),
]
WHICH_TO_USE = N_("Which of your characters do your commands use here?")


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

    @character.command(
        name="create",
        description=N_("Make a character in this channel (no options: a form)"),
    )
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
        name: NewName | None = None,
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
        if not given_options(interaction):  # decided before reading anything
            await open_form(interaction, CharacterForm({}))
            return
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
        await create_character(interaction, name, owner, options)

    @character.command(
        name="set",
        description=N_("Change a character: only the options you give (name alone: a form)"),
    )
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
        if not given_options(interaction) - {"name"}:  # the form, filled with what is stored
            await choosing(interaction, self.open_sheet, name, form=True)
            return
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

        async def change(interaction: discord.Interaction, chosen: Names | None) -> None:
            assert not isinstance(chosen, tuple)  # one character's menu
            await set_character(interaction, chosen, options, new_name, owner)

        await choosing(interaction, change, name)

    @staticmethod
    async def open_sheet(interaction: discord.Interaction, name: Names | None) -> None:
        """The character's form, read first (`open_form`'s fallback if the read is slow). Its
        menu, when the caller must choose, opens the form of the one chosen."""
        assert not isinstance(name, tuple)
        await open_form(interaction, sheet_form(interaction, name))

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
        await choosing(interaction, self.show_sheet, name)

    @staticmethod
    async def show_sheet(interaction: discord.Interaction, name: Names | None) -> None:
        assert not isinstance(name, tuple)
        table = await read_table(interaction, PARTY)
        gm = is_gm(interaction, table.settings)
        character = pick_character(table, name, interaction.user.id, gm=gm)
        await reply(interaction, embed=sheet_embed(character))

    @character.command(
        name="use",
        description=N_("Pick which of your characters your commands use here when you name none"),
    )
    @private()
    @app_commands.describe(name=N_("Which of your characters (none: choose in a menu)"))
    @app_commands.autocomplete(name=character_autocomplete)
    async def use_(self, interaction: discord.Interaction, name: Name | None = None) -> None:
        if name is not None:
            await reply(interaction, embed=active_embed(await use(interaction, name)))
            return
        table = await read_table(interaction, PARTY)
        own = own_characters(table, interaction.user.id)
        if not own:
            raise RulesError(_(NO_CHARACTER))
        if len(own) == 1:
            await reply(interaction, embed=active_embed(await use(interaction, own[0].name)))
            return

        async def chosen(interaction: discord.Interaction, names: tuple[str, ...]) -> None:
            embed = active_embed(await use(interaction, names[0]))
            await update(interaction, content=None, embed=embed, view=None)

        picker = Picker(
            interaction.user.id,
            [c.name for c in own],
            chosen,
            private=True,
            picked=[c.name for c in own if c.active],
        )
        await reply(interaction, _(WHICH_TO_USE), view=picker)

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


async def use(interaction: discord.Interaction, name: str) -> Character:
    """`/character use`: this character of the caller's becomes the one their commands use."""
    actor_id = interaction.user.id
    step = lambda table, gm: make_active(table, actor_id, name)  # noqa: E731
    return await apply_as(interaction, "character use", step, PARTY)


BUTTONS = (CharacterRemoveAnswer, RaiseClass, CharacterAgain, SheetAgain, SheetButton)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*BUTTONS)  # before any click, and after every restart
    await bot.add_cog(Characters())


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(*BUTTONS)
