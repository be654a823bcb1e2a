"""`python -m tests.benchmarks.phases`: where the time of one interaction goes, bot side.

`tests.benchmarks.commands` times whole interactions; this splits each into phases, medians in
µs, from timestamps taken in the process (the local Discords, both bots and this script share
one event loop, so every phase is CPU of that loop):

- arrive → command: discord.py parses INTERACTION_CREATE, the bot's dispatch, the tree's checks
  (`interaction_check`: option checks, language), the options transformed;
- command → answer: the command's own work up to handing its reply to `bot.ack._first`;
- answer → request: discord.py builds the payload (embeds, components, JSON) until aiohttp is
  called;
- request → done: the HTTP round trip, the local Discord storing the reply, discord.py reading
  the response, the bot's bookkeeping after it, until the test client has the reply.

Beside Tablekeeper's commands: `/echo` (the echo bot's fixed text) and `/echo save-sized` (the
echo bot sending a `/save level:5 vs:7` reply, embed and "Roll again" button, built from a
fixed dict: discord.py's cost for that payload, the floor of what `/save` can take).
`--store` splits the store's part of each change (`/fatigue spend`, `/monster hit`) on SQLite
too: its turn at the connection and BEGIN IMMEDIATE, the change's body (its statements, each a
call on aiosqlite's thread and back), the wait for its COMMIT's turn (a change that comes alone
commits alone), the COMMIT (under synchronous=FULL the sync of the log, the disk's own time),
and its caller resuming; and, one per round in
the same run, one 4 KB page written and synced to the disk (`fdatasync`, in the database's
folder): with the spend's phases outside its command, that gives the floor of a durable change
in this harness, a store that took nothing but one sync.
Each round ends with untimed reads (as a table in play reads between changes); `--after-write`
sends a change (untimed) before each command instead, a player's `/fatigue spend`
(`--after-write hit`: the GM's `/monster hit`), so each reads the channel right after a change,
as the shuffled latency rounds often do.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import itertools
import os
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
from discord.app_commands import commands as app_commands_module
from discord.state import ConnectionState

import bot.ack
import store.sqlite as sqlite_store
from cogs._buttons import buttons_view
from cogs.saves import SaveAgain
from rules.dice import OpenEndedRoll
from rules.saves import Difficulty, SaveKind
from table.savecalc import DifficultyOptions, SaveInputs, SaveOptions
from tests.benchmarks import _bots, _seed
from tests.benchmarks._bots import Pair, checked, forget, pair, use
from tests.benchmarks.commands import COMMANDS, who
from tests.localdiscord.world import speaking

PHASES = ("arrive → command", "command → answer", "answer → request", "request → done")
STORE_PHASES = ("turn and BEGIN", "body", "COMMIT's turn", "COMMIT", "caller resumes")
ECHO, SAVE_SIZED = "/echo", "/echo save-sized"
ROLLER = 1_300_000_000_000_000  # a snowflake's size, for the button's custom_id
READS = ("/party show", "/history")  # after each round's changes, read again (untimed)
marks: dict[str, float] = {}


@contextlib.contextmanager
def patched(replacements: list[tuple[Any, str, Any]]) -> Iterator[None]:
    """Each (owner, name, replacement) set while inside, the originals put back after."""
    originals = [(owner, name, getattr(owner, name)) for owner, name, _ in replacements]
    for owner, name, replacement in replacements:
        setattr(owner, name, replacement)
    try:
        yield
    finally:
        for owner, name, original in reversed(originals):
            setattr(owner, name, original)


@contextlib.contextmanager
def timestamps() -> Iterator[None]:
    """The first call of each marked function, per interaction, noted in `marks`."""

    def mark(owner: Any, name: str, key: str, is_async: bool) -> tuple[Any, str, Any]:
        original = getattr(owner, name)
        if is_async:

            async def timed_async(*args: Any, **kwargs: Any) -> Any:
                marks.setdefault(key, time.perf_counter())
                return await original(*args, **kwargs)

            return owner, name, timed_async

        def timed(*args: Any, **kwargs: Any) -> Any:
            marks.setdefault(key, time.perf_counter())
            return original(*args, **kwargs)

        return owner, name, timed

    with patched(
        [
            mark(ConnectionState, "parse_interaction_create", "arrive", False),
            mark(app_commands_module.Command, "_do_call", "command", True),
            mark(bot.ack, "_first", "answer", True),
            mark(aiohttp.ClientSession, "_request", "request", False),  # as the request leaves
        ]
    ):
        yield


@contextlib.contextmanager
def store_timestamps(into: list[dict[str, float]]) -> Iterator[None]:
    """Each SQLite change's moments, from its `write` to its caller resuming, appended to `into`
    (one change at a time: the benchmark sends them one by one)."""
    backend = sqlite_store.SqliteBackend
    write, run, end = backend.write, sqlite_store.run_sqlite, backend._end
    now: dict[str, float] = {}

    async def timed_write(self: Any, *args: Any, **kwargs: Any) -> Any:
        now.clear()
        now["write"] = time.perf_counter()
        result = await write(self, *args, **kwargs)
        now["resumed"] = time.perf_counter()
        into.append(dict(now))
        return result

    async def timed_run(conn: Any, begin: str, body: Any, **options: Any) -> Any:
        async def timed_body(tx: Any) -> Any:
            now["body"] = time.perf_counter()  # BEGIN done
            try:
                return await body(tx)
            finally:
                now["bodied"] = time.perf_counter()

        return await run(conn, begin, timed_body, **options)

    async def timed_end(self: Any, committed: Any) -> None:
        now["commit"] = time.perf_counter()  # the COMMIT's turn came
        await end(self, committed)
        now["committed"] = time.perf_counter()

    with patched(
        [
            (backend, "write", timed_write),
            (backend, "_end", timed_end),
            (sqlite_store, "run_sqlite", timed_run),
        ]
    ):
        yield


STORE_MOMENTS = ("write", "body", "bodied", "commit", "committed", "resumed")


@functools.cache  # built once, at the first call (Tablekeeper's catalogs installed by then)
def save_sized() -> tuple[dict[str, Any], Callable[[], discord.ui.View]]:
    """A `/save wsr level:5 vs:7` reply's embed (as a dict) and a maker of its button."""
    from render.saves import save_embed  # after the catalogs are installed

    inputs = SaveInputs(SaveKind.WSR, None, 5, 0, 0, 0, Difficulty.attack_level(7), None, False)
    options = SaveOptions(DifficultyOptions(vs=7), level=5, stat=0, kin=0)
    embed: dict[str, Any] = dict(
        save_embed(inputs.resolve(OpenEndedRoll.from_dice([42]))).to_dict()
    )
    return embed, lambda: buttons_view(SaveAgain(SaveKind.WSR, options, 1_300_000_000_000_000))


