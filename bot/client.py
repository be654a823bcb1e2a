"""The Bot: built from settings and an open store, loads the cogs, never syncs on start."""

from __future__ import annotations

import asyncio
import functools
import importlib.util
import logging
import pkgutil
import time
from collections.abc import Iterable
from datetime import UTC, datetime

import discord
from discord.ext import commands

from bot.connect import log_in_with_retry
from bot.contexts import SERVER_INSTALL, SERVER_ONLY
from bot.health import DATABASE_TIMEOUT, HealthServer
from bot.metrics import Metrics
from bot.outages import Outages
from bot.roll_writer import RollWriter
from bot.settings import Settings
from bot.translator import CatalogTranslator
from bot.tree import TablekeeperTree
from bot.unclaimed import answer_unclaimed, unclaimed
from bot.watchdog import Acks
from lang import install
from lang.catalogs import load
from pictures.painter import Painter
from store import Store
from store.errors import DatabaseOutage
from web.server import WebServer

log = logging.getLogger(__name__)


def discover_cogs(package: str = "cogs") -> tuple[str, ...]:
    """Every `cogs.<name>` module whose name doesn't start with `_` (those are helpers)."""
    spec = importlib.util.find_spec(package)
    if spec is None or spec.submodule_search_locations is None:
        return ()
    found = pkgutil.iter_modules(spec.submodule_search_locations)
    return tuple(sorted(f"{package}.{m.name}" for m in found if not m.name.startswith("_")))


# Cogs are found rather than listed, so a new feature module is one new file.
COGS: tuple[str, ...] = discover_cogs()
GRACE = 8.0  # seconds to finish interactions in flight on SIGTERM: hosts kill after ~10 s


