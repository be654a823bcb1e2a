"""The channel's settings: what they are, and what a change did."""

from __future__ import annotations

from collections.abc import Mapping

import discord
from discord import app_commands

from lang import N_, TABLE_LOCALES, _
from render.common import NEUTRAL
from table.model import ChannelSettings
from table.sheet import RESET_ALL

# (field, label, unit) in the order they are shown; the field is also the `/settings set` option.
# Labels and units are marked here and translated where shown (the labels also name choices).
ROWS: tuple[tuple[str, str, str], ...] = (
    ("ties", N_("Ties"), ""),
    ("round_seconds", N_("Round length"), " s"),
    ("rest_rate", N_("Rest rate"), N_(" FP per minute")),
    ("break_minutes", N_("Take a Break"), " min"),
    ("short_minutes", N_("Short Rest"), " min"),
    ("long_minutes", N_("Long Rest"), " min"),
    ("history_keep", N_("History kept"), N_(" latest changes")),
    ("threads", N_("Threads"), ""),
    ("player_rests", N_("Player rests"), ""),
    ("init_dice", N_("Initiative dice"), ""),
    ("monster_stats", N_("Monster numbers"), ""),
    ("language", N_("Language"), ""),
)
# `monster_stats`: whether the players see monsters' HP, Defense and Evasion (`table.sight`).
MONSTER_STATS_WORDS = {"hidden": N_("hidden from the players"), "shown": N_("shown to the players")}
MONSTER_STATS_CHOICES = [
    app_commands.Choice(name=MONSTER_STATS_WORDS[v], value=v) for v in ("hidden", "shown")
]
# `language`: the language a table's public replies speak, by Discord's locale (`bot.language`);
# a language a catalog adds needs its name here, in every catalog.
LANGUAGE_NAMES = {"en-US": N_("English (en-US)"), "es-ES": N_("Spanish (es-ES)")}
LANGUAGE_CHOICES = [
    app_commands.Choice(name=LANGUAGE_NAMES.get(code, code), value=code) for code in TABLE_LOCALES
]


GM_ROLE_LABEL = N_("GM role")
# The settings that are numbers: a change shows them before → after, short enough for a phone.
NUMBERS = frozenset(
    {"round_seconds", "rest_rate", "break_minutes", "short_minutes", "long_minutes"}
    | {"history_keep", "init_dice"}
)
# `/settings set|server reset:` — a setting by its label, or all of them.
RESET_CHOICES = [
    *(app_commands.Choice(name=label, value=field) for field, label, _unit in ROWS),
    app_commands.Choice(name=GM_ROLE_LABEL, value="gm_role_id"),
    app_commands.Choice(name=N_("All of them"), value=RESET_ALL),
]
SOURCE_WORDS = {"channel": N_("set here"), "server": N_("the server's"), "default": N_("default")}


def gm_role_text(settings: ChannelSettings) -> str:
    if settings.gm_role_id is None:
        return _("none (members with Manage Channels are GMs)")
    return _("<@&{role}> (and members with Manage Channels)", role=settings.gm_role_id)


def monster_stats_text(value: object) -> str:
    return _(MONSTER_STATS_WORDS[value]) if value in MONSTER_STATS_WORDS else str(value)


def language_text(value: object) -> str:
    """`Spanish (es-ES)`, in the reader's words; not set: each reader's own."""
    if value is None:
        return _("not set: each reader's own (a Community server's, if it has one)")
    name = LANGUAGE_NAMES.get(str(value))
    return _(name) if name else str(value)


def _value(settings: ChannelSettings, field: str, unit: str) -> str:
    value = getattr(settings, field)
    if field == "ties":
        return _("succeed") if value == "succeed" else _("fail (the text: a tie fails)")
    if field == "player_rests":
        if value == "gm":
            return _("the GM grants every rest")
        return _("players rest their own characters (the GM alone during a fight)")
    if field == "monster_stats":
        return monster_stats_text(value)
    if field == "language":
        return language_text(value)
    if field == "threads":
        if value == "own":
            return _("each keeps its own table")
        return _("play at this channel's table")
    shown = f"{value:,}" if isinstance(value, int) else str(value)
    return f"{shown}{_(unit) if unit.strip() else unit}"


def _changed(label: str, was: str | None, now: str) -> str:
    """`**Round length**: 60 s → **6 s**`. A setting said in words (`threads`, `language`…)
    shows only what it is now: both would pass a phone's width (`/history` keeps the old)."""
    return f"**{label}**: **{now}**" if was is None else f"**{label}**: {was} → **{now}**"


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
    if changed is None:
        if scope == "server":
            title = _("Settings for this server")
        else:
            title = _("Settings for this channel")
    elif changed == settings:  # `/settings set ties:fail` when ties already fail
        title = _("Nothing changed: the settings were already so")
    else:
        title = _("Server settings changed") if scope == "server" else _("Settings changed")
    embed = discord.Embed(title=title, colour=NEUTRAL)
    lines = []

    def where(field: str) -> str:
        return "" if sources is None else f" · *{_(SOURCE_WORDS[sources[field]])}*"

    for field, label, unit in ROWS:
        now = _value(settings, field, unit)
        if changed is None:
            lines.append(f"**{_(label)}**: {now}{where(field)}")
        elif getattr(changed, field) != getattr(settings, field):  # a change says only itself
            was = _value(changed, field, unit) if field in NUMBERS else None
            lines.append(_changed(_(label), was, now))
    role = gm_role_text(settings)
    if changed is None:
        lines.append(f"**{_(GM_ROLE_LABEL)}**: {role}{where('gm_role_id')}")
    elif changed.gm_role_id != settings.gm_role_id:
        lines.append(_changed(_(GM_ROLE_LABEL), None, role))
    embed.description = "\n".join(lines)
    if changed is None:
        embed.set_footer(
            text=_(
                "GMs change this channel's with /settings set; Manage Server, every "
                "channel's with /settings server (a channel's own value comes first)"
            )
        )
    elif scope == "server":
        embed.set_footer(text=_("Every channel here that sets none of its own uses these"))
    elif clock is not None and changed.round_seconds != settings.round_seconds:
        embed.set_footer(
            text=_("The clock stays at {clock}; later rounds take the new length", clock=clock)
        )
    return embed
