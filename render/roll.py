"""`/roll` replies: the open-ended d100 with every die, or a dice expression's working."""

from __future__ import annotations

import discord

from lang import _
from render.common import DESCRIPTION_MAX, NEUTRAL, TITLE_MAX
from rules.dice import OpenEndedRoll
from rules.text import plain, signed

_CUT = " …"


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - len(_CUT)] + _CUT


def open_ended_embed(roll: OpenEndedRoll, mod: int = 0) -> discord.Embed:
    """`97 → +99 → +43 = 239`, then `239 +5 = **244**` when there is a modifier."""
    total = roll.total + mod
    lines = [roll.describe()]
    if mod:
        lines.append(f"{plain(roll.total)} {signed(mod)} = **{plain(total)}**")
    elif roll.direction == "none":
        lines[0] = f"**{lines[0]}**"
    if roll.direction == "high":
        title = _("d100 (open-ended high): {total}", total=plain(total))
    elif roll.direction == "low":
        title = _("d100 (open-ended low): {total}", total=plain(total))
    else:
        title = f"d100: {plain(total)}"
    return discord.Embed(
        title=title,
        description="\n".join(lines),
        colour=NEUTRAL,
    )


def dice_embed(expression: str, working: str, total: int) -> discord.Embed:
    """A dice expression rolled by d20: `working` is its markdown (`2d6 (2, 4) + 3 = `9``)."""
    return discord.Embed(
        title=_clip(f"{expression}: {plain(total)}", TITLE_MAX),
        description=_clip(working, DESCRIPTION_MAX),
        colour=NEUTRAL,
    )


def with_open_ended_note(embed: discord.Embed) -> discord.Embed:
    """A plain d100's reply, with a line pointing to the open-ended roll the rules use."""
    return embed.set_footer(
        text=_("A plain d100, never rolled again: the rules' open-ended d100 is /roll or d100oe")
    )
