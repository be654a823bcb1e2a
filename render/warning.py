"""A warning under a reply: the change was made, but something about it deserves a look."""

from __future__ import annotations

import discord

from lang import _

FIELD_MAX = 1024


def with_warning(embed: discord.Embed, warning: str | None) -> discord.Embed:
    """The embed with a ⚠️ field for `warning`; as it was when there is none."""
    if warning:
        embed.add_field(name=_("Warning"), value=f"⚠️ {warning}"[:FIELD_MAX], inline=False)
    return embed
