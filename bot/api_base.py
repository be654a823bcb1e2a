"""Point discord.py at another Discord (DISCORD_API_BASE): REST, webhooks and the gateway."""

from __future__ import annotations

import discord.gateway
import discord.http
import discord.webhook.async_
import yarl


def gateway_for(api_base: str) -> str:
    """The gateway URL that goes with an API base: same host, ws(s)://, path /gateway."""
    url = yarl.URL(api_base)
    return str(url.with_scheme("wss" if url.scheme == "https" else "ws").with_path("/gateway"))


def use_api_base(url: str) -> None:
    """Send every REST call, interaction responses and follow-ups included, to `url`.

    `url` is a full base such as "http://127.0.0.1:8080/api/v10". discord.py builds each URL
    from `Route.BASE` when a Route is made; the webhook adapter imports the same class, and
    both names are set so that stays true. A non-sharded discord.py 2.x client never asks
    GET /gateway/bot: it connects to `DiscordWebSocket.DEFAULT_GATEWAY`, so that is set too,
    to the URL `gateway_for` derives (and which that server's /gateway/bot also returns).
    """
    base = url.rstrip("/")
    discord.http.Route.BASE = base
    discord.webhook.async_.Route.BASE = base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_for(base))
