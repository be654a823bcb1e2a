"""`/monster remove` asks to confirm, as `/character remove` does (GM only: refused at once,
and asked again at the click, in the removal's own transaction)."""

from __future__ import annotations

import functools

import discord

from bot.render.monsters import confirm_remove_embed, removed_embed
from cogs._confirm import ConfirmRemove
from cogs._reply import reply
from cogs._shared import read_table, require_gm
from table import bestiary


async def confirm_monster_removal(
    interaction: discord.Interaction, name: str, timeout: float
) -> None:
    table = await read_table(interaction)
    require_gm(interaction, table)  # refuse now, not after a click
    monster = table.get_monster(name)
    remove = functools.partial(bestiary.remove, name=monster.name)
    view = ConfirmRemove(
        interaction.user.id,
        monster.name,
        timeout,
        action="monster remove",
        step=lambda table, gm: remove(table, is_gm=gm),
        done=removed_embed,
    )
    await reply(interaction, embed=confirm_remove_embed(monster), view=view)  # declared private
    view.prompt = interaction
