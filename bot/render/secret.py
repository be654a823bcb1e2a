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


def notice_embed(roller: str, what: str, label: str | None = None) -> discord.Embed:
    """`🔒 Pippa made a secret WSR (Willpower save)`: the roller and the kind of roll in words."""
    title = f"🔒 {roller} made a secret {what}"
    embed = discord.Embed(title=title[:TITLE_MAX], colour=SECRET)
    if label:
        embed.description = f"🏷️ {escape_markdown(label)}"
    return embed.set_footer(text="Only the GM and the player who rolled can see the result.")


def revealed_embed(roller: str, what: str, label: str | None = None) -> discord.Embed:
    """The notice's head once the GM reveals the roll; the result's embeds follow it."""
    title = f"🔓 {roller}'s secret {what}, revealed"
    embed = discord.Embed(title=title[:TITLE_MAX], colour=NEUTRAL)
    if label:
        embed.description = f"🏷️ {escape_markdown(label)}"
    return embed.set_footer(text="Revealed by the GM.")


def private_text(roller_name: str, what: str, *, yours: bool) -> str:
    if yours:
        return f"🔒 Your secret {what}: only you and the GM can see this."
    return f"🔒 {roller_name}'s secret {what}: only you and the player who rolled can see this."


def result_embeds(stored: Sequence[dict[str, Any]]) -> list[discord.Embed]:
    return [discord.Embed.from_dict(dict(e)) for e in stored]
