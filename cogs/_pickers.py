"""Menus that ask which character: where a command needs one of the caller's characters and
can't tell which (`table.active.ChooseCharacter`), its refusal becomes a select menu of them,
and choosing does what was asked, with the same options.

A picker lives in this process's memory (a `TableView`): only whoever asked can choose in it,
and after a restart, or its 15 minutes, a choice gets the polite answer of `bot/unclaimed.py`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

import discord
from discord import app_commands

from bot.ack import ack_of
from cogs._confirm import ConfirmButton
from cogs._reply import reply, update
from cogs._several import names_text
from cogs._views import FORM_SECONDS, TableView
from lang import N_, _
from table.active import ChooseCharacter

Names = str | tuple[str, ...]  # one name, or (a GM's menu) several
Act = Callable[[discord.Interaction, Names | None], Awaitable[None]]
Chosen = Callable[[discord.Interaction, tuple[str, ...]], Awaitable[None]]
CHOSEN = N_("Chosen: {names}")
LEFT_OUT = N_("The menu holds the first {shown}: name any other with `{option}:`.")


class Menu(discord.ui.Select["Picker"]):
    async def callback(self, interaction: discord.Interaction) -> None:
        assert self.view is not None
        await self.view.picked(interaction, tuple(self.values))


class Picker(TableView):
    """A menu of `names` for `asker_id`: one, or (`several`) any number; `chosen` runs with
    the choice. Its answers are `private` as the command's were declared."""

    def __init__(
        self,
        asker_id: int,
        names: Sequence[str],
        chosen: Chosen,
        *,
        several: bool = False,
        private: bool = False,
        placeholder: str | None = None,
        picked: Sequence[str] = (),
    ) -> None:
        super().__init__(timeout=FORM_SECONDS)
        self.asker_id, self.chosen, self.private = asker_id, chosen, private
        options = [discord.SelectOption(label=n, value=n, default=n in picked) for n in names]
        self.add_item(
            Menu(
                placeholder=placeholder,
                options=options,
                min_values=1,
                max_values=len(options) if several else 1,
            )
        )

    async def picked(self, interaction: discord.Interaction, names: tuple[str, ...]) -> None:
        if interaction.user.id != self.asker_id:
            await reply(interaction, _(ConfirmButton.ONLY_ASKER, asker=self.asker_id), private=True)
            return
        await self.chosen(interaction, names)


async def offer(interaction: discord.Interaction, choose: ChooseCharacter, chosen: Chosen) -> None:
    """Answer privately with a menu of the characters `choose` names."""
    text = choose.question
    if choose.left_out:
        text += "\n" + _(LEFT_OUT, shown=len(choose.names), option=_naming_option(interaction))
    view = Picker(
        interaction.user.id,
        choose.names,
        chosen,
        several=choose.several,
        private=ack_of(interaction).private,  # the choice answers as the command does
    )
    await reply(interaction, text, view=view, private=True)


def _naming_option(interaction: discord.Interaction) -> str:
    """The command's option that names a character: `character:`, or `/character show`'s
    and `/init add`'s `name:`."""
    command = interaction.command
    if isinstance(command, app_commands.Command) and command.get_parameter("character") is None:
        return "name"
    return "character"


def redo(act: Act) -> Chosen:
    """A choice that does what was asked for it: the menu is replaced by what was chosen, and
    `act` runs for it, answering as the command does."""

    async def chosen(interaction: discord.Interaction, names: tuple[str, ...]) -> None:
        await update(interaction, content=_(CHOSEN, names=names_text(names)), view=None)
        await act(interaction, names if len(names) > 1 else names[0])

    return chosen


async def choosing(
    interaction: discord.Interaction, act: Act, name: Names | None, *, form: bool = False
) -> None:
    """`act` for the character `name` (None: the caller's own); if the caller must choose
    which, the answer is a menu of them, whose choice runs `act` again with it. With `form`
    (`act` answers with a form, which only an interaction's first answer can be), the choice
    runs it at once and the menu stays."""
    try:
        await act(interaction, name)
    except ChooseCharacter as choose:
        await offer(interaction, choose, _at_once(act) if form else redo(act))


def _at_once(act: Act) -> Chosen:
    async def chosen(interaction: discord.Interaction, names: tuple[str, ...]) -> None:
        await act(interaction, names[0])

    return chosen
