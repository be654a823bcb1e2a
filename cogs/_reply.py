"""The one way a cog answers: `reply` for a new message, `update` for the clicked one, `whisper`
for a word to the user alone.

Every answer goes through here (and `bot.ack`), so how an interaction is acknowledged (at once,
or deferred by the watchdog and filled in or followed up) is decided in one place, not at every
call site. Each takes text, embeds, files (`discord.File`s made from bytes; a picture shows in
an embed by `attachment://<filename>`, its alt text in the file's `description`) and buttons,
and says them the same way on every route.

Privacy is declared once, on the command, so a deferral made before the reply is ready already
takes the same form: `extras=PRIVATE`, `extras=private_unless("public")` or
`extras=private_if("private")`. `reply` reads that declaration, never an argument; a click's
`reply` is public. `whisper` is private, and is never a command's answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord.utils import MISSING

from bot.ack import EPHEMERAL, answered, declared_ephemeral, edit, send
from bot.message import Message

PRIVATE: dict[str, Any] = {EPHEMERAL: True}


def private_unless(option: str) -> dict[str, Any]:
    """The reply is private unless the boolean `option` is true (`public:true`)."""
    return {EPHEMERAL: f"!{option}"}


def private_if(option: str) -> dict[str, Any]:
    """The reply is private when the boolean `option` is true (`private:true`)."""
    return {EPHEMERAL: option}


def _message(
    content: str | None,
    embed: discord.Embed | None,
    embeds: Sequence[discord.Embed],
    files: Sequence[discord.File],
    view: discord.ui.View | None,
    pinged: discord.abc.Snowflake | None = None,
) -> Message:
    """A new message: what is not given is not sent."""
    return Message(
        MISSING if content is None else content,
        embeds=[embed] if embed is not None else list(embeds) or MISSING,
        files=list(files) or MISSING,
        view=MISSING if view is None else view,
        pinged=pinged,
    )


async def reply(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
    embeds: Sequence[discord.Embed] = (),
    files: Sequence[discord.File] = (),
    view: discord.ui.View | None = None,
    pinged: discord.abc.Snowflake | None = None,
    private: bool | None = None,
) -> None:
    """The answer as a new message (or, said again, a further one), private as the command
    declares, unless the answer itself decides (`private`: a change to a monster still behind
    the GM's screen answers the GM alone); `pinged` is the one user its content may ping
    (allowed mentions stay closed to everyone else)."""
    message = _message(content, embed, embeds, files, view, pinged)
    if private is None:
        private = declared_ephemeral(interaction)
    await send(interaction, message, private=private)


async def whisper(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    embeds: Sequence[discord.Embed] = (),
    files: Sequence[discord.File] = (),
    view: discord.ui.View | None = None,
) -> None:
    """A message only the user sees: a click's private answer, or a word after a command's
    answer (a secret roll's result after its public notice). A command's answer takes the
    privacy its command declares, which its deferral may already have shown: never this."""
    command = interaction.type is discord.InteractionType.application_command
    if command and not answered(interaction):
        raise ValueError("a command's answer is private or public as the command declares")
    await send(interaction, _message(content, None, embeds, files, view), private=True)


async def update(
    interaction: discord.Interaction,
    *,
    content: str | None = MISSING,
    embed: discord.Embed | None = MISSING,
    embeds: Sequence[discord.Embed] = MISSING,
    files: Sequence[discord.File] = MISSING,
    view: discord.ui.View | None = MISSING,
) -> None:
    """Edit the message whose component was clicked: what is given replaces what it showed
    (`files` its attachments, `view=None` takes the buttons away); the rest stays."""
    if embed is not MISSING:
        embeds = [] if embed is None else [embed]
    await edit(interaction, Message(content, embeds=embeds, files=files, view=view))


async def reply_message(
    interaction: discord.Interaction,
    *,
    embed: discord.Embed,
    view: discord.ui.View | None = None,
) -> discord.Message:
    """`reply`, returning its message: for a public answer that stores something keyed by it
    (a secret roll's notice). Later answers to the interaction are follow-ups, never edits of
    it, whether it was the response or filled a deferral's "thinking…"."""
    await reply(interaction, embed=embed, view=view)
    return await interaction.original_response()
