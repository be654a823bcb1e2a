"""`python -m bot` runs the bot; `python -m bot sync [--guild ID | --dev-guild]` registers its
slash commands with Discord and exits. The admin's tools, which need no token: `health` (the
container's health check), `copy-db SOURCE TARGET`, `backup PATH` and `import FILE --channel ID`
(see bot/tools/)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import signal
import sys
from collections.abc import Callable, Sequence

import discord

from bot.client import Tablekeeper
from bot.command_size import CommandsTooLarge, check_sizes
from bot.connect import DiscordRefused, DiscordUnreachable, StoppedStarting
from bot.health import HealthPortUnavailable
from bot.logs import setup_logging
from bot.settings import Settings, SettingsError
from lang.catalogs import CatalogError, load
from store import Store, StoreError
from table.actions import COMMAND_LINE
from web.server import WebPortUnavailable

log = logging.getLogger("bot")
SWITCH_INTERVAL = 0.001  # seconds a thread waits for the interpreter's lock before asking


BAD_TOKEN = (
    "Discord rejected DISCORD_TOKEN: copy it again from the Developer Portal (Bot → Reset Token)"
)


def bad_token(token: str) -> str:
    """Why Discord may have rejected the token, where it shows (a token is only letters, digits,
    dots, dashes and underscores: what a host's settings page kept around it is not)."""
    if token[0] in "\"'" or token[-1] in "\"'":
        return f"{BAD_TOKEN}; set it without the quotes around it"
    if token.lower().startswith("bot "):
        return f'{BAD_TOKEN}; set the token alone, without "Bot " in front'
    return BAD_TOKEN


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run Tablekeeper.")
    commands = parser.add_subparsers(dest="command", metavar="{sync,health,copy-db,backup,import}")
    sync = commands.add_parser("sync", help="register the slash commands with Discord, then exit")
    where = sync.add_mutually_exclusive_group()
    where.add_argument("--guild", type=int, metavar="ID", help="only in this server (instant)")
    where.add_argument("--dev-guild", action="store_true", help="only in DEV_GUILD_ID's server")
    health = commands.add_parser("health", help="exit 0 if the running bot's /healthz says ok")
    health.add_argument("--port", type=int, help="default: HEALTH_PORT")
    copy = commands.add_parser("copy-db", help="copy every table from one database to another")
    copy.add_argument("source", metavar="SOURCE_URL", help="sqlite:///… or postgresql://…")
    copy.add_argument("target", metavar="TARGET_URL", help="an empty database, same forms")
    backup = commands.add_parser("backup", help="an online copy of the live SQLite database")
    backup.add_argument("path", metavar="PATH", help="the new file to write")
    backup.add_argument("--database", metavar="URL", help="default: DATABASE_URL")
    imports = commands.add_parser("import", help="a Tablekeeper export (/export) into a channel")
    imports.add_argument("file", metavar="FILE", help="the JSON file /export gave")
    imports.add_argument("--channel", type=int, required=True, metavar="ID", help="its id")
    imports.add_argument("--guild", type=int, metavar="ID", help="its server's id")
    imports.add_argument(
        "--replace", action="store_true", help="replace the table the channel has (undoable)"
    )
    imports.add_argument(
        "--actor",
        type=int,
        default=COMMAND_LINE,
        metavar="ID",
        help="the Discord user it is logged as (default: the command line)",
    )
    imports.add_argument("--database", metavar="URL", help="default: DATABASE_URL")
    return parser.parse_args(argv)


async def sync_commands(bot: Tablekeeper, guild_id: int | None) -> list[str]:
    """Sync the tree globally, or copy the global commands to one guild and sync that; a
    command over Discord's size limit is refused first, and nothing is sent."""
    guild = None if guild_id is None else discord.Object(guild_id)
    if guild is not None:
        bot.tree.copy_global_to(guild=guild)
    translator = bot.tree.translator
    commands = bot.tree.get_commands(guild=guild)
    if translator is not None:
        check_sizes([await c.get_translated_payload(bot.tree, translator) for c in commands])
    else:
        check_sizes([c.to_dict(bot.tree) for c in commands])
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
    # A host may stop a worker that still waits for its database (STARTUP_RETRY_SECONDS).
    stopping, connecting = asyncio.Event(), asyncio.ensure_future(opening)

    def stop() -> None:
        stopping.set()
        connecting.cancel()

    _on_sigterm(stop)
    try:
        store = await connecting
    except asyncio.CancelledError:
        if not stopping.is_set():
            raise
        raise StoppedStarting() from None
    finally:
        _on_sigterm(None)  # as before: the running bot takes it over, `sync` ends by it
    async with store, Tablekeeper(settings, store) as bot:
        if stopping.is_set():  # came as the database opened
            raise StoppedStarting()
        if not sync:
            _close_on_sigterm(bot)
            settled = asyncio.create_task(_freeze_when_ready(bot))
            try:
                await bot.start(settings.token)
            finally:
                settled.cancel()
            return
        await bot.login(settings.token)  # runs setup_hook, so the cogs are loaded
        names = await sync_commands(bot, guild_id)
        where = "globally" if guild_id is None else f"in server {guild_id}"
        listed = ", ".join(f"/{name}" for name in names) or "nothing"
        print(f"Registered {len(names)} commands {where}: {listed}")


async def _freeze_when_ready(bot: Tablekeeper) -> None:
    """Once up, what start-up made (modules, cogs, the command tree) leaves the collector's
    generations, so collections under load don't walk it again and again; and young
    collections come every 10,000 allocations rather than 700, since a command makes a few
    thousand short-lived objects, almost none in cycles. Both cut the bot's CPU per command
    (docs/benchmarks.md says how to measure it). Here only, never in tests."""
    await bot.wait_until_ready()
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)