@contextlib.contextmanager
def echo_save_sized() -> Iterator[None]:
    """The echo bot with a second command that answers with a save-sized reply."""
    original = _bots.EchoBot.setup_hook

    async def setup_hook(self: _bots.EchoBot) -> None:
        await original(self)

        @self.tree.command(name="echo-save", description="A save-sized fixed reply")
        async def echo_save(interaction: discord.Interaction) -> None:
            embed, view = save_sized()
            await interaction.response.send_message(
                embed=discord.Embed.from_dict(embed), view=view()
            )

    _bots.EchoBot.setup_hook = setup_hook  # type: ignore[method-assign]
    try:
        yield
    finally:
        _bots.EchoBot.setup_hook = original  # type: ignore[method-assign]


def senders(p: Pair, locale: str | None) -> dict[str, Callable[[], Awaitable[object]]]:
    def tablekeeper(line: str, user: str) -> Callable[[], Awaitable[object]]:
        parsed, member = p.parse(line), who(p, user)
        if locale is not None:
            member = speaking(member, locale)
        return lambda: p.tk_once(parsed, member)

    sends = {label: tablekeeper(line, user) for label, line, user in COMMANDS}

    async def echo_save() -> object:
        use(p.echo)
        return await p.echo.slash("echo-save", user=p.echo.player)

    sends[ECHO] = p.echo_once
    sends[SAVE_SIZED] = echo_save
    return sends


# What `--after-write` sends before each command (untimed), and who types it.
WRITES = {
    "spend": ("/fatigue spend", "player"),
    "hit": ("/monster hit name:Troll damage:1", "gm"),
}


