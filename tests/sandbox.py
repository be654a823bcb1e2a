"""`python -m tests.sandbox [--db PATH] [--as gm|player|player2] [--verbose]`

Type slash commands at the real bot as you would in Discord (`/save wsr level:5 vs:7`), on a
local Discord on loopback: no token, no network. Lines are parsed against the commands the bot
itself registered, so the sandbox never drifts from what Discord would offer. Lines starting
with `:` are the sandbox's own (`:help`); stdin can be piped for a transcript.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import logging
import os
import queue
import re
import sys
import tempfile
import threading
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord

from bot.__main__ import sync_commands
from bot.client import COGS, Tablekeeper
from bot.settings import Settings
from store import Store
from tests.localdiscord.client import DiscordViolation, LocalDiscord, Place
from tests.localdiscord.commands import (
    GROUP,
    SUBCOMMAND,
    TYPE_NAMES,
    CommandLineError,
    find_command,
)
from tests.localdiscord.fixtures import running
from tests.localdiscord.private import PrivateChannel
from tests.localdiscord.render_text import render_reply
from tests.localdiscord.reply import Reply
from tests.localdiscord.world import Channel, User, speaking

CAST = ("gm", "player", "player2", "owner", "named_gm", "outsider")
CHANNELS = ("table", "scene", "ooc", "gm-notes", "side-table", "other-table")
PRIVATE = ("dm", "group-dm")  # the bot's DM with whoever types; a group DM of the cast
META_HELP = """\
Type a slash command as in Discord: /save wsr level:5 vs:7 or /character create name:Old Tom
Sandbox commands:
  :as NAME        who is typing: gm, player, player2 (also owner, named_gm, outsider)
  :channel NAME   where: table, scene (a thread of #table), ooc, gm-notes, side-table,
                  other-table (another server), dm (the bot's DM), group-dm (a group DM)
  :click LABEL    press a button on the latest reply that has buttons
  :lang LOCALE    the typing client's language: es-ES (Spanish), en-US (English), …
  :help [/CMD]    this help, or one command's options
  :quit           leave (Ctrl-D works too)"""


class Quit(Exception):
    """`:quit` was typed."""


@dataclass
class Session:
    """Who is typing where, and the latest reply with buttons (for `:click`)."""

    discord: LocalDiscord
    who: str = "player"
    where: str = "table"
    clickable: Reply | None = None
    group: PrivateChannel | None = None  # the group DM, opened when first visited
    locale: str = "en-US"  # the language of everyone's Discord client (`:lang`)
    downloads: Path | None = None  # where the files replies carry are saved

    @property
    def user(self) -> User:
        user: User = getattr(self.discord, self.who)
        return speaking(user, self.locale)

    @property
    def channel(self) -> Place:
        if self.where == "dm":
            return self.discord.dm(self.user)
        if self.where == "group-dm":
            return self.group or self._open_group()
        channel: Channel = getattr(self.discord, self.where.replace("-", "_"))
        return channel

    def _open_group(self) -> PrivateChannel:
        d = self.discord
        self.group = d.group_dm(d.player, d.player2, d.gm)
        return self.group

    @property
    def names(self) -> dict[int, str]:
        """Every user, role and channel id with its name, for readable mentions."""
        world = self.discord.world
        found = {u.id: u.username for u in world.users()}
        for guild in world.guilds:
            found |= {r.id: r.name for r in guild.roles if r.id != guild.id}
            found |= {c.id: c.name for c in (*guild.channels, *guild.threads)}
        return found

    @property
    def prompt(self) -> str:
        return f"{self.user.username} ({self.who}) #{self.where}> "


async def handle(session: Session, line: str) -> str:
    """Run one typed line; the text to print. Raises Quit, CommandLineError, DiscordViolation."""
    line = line.strip()
    if not line or line.startswith("#"):  # blank lines and comments, for scripted transcripts
        return ""
    if line.startswith(":"):
        return await _meta(session, line)
    reply = await session.discord.type(line, user=session.user, channel=session.channel)
    reply = await session.discord.settle(reply)  # with any follow-up (a secret roll's result)
    _remember(session, reply)
    return render_reply(reply, session.names) + _saved(session, reply)


def _saved(session: Session, reply: Reply) -> str:
    """Each file a reply carries, saved where a later command can attach it by its path
    (`/import file:PATH`), as a user would download it: the lines that say where."""
    if session.downloads is None:
        return ""
    lines = []
    for message in (reply, *reply.followups):
        for name, data in message.files:
            path = _fresh(session.downloads, Path(name).name)
            path.write_bytes(data)
            lines.append(f"\n(saved as {path})")
    return "".join(lines)


def _fresh(folder: Path, name: str) -> Path:
    """Where a file of this name is saved without overwriting one saved before (pictures all
    come as `monster.png` or `fatigue.png`): `monster.png`, then `monster-2.png`, …"""
    folder.mkdir(parents=True, exist_ok=True)
    path, number = folder / name, 1
    while path.exists():
        number += 1
        path = folder / f"{Path(name).stem}-{number}{Path(name).suffix}"
    return path


def cast_line(discord_: LocalDiscord) -> str:
    """Everyone who can type, by the name `:as` takes and the name replies show."""
    return "At the table: " + ", ".join(
        f"{getattr(discord_, who).username} ({who})" for who in CAST
    )


async def _meta(session: Session, line: str) -> str:
    word, _, rest = line[1:].partition(" ")
    rest = rest.strip()
    if word in ("quit", "q", "exit"):
        raise Quit
    if word == "help":
        return _command_help(session, rest) if rest else META_HELP + "\n" + _command_list(session)
    if word == "as":
        if rest not in CAST:
            raise CommandLineError(f"Who? One of: {', '.join(CAST)}")
        session.who = rest
        return f"Now typing as {session.user.username} ({rest})."
    if word == "lang":
        if not re.fullmatch(r"[a-z]{2,3}(-[A-Za-z0-9]{2,3})?", rest):
            raise CommandLineError("Which language? A Discord locale, e.g. es-ES or en-US")
        session.locale = rest
        return f"Discord now speaks {rest} to the bot (unsupported languages read English)."
    if word == "channel":
        name = rest.lstrip("#")
        if name not in CHANNELS + PRIVATE:
            raise CommandLineError(f"Which channel? One of: {', '.join(CHANNELS + PRIVATE)}")
        session.where = name
        return f"Now in #{name}."
    if word == "click":
        if session.clickable is None:
            raise CommandLineError("No reply with buttons yet")
        if not rest:
            raise CommandLineError("Click what? :click LABEL")
        reply = await session.discord.click(session.clickable, rest, user=session.user)
        reply = await session.discord.settle(reply)
        _remember(session, reply)
        return render_reply(reply, session.names) + _saved(session, reply)
    raise CommandLineError(f"Unknown sandbox command :{word}. Try :help")


def _remember(session: Session, reply: Reply) -> None:
    for candidate in (*reply.followups, reply):  # the original wins over its follow-ups
        if candidate.buttons():
            session.clickable = candidate


def _command_list(session: Session) -> str:
    lines = ["Commands here (from what the bot registered):"]
    for top in sorted(session.discord.commands(session.channel), key=lambda c: c["name"]):
        if (top.get("type") or 1) != 1:
            continue
        for path, leaf in _leaves([top["name"]], top):
            lines.append(f"  /{' '.join(path)} - {leaf.get('description', '')}")
    return "\n".join(lines)


def _leaves(path: list[str], node: dict[str, Any]) -> list[tuple[list[str], dict[str, Any]]]:
    subs = [o for o in node.get("options") or [] if o["type"] in (SUBCOMMAND, GROUP)]
    if not subs:
        return [(path, node)]
    return [leaf for sub in subs for leaf in _leaves([*path, sub["name"]], sub)]


def _command_help(session: Session, name: str) -> str:
    _, _, leaf = find_command(session.discord.commands(session.channel), name)
    lines = [f"/{' '.join(name.lstrip('/').split())} - {leaf.get('description', '')}"]
    for option in leaf.get("options") or []:
        kind = TYPE_NAMES.get(option["type"], "?")
        if "min_value" in option or "max_value" in option:
            kind += f" {option.get('min_value', '')}..{option.get('max_value', '')}"
        need = ", required" if option.get("required") else ""
        choices = ", ".join(str(c["name"]) for c in option.get("choices") or [])
        more = f" Choices: {choices}" if choices else ""
        lines.append(f"  {option['name']} ({kind}{need}): {option.get('description', '')}{more}")
    return "\n".join(lines if len(lines) > 1 else [*lines, "  (no options)"])


class Lines:
    """Reads stdin in a daemon thread, one line when asked: the prompt never runs ahead of a
    reply, and Ctrl-C never waits on a blocked read."""

    def __init__(self, interactive: bool) -> None:
        self.interactive = interactive
        self._asks: queue.Queue[tuple[str, asyncio.Future[str | None]]] = queue.Queue()
        self._loop = asyncio.get_running_loop()
        threading.Thread(target=self._serve, name="sandbox-stdin", daemon=True).start()

    async def read(self, prompt: str) -> str | None:
        """The next line, or None at end of input."""
        future: asyncio.Future[str | None] = self._loop.create_future()
        self._asks.put((prompt, future))
        return await future

    def _serve(self) -> None:
        while True:
            prompt, future = self._asks.get()
            line: str | None
            if self.interactive:
                try:
                    line = input(prompt)
                except EOFError:
                    line = None
            else:
                raw = sys.stdin.readline()
                line = raw.rstrip("\r\n") if raw else None
            self._loop.call_soon_threadsafe(_settle, future, line)


def _settle(future: asyncio.Future[str | None], line: str | None) -> None:
    if not future.done():
        future.set_result(line)


async def repl(session: Session, lines: Lines) -> None:
    while True:
        line = await lines.read(session.prompt)
        if line is None:
            if lines.interactive:
                print()  # after Ctrl-D, so the shell's prompt starts on its own line
            break
        if not lines.interactive and line.strip():
            print(session.prompt + line)  # echo, so a piped transcript reads like a session
        try:
            text = await handle(session, line)
        except Quit:
            break
        except CommandLineError as error:
            text = f"! {error}"
        except DiscordViolation as error:
            session.discord.take_violations()  # report once, then carry on
            text = f"! The bot sent something Discord would reject:\n{error}"
        except TimeoutError as error:
            session.discord.take_violations()
            text = f"! No answer: {error}"
        except Exception:
            text = "! Sandbox error:\n" + traceback.format_exc()
        if text:
            print(text, flush=True)
            if not lines.interactive:
                print()


def loadable_cogs() -> tuple[tuple[str, ...], list[str]]:
    """(cogs that import, 'name: why' for those that don't); TK_COGS narrows the list."""
    wanted = os.environ.get("TK_COGS")
    names = tuple(wanted.split(",")) if wanted else COGS
    ok, skipped = [], []
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as error:  # another helper's half-written cog: skip it, say why
            skipped.append(f"{name}: {type(error).__name__}: {error}")
        else:
            ok.append(name)
    return tuple(ok), skipped


def configure_logging(verbose: bool) -> None:
    if verbose:
        discord.utils.setup_logging(level=logging.INFO, root=True)
        return
    # A handler on the root keeps logging's last-resort printer (and discord.py's chatter)
    # quiet; errors from the bot's own code still show, since they mean a bug.
    logging.getLogger().addHandler(logging.NullHandler())
    ours = logging.StreamHandler(sys.stderr)
    ours.setFormatter(logging.Formatter("[%(name)s] %(levelname)s: %(message)s"))
    for name in ("bot", "cogs"):
        logger = logging.getLogger(name)
        logger.setLevel(logging.ERROR)
        logger.addHandler(ours)


async def run(args: argparse.Namespace) -> int:
    cogs, skipped = loadable_cogs()
    for why in skipped:
        print(f"(skipped {why})", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="tablekeeper-sandbox-") as scratch:
        db = Path(args.db).resolve() if args.db else Path(scratch) / "sandbox.db"
        async with LocalDiscord() as discord_:
            settings = Settings(
                token=discord_.token,
                database_url=f"sqlite:///{db}",
                api_base=discord_.api_base,
                web_port=args.web,
                public_url=None if args.web is None else f"http://127.0.0.1:{args.web}",
            )
            async with Store.open(settings.database_url) as store:
                bot = Tablekeeper(settings, store, cogs=cogs)
                async with running(bot, discord_, commands=False):
                    names = await sync_commands(bot, None)  # what `python -m bot sync` does
                    session = Session(discord_, who=args.who, locale=args.locale)
                    # Files replies carry are kept beside a kept database, as the table is.
                    session.downloads = (
                        db.with_name(db.name + "-files") if args.db else Path(scratch) / "files"
                    )
                    kept = "kept" if args.db else "deleted on exit; --db PATH keeps one"
                    web = (
                        ""
                        if args.web is None
                        else f"The table's web page is served on port {args.web}: /table link"
                        " (as the GM) gives a channel's link, to open in a browser.\n"
                    )
                    print(
                        f"Tablekeeper sandbox: {len(cogs)} cogs, {len(names)} commands "
                        f"({', '.join('/' + n for n in names)}) on a local Discord.\n"
                        f"Database: {db} ({kept}); files replies carry go to "
                        f"{session.downloads}.\n{web}{cast_line(discord_)}.\n"
                        f"You are {session.user.username} ({session.who}) in #{session.where}. "
                        ":help for help, :quit to leave.",
                        flush=True,
                    )
                    interactive = sys.stdin.isatty()
                    if interactive:
                        with contextlib.suppress(ImportError):
                            import readline  # noqa: F401 (line editing and history for input())
                    await repl(session, Lines(interactive))
    return 0


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tests.sandbox",
        description="Type slash commands at the real bot on a local Discord (no token needed).",
    )
    parser.add_argument("--db", metavar="PATH", help="SQLite file to use and keep")
    parser.add_argument("--as", dest="who", choices=CAST, default="player", help="who types")
    parser.add_argument(
        "--lang", dest="locale", default="en-US", help="the client's language, e.g. es-ES"
    )
    parser.add_argument(
        "--web",
        type=int,
        metavar="PORT",
        help="serve the table's web page on this port, as WEB_PORT does (/table link)",
    )
    parser.add_argument("--verbose", action="store_true", help="show discord.py's logs")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    configure_logging(args.verbose)
    try:
        return asyncio.run(run(args))
    except KeyboardInterrupt:
        print()
        return 130


if __name__ == "__main__":
    sys.exit(main())
