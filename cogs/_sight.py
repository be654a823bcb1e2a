"""What a `/monster` reply may show (`table.sight`), decided for who reads it: the GM reading
alone sees everything; a player, or the channel reading a public reply, sees what the channel's
`monster_stats` setting and the hidden spots allow. When a public reply left something out,
the GM gets the whole of it privately, after it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import discord

from bot.permissions import is_gm
from cogs._reply import reply
from cogs._shared import apply_as
from render.monsters import gm_copy
from store.channel_read import Parts
from table.model import Table
from table.parts import BESTIARY
from table.sight import Sight, channel_sight, sight

R = TypeVar("R")


def reader_sight(interaction: discord.Interaction, table: Table, public: bool) -> Sight:
    """A look's sight: the GM's whole view in the GM's private reply, else the channel's."""
    return sight(table.settings, gm_alone=not public and is_gm(interaction, table.settings))


async def change_seen(
    interaction: discord.Interaction,
    action: str,
    step: Callable[..., tuple[Table, R]],
    parts: Parts = BESTIARY,
) -> tuple[R, Sight]:
    """One transaction over the bestiary (or `parts`: a new monster's name is compared with
    every name in the channel): `step(table, is_gm=…)` refuses a non-GM inside it, so a
    refusal writes nothing. With its result, what the channel may see of it, by the settings
    that transaction read."""

    def seen(table: Table, gm: bool) -> tuple[Table, tuple[R, Sight]]:
        new, result = step(table, is_gm=gm)
        return new, (result, channel_sight(new.settings))

    return await apply_as(interaction, action, seen, parts)


async def whisper_gm_copy(interaction: discord.Interaction, embed: discord.Embed) -> None:
    """After a public reply that left out what the GM keeps hidden: the whole of it, to the GM
    alone."""
    await reply(interaction, embeds=[gm_copy(embed)], private=True)
