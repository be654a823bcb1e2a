"""Logging in to a Discord that can't be reached yet (a network still coming up, an outage):
tried again with backoff for STARTUP_RETRY_SECONDS, one log line per attempt, then one line
that says why the bot stops. A wrong token is not retried (discord.LoginFailure)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

import aiohttp
import discord
import discord.http

log = logging.getLogger("bot")

UNREACHABLE = (aiohttp.ClientError, OSError, TimeoutError, discord.DiscordServerError)


class DiscordUnreachable(Exception):
    """Discord's API could not be reached for the whole start-up retry window."""


async def log_in_with_retry(
    login: Callable[[], Awaitable[None]], http: discord.http.HTTPClient, retry_for: float
) -> None:
    where = discord.http.Route.BASE
    deadline = time.monotonic() + retry_for
    delay, attempt = 1.0, 1
    while True:
        try:
            await login()
            return
        except UNREACHABLE as error:
            # Closing the session closes its connector too: the next attempt makes both anew.
            await http.close()
            http.connector = discord.utils.MISSING
            reason = " ".join(str(error).split()) or type(error).__name__
            left = deadline - time.monotonic()
            if left <= 0:
                raise DiscordUnreachable(
                    f"Discord can't be reached at {where} ({reason}): gave up after "
                    f"{attempt} attempts in {retry_for:g} s"
                ) from None
            wait = min(delay, left)
            log.warning(
                "Discord can't be reached at %s (%s): attempt %d, trying again in %.1f s",
                where,
                reason,
                attempt,
                wait,
            )
            await asyncio.sleep(wait)
            delay, attempt = min(delay * 2, 30.0), attempt + 1
