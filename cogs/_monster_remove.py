"""`/monster remove` asks to confirm, as `/character remove` does (GM only: refused at once,
and asked again at the click, in the removal's own transaction). Its buttons are dynamic, so
they answer after a restart too, and say so once the prompt has expired."""

from __future__ import annotations

from typing import Any, Self

import discord

from cogs._confirm import ANSWER, NAME, ConfirmButton, PromptTimers, RemovalButton, ask
from cogs._reply import update
from cogs._shared import apply_as, read_table, require_gm
from lang import _
from render.confirm import cancelled_embed
from render.initiative import turn_text
from render.monsters import cleared_embed, confirm_clear_embed, confirm_remove_embed, removed_embed
from rules.errors import RulesError
from table import bestiary, initiative
from table.parts import BESTIARY


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
    monster = table.get_monster(name)  # the GM's: those behind the screen too
    embed = confirm_remove_embed(monster)  # declared private
    await ask(interaction, embed, MonsterRemoveAnswer, monster.name, seconds=timeout, timers=timers)


class DefeatedRemoveAnswer(ConfirmButton, template=r"tk:monster:clear:" + ANSWER):
    """Remove or Cancel on `/monster remove defeated:True`'s prompt: the defeated monsters as
    they are at the click go, in one change (the reply names them)."""

    COMMAND = "/monster remove defeated:True"

    def __init__(self, yes: bool, asker_id: int, until: str, *, disabled: bool = False) -> None:
        super().__init__("tk:monster:clear", yes, asker_id, until, _("Remove"), disabled=disabled)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        return cls.make(*cls.parse(match))

    async def confirmed(self, interaction: discord.Interaction) -> None:
        cleared = await apply_as(
            interaction,
            "monster remove",
            lambda table, gm: initiative.clear_defeated(table, is_gm=gm),
            BESTIARY,
        )
        embed = cleared_embed(cleared.gone)
        if cleared.passed is not None:
            embed.description = turn_text(cleared.passed)
        await update(interaction, embed=embed, view=None)

    def cancelled(self) -> discord.Embed:
        return cancelled_embed(_("the defeated"))

    def expired(self) -> discord.Embed:
        return cancelled_embed(_("the defeated"), timed_out=True, command=self.COMMAND)


async def confirm_clearing(
    interaction: discord.Interaction, timeout: float, timers: PromptTimers
) -> None:
    """`/monster remove defeated:True`: one question for every defeated monster."""
    table = await read_table(interaction, BESTIARY)
    require_gm(interaction, table)  # refuse now, not after a click
    defeated = [m for m in table.monsters if m.down]
    if not defeated:
        raise RulesError(_("No monster here is defeated: nothing to clear"))
    embed = confirm_clear_embed(defeated)  # declared private
    await ask(interaction, embed, DefeatedRemoveAnswer, seconds=timeout, timers=timers)