async def run(rounds: int, after_write: str | None, locale: str | None, store: bool) -> None:
    writes: list[dict[str, float]] = []  # `--store`: every change's moments
    changes: list[dict[str, float]] = []  # ... those of the timed commands
    # Timestamps first: discord.py binds its parsers when a client is made.
    with (
        timestamps(),
        store_timestamps(writes) if store else contextlib.nullcontext(),
        echo_save_sized(),
        tempfile.TemporaryDirectory(prefix="tk-phases-") as tmp,
    ):
        async with pair() as p, p.tablekeeper(f"sqlite:///{Path(tmp) / 'phases.db'}") as env:
            await _seed.seed_table(env.store, p.tk)
            sends = senders(p, locale)
            line, writer = WRITES[after_write or "spend"]
            write, write_user = p.parse(line), who(p, writer)
            for send in sends.values():  # warm up, the bodies checked against the API spec
                await send()
            checked(p, False)
            samples: dict[str, list[tuple[float, ...]]] = {label: [] for label in sends}
            syncs: list[float] = []  # `--store`: the disk's own time for one page, a round each
            for __ in range(rounds):
                if store:
                    syncs.append(page_synced(Path(tmp) / "sync-floor"))
                for label, send in sends.items():
                    if after_write and label not in (ECHO, SAVE_SIZED):
                        await p.tk_once(write, write_user)
                    marks.clear()
                    written = len(writes)
                    await send()
                    done = time.perf_counter()
                    if label in STORE_TIMED:
                        changes += writes[written:]
                    m = dict(marks)
                    m.setdefault("answer", m["request"])  # the echo bot has no bot.ack
                    ends = (m["command"], m["answer"], m["request"], done)
                    starts = (m["arrive"], *ends[:-1])
                    samples[label].append(tuple(e - s for s, e in zip(starts, ends, strict=True)))
                for line in READS:  # the next round's reads find the store's cache filled
                    await p.tk_once(p.parse(line), p.tk.player)
                forget(p.tk)
                forget(p.echo)
    width = max(map(len, samples))
    print(f"{'µs, medians':{width}}  " + "  ".join(f"{p:>16}" for p in PHASES) + "       sum")
    medians = {
        label: dict(zip(PHASES, map(statistics.median, zip(*rows, strict=True)), strict=True))
        for label, rows in samples.items()
    }
    for label, phases in medians.items():
        cells = "  ".join(f"{m * 1e6:16.0f}" for m in phases.values())
        print(f"{label:{width}}  {cells}  {sum(phases.values()) * 1e6:8.0f}")
    if store:
        echo = statistics.median(sum(phases) for phases in samples[ECHO])
        print_store(changes, echo)
        print_floor(medians["/fatigue spend"], statistics.median(syncs), echo)


STORE_TIMED = ("/fatigue spend", "/monster hit")


def print_store(changes: list[dict[str, float]], echo: float) -> None:
    """Medians of each step of a change's store time, in µs and as a share of the echo bot's
    whole interaction (`echo`, in seconds), and of the whole."""
    whole = [c for c in changes if all(m in c for m in STORE_MOMENTS)]
    print(f"\nThe store's part of {len(whole)} changes (SQLite), medians:")
    print(f"  {'':18} {'µs':>8}  {'÷ /echo':>7}")
    steps = [*itertools.pairwise(STORE_MOMENTS), ("write", "resumed")]
    for name, (start, end) in zip((*STORE_PHASES, "the whole write"), steps, strict=True):
        step = statistics.median(c[end] - c[start] for c in whole)
        print(f"  {name:18} {step * 1e6:8.0f}  {step / echo:6.2f}×")


def page_synced(path: Path) -> float:
    """Seconds to write one 4 KB page to `path` and sync it (`fdatasync`): the disk's own part
    of a durable COMMIT, without SQLite (which writes a change's pages and syncs its log)."""
    page, fd = os.urandom(4096), os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        start = time.perf_counter()
        os.pwrite(fd, page, 0)
        os.fdatasync(fd)
        return time.perf_counter() - start
    finally:
        os.close(fd)


def print_floor(spend: dict[str, float], sync: float, echo: float) -> None:
    """What a `/fatigue spend` would take with its reply as it is and a store that did nothing
    but sync one page: its phases' medians outside the command plus the sync, against /echo."""
    outside = sum(m for phase, m in spend.items() if phase != "command → answer")
    floor = outside + sync
    print("\nThe floor of a durable /fatigue spend here (medians, µs):")
    print(f"  its phases outside the command         {outside * 1e6:6.0f}")
    print(f"  one 4 KB page written, synced to disk  {sync * 1e6:6.0f}  (a round each)")
    print(f"  together                               {floor * 1e6:6.0f}  {floor / echo:.2f}× /echo")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument(
        "--after-write",
        nargs="?",
        const="spend",
        choices=sorted(WRITES),
        help="a change before each: a player's /fatigue spend (the default) or the GM's hit",
    )
    parser.add_argument("--locale", default=None, help="the players' locale, e.g. es-ES")
    parser.add_argument(
        "--store", action="store_true", help="split the store's part of each change (SQLite)"
    )
    args = parser.parse_args()
    asyncio.run(run(args.rounds, args.after_write, args.locale, args.store))


if __name__ == "__main__":
    main()
