"""Pytest helpers: a LocalDiscord per test that fails on violations, and a running client.

from tests.localdiscord.fixtures import local_discord, running  # noqa: F401 (fixture)
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import discord
import discord.http
import pytest
from discord.gateway import DiscordWebSocket

from bot.api_base import use_api_base
from tests.localdiscord.client import LocalDiscord


@pytest.fixture
async def local_discord() -> AsyncIterator[LocalDiscord]:
    """A fresh local Discord; the test fails if the bot sent anything Discord would reject."""
    async with LocalDiscord() as discord_:
        yield discord_
        discord_.assert_clean()


@contextlib.asynccontextmanager
async def running(
    client: discord.Client, discord_: LocalDiscord, *, sync: bool = False, commands: bool = True
) -> AsyncIterator[discord.Client]:
    """Run a discord.py client against `discord_` until the block ends.

    Waits until it has identified and registered its commands. A bot that registers them only
    on request (`python -m bot sync`) needs `sync=True`: its `tree.sync()` then runs here,
    through the same REST call and checks. `commands=False` waits for the gateway alone.
    """
    old_base, old_gateway = discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    use_api_base(discord_.api_base)
    task = asyncio.create_task(client.start(discord_.token))
    ready = asyncio.create_task(discord_.wait_ready(commands=commands and not sync))
    try:
        await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            ready.cancel()
            task.result()  # the client's own error, if it died while starting
            raise RuntimeError("the client stopped before it was ready")
        ready.result()
        if sync:
            await client.tree.sync()  # type: ignore[attr-defined]  # commands.Bot has a tree
        yield client
    finally:
        ready.cancel()
        await client.close()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        use_api_base(old_base)
        DiscordWebSocket.DEFAULT_GATEWAY = old_gateway
