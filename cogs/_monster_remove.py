"""`/monster remove` asks to confirm, as `/character remove` does (GM only: refused at once,
and asked again at the click, in the removal's own transaction). Its buttons are dynamic, so
they answer after a restart too, and say so once the prompt has expired."""

from __future__ import annotations

import discord

from cogs._confirm import ANSWER, NAME, PromptTimers, RemovalButton, ask
from cogs._reply import update
from cogs._shared import apply_as, read_table, require_gm
from render.monsters import confirm_remove_embed, removed_embed
from table import bestiary


class MonsterRemoveAnswer(RemovalButton, template=r"tk:monster:remove:" + ANSWER + NAME):
    """Remove or Cancel on a `/monster remove` prompt."""

    PREFIX, COMMAND = "tk:monster:remove", "/monster remove"

    async def confirmed(self, interaction: discord.Interaction) -> None:
        gone = await apply_as(
            interaction,
            "monster remove",
            lambda table, gm: bestiary.remove(table, is_gm=gm, name=self.name),
        )
        await update(interaction, embed=removed_embed(gone), view=None)


async def confirm_monster_removal(
    interaction: discord.Interaction, name: str, timeout: float, timers: PromptTimers
) -> None:
    table = await read_table(interaction)
    require_gm(interaction, table)  # refuse now, not after a click
    monster = table.get_monster(name)
    embed = confirm_remove_embed(monster)  # declared private
    await ask(interaction, embed, MonsterRemoveAnswer, monster.name, seconds=timeout, timers=timers)
