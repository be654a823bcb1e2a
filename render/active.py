"""`/character use`: the player's active character, which their commands now take when they name
none."""

from __future__ import annotations

import discord

from lang import _
from render.common import NEUTRAL
from table.model import Character

TITLE_MAX = 256


def active_embed(character: Character) -> discord.Embed:
    return discord.Embed(
        title=_("You now play {name} here", name=character.name)[:TITLE_MAX],
        description=_(
            "`/fatigue`, `/save` and `/character show` use {name} in this channel when you name "
            "no character; `character:` still picks another for one command.",
            name=character.name,
        ),
        colour=NEUTRAL,
    )