class Tablekeeper(commands.AutoShardedBot):
    def __init__(
        self,
        settings: Settings,
        store: Store,
        *,
        cogs: Iterable[str] | None = None,
        painter: Painter | None = None,
    ) -> None:
        # No voice here: don't warn on every start that the voice libraries are missing.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True  # channels, roles and permissions; nothing privileged
        super().__init__(
            command_prefix=commands.when_mentioned,  # unused: slash commands only
            help_command=None,
            intents=intents,
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=TablekeeperTree,
            # Unset: every shard Discord suggests, here. Set: these, of this many in all.
            shard_count=settings.shard_count,
            shard_ids=None if settings.shard_ids is None else list(settings.shard_ids),  # type: ignore[arg-type]  # the stubs say list; None is the default
            # What a command that declares nothing gets: a server, installed on the server
            # (`bot.contexts.anywhere` opens a stateless command to DMs and user installs).
            allowed_contexts=SERVER_ONLY,
            allowed_installs=SERVER_INSTALL,
        )
        self.settings = settings
        self.store = store
        # When this process started, for /about: a steady clock for the uptime, the wall clock
        # to show the moment.
        self.started_monotonic = time.monotonic()
        self.started_at = datetime.now(UTC)
        self.cogs_to_load: tuple[str, ...] = COGS if cogs is None else tuple(cogs)
        self.metrics = Metrics(lambda: self)
        self.outages = Outages(store.watch)  # the database's, logged as they begin and end
        self.draining = False  # set on SIGTERM: no new interactions, /healthz says 503
        self.stopping = asyncio.Event()  # set with it: a login still being tried gives up
        self._health: HealthServer | None = None
        self.web: WebServer | None = None  # the table's web page (WEB_PORT), once started
        self.acks = Acks(ended=self.metrics.finished)  # the watchdog, and who is answering
        # Draws pictures off the event loop, from the first picture on; one passed in (the
        # tests share one) is its owner's to close.
        self.painter = painter or Painter()
        self._own_painter = painter is None
        # The roll log's writer (/dice report): rolls handed over after each reply, written
        # once a second off the replies' path, and what is left as the bot closes.
        self.roll_log = RollWriter(store, settings.roll_log_keep)
        install(load())  # the languages replies speak (`python -m bot` checked them first)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        # discord.py dispatches this after it has scheduled the interaction's own handlers
        # (a command, a view's item, a dynamic item, a form), whose first step, which takes
        # the interaction (`bot.ack.take`), has run when this starts.
        self.metrics.received(interaction)
        if unclaimed(interaction):
            self.acks.keep(interaction)
            await answer_unclaimed(interaction)

    async def setup_hook(self) -> None:
        self.roll_log.start()
        await self.tree.set_translator(CatalogTranslator())  # descriptions, when syncing
        for name in self.cogs_to_load:
            await self.load_extension(name)
        log.info("Loaded %d cogs: %s", len(self.cogs_to_load), ", ".join(self.cogs_to_load))
        # Commands are registered with Discord only by `python -m bot sync`, never on start:
        # syncing every restart wastes the rate limit and can't be undone by a bad deploy.

    async def login(self, token: str) -> None:
        # A Discord that can't be reached at start-up is tried again (bot.connect).
        await log_in_with_retry(
            functools.partial(super().login, token),
            self.http,
            self.settings.startup_retry_seconds,
            self.stopping,
            logged_in=lambda: self.user is not None,
        )

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        if self.settings.health_port is not None and self._health is None:
            self._health = HealthServer(
                self.health_problem,
                self.metrics.render,
                self.settings.health_port,
                self.settings.health_host,
            )
            await self._health.start()
        await self.start_web()
        log.info("Running shards: %s", self.settings.shards)
        await super().start(token, reconnect=reconnect)

    async def start_web(self) -> None:
        """Serve the table's web page on WEB_PORT, if set (web/)."""
        port = self.settings.web_port
        if port is None or self.web is not None:
            if self.settings.public_url is not None and port is None:
                log.info("PUBLIC_URL is set; this process serves no page (no WEB_PORT or PORT)")
            return
        self.web = WebServer(
            self.store, self.settings.database_url, port, proxies=self.settings.web_trusted_proxies
        )
        await self.web.start()

    async def on_ready(self) -> None:
        user = self.user
        log.info("Ready as %s (id %s) in %d servers", user, user and user.id, len(self.guilds))

    async def shutdown(self, grace: float = GRACE) -> None:
        """Stop taking interactions (close the gateway), let the ones in flight finish (their
        replies go over REST, still open), then close. The caller closes the store after."""
        if self.draining:
            return
        self.draining = True
        self.stopping.set()
        for shard in self.shards.values():
            await shard.disconnect()
        current = asyncio.current_task()
        pending = [task for task in self.acks.working if task is not current]
        log.info("Stopping: finishing %d interactions in flight", len(pending))
        if pending:
            _, late = await asyncio.wait(pending, timeout=grace)
            if late:
                log.warning("Stopping with %d interactions unfinished after %g s", len(late), grace)
        await self.close()

    async def health_problem(self) -> str | None:
        """Why this process is not healthy (`GET /healthz`), or None when it is."""
        if self.draining:
            return "shutting down"
        shards = list(self.shards.values())
        closed = [s.id for s in shards if s.is_closed()]
        if not self.is_ready() or not shards or closed:
            which = f" (shards {', '.join(map(str, closed))} closed)" if closed else ""
            return f"gateway not connected{which}"
        try:
            await asyncio.wait_for(self.store.ping(), DATABASE_TIMEOUT)
        except DatabaseOutage as error:  # said below, with any other outage on
            self.metrics.database_errors.inc()
            self.outages.noticed(error)
        except Exception as error:  # any failure is the answer, not a crash of the endpoint
            self.metrics.database_errors.inc()
            what = "timed out" if isinstance(error, TimeoutError) else type(error).__name__
            return f"database not answering: {what}"
        # A ping that answered ended an unreachable database's outage; one that changes can't
        # be saved in (a full disk, a read-only file) is said until a change is saved again.
        return self.outages.problem()

    async def close(self) -> None:
        await self.roll_log.close()  # the interactions in flight have kept theirs
        self.acks.close()
        if self._own_painter:
            self.painter.close()
        if self._health is not None:
            await self._health.stop()
            self._health = None
        if self.web is not None:
            await self.web.stop()
            self.web = None
        await super().close()
