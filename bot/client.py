"""The Bot: built from settings and an open store, loads the cogs, never syncs on start."""

from __future__ import annotations

import importlib.util
import logging
import pkgutil
from collections.abc import Iterable
from typing import Any

import discord
from discord.ext import commands

from bot.ack import Acks
from bot.clicks import KnownClicks, answer_unknown_click
from bot.settings import Settings
from bot.store import Store
from bot.tree import TablekeeperTree

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


class Tablekeeper(commands.AutoShardedBot):
    def __init__(
        self, settings: Settings, store: Store, *, cogs: Iterable[str] | None = None
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
        )
        self.settings = settings
        self.store = store
        self.cogs_to_load: tuple[str, ...] = COGS if cogs is None else tuple(cogs)
        self.known_clicks = KnownClicks()
        self.acks = Acks()

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().add_dynamic_items(*items)
        self.known_clicks.add(*items)

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().remove_dynamic_items(*items)
        self.known_clicks.remove(*items)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        # Every button is a dynamic item: a custom_id none of them takes would go unanswered.
        if not self.known_clicks.knows(interaction):
            await answer_unknown_click(interaction)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        # Called as each interaction arrives, before its command or component runs: the
        # watchdog that keeps it within Discord's 3 seconds starts here.
        if event_name == "interaction":
            self.acks.arrived(args[0])
        super().dispatch(event_name, *args, **kwargs)

    async def close(self) -> None:
        self.acks.close()
        await super().close()

    async def setup_hook(self) -> None:
        for name in self.cogs_to_load:
            await self.load_extension(name)
        log.info("Loaded %d cogs: %s", len(self.cogs_to_load), ", ".join(self.cogs_to_load))
        # Commands are registered with Discord only by `python -m bot sync`, never on start:
        # syncing every restart wastes the rate limit and can't be undone by a bad deploy.

    async def on_ready(self) -> None:
        user = self.user
        log.info("Ready as %s (id %s) in %d servers", user, user and user.id, len(self.guilds))
