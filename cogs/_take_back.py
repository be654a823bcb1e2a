"""`/undo` and `/redo` as one store transaction each, and the question asked first when one
would take a character or monster away.

The command asks the store to undo (or redo) and to ask first (`asks`): the store answers
AskFirst, having written nothing, and the prompt's buttons carry the event it was asked about.
The Undo (or Redo) button runs the same transaction again, as the asker at the click, expecting
that event: if the channel moved on meanwhile, it says so and changes nothing. The buttons are
`ConfirmButton`s: only the asker may answer, a late click says the prompt expired, and after a
restart they still work. A reply that left out something behind the GM's screen is followed by
the GM's whole copy, privately; a question about nothing but that (a hidden monster's creation
taken back) is the GM's alone, and so is its answer.
"""

from __future__ import annotations

import functools
from datetime import UTC, datetime
from typing import Any, Self

import discord

from bot.ack import mark_saved
from bot.permissions import is_gm
from cogs._confirm import ANSWER, ConfirmButton, PromptTimers, ask
from cogs._reply import reply, update
from cogs._shared import bot_of, table_channel_id
from lang import _
from render.confirm import take_back_cancelled_embed
from render.history import (
    ask_embed,
    hides_preparation,
    only_preparation,
    redone_embed,
    undone_embed,
)
from render.monsters import gm_copy
from table.model import ChannelSettings, Table
from table.parts import CHANNEL_ONLY
from table.sight import channel_sight
from table.undo import REDO_ACTION, UNDO_ACTION, AskFirst

EVENT_ID_MAX = 2**63 - 1  # the database's integer: a larger id in a custom_id is no event


async def take_back(
    interaction: discord.Interaction, redo: bool, asks: bool, expect: int | None = None
) -> tuple[discord.Embed, discord.Embed | None, bool]:
    """Undo (or redo) as the interaction's user, in one transaction; its reply, the GM's whole
    copy when that left out something behind the GM's screen, and whether it touched nothing
    but that (the GM's alone). With `asks`, raises AskFirst (nothing written) when it would
    take a character or monster away."""

    def gm(settings: ChannelSettings) -> bool:  # asked of the settings the transaction loads
        return is_gm(interaction, settings)

    store, channel_id = bot_of(interaction).store, await table_channel_id(interaction)
    who = (interaction.guild_id, interaction.user.id, gm, interaction.permissions.manage_guild)
    now = datetime.now(UTC)
    if redo:
        redone = await store.redo_last(
            channel_id, *who, interaction_id=interaction.id, asks=asks, expect=expect
        )
        mark_saved(interaction, REDO_ACTION, redone.change.action)
        change, did, table = redone.change, (redone.redo.before, redone.redo.after), redone.table
        say = functools.partial(redone_embed, redone, now)
    else:
        undone = await store.undo_last(
            channel_id, *who, interaction_id=interaction.id, asks=asks, expect=expect
        )
        mark_saved(interaction, UNDO_ACTION, undone.target.action)
        change, did, table = undone.target, (undone.undo.before, undone.undo.after), undone.table
        say = functools.partial(undone_embed, undone, now)
    copy = say(numbers=True, prepared=True) if hides_preparation(change, did) else None
    return say(numbers=seen(table)), copy, only_preparation(change, did)


def seen(table: Table) -> bool:
    """Whether the channel, reading a public reply, may see the monsters' numbers."""
    return channel_sight(table.settings).numbers


async def undo_or_ask(
    interaction: discord.Interaction, redo: bool, seconds: float, timers: PromptTimers
) -> None:
    """`/undo` or `/redo`: done and said at once, or asked first (a prompt with two buttons).
    A question about nothing but the GM's preparation (taking back a hidden monster's
    creation) is asked of the GM alone, whole."""
    try:
        embed, copy, __ = await take_back(interaction, redo, asks=True)
    except AskFirst as asked:
        alone = only_preparation(asked.change, (asked.before, asked.after))
        store, channel_id = bot_of(interaction).store, await table_channel_id(interaction)
        table = await store.read(channel_id, interaction.guild_id, CHANNEL_ONLY)
        now = datetime.now(UTC)
        numbers = alone or seen(table)
        question = ask_embed(asked, interaction.user.id, now, numbers=numbers, prepared=alone)
        kind = "redo" if redo else "undo"
        await ask(
            interaction,
            question,
            TakeBackAnswer,
            kind,
            asked.expect,
            seconds=seconds,
            timers=timers,
            private=alone or None,
        )
        return
    await reply(interaction, embed=embed)
    if copy is not None:
        await reply(interaction, embeds=[gm_copy(copy)], private=True)


class TakeBackAnswer(
    ConfirmButton, template=r"tk:(?P<kind>undo|redo):" + ANSWER + r":(?P<event>[0-9]{1,19})"
):
    """Undo (or Redo) or Cancel on the question `/undo` (or `/redo`) asks first; `event_id`
    is what it was asked about."""

    def __init__(
        self,
        yes: bool,
        asker_id: int,
        until: str,
        kind: str,
        event_id: int,
        *,
        disabled: bool = False,
    ) -> None:
        self.redo, self.event_id = kind == "redo", event_id
        label = _("Redo") if self.redo else _("Undo")
        suffix = f":{event_id}"
        super().__init__(
            f"tk:{kind}", yes, asker_id, until, label, suffix=suffix, disabled=disabled
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        event_id = min(int(match["event"]), EVENT_ID_MAX)
        return cls.make(*cls.parse(match), match["kind"], event_id)

    async def confirmed(self, interaction: discord.Interaction) -> None:
        embed, copy, alone = await take_back(
            interaction, self.redo, asks=False, expect=self.event_id
        )
        if alone and copy is not None:  # the GM's own prompt: the whole answer in its place
            await update(interaction, embed=copy, view=None)
            return
        await update(interaction, embed=embed, view=None)
        if copy is not None:
            await reply(interaction, embeds=[gm_copy(copy)], private=True)

    def cancelled(self) -> discord.Embed:
        return take_back_cancelled_embed(self.redo)

    def expired(self) -> discord.Embed:
        return take_back_cancelled_embed(self.redo, timed_out=True)
