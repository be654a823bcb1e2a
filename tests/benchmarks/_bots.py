"""The two contenders of `tests.benchmarks.commands`, each on its own local Discord in one
process: an echo bot (a minimal discord.py bot with Tablekeeper's client settings, answering
`/echo` with a fixed text: the cost of discord.py and the transport alone) and Tablekeeper.

The local Discords check every body against Discord's OpenAPI description during the warm-up
(`checked`), then stop checking: that check costs far more for an embed than for the echo's
plain text, and it is the tests' cost, not something a bot pays on real Discord.

discord.py keeps its REST base in one class attribute, so each send points it at the server of
the bot it talks to (`use`); the sends of one measurement never mix the two bots at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import resource
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.ext import commands

from bot.api_base import use_api_base
from tests.e2e.conftest import Env
from tests.localdiscord.client import LocalDiscord
from tests.localdiscord.commands import parse_command_line
from tests.localdiscord.default_world import build_world
from tests.localdiscord.fixtures import running
from tests.localdiscord.reply import Reply
from tests.localdiscord.world import Channel, User, new_id

ECHO = "/echo"
ECHO_TEXT = "echo"


class EchoBot(commands.AutoShardedBot):
    """The baseline: the same intents, mentions and shard setup as `bot.client.Tablekeeper`."""

    def __init__(self) -> None:
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def setup_hook(self) -> None:
        @self.tree.command(name="echo", description="Answers with a fixed text")
        async def echo(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(ECHO_TEXT)


def checked(p: Pair, on: bool) -> None:
    p.echo.server.check_schemas = p.tk.server.check_schemas = on


def use(discord_: LocalDiscord) -> None:
    use_api_base(discord_.api_base)


def forget(discord_: LocalDiscord) -> None:
    """Drop the local Discord's records of finished interactions (it checks them all on every
    send, which would make long runs slow down by themselves)."""
    discord_.assert_clean()
    discord_.server.interactions.clear()
    discord_.server.messages.clear()
    discord_.server.requests.clear()
    for session in discord_.server.gateway.sessions:
        session.sent.clear()  # kept for a RESUME that a benchmark never makes


def rss_mb(pid: int | None = None) -> float:
    """The resident memory of process `pid` (or of this one), in MB."""
    with open(f"/proc/{pid or 'self'}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    if pid is None:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def extra_channels(discord_: LocalDiscord, count: int, prefix: str) -> list[Channel]:
    """Channels of the first guild that the bot was never told about at start (as in a big
    deployment, where most channels first show up in an interaction)."""
    guild = discord_.guild
    return [Channel(new_id(), guild.id, f"{prefix}-{i}") for i in range(count)]


@dataclass
class Pair:
    echo: LocalDiscord
    tk: LocalDiscord
    env: Env | None = None
    # The private words an answer brings after it (the GM's copy of a hit into what the players
    # may not see), by command line and user, learned at a warm-up (`learn=True`): a send waits
    # for them too, so the whole answer is timed and none lands after its records are dropped.
    followups: dict[tuple[str, str, int], int] = field(default_factory=dict)

    async def echo_once(self, user: User | None = None, channel: Channel | None = None) -> Reply:
        use(self.echo)
        return await self.echo.slash("echo", user=user or self.echo.player, channel=channel)

    def parse(self, line: str) -> tuple[str, dict[str, Any]]:
        return parse_command_line(line, self.tk.commands())

    async def tk_once(
        self,
        parsed: tuple[str, dict[str, Any]],
        user: User,
        channel: Channel | None = None,
        *,
        learn: bool = False,
    ) -> Reply:
        use(self.tk)
        path, options = parsed
        reply = await self.tk.slash(path, user=user, channel=channel, options=options)
        key = (path, repr(options), user.id)
        if learn:
            self.followups[key] = len((await self.tk.settle(reply)).followups)
        while len(self.tk.latest(reply).followups) < self.followups.get(key, 0):
            await asyncio.sleep(0)
        return reply

    @contextlib.asynccontextmanager
    async def tablekeeper(self, database_url: str, synchronous: str = "full") -> AsyncIterator[Env]:
        env = Env(self.tk, database_url, sqlite_synchronous=synchronous)
        checked(self, True)
        use(self.tk)
        await env.start(sync=True)
        self.env = env
        try:
            yield env
        finally:
            use(self.tk)
            await env.stop()
            self.env = None
            forget(self.tk)


@contextlib.asynccontextmanager
async def pair() -> AsyncIterator[Pair]:
    """Both local Discords up and the echo bot connected; Tablekeeper starts per database."""
    async with LocalDiscord(build_world()) as echo_discord, LocalDiscord() as tk_discord:
        # A generous deadline: at saturation the point is to count, not to fail.
        echo_discord.server.deadline = tk_discord.server.deadline = 30.0
        echo_discord.timeout = tk_discord.timeout = 60.0
        async with running(EchoBot(), echo_discord, sync=True):
            yield Pair(echo_discord, tk_discord)
            use(echo_discord)
        forget(echo_discord)
