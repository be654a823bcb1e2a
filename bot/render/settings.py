"""The channel's settings: what they are, and what a change did."""

from __future__ import annotations

from collections.abc import Mapping

import discord
from discord import app_commands

from bot.render.common import NEUTRAL
from lang import N_
from table.model import ChannelSettings
from table.sheet import RESET_ALL

# (field, label, unit) in the order they are shown; the field is also the `/settings set` option.
ROWS: tuple[tuple[str, str, str], ...] = (
    ("ties", N_("Ties"), ""),
    ("round_seconds", N_("Round length"), " s"),
    ("rest_rate", N_("Rest rate"), " FP per minute"),
    ("break_minutes", N_("Take a Break"), " min"),
    ("short_minutes", N_("Short Rest"), " min"),
    ("long_minutes", N_("Long Rest"), " min"),
    ("history_keep", N_("History kept"), " latest changes"),
    ("threads", N_("Threads"), ""),
)


GM_ROLE_LABEL = N_("GM role")
# `/settings set|server reset:` — a setting by its label, or all of them.
RESET_CHOICES = [
    *(app_commands.Choice(name=label, value=field) for field, label, _ in ROWS),
    app_commands.Choice(name=GM_ROLE_LABEL, value="gm_role_id"),
    app_commands.Choice(name=N_("All of them"), value=RESET_ALL),
]
SOURCE_WORDS = {"channel": "set here", "server": "the server's", "default": "default"}


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
    settings: ChannelSettings,
    changed: ChannelSettings | None = None,
    clock: str | None = None,
    *,
    scope: str = "channel",
    sources: Mapping[str, str] | None = None,
) -> discord.Embed:
    """Every setting; with `changed` (the old settings), the ones that changed show old → new
    and the title says so. `clock` (the clock line) is shown when the round length changed:
    the round and the game time stay, only later rounds take the new length. `sources` says
    where each comes from ("channel", "server", "default"); `scope` "server" titles the
    server's own settings."""
    place = "this server" if scope == "server" else "this channel"
    if changed is None:
        title = f"Settings for {place}"
    elif changed == settings:  # `/settings set ties:fail` when ties already fail
        title = "Nothing changed: the settings were already so"
    else:
        title = "Server settings changed" if scope == "server" else "Settings changed"
    embed = discord.Embed(title=title, colour=NEUTRAL)
    lines = []

    def where(field: str) -> str:
        return "" if sources is None else f" · *{SOURCE_WORDS[sources[field]]}*"

    for field, label, unit in ROWS:
        now = _value(settings, field, unit)
        if changed is not None and getattr(changed, field) != getattr(settings, field):
            lines.append(f"**{label}**: {_value(changed, field, unit)} → **{now}**")
        else:
            lines.append(f"**{label}**: {now}{where(field)}")
    role = gm_role_text(settings)
    if changed is not None and changed.gm_role_id != settings.gm_role_id:
        lines.append(f"**{GM_ROLE_LABEL}**: {gm_role_text(changed)} → **{role}**")
    else:
        lines.append(f"**{GM_ROLE_LABEL}**: {role}{where('gm_role_id')}")
    embed.description = "\n".join(lines)
    if changed is None:
        embed.set_footer(
            text="GMs change this channel's with /settings set; Manage Server, every "
            "channel's with /settings server (a channel's own value comes first)"
        )
    elif scope == "server":
        embed.set_footer(text="Every channel here that sets none of its own uses these")
    elif clock is not None and changed.round_seconds != settings.round_seconds:
        embed.set_footer(text=f"The clock stays at {clock}; later rounds take the new length")
    return embed
