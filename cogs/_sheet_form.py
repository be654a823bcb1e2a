"""The character form: `/character create` with no options opens it empty, `/character set`
with only a name (or none) opens it filled with that character's inputs. Its fields are the
commands' own options (name, level, classes, Toughness, how classes combine), checked and
applied as typed options are (`cogs._sheet`). The Fatigue Level is never a field: it stays
computed from the inputs, never frozen into an override by a form sent back unchanged."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

import discord

from bot.permissions import is_gm
from cogs._forms import DRAFT_CODE, CommandForm, FormAgain, Raw
from cogs._shared import pick_character, read_table
from cogs._sheet import COMBINE_CHOICES, SHEET_DESCRIPTIONS, create_character, set_character
from lang import N_, _
from rules.fatigue import TOUGHNESS_MAX, TOUGHNESS_MIN
from table.model import LEVEL_MAX, Character, check_can_change
from table.names import NAME_LIMIT
from table.parts import PARTY
from table.sheet import SheetOptions, format_classes

TOUGHNESS_HELP = N_("From {low} to {high}")


class CharacterForm(CommandForm):
    """A new character (`editing` None), or the character `editing` changed. Its answer is
    the command's: public."""

    private = False

    def __init__(self, raw: Raw, *, editing: str | None = None, lost: bool = False) -> None:
        command, title = (
            ("character create", _("A new character"))
            if editing is None
            else ("character set", _("Change {name}", name=editing))
        )
        super().__init__(command, title, lost=lost)
        self.editing, self.raw = editing, raw
        # `/character set` names the character with `name:` and renames it with `new_name:`.
        self.text(self.name_option, _("Name"), raw, max_length=NAME_LIMIT, required=True)
        self.text(
            "level",
            _("Level"),
            raw,
            max_length=len(str(LEVEL_MAX)),
            description=_(SHEET_DESCRIPTIONS["level"]),
        )
        self.text(
            "classes",
            _("Classes"),
            raw,
            max_length=100,
            description=_(SHEET_DESCRIPTIONS["classes"]),
        )
        toughness = _(TOUGHNESS_HELP, low=TOUGHNESS_MIN, high=TOUGHNESS_MAX)
        self.text("toughness", _("Toughness"), raw, max_length=3, description=toughness)
        combines = [(_(c.name), str(c.value)) for c in COMBINE_CHOICES]
        self.choice("combine", _("How classes combine"), combines, raw)

    @property
    def name_option(self) -> str:
        return "name" if self.editing is None else "new_name"

    async def submitted(self, interaction: discord.Interaction, options: dict[str, Any]) -> None:
        name = options.pop(self.name_option, None)
        if self.editing is None:
            await create_character(interaction, name, None, SheetOptions(**options))
            return
        if self.raw.get("classes") and "classes" not in options:
            options["clear"] = "classes"  # emptied: what the form shows is what it keeps
        new_name = None if name == self.editing else name
        await set_character(interaction, self.editing, SheetOptions(**options), new_name)

    def again(self, code: str) -> FormAgain:
        return CharacterAgain(code) if self.editing is None else SheetAgain(code, self.editing)


def inputs(character: Character) -> Raw:
    """A character's inputs as the form shows them."""
    return {
        "new_name": character.name,
        "level": str(character.level),
        "classes": format_classes(character.classes),
        "toughness": str(character.toughness),
        "combine": [character.combine],
    }


async def sheet_form(
    interaction: discord.Interaction, name: str | None, *, lost: bool = False
) -> CharacterForm:
    """The form of the named character (else the caller's own), filled with its inputs: read
    first, and refused at once to whoever may not change it."""
    table = await read_table(interaction, PARTY)
    gm = is_gm(interaction, table.settings)
    character = pick_character(table, name, interaction.user.id, gm=gm)
    check_can_change(interaction.user.id, gm, character)
    return CharacterForm(inputs(character), editing=character.name, lost=lost)


class CharacterAgain(FormAgain, template=r"tk:form:char:" + DRAFT_CODE):
    PREFIX = "tk:form:char"

    def form(self, interaction: discord.Interaction, raw: Raw | None) -> CharacterForm:
        return CharacterForm(raw or {}, lost=raw is None)


class SheetAgain(FormAgain, template=r"tk:form:sheet:" + DRAFT_CODE + r":(?P<name>.*)"):
    """The character's name comes last: it may hold any text."""

    PREFIX = "tk:form:sheet"

    def form(
        self, interaction: discord.Interaction, raw: Raw | None
    ) -> CharacterForm | Awaitable[CharacterForm]:
        (name,) = self.more
        if raw is None:  # as first opened: with what is stored now
            return sheet_form(interaction, name, lost=True)
        return CharacterForm(raw, editing=name)
