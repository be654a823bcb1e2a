"""A roll's `label:` ("Poison", "Sneak attack"), shown above the roll it names."""

from __future__ import annotations

import discord

LABEL_MAX = 50  # what `/roll` and `/save` accept; short enough for a line on a phone
ICON = "🏷️"


def labelled(embed: discord.Embed, label: str | None) -> discord.Embed:
    """The embed with the label as its first line (the author line; it never pings)."""
    if label:
        embed.set_author(name=f"{ICON} {' '.join(label.split())}"[: LABEL_MAX + 4])
    return embed
