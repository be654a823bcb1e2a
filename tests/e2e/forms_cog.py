"""Forms, menus, views and a Components V2 card, built on the reply layer the way the product's
will be (`cogs._views`, `cogs._reply`), each reading and writing the store; loaded only by the
interaction tests (`tests/e2e/test_interactions_e2e.py`).

- `/form name level`: makes a character at once; with no options it opens `MakeForm` (name and
  level typed, Toughness picked in a menu inside the form) into the same change.
- `/form_edit name`: a form filled with the character's level, read first (`open_form` with
  the read; `Forms.gate` holds the read, as a slow disk would).
- `/pick`: a menu of the caller's characters (choosing one makes it active) and one of members
  (naming one says how many characters they play here).
- `/card`: the party as a Components V2 card, a Spend 1 button beside each character, and the
  fatigue cog's restart-proof button below.
- `/slow`: a button whose answer takes `Forms.slow` seconds, on the bot's view; `/plain` a
  bare discord.py view (a menu, a button opening a bare form) that answers as slowly, itself.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._fatigue import SpendOne
from cogs._reply import open_form, reply, update
from cogs._shared import PARTY, apply_as, read_table
from cogs._views import TableForm, TableLayout, TableView
from rules.errors import RulesError
from table import partyops
from table.active import make_active
from table.model import Character, Table
from table.sheet import SheetOptions, change, create

TOUGHNESS = ("-1", "0", "1", "2")


def level_of(text: str) -> int:
    if not text.strip().isdigit() or not 1 <= int(text) <= 20:
        raise RulesError(f"Level must be a whole number from 1 to 20, not {text!r}")
    return int(text)


async def make(interaction: discord.Interaction, name: str, level: int, tough: int = 0) -> None:
    """One change, as `/character create` makes it; then the new party's size, read back."""
    user = interaction.user.id
    options = SheetOptions(level=level, toughness=tough)

    def step(table: Table, gm: bool) -> tuple[Table, Character]:
        return create(table, actor_id=user, is_gm=gm, name=name, owner_id=user, options=options)

    made = await apply_as(interaction, "character create", step, PARTY)
    party = len((await read_table(interaction, PARTY)).characters)
    await reply(interaction, f"Made {made.name}, level {made.level}: {party} in the party")


