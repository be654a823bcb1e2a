"""`env`: the real bot, on a real SQLite file, connected to a local Discord on loopback;
`pg_env`: the same on a fresh PostgreSQL database."""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.client import COGS, Tablekeeper
from bot.settings import Settings
from pictures.painter import Painter
from store import Store
from table.model import Table
from tests.localdiscord.client import LocalDiscord
from tests.localdiscord.fixtures import running
from tests.localdiscord.world import Channel


def _cogs() -> tuple[str, ...]:
    # TK_COGS=cogs.saves,cogs.roll narrows the bot while other cogs are being written.
    wanted = os.environ.get("TK_COGS")
    return tuple(wanted.split(",")) if wanted else COGS


@dataclass
class Env:
    discord: LocalDiscord
    database_url: str  # sqlite:///… or postgresql://…
    cogs: tuple[str, ...] = field(default_factory=_cogs)  # the extensions the bot loads
    sqlite_synchronous: str = "full"  # SQLITE_SYNCHRONOUS
    store: Store = field(init=False)
    bot: Tablekeeper = field(init=False)
    _stack: contextlib.AsyncExitStack = field(default_factory=contextlib.AsyncExitStack)

    @property
    def settings(self) -> Settings:
        return Settings(
            token=self.discord.token,
            database_url=self.database_url,
            api_base=self.discord.api_base,
            sqlite_synchronous=self.sqlite_synchronous,
        )

    async def start(self, *, sync: bool) -> None:
        settings = self.settings
        opening = Store.open(settings.database_url, sqlite_synchronous=settings.sqlite_synchronous)
        self.store = await self._stack.enter_async_context(opening)
        self.bot = Tablekeeper(self.settings, self.store, cogs=self.cogs, painter=painter())
        self.discord.server.gateway.identified.clear()
        await self._stack.enter_async_context(
            running(self.bot, self.discord, sync=sync, commands=False)
        )

    async def stop(self) -> None:
        await self._stack.aclose()
        self._stack = contextlib.AsyncExitStack()

    async def restart(self) -> None:
        """Stop the bot and close the store, then start a new bot on the same database."""
        await self.stop()
        await self.start(sync=False)

    async def table(self, channel: Channel | None = None) -> Table:
        channel = channel or self.discord.table
        return await self.store.read(channel.id, channel.guild_id)


_PAINTER = Painter()
_warm: list[bool] = []


def painter() -> Painter:
    """One picture worker for every bot of the tests, started before the first of them runs (a
    cold worker takes a second or two: a chart would then be deferred)."""
    if not _warm:
        _PAINTER.warm()
        _warm.append(True)
    return _PAINTER


@contextlib.asynccontextmanager
async def running_env(
    database_url: str, *more_cogs: str, make: type[Env] | None = None
) -> AsyncIterator[Env]:
    """The bot on `database_url`, with its cogs and `more_cogs` (a test's own command); `make`:
    an `Env` of another kind (the web page's tests: `tests.e2e.browser.WebEnv`)."""
    async with LocalDiscord() as discord_:
        e = (make or Env)(discord_, database_url, (*_cogs(), *more_cogs))
        await e.start(sync=True)
        try:
            yield e
        finally:
            await e.stop()
        discord_.assert_clean()
        assert_nothing_could_ping(discord_)


def assert_nothing_could_ping(discord_: LocalDiscord) -> None:
    """Every message the bot sent or edited forbade pings, whatever its text mentions, except
    one user it names at the start of its text (the player whose turn begins, `/init`)."""
    loud = [
        f"message {m.id}: allowed_mentions {m.allowed_mentions!r}, content {m.content[:60]!r}"
        for m in discord_.server.messages.values()
        if m.allowed_mentions is None
        or m.allowed_mentions.get("parse")
        or not _one_named_user(m.allowed_mentions.get("users"), m.content)
        or m.allowed_mentions.get("roles")
        or m.allowed_mentions.get("replied_user")
    ]
    assert not loud, "replies that could ping:\n" + "\n".join(loud)


def _one_named_user(users: list[str] | None, content: str | None) -> bool:
    """No user may be pinged, or exactly one whose mention opens the message."""
    if not users:
        return True
    return len(users) == 1 and (content or "").startswith(f"<@{users[0]}>")


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    async with running_env(f"sqlite:///{tmp_path / 'tablekeeper.db'}") as e:
        yield e


@pytest.fixture
async def pg_env(postgres_url: str) -> AsyncIterator[Env]:
    async with running_env(postgres_url) as e:
        yield e
