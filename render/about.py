"""`/about`: what admins reach for first when something looks wrong."""

from __future__ import annotations

import math
from dataclasses import dataclass

import discord

from lang import N_, _
from render.common import NEUTRAL

DATABASES = {"sqlite": "SQLite", "postgres": "PostgreSQL"}
RULES_FILE = "docs/rules.md"
NO_SOURCE = N_("not published (ask whoever runs this bot; set SOURCE_URL)")
NO_SUPPORT = N_("ask the admins of your server (set SUPPORT_URL)")


@dataclass(frozen=True)
class About:
    version: str
    started: int  # unix seconds when this process started
    uptime: float  # seconds
    database: str  # the store's dialect
    shard_id: int
    shard_count: int
    latency: float  # seconds; inf or nan before the first heartbeat
    source_url: str | None
    rules_url: str | None
    support_url: str | None


def uptime_text(seconds: float) -> str:
    """`3 d 4 h`, `2 h 5 min`, `42 s`: the two largest units."""
    whole = max(0, int(seconds))
    days, rest = divmod(whole, 86_400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    units = [(days, "d"), (hours, "h"), (minutes, "min"), (secs, "s")]
    shown = [f"{n} {unit}" for n, unit in units if n][:2]
    return " ".join(shown) or "0 s"


def rules_link(about: About) -> str:
    """The rules reference: its URL if set, else docs/rules.md under a GitHub source, else
    the file's place in the source."""
    if about.rules_url:
        return about.rules_url
    source = (about.source_url or "").rstrip("/")
    if source.startswith("https://github.com/"):
        return f"{source}/blob/main/{RULES_FILE}"
    return _("`{file}` in Tablekeeper's source", file=RULES_FILE)


def about_embed(about: About) -> discord.Embed:
    embed = discord.Embed(title=_("About Tablekeeper"), colour=NEUTRAL)
    embed.add_field(name=_("Version"), value=about.version)
    embed.add_field(
        name=_("Uptime"),
        value=_(
            "{uptime} (since <t:{started}:f>)",
            uptime=uptime_text(about.uptime),
            started=about.started,
        ),
    )
    embed.add_field(name=_("Database"), value=DATABASES.get(about.database, about.database))
    latency = "" if not math.isfinite(about.latency) else f", {about.latency * 1000:.0f} ms"
    shard = _(
        "{shard} (of {count}, counted from 0){latency}",
        shard=about.shard_id,
        count=about.shard_count,
        latency=latency,
    )
    embed.add_field(name=_("Shard"), value=shard)
    links = [
        _("**Source**: {link}", link=about.source_url or _(NO_SOURCE)),
        _("**Rules reference**: {link}", link=rules_link(about)),
        _("**Support**: {link}", link=about.support_url or _(NO_SUPPORT)),
    ]
    embed.add_field(name=_("Links"), value="\n".join(links), inline=False)
    return embed
