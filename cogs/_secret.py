"""Secret rolls (`secret:True` on `/roll` and `/save`): the channel sees who rolled what, the
roller sees the result privately, and the channel's GM can peek and reveal it.

The result is kept in the store by the channel message that announces it (`store.roll_log`),
so the buttons work after a restart. Reveal edits that message as the bot's own message through
the channel, not through the interaction's token, which expires after 15 minutes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

import discord

from bot.contexts import NotInServer
from bot.permissions import is_gm
from cogs._buttons import ID_CODE, FixedButton, TableButton, buttons_view, id_code, id_from_code
from cogs._reply import reply, update
from cogs._shared import bot_of, table_channel_id
from lang import N_, _
from render.secret import (
    notice_embed,
    private_text,
    result_embeds,
)
from rules.errors import RulesError
from store.roll_log import SecretRoll
from table.model import Forbidden

# Marked here, translated when said (`_(PEEK)`): each reader gets their own language.
PEEK = N_("See the roll (GM)")
REVEAL = N_("Reveal to the channel")
ONLY_GM_AND_ROLLER = N_(
    "Only the GM and the player who made this secret roll can see it; "
    "the GM may reveal it to everyone"
)
ONLY_GM_REVEALS = N_("Only the GM can reveal a secret roll")
UNKNOWN = N_("I don't have this secret roll any more, so there is nothing to show")
ELSEWHERE = N_("That secret roll belongs to another channel: its buttons work only there")
GONE = N_("The secret roll's message is gone from the channel: nothing to reveal")


def roller_name(interaction: discord.Interaction) -> str:
    """How the roller is named in words (no mention: it must not read as a number or ping)."""
    return discord.utils.escape_markdown(interaction.user.display_name)


async def send_secret(
    interaction: discord.Interaction,
    what: str,
    embeds: Sequence[discord.Embed],
    label: str | None = None,
) -> None:
    """Announce a secret roll in the channel, keep its result, show it to the roller."""
    if interaction.guild_id is None:  # `/roll` works in a DM, but a secret needs its GM
        raise NotInServer()
    name = roller_name(interaction)
    notice = notice_embed(name, what, label)
    await reply(interaction, embed=notice, view=buttons_view(SecretPeek()))
    # What the channel sees; later answers to the interaction are follow-ups, never edits of it.
    message = await interaction.original_response()
    roll = SecretRoll(
        message_id=message.id,
        channel_id=interaction.channel_id or 0,
        guild_id=interaction.guild_id,
        table_id=await table_channel_id(interaction),
        roller_id=interaction.user.id,
        roller_name=name,
        label=label,
        what=what,
        embeds=tuple(dict(e.to_dict()) for e in embeds),
    )
    await bot_of(interaction).store.save_secret(roll)
    gm = await _gm_of(interaction, roll)  # a GM's own roll is the GM's alone
    text = private_text(name, what, yours=True, gm=gm)
    await reply(interaction, text, embeds=embeds, private=True)


async def _secret_here(interaction: discord.Interaction, message_id: int) -> SecretRoll:
    """The kept roll, if this click comes from the channel (and server) it was made in."""
    roll = await bot_of(interaction).store.find_secret(message_id)
    if roll is None:
        raise RulesError(_(UNKNOWN))
    if interaction.channel_id != roll.channel_id or interaction.guild_id != roll.guild_id:
        raise RulesError(_(ELSEWHERE))
    return roll


async def _gm_of(interaction: discord.Interaction, roll: SecretRoll) -> bool:
    """GM by the settings of the table the roll belongs to."""
    table = await bot_of(interaction).store.read(roll.table_id, roll.guild_id)
    return is_gm(interaction, table.settings)


class SecretPeek(FixedButton, custom_id="tk:secret:peek"):
    """On the channel's notice: the GM (with a Reveal button) or the roller sees the result."""

    text = PEEK

    async def clicked(self, interaction: discord.Interaction) -> None:
        if interaction.message is None:
            raise RulesError(_(UNKNOWN))
        roll = await _secret_here(interaction, interaction.message.id)
        gm = await _gm_of(interaction, roll)
        yours = interaction.user.id == roll.roller_id
        if not gm and not yours:
            raise Forbidden(_(ONLY_GM_AND_ROLLER))
        text = private_text(roll.roller_name, roll.what, yours=yours, gm=gm)
        embeds = result_embeds(roll.embeds)
        reveal = gm and roll.revealed_by is None
        view = buttons_view(SecretReveal(roll.message_id)) if reveal else None
        await reply(interaction, text, embeds=embeds, view=view, private=True)


class SecretReveal(TableButton, template=r"tk:secret:reveal:(?P<message>" + ID_CODE + ")"):
    """On the GM's private peek: edit the channel's notice to show the full result."""

    def __init__(self, message_id: int) -> None:
        self.message_id = message_id
        custom_id = f"tk:secret:reveal:{id_code(message_id)}"
        super().__init__(custom_id, _(REVEAL), style=discord.ButtonStyle.danger)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        return cls(id_from_code(match["message"]))

    async def clicked(self, interaction: discord.Interaction) -> None:
        roll = await _secret_here(interaction, self.message_id)
        if not await _gm_of(interaction, roll):
            raise Forbidden(_(ONLY_GM_REVEALS))
        if roll.revealed_by is None:
            head = notice_embed(roll.roller_name, roll.what, roll.label, revealed=True)
            channel = bot_of(interaction).get_partial_messageable(
                roll.channel_id, guild_id=roll.guild_id
            )
            try:  # the bot's own message, through the channel: no token needed
                await channel.get_partial_message(roll.message_id).edit(
                    embeds=[head, *result_embeds(roll.embeds)], view=None
                )
            except discord.NotFound:
                raise RulesError(_(GONE)) from None
            await bot_of(interaction).store.mark_revealed(roll, interaction.user.id)
        done = _(
            "🔓 {name}'s secret {what} is revealed in the channel.",
            name=roll.roller_name,
            what=roll.what,
        )
        await update(interaction, content=done, view=None)
