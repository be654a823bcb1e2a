"""`/monster remove` asks to confirm, as `/character remove` does (GM only: refused at once,
and asked again at the click, in the removal's own transaction). Its buttons are dynamic, so
they answer after a restart too, and say so once the prompt has expired."""

from __future__ import annotations

from typing import Any, Self

import discord

from bot.render.characters import cancelled_embed
from bot.render.monsters import confirm_remove_embed, removed_embed
from cogs._buttons import buttons_view
from cogs._confirm import ANSWER, ConfirmButton, PromptTimers, expiry_code, grey_out_when_expired
from cogs._reply import reply, update
from cogs._shared import apply_as, read_table, require_gm
from table import bestiary

COMMAND = "/monster remove"


class MonsterRemoveAnswer(ConfirmButton, template=r"tk:mrm:" + ANSWER + r":(?P<name>.*)"):
    """Remove or Cancel on a `/monster remove` prompt; the name comes last (any text)."""

    def __init__(self, yes: bool, asker_id: int, until: str, name: str, **kwargs: Any) -> None:
        self.name = name
        label, style = (
            ("Remove", discord.ButtonStyle.danger)
            if yes
            else ("Cancel", discord.ButtonStyle.secondary)
        )
        super().__init__(
            "tk:mrm", yes, asker_id, until, label, suffix=f":{name}", style=style, **kwargs
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        return cls(*cls.parse(match), match["name"])

    async def confirmed(self, interaction: discord.Interaction) -> None:
        gone = await apply_as(
            interaction,
            "monster remove",
            lambda table, gm: bestiary.remove(table, is_gm=gm, name=self.name),
        )
        await update(interaction, embed=removed_embed(gone), view=None)

    def cancelled(self) -> discord.Embed:
        return cancelled_embed(self.name)

    def expired(self) -> discord.Embed:
        return cancelled_embed(self.name, timed_out=True, command=COMMAND)


def remove_buttons(asker_id: int, until: str, name: str, disabled: bool = False) -> discord.ui.View:
    return buttons_view(
        *(
            MonsterRemoveAnswer(yes, asker_id, until, name, disabled=disabled)
            for yes in (True, False)
        )
    )


async def confirm_monster_removal(
    interaction: discord.Interaction, name: str, timeout: float, timers: PromptTimers
) -> None:
    table = await read_table(interaction)
    require_gm(interaction, table)  # refuse now, not after a click
    monster = table.get_monster(name)
    asker, until = interaction.user.id, expiry_code(timeout)
    view = remove_buttons(asker, until, monster.name)
    await reply(interaction, embed=confirm_remove_embed(monster), view=view)  # declared private
    expired = cancelled_embed(monster.name, timed_out=True, command=COMMAND)
    timers.start(
        grey_out_when_expired(
            interaction,
            timeout,
            expired,
            lambda: remove_buttons(asker, until, monster.name, disabled=True),
        )
    )
