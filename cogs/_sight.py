"""What a `/monster` reply may show (`table.sight`), decided for who reads it: the GM reading
alone sees everything; a player, or the channel reading a public reply, sees what the channel's
`monster_stats` setting and the hidden spots allow. When a public reply left something out,
the GM gets the whole of it privately, after it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import discord

from bot.permissions import is_gm
from cogs._picture import job, reply_picture
from cogs._reply import reply
from cogs._shared import apply_as
from lang import _
from render.monsters import appeared_embed, gm_copy, monster_embed
from table.model import Monster, Table
from table.monster_view import monster_view
from table.parts import BESTIARY, Parts
from table.sight import Sight, channel_sight, players_view, sight

R = TypeVar("R")


def known_table(interaction: discord.Interaction, table: Table) -> Table:
    """The table as the caller may know it: the GM's whole, else without the monsters still
    behind the GM's screen (`players_view`), so nothing a player looks up names one."""
    return table if is_gm(interaction, table.settings) else players_view(table)


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


async def appear_reply(
    interaction: discord.Interaction, shown: Sequence[Monster], seen: Sight
) -> None:
    """Monsters come into sight: one as the channel now sees it, with its picture from above;
    a group as a list."""
    if len(shown) > 1:
        await reply(interaction, embed=appeared_embed(shown, seen))
        return
    (monster,) = shown
    title = _("👁️ {name} appears", name=monster.name)
    picture = job(interaction, "monster", monster_view(monster, seen))
    await reply_picture(interaction, monster_embed(monster, sight=seen, title=title), picture)
