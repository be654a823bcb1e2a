"""The one way a cog answers: `reply` for a new message, `update` for the clicked one.

Every answer goes through here (and `bot.ack`), so how an interaction is acknowledged (at once,
or deferred by the watchdog and followed up) is decided in one place, not at every call site.

A command whose reply is private declares it, so a deferral made before the reply is ready
already takes the same form: `extras=PRIVATE`, `extras=private_unless("public")` or
`extras=private_if("private")`. `reply` reads the same declaration: one source for both.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.ack import EPHEMERAL, ack_of, declared_ephemeral, edit, send

PRIVATE: dict[str, Any] = {EPHEMERAL: True}


def private_unless(option: str) -> dict[str, Any]:
    """The reply is private unless the boolean `option` is true (`public:true`)."""
    return {EPHEMERAL: f"!{option}"}


def private_if(option: str) -> dict[str, Any]:
    """The reply is private when the boolean `option` is true (`private:true`)."""
    return {EPHEMERAL: option}


async def reply(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    ephemeral: bool | None = None,
    **kwargs: Any,
) -> None:
    """Send the answer as a new message; private as the command declares, unless `ephemeral`
    says otherwise (refusals on a component, which declares nothing)."""
    if ephemeral is None:
        ephemeral = declared_ephemeral(interaction)
    await send(interaction, content, ephemeral=ephemeral, **kwargs)


async def update(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Edit the message whose component was clicked."""
    await edit(interaction, **kwargs)


async def reply_message(
    interaction: discord.Interaction, content: str | None = None, **kwargs: Any
) -> discord.Message:
    """A public `reply`, returning its message: for answers that store something keyed by it
    (a secret roll's notice). Later answers to the interaction are follow-ups, never edits of
    it, whether it was the response or filled a deferral's "thinking…"."""
    await send(interaction, content, ephemeral=False, **kwargs)
    ack_of(interaction).state = "answered"
    return await interaction.original_response()
