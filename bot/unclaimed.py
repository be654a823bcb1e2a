"""Clicks and forms of the bot's that nobody took, answered politely (docs/architecture.md,
"Unclaimed clicks and forms").

Every custom_id of the bot starts with `tk:`. discord.py drops a click whose custom_id no live
view or registered `DynamicItem` takes (or that its message doesn't carry), and a form it holds
no live `Modal` for (after a restart, or past the form's timeout): the user would see "This
interaction failed". `bot.client.on_interaction` runs after discord.py has scheduled the
interaction's own handlers, whose first step takes it (`bot.ack.take`): a `tk:` one still
untaken and unanswered then is nobody's, and gets a private word instead. A custom_id without
`tk:` (a plain discord.py view's) is never answered here, so nothing is answered twice.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.ack import ack_of
from bot.language import speak_to
from bot.tree import send_error
from lang import N_, _

log = logging.getLogger(__name__)

OURS = "tk:"
BUTTON = 2  # a component's type, as Discord sends it with a click
UNKNOWN_CLICK = N_(
    "That button no longer does anything (it may be from an older version of the bot): "
    "nothing was changed. Run the command again for fresh buttons."
)
MENU_GONE = N_(
    "That menu can't be used any more (the bot restarted since, or it was left open too long): "
    "nothing was changed. Run the command again for a fresh one."
)
FORM_GONE = N_(
    "This form can't be read any more (it was open too long, or the bot restarted meanwhile): "
    "nothing was changed. Run the command again to fill it in anew."
)


async def answer_unclaimed(interaction: discord.Interaction) -> None:
    """A `tk:` click or form nobody took: a button of an older version, one the message doesn't
    carry (a forged custom_id), or a form or menu that lived only in the memory of a process
    that has since restarted. Answered privately, politely, once."""
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id"))[:100]
    log.info("Answered a click nobody handles: %r (user %s)", custom_id, interaction.user.id)
    speak_to(interaction, private=True)
    form = interaction.type is discord.InteractionType.modal_submit
    menu = data.get("component_type", BUTTON) != BUTTON  # a select menu of any kind
    ack_of(interaction).outcome = "refused"
    await send_error(interaction, _(FORM_GONE if form else MENU_GONE if menu else UNKNOWN_CLICK))


def unclaimed(interaction: discord.Interaction) -> bool:
    """Whether a click or form is the bot's (its custom_id starts with `tk:`) and no handler
    took it or answered it."""
    if interaction.type not in (
        discord.InteractionType.component,
        discord.InteractionType.modal_submit,
    ):
        return False
    data: Any = interaction.data or {}
    custom_id = data.get("custom_id")
    return (
        isinstance(custom_id, str)
        and custom_id.startswith(OURS)
        and not ack_of(interaction).taken
        and not interaction.response.is_done()
    )