def _close_on_sigterm(bot: Tablekeeper) -> None:
    """Hosts stop a worker with SIGTERM: stop taking interactions, finish those in flight, close
    the gateway and then the store (as `run` leaves its `async with`) instead of dying."""
    _on_sigterm(lambda: asyncio.ensure_future(bot.shutdown()))


def _on_sigterm(stop: Callable[[], object] | None) -> None:
    """`stop` on SIGTERM from now on, in place of the one before (None: the default, ending
    the process)."""
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
        if stop is None:
            loop.remove_signal_handler(signal.SIGTERM)
        else:
            loop.add_signal_handler(signal.SIGTERM, stop)


def fatal(message: object, log_format: str = "text") -> None:
    """The one line that says why the bot stopped: plain on stderr, or, with LOG_FORMAT=json,
    one more JSON object like every line before it (a log collector parses every line)."""
    if log_format == "json":
        log.critical("%s", message)
    else:
        print(message, file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.command in ("health", "copy-db", "backup", "import"):
        from bot.tools import run_tool  # the admin's tools: no token, no Discord

        return run_tool(args)
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 2
    setup_logging(settings.log_level_number, settings.log_format)
    try:
        load()  # a broken translation stops the start, not a reply mid-session
    except CatalogError as error:
        fatal(error, settings.log_format)
        return 2

    guild_id: int | None = None
    if args.command == "sync":
        guild_id = args.guild
        if args.dev_guild:
            if settings.dev_guild_id is None:
                fatal("--dev-guild needs DEV_GUILD_ID to be set", settings.log_format)
                return 2
            guild_id = settings.dev_guild_id
    # Every SQLite statement is a trip to aiosqlite's thread and back, and that thread needs
    # the interpreter's lock to hand its rows over: while the event loop is busy it waits up
    # to the switch interval for it, 5 ms by default, at each statement of a change that
    # other changes queue behind. A shorter wait keeps a busy bot's changes flowing
    # (docs/benchmarks.md, "The store on aiosqlite").
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        asyncio.run(run(settings, sync=args.command == "sync", guild_id=guild_id))
    except discord.LoginFailure:
        fatal(bad_token(settings.token), settings.log_format)
        return 1
    except (
        StoreError,
        CommandsTooLarge,
        DiscordUnreachable,
        DiscordRefused,
        HealthPortUnavailable,
        WebPortUnavailable,
    ) as error:
        fatal(error, settings.log_format)  # one line
        return 1
    except StoppedStarting:  # SIGTERM while Discord couldn't be reached yet: as asked
        log.info("Stopped before logging in")
    except KeyboardInterrupt:
        log.info("Stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
