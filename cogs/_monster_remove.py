"""`/monster remove` asks to confirm, as `/character remove` does (GM only: refused at once,
and asked again at the click, in the removal's own transaction). Its buttons are dynamic, so
they answer after a restart too, and say so once the prompt has expired. Named nothing, it
offers a menu of the monsters (`ChooseMonsters`): any number chosen, then one Remove for all."""

from __future__ import annotations

from typing import Any, Self

import discord

from cogs._confirm import ANSWER, NAME, ConfirmButton, PromptTimers, RemovalButton, ask
from cogs._reply import reply, update
from cogs._shared import apply_as, read_table, require_gm
from cogs._views import FORM_SECONDS, TableView
from lang import N_, _, n_
from render.confirm import cancelled_embed
from render.initiative import turn_text
from render.monsters import (
    HIDDEN_MARK,
    cleared_embed,
    confirm_clear_embed,
    confirm_remove_embed,
    confirm_several_embed,
    removed_embed,
    removed_several_embed,
)
from rules.errors import RulesError
from table import bestiary, initiative
from table.active import MENU_MAX
from table.model import Monster
from table.parts import BESTIARY

WHICH_MONSTERS = N_("Which monsters? Choose one or several, then Remove.")


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
            "monster remove defeated",
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


class MonsterMenu(discord.ui.Select["ChooseMonsters"]):
    async def callback(self, interaction: discord.Interaction) -> None:
        assert self.view is not None
        await self.view.picked(interaction, tuple(self.values))


class ChooseMonsters(TableView):
    """`/monster remove` with nothing named: the GM's menu of the monsters here (those behind
    the screen marked), any number chosen, then Remove (one change for all of them) or Cancel.
    Only whoever asked answers it; it lives in this process's memory for 15 minutes."""

    private = True

    def __init__(self, asker_id: int, monsters: list[Monster]) -> None:
        super().__init__(timeout=FORM_SECONDS)
        self.asker_id = asker_id
        self.monsters = {m.name: m for m in monsters[:MENU_MAX]}
        self.chosen: tuple[str, ...] = ()
        options = [
            discord.SelectOption(label=f"{HIDDEN_MARK} {m.name}" if m.hidden else m.name, value=n)
            for n, m in self.monsters.items()
        ]
        self.add_item(MonsterMenu(options=options, min_values=1, max_values=len(options)))
        self.remove.label, self.cancel.label = _("Remove"), _("Cancel")
        self.remove.disabled = True

    async def asked(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.asker_id:
            await reply(interaction, _(ConfirmButton.ONLY_ASKER, asker=self.asker_id), private=True)
            return False
        return True

    async def picked(self, interaction: discord.Interaction, names: tuple[str, ...]) -> None:
        if await self.asked(interaction):
            self.chosen, self.remove.disabled = names, False
            embed = confirm_several_embed([self.monsters[n] for n in names])
            await update(interaction, embed=embed, view=self)

    @discord.ui.button(style=discord.ButtonStyle.danger, row=1)
    async def remove(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        if not await self.asked(interaction):
            return
        names = self.chosen
        cleared = await apply_as(
            interaction,
            "monster remove",
            lambda table, gm: initiative.remove_monsters(table, is_gm=gm, names=names),
            BESTIARY,
        )
        embed = removed_several_embed(cleared.gone)
        if cleared.passed is not None:
            embed.description = turn_text(cleared.passed)
        self.stop()
        await update(interaction, content=None, embed=embed, view=None)

    @discord.ui.button(style=discord.ButtonStyle.secondary, row=1)
    async def cancel(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        if await self.asked(interaction):
            self.stop()
            kept = ", ".join(self.chosen) or _("the monsters")
            await update(interaction, content=None, embed=cancelled_embed(kept), view=None)


async def choose_monsters(interaction: discord.Interaction) -> None:
    """`/monster remove` with nothing named: the GM chooses in a menu."""
    table = await read_table(interaction, BESTIARY)
    require_gm(interaction, table)  # refuse now, not after a choice
    if not table.monsters:
        raise RulesError(_("There are no monsters here to remove"))
    view = ChooseMonsters(interaction.user.id, list(table.monsters))
    text, down = _(WHICH_MONSTERS), sum(1 for m in table.monsters if m.down)
    if down:  # the quicker way, as the command said before it had a menu
        text += "\n" + n_(
            "`defeated:True` removes the defeated one at once.",
            "`defeated:True` removes the {n} defeated at once.",
            down,
        )
    await reply(interaction, text, view=view)
