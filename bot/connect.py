"""Logging in to a Discord that can't be reached yet (a network still coming up, an outage):
tried again with backoff for STARTUP_RETRY_SECONDS, one log line per attempt, then one line
that says why the bot stops. A wrong token is not retried (discord.LoginFailure), nor an answer
that isn't Discord's (a DISCORD_API_BASE that points elsewhere). A stop asked for meanwhile
(SIGTERM) ends the trying at once."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import aiohttp
import discord
import discord.http

log = logging.getLogger("bot")
T = TypeVar("T")

UNREACHABLE = (aiohttp.ClientError, OSError, TimeoutError, discord.DiscordServerError)
DISCORD_API = "https://discord.com/api/v10"  # discord.py's own base: no DISCORD_API_BASE set


class DiscordUnreachable(Exception):
    """Discord's API could not be reached for the whole start-up retry window."""


class DiscordRefused(Exception):
    """The API answered the login with an error that trying again won't change (not 401, which
    is discord.LoginFailure, nor 5xx, which is tried again)."""


class StoppedStarting(Exception):
    """A stop was asked for while the bot was still logging in: nothing to finish."""


async def log_in_with_retry(
    login: Callable[[], Awaitable[None]],
    http: discord.http.HTTPClient,
    retry_for: float,
    stopping: asyncio.Event,
    logged_in: Callable[[], bool],
) -> None:
    """`logged_in`: whether the login's answer was taken (the client knows its user): a
    failure after that is the bot's own (its setup_hook), not the API's."""
    where = discord.http.Route.BASE
    check = "" if where == DISCORD_API else ": check DISCORD_API_BASE"
    deadline = time.monotonic() + retry_for
    delay, attempt = 1.0, 1
    while True:
        try:
            await unless_stopped(login(), stopping)
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
            await unless_stopped(asyncio.sleep(wait), stopping)
            delay, attempt = min(delay * 2, 30.0), attempt + 1
        except discord.HTTPException as error:  # e.g. 404: not Discord's API at all
            raise DiscordRefused(
                f"Logging in at {where} failed with {error.status} "
                f"{getattr(error.response, 'reason', '')}{check}"
            ) from None
        except (KeyError, TypeError, ValueError):  # discord.py read an answer of another shape
            if logged_in():
                raise
            raise DiscordRefused(
                f"Logging in at {where} got an answer that isn't Discord's{check}"
            ) from None


async def unless_stopped(work: Awaitable[T], stopping: asyncio.Event) -> T:
    """`work`'s result; if `stopping` is set first, `work` is cancelled and StoppedStarting
    raised (an attempt may hang for minutes on a host that never answers)."""
    task = asyncio.ensure_future(work)
    stop = asyncio.ensure_future(stopping.wait())
    try:
        await asyncio.wait((task, stop), return_when=asyncio.FIRST_COMPLETED)
    finally:
        stop.cancel()
        if not task.done():
            task.cancel()
            await asyncio.wait((task,))  # its cleanup runs (a request's connection closed)
    if stopping.is_set():
        if not task.cancelled():
            task.exception()  # whatever the stop made it raise: retrieved, not logged
        raise StoppedStarting()
    return task.result()
