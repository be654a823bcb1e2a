"""Clicks nobody handles: a button from an older version, or a forged custom_id.

discord.py drops a component interaction whose custom_id matches no registered item, and the
user sees "This interaction failed". Every button of this bot is a `DynamicItem` registered
with the client, so the client knows every template and answers the rest politely.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.ack import finished
from bot.tree import send_error
from lang import N_, _, speak

log = logging.getLogger(__name__)

UNKNOWN_CLICK = N_(
    "That button no longer does anything (it may be from an older version of the bot): "
    "nothing was changed. Run the command again for fresh buttons."
)
_ANSWERED_HERE = (discord.InteractionType.component, discord.InteractionType.modal_submit)


class KnownClicks:
    """The custom_id templates of the dynamic items registered with the client."""

    def __init__(self) -> None:
        self._templates: dict[type[Any], re.Pattern[str]] = {}

    def add(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        for item in items:
            # discord.py compiles each DynamicItem's template into this class attribute.
            self._templates[item] = item.__discord_ui_compiled_template__

    def remove(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        for item in items:
            self._templates.pop(item, None)

    def knows(self, interaction: discord.Interaction) -> bool:
        """False only for a component or modal whose custom_id no registered item takes."""
        if interaction.type not in _ANSWERED_HERE:
            return True
        data: Any = interaction.data or {}
        custom_id = data.get("custom_id")
        if not isinstance(custom_id, str):
            return False
        if interaction.type is discord.InteractionType.component and (
            interaction.message is None or not _carries(interaction.message.components, custom_id)
        ):
            return False  # discord.py only calls an item the clicked message carries
        return any(t.fullmatch(custom_id) for t in self._templates.values())


def _carries(components: Any, custom_id: str) -> bool:
    for component in components or ():
        if getattr(component, "custom_id", None) == custom_id:
            return True
        inner = [*getattr(component, "children", ()), getattr(component, "accessory", None)]
        if _carries([c for c in inner if c is not None], custom_id):
            return True
    return False


async def answer_unknown_click(interaction: discord.Interaction) -> None:
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id"))[:100]
    log.info("Answered a click nobody handles: %r (user %s)", custom_id, interaction.user.id)
    speak(interaction.locale.value)
    try:
        await send_error(interaction, _(UNKNOWN_CLICK))
    finally:
        finished(interaction)  # the watchdog has nothing left to acknowledge