class MakeForm(TableForm, title="A new character"):
    private = False  # the channel sees who joined
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", max_length=32)
    level: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Level", max_length=3)
    toughness: discord.ui.Label[Any] = discord.ui.Label(
        text="Toughness",
        component=discord.ui.Select(
            options=[discord.SelectOption(label=t) for t in TOUGHNESS], required=False, min_values=0
        ),
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        picked = self.toughness.component
        assert isinstance(picked, discord.ui.Select)
        tough = int(picked.values[0]) if picked.values else 0
        await make(interaction, self.name.value, level_of(self.level.value), tough)


class EditForm(TableForm, title="Change the level"):
    level: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Level", max_length=3)

    def __init__(self, character: Character) -> None:
        super().__init__()
        self.character = character.name
        self.level.default = str(character.level)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        user, options = interaction.user.id, SheetOptions(level=level_of(self.level.value))

        def step(table: Table, gm: bool) -> tuple[Table, Character]:
            return change(table, user, gm, self.character, options)

        changed = await apply_as(interaction, "character set", step, PARTY)
        await reply(interaction, f"{changed.name} is level {changed.level}")


class Characters(discord.ui.Select["Picker"]):
    """A menu of the caller's characters (as discord.py's examples/views/dropdown.py makes one)."""

    def __init__(self, names: list[str]) -> None:
        options = [discord.SelectOption(label=n) for n in names]
        super().__init__(placeholder="Which character", options=options)

    async def callback(self, interaction: discord.Interaction) -> None:
        user, name = interaction.user.id, self.values[0]
        chosen = await apply_as(
            interaction, "character use", lambda t, gm: make_active(t, user, name), PARTY
        )
        await update(interaction, content=f"{chosen.name} is active", view=None)


class Picker(TableView):
    def __init__(self, names: list[str]) -> None:
        super().__init__(timeout=600)
        self.add_item(Characters(names))

    @discord.ui.select(cls=discord.ui.UserSelect, placeholder="Whose characters")
    async def member(
        self, interaction: discord.Interaction, select: discord.ui.UserSelect[Any]
    ) -> None:
        who = select.values[0]
        table = await read_table(interaction, PARTY)
        count = sum(c.owner_id == who.id for c in table.characters)
        await reply(interaction, f"{who.display_name} plays {count} here", private=True)


class Spend(discord.ui.Button["Card"]):
    def __init__(self, name: str) -> None:
        super().__init__(label=f"Spend 1 ({name})")
        self.name = name

    async def callback(self, interaction: discord.Interaction) -> None:
        def step(table: Table, gm: bool) -> tuple[Table, Table]:
            after = partyops.spend(table, self.name, 1)[0]
            return after, after

        await update(
            interaction, view=Card(await apply_as(interaction, "fatigue spend", step, PARTY))
        )


class Card(TableLayout):
    def __init__(self, table: Table) -> None:
        super().__init__(timeout=600)
        box: discord.ui.Container[Card] = discord.ui.Container(accent_colour=0x3BA55C)
        for c in table.characters:
            text: discord.ui.TextDisplay[Card] = discord.ui.TextDisplay(
                f"**{c.name}** FP {c.fatigue.fp}"
            )
            box.add_item(discord.ui.Section(text, accessory=Spend(c.name)))
        self.add_item(box)
        if table.characters:
            row: discord.ui.ActionRow[Card] = discord.ui.ActionRow()
            row.add_item(SpendOne(table.characters[0].name))
            self.add_item(row)


class Slow(TableView):
    def __init__(self, seconds: float) -> None:
        super().__init__(timeout=600)
        self.seconds = seconds

    @discord.ui.button(label="Slowly")
    async def slowly(self, interaction: discord.Interaction, _: discord.ui.Button[Any]) -> None:
        await asyncio.sleep(self.seconds)
        await reply(interaction, "done, slowly")


class PlainForm(discord.ui.Modal, title="Plain"):
    level: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Level")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await make(interaction, "Plain", level_of(self.level.value))


class Plain(discord.ui.View):
    def __init__(self, seconds: float) -> None:
        super().__init__(timeout=600)
        self.seconds = seconds

    @discord.ui.select(
        placeholder="Level", options=[discord.SelectOption(label=str(n)) for n in (1, 2, 3)]
    )
    async def level(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await asyncio.sleep(self.seconds)  # no watchdog: a bare view answers by itself
        await interaction.response.send_message(f"Level {select.values[0]} chosen")

    @discord.ui.button(label="Form")
    async def form(self, interaction: discord.Interaction, _: discord.ui.Button[Any]) -> None:
        await interaction.response.send_modal(PlainForm())


class Forms(commands.Cog):
    def __init__(self) -> None:
        self.gate = asyncio.Event()  # the form's read waits for it
        self.gate.set()
        self.slow = 1.6  # seconds: past the watchdog

    @app_commands.command(name="form", description="Make a character, by options or a form")
    @app_commands.guild_only()
    async def form(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 32] | None = None,
        level: app_commands.Range[int, 1, 20] | None = None,
    ) -> None:
        if name is None or level is None:  # decided before reading anything
            await open_form(interaction, MakeForm())
        else:
            await make(interaction, name, level)

    @app_commands.command(name="form_edit", description="A character's level, in a form")
    @app_commands.guild_only()
    async def form_edit(self, interaction: discord.Interaction, name: str) -> None:
        async def filled() -> discord.ui.Modal:
            await self.gate.wait()
            return EditForm((await read_table(interaction, PARTY)).get(name))

        await open_form(interaction, filled())

    @app_commands.command(name="pick", description="Menus of characters and members")
    @app_commands.guild_only()
    async def pick(self, interaction: discord.Interaction) -> None:
        table = await read_table(interaction, PARTY)
        names = [c.name for c in table.characters if c.owner_id == interaction.user.id]
        await reply(interaction, "Pick one", view=Picker(names or ["nobody"]))

    @app_commands.command(name="card", description="The party as a card")
    @app_commands.guild_only()
    async def card(self, interaction: discord.Interaction) -> None:
        await reply(interaction, view=Card(await read_table(interaction, PARTY)))

    @app_commands.command(name="slow", description="A slow button of the bot's")
    async def slow_(self, interaction: discord.Interaction) -> None:
        await reply(interaction, "Click it", view=Slow(self.slow))

    @app_commands.command(name="plain", description="A bare discord.py view and form")
    @app_commands.guild_only()
    async def plain(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Plain", view=Plain(self.slow))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Forms())
