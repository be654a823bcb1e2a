"""The one way a cog answers: `reply` for a new message, `update` for the clicked one.

Every answer goes through here, so how an interaction is acknowledged (at once, or deferred
first and followed up) is decided in one place rather than at every call site."""

from __future__ import annotations

from typing import Any

import discord

from bot.metrics import note_acknowledged


async def reply(
    interaction: discord.Interaction, content: str | None = None, **kwargs: Any
) -> None:
    """Send the answer: the response if none was sent yet, else a follow-up."""
    if interaction.response.is_done():
        await interaction.followup.send(content or discord.utils.MISSING, **kwargs)
    else:
        await interaction.response.send_message(content, **kwargs)
        note_acknowledged(interaction)


async def update(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Edit the message whose component was clicked."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)
        note_acknowledged(interaction)
