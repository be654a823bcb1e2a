"""Confirm prompts' replies when nothing was done: answered Cancel, or left past their minute."""

from __future__ import annotations

import discord

from lang import _
from render.common import TITLE_MAX


def cancelled_embed(
    name: str, timed_out: bool = False, command: str = "/character remove"
) -> discord.Embed:
    """A removal prompt answered Cancel, or left past its minute (then: how to ask again)."""
    text = _("Cancelled: nothing was removed.")
    if timed_out:
        text = _(
            "No answer within a minute: nothing was removed. To remove it, run `{command}` again.",
            command=command,
        )
    return discord.Embed(title=_("Kept {name}", name=name)[:TITLE_MAX], description=text)


def reset_cancelled_embed() -> discord.Embed:
    return discord.Embed(title=_("Party reset cancelled"), description=_("Nothing was changed."))


def reset_expired_embed() -> discord.Embed:
    return discord.Embed(
        title=_("Party reset timed out"),
        description=_(
            "No answer within a minute: nothing was changed. "
            "To reset everyone, run `/party reset` again."
        ),
    )


def take_back_cancelled_embed(redo: bool, timed_out: bool = False) -> discord.Embed:
    """An `/undo` or `/redo` prompt answered Cancel, or left past its minute."""
    if redo:
        title = _("Redo cancelled")
        text = _("No answer within a minute: nothing was redone. To redo it, run `/redo` again.")
    else:
        title = _("Undo cancelled")
        text = _("No answer within a minute: nothing was undone. To undo it, run `/undo` again.")
    return discord.Embed(title=title, description=text if timed_out else _("Nothing was changed."))
