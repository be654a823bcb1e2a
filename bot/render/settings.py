"""The channel's settings: what they are, and what a change did."""

from __future__ import annotations

import discord

from bot.render.common import NEUTRAL
from table.model import ChannelSettings

# (field, label, unit) in the order they are shown; the field is also the `/settings set` option.
ROWS: tuple[tuple[str, str, str], ...] = (
    ("ties", "Ties", ""),
    ("round_seconds", "Round length", " s"),
    ("rest_rate", "Rest rate", " FP per minute"),
    ("break_minutes", "Take a Break", " min"),
    ("short_minutes", "Short Rest", " min"),
    ("long_minutes", "Long Rest", " min"),
    ("history_keep", "History kept", " latest changes"),
    ("threads", "Threads", ""),
)


def gm_role_text(settings: ChannelSettings) -> str:
    if settings.gm_role_id is None:
        return "none (members with Manage Channels are GMs)"
    return f"<@&{settings.gm_role_id}> (and members with Manage Channels)"


def _value(settings: ChannelSettings, field: str, unit: str) -> str:
    value = getattr(settings, field)
    if field == "ties":
        return "succeed" if value == "succeed" else "fail (the text: a tie fails)"
    if field == "threads":
        return "each keeps its own table" if value == "own" else "play at this channel's table"
    if isinstance(value, int):
        return f"{value:,}{unit}"
    return f"{value}{unit}"


def settings_embed(
    settings: ChannelSettings, changed: ChannelSettings | None = None, clock: str | None = None
) -> discord.Embed:
    """Every setting; with `changed` (the old settings), the ones that changed show old → new
    and the title says so. `clock` (the clock line) is shown when the round length changed:
    the round and the game time stay, only later rounds take the new length."""
    if changed is None:
        title = "Settings for this channel"
    elif changed == settings:  # `/settings set ties:fail` when ties already fail
        title = "Nothing changed: the settings were already so"
    else:
        title = "Settings changed"
    embed = discord.Embed(title=title, colour=NEUTRAL)
    lines = []
    for field, label, unit in ROWS:
        now = _value(settings, field, unit)
        if changed is not None and getattr(changed, field) != getattr(settings, field):
            lines.append(f"**{label}**: {_value(changed, field, unit)} → **{now}**")
        else:
            lines.append(f"**{label}**: {now}")
    role = gm_role_text(settings)
    if changed is not None and changed.gm_role_id != settings.gm_role_id:
        lines.append(f"**GM role**: {gm_role_text(changed)} → **{role}**")
    else:
        lines.append(f"**GM role**: {role}")
    embed.description = "\n".join(lines)
    if changed is None:
        embed.set_footer(text="GMs change these with /settings set")
    elif clock is not None and changed.round_seconds != settings.round_seconds:
        embed.set_footer(text=f"The clock stays at {clock}; later rounds take the new length")
    return embed
