"""Secret rolls: the channel's notice (who rolled what, never a number of the result), the
roller's and the GM's private view, and the notice once the GM reveals it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord.utils import escape_markdown

from lang import N_, _
from render.common import NEUTRAL, TITLE_MAX

SECRET = discord.Colour(0x2C2F33)  # dark: behind the screen
HIDDEN = N_("Only the GM and the player who rolled can see the result.")
REVEALED = N_("Revealed by the GM.")


def notice_embed(
    roller: str, what: str, label: str | None = None, *, revealed: bool = False
) -> discord.Embed:
    """`🔒 Pippa made a secret WSR (Willpower save)`: the roller and the kind of roll in words;
    once `revealed`, the head of the message that the result's embeds follow."""
    if revealed:
        title = _("🔓 {roller}'s secret {what}, revealed", roller=roller, what=what)
        footer, colour = _(REVEALED), NEUTRAL
    else:
        title = _("🔒 {roller} made a secret {what}", roller=roller, what=what)
        footer, colour = _(HIDDEN), SECRET
    embed = discord.Embed(title=title[:TITLE_MAX], colour=colour)
    if label:
        embed.description = f"🏷️ {escape_markdown(label)}"
    return embed.set_footer(text=footer)


def private_text(roller_name: str, what: str, *, yours: bool, gm: bool = False) -> str:
    """Who else may see the result, as its roller or its GM reads it (`gm`: the reader is the
    GM; a GM's own roll is theirs alone)."""
    if yours and gm:
        return _("🔒 Your secret {what}: only you can see this (you are the GM).", what=what)
    if yours:
        return _("🔒 Your secret {what}: only you and the GM can see this.", what=what)
    return _(
        "🔒 {roller}'s secret {what}: only you and the player who rolled can see this.",
        roller=roller_name,
        what=what,
    )


def result_embeds(stored: Sequence[dict[str, Any]]) -> list[discord.Embed]:
    return [discord.Embed.from_dict(dict(e)) for e in stored]
