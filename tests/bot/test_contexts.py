"""Which commands need a server channel: one declaration (`bot.contexts.anywhere`, discord.py's
own `allowed_contexts`), read from the loaded tree as the bot's own check reads it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from discord import app_commands

from bot.client import COGS, Tablekeeper
from bot.contexts import needs_server
from bot.settings import Settings
from store import Store

# Nothing in a channel is read or written by these (a save with numbers, not a character's).
STATELESS = {"about", "help", "monster-build", "roll", "save tsr", "save wsr"}


def runnable(command: Any) -> Iterator[Any]:
    if isinstance(command, app_commands.Group):
        for sub in command.commands:
            yield from runnable(sub)
    else:
        yield command


async def test_only_the_marked_commands_work_outside_a_server(tmp_path: Path) -> None:
    settings = Settings(token="unused.in.this.test", database_url=f"sqlite:///{tmp_path}/t.db")
    async with Store.open(settings.database_url) as store:
        bot = Tablekeeper(settings, store, cogs=COGS)
        await bot.setup_hook()
        commands = [c for top in bot.tree.get_commands() for c in runnable(top)]
    stateless = {c.qualified_name for c in commands if not needs_server(c)}
    assert stateless == STATELESS  # a mark on one command never spreads to others
    assert len(commands) > 30
