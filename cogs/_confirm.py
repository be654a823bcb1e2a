"""Remove/Cancel for a removal (`/character remove`, `/monster remove`): only the person who
asked may press, for a minute; the removal itself is one store transaction at the click."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import discord

from bot.render.characters import cancelled_embed
from bot.tree import answer_error
from cogs._reply import reply, update
from cogs._shared import GmStep, apply_as

log = logging.getLogger(__name__)

CONFIRM_SECONDS = 60.0  # how long the Remove button waits
T = TypeVar("T")


class ConfirmRemove(discord.ui.View, Generic[T]):
    """`step` removes `name` (it is asked whether the clicker is GM again, in its own
    transaction: the GM role may have gone since the prompt); `done` shows what was removed."""

    def __init__(
        self,
        invoker_id: int,
        name: str,
        timeout: float,
        *,
        action: str,
        step: GmStep[T],
        done: Callable[[T], discord.Embed],
    ) -> None:
        super().__init__(timeout=timeout)
        self.invoker_id = invoker_id
        self.name = name
        self.action, self.step, self.done = action, step, done
        self.prompt: discord.Interaction | None = None  # to edit the prompt on timeout

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id == self.invoker_id:
            return True
        await reply(interaction, f"Only <@{self.invoker_id}> can answer this.", ephemeral=True)
        return False

    @discord.ui.button(label="Remove", style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction, _: discord.ui.Button[Any]) -> None:
        gone = await apply_as(interaction, self.action, self.step)
        self.stop()
        await update(interaction, embed=self.done(gone), view=None)

    @discord.ui.button(label="Cancel", style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: discord.Interaction, _: discord.ui.Button[Any]) -> None:
        self.stop()
        await update(interaction, embed=cancelled_embed(self.name), view=None)

    async def on_timeout(self) -> None:
        for item in self.children:
            if isinstance(item, discord.ui.Button):
                item.disabled = True
        if self.prompt is not None:
            try:
                await self.prompt.edit_original_response(
                    embed=cancelled_embed(self.name, timed_out=True), view=self
                )
            except discord.HTTPException as error:  # the prompt was dismissed: nothing to edit
                log.info("Could not disable the remove prompt (%s)", error.status)

    async def on_error(
        self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any]
    ) -> None:
        # Views don't reach the tree's handler; give the same replies it would.
        await answer_error(interaction, error, f"the {self.action} button")
