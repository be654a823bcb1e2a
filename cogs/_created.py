"""A new character's reply: who was made, in a phone's four lines (`created_embed`), the whole
sheet a tap away (`SheetButton`: to whoever clicks, with any warning in full). The
`/character create` command and its form both answer with `reply_created`."""

from __future__ import annotations

import discord

from cogs._buttons import NamedButton, buttons_view
from cogs._reply import reply
from cogs._shared import read_table
from lang import N_
from render.characters import created_embed, sheet_embed
from render.warning import with_warning
from table.level_check import level_disagreement
from table.model import Character
from table.parts import PARTY


async def reply_created(interaction: discord.Interaction, made: Character) -> None:
    """The channel reads who was made; the sheet is behind its button."""
    await reply(interaction, embed=created_embed(made), view=buttons_view(SheetButton(made.name)))


class SheetButton(NamedButton, prefix="tk:sheet:"):
    """ "Sheet": the character's whole sheet as it stands, to whoever clicks (anyone here may
    look, as with `/character show`)."""

    private = True
    text = N_("Sheet")

    async def clicked(self, interaction: discord.Interaction) -> None:
        character = (await read_table(interaction, PARTY)).get(self.name)
        embed = with_warning(sheet_embed(character), level_disagreement(character))
        await reply(interaction, embed=embed)
