"""Secret rolls: the channel's notice (who rolled what, never a number of the result), the
roller's and the GM's private view, and the notice once the GM reveals it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord.utils import escape_markdown

from bot.render.common import NEUTRAL

SECRET = discord.Colour(0x2C2F33)  # dark: behind the screen
TITLE_MAX = 256
HIDDEN = "Only the GM and the player who rolled can see the result."
REVEALED = "Revealed by the GM."


def notice_embed(
    roller: str, what: str, label: str | None = None, *, revealed: bool = False
) -> discord.Embed:
    """`🔒 Pippa made a secret WSR (Willpower save)`: the roller and the kind of roll in words;
    once `revealed`, the head of the message that the result's embeds follow."""
    if revealed:
        title, footer, colour = f"🔓 {roller}'s secret {what}, revealed", REVEALED, NEUTRAL
    else:
        title, footer, colour = f"🔒 {roller} made a secret {what}", HIDDEN, SECRET
    embed = discord.Embed(title=title[:TITLE_MAX], colour=colour)
    if label:
        embed.description = f"🏷️ {escape_markdown(label)}"
    return embed.set_footer(text=footer)


def private_text(roller_name: str, what: str, *, yours: bool) -> str:
    if yours:
        return f"🔒 Your secret {what}: only you and the GM can see this."
    return f"🔒 {roller_name}'s secret {what}: only you and the player who rolled can see this."


def result_embeds(stored: Sequence[dict[str, Any]]) -> list[discord.Embed]:
    return [discord.Embed.from_dict(dict(e)) for e in stored]
