"""`python -m bot` runs the bot; `python -m bot sync [--guild ID | --dev-guild]` registers its
slash commands with Discord and exits."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
import time
from collections.abc import Sequence

import aiohttp
import discord
import discord.http

from bot.client import Tablekeeper
from bot.settings import Settings, SettingsError
from bot.store import Store, StoreError

log = logging.getLogger("bot")


class DiscordUnreachable(Exception):
    """Discord's API could not be reached for the whole start-up retry window."""


BAD_TOKEN = (
    "Discord rejected DISCORD_TOKEN: copy it again from the Developer Portal (Bot → Reset Token)"
)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run Tablekeeper.")
    commands = parser.add_subparsers(dest="command", metavar="{sync}")
    sync = commands.add_parser("sync", help="register the slash commands with Discord, then exit")
    where = sync.add_mutually_exclusive_group()
    where.add_argument("--guild", type=int, metavar="ID", help="only in this server (instant)")
    where.add_argument("--dev-guild", action="store_true", help="only in DEV_GUILD_ID's server")
    return parser.parse_args(argv)


async def sync_commands(bot: Tablekeeper, guild_id: int | None) -> list[str]:
    """Sync the tree globally, or copy the global commands to one guild and sync that."""
    guild = None if guild_id is None else discord.Object(guild_id)
    if guild is not None:
        bot.tree.copy_global_to(guild=guild)
    registered = await bot.tree.sync(guild=guild)
    return sorted(command.name for command in registered)


async def run(settings: Settings, *, sync: bool = False, guild_id: int | None = None) -> None:
    """Open the store and run the bot until it stops; with `sync`, log in, sync, and return."""
    if settings.api_base:
        from bot.api_base import use_api_base  # only a test (or a proxy) points elsewhere

        use_api_base(settings.api_base)
    opening = Store.open(
        settings.database_url,
        sqlite_synchronous=settings.sqlite_synchronous,
        retry_for=settings.startup_retry_seconds,
    )
    async with opening as store, Tablekeeper(settings, store) as bot:
        await log_in(bot, settings)  # runs setup_hook, so the cogs are loaded
        if not sync:
            _close_on_sigterm(bot)
            await bot.connect()
            return
        names = await sync_commands(bot, guild_id)
        where = "globally" if guild_id is None else f"in server {guild_id}"
        listed = ", ".join(f"/{name}" for name in names) or "nothing"
        print(f"Registered {len(names)} commands {where}: {listed}")


async def log_in(bot: Tablekeeper, settings: Settings) -> None:
    """Log in over REST, trying a Discord that can't be reached again with backoff (one log
    line per attempt) for STARTUP_RETRY_SECONDS; a wrong token is not retried."""
    where = discord.http.Route.BASE
    deadline = time.monotonic() + settings.startup_retry_seconds
    delay, attempt = 1.0, 1
    while True:
        try:
            await bot.login(settings.token)
            return
        except (aiohttp.ClientError, OSError, TimeoutError, discord.DiscordServerError) as error:
            # Closing the session closes its connector too: the next attempt makes both anew.
            await bot.http.close()
            bot.http.connector = discord.utils.MISSING
            reason = " ".join(str(error).split()) or type(error).__name__
            left = deadline - time.monotonic()
            if left <= 0:
                raise DiscordUnreachable(
                    f"Discord can't be reached at {where} ({reason}): gave up after "
                    f"{attempt} attempts in {settings.startup_retry_seconds:g} s"
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


def _close_on_sigterm(bot: Tablekeeper) -> None:
    """Hosts stop a worker with SIGTERM: close the gateway and the store instead of dying."""
    with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
        asyncio.get_running_loop().add_signal_handler(
            signal.SIGTERM, lambda: asyncio.ensure_future(bot.close())
        )


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=settings.log_level_number, root=True)

    guild_id: int | None = None
    if args.command == "sync":
        guild_id = args.guild
        if args.dev_guild:
            if settings.dev_guild_id is None:
                print("--dev-guild needs DEV_GUILD_ID to be set", file=sys.stderr)
                return 2
            guild_id = settings.dev_guild_id
    try:
        asyncio.run(run(settings, sync=args.command == "sync", guild_id=guild_id))
    except discord.LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return 1
    except (StoreError, DiscordUnreachable) as error:  # one line, no traceback
        print(error, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        log.info("Stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
