"""`character:` naming several characters at once (`Aria, Bórin`) on `/fatigue spend` and
`/rest` (`table.several`): its autocomplete, and how a reply names them."""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord import app_commands

from cogs._shared import character_autocomplete, own_first, read_table
from lang import _
from table.names import name_key
from table.parts import PARTY

CHOICE_MAX = 100  # Discord's limit on a choice's name and value


async def characters_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """As `character_autocomplete`; after a comma, the list so far with each character not yet
    in it (`Aria, B` → `Aria, Bórin`)."""
    head, comma, last = current.rpartition(",")
    if not comma or interaction.guild_id is None:
        return await character_autocomplete(interaction, current)
    table = await read_table(interaction, PARTY)
    named = {name_key(piece) for piece in head.split(",")}
    prefix = f"{head.strip()}, "
    found = [
        prefix + c.name
        for c in own_first(table, interaction.user.id, last.strip())
        if c.key not in named
    ]
    return [app_commands.Choice(name=t, value=t) for t in found if len(t) <= CHOICE_MAX][:25]


def names_text(names: Sequence[str]) -> str:
    """`Aria`, `Aria and Bórin`, `Aria, Bórin and Cato`."""
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + _(" and ") + names[-1]
