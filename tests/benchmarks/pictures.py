"""What pictures cost: `python -m tests.benchmarks.pictures` prints, in one run,

1. the time to draw each picture for a 10-character party over a session of 300 changes (its
   median, wall and CPU: on a shared machine the CPU time is the steadier figure);
2. the p99 of `/roll` through the whole bot and the local Discord while 20 `/party chart`s are
   always in flight, beside its p99 at rest, the same `/roll`s one after another either way
   (`--rolls` of each, after 20 to warm, in blocks of each in turn). Side by side, one way of
   drawing after another: the series built in a thread of the bot's process and drawn in the
   worker process at the bot's priority (the baseline); built in the worker from the
   rows as read; that with the worker at a lower priority; that with only 2 charts under way at
   a time, the others waiting before their read (as the bot draws); and that in a worker
   thread. The bot, the local Discord and this load share one process and event loop here, so
   the local Discord's own work on each chart's upload counts against the `/roll`s too;
3. the bot's start-up (importing the client and every cog), interleaved, with the `pictures`
   package and with an empty stand-in in its place, matplotlib made unimportable both ways (a
   start-up that imported it would stop the run); and the import time of the chart modules
   that stay (`python -X importtime`, each module's own);
4. the bot process's RSS before and after 1,000 pictures (and the worker process's), each way.

`--quick` for a short run; `--charts N`, `--rolls N`. `python -m tests.benchmarks.record
pictures` keeps the figures with the others (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.client import Tablekeeper
from bot.settings import Settings
from lang import install
from lang.catalogs import load
from pictures import Picture
from pictures.examples import party, random_session, troll
from pictures.painter import AT_ONCE as AT_ONCE_DRAWN
from pictures.painter import Job, Painter, Recipe, draw
from rules.saves import SaveKind
from store import Store
from table.fatigue_series import SINCE_ALL, FatigueSeries, Start, fatigue_series
from table.model import Table
from table.monster_view import monster_view
from table.odds_series import odds_series
from table.savecalc import DifficultyOptions, party_inputs
from table.sight import GM_ALONE
from tests.benchmarks._bots import forget, rss_mb
from tests.benchmarks._figures import machine, percentile, table
from tests.localdiscord.client import LocalDiscord
from tests.localdiscord.fixtures import running

REPO = Path(__file__).resolve().parents[2]
AT_ONCE = 20
CHART_WAIT = 120.0  # s: 20 charts queue for one worker; Discord would wait 15 minutes


def session_series() -> FatigueSeries:
    session = random_session(10, 300)
    return fatigue_series(session.table, session.newest_first(), Start(0), SINCE_ALL)


def jobs() -> dict[str, Job]:
    everyone = party_inputs(SaveKind.WSR, DifficultyOptions(vs=7), party(10))
    return {
        "fatigue (10 characters, 300 changes)": Job("fatigue", session_series(), None),
        "odds (a party of 10)": Job("odds", odds_series(everyone, 7), None),
        "monster": Job("monster", monster_view(troll(), GM_ALONE), None),
    }


def draw_times(rounds: int) -> list[list[str]]:
    rows = []
    for name, job in jobs().items():
        draw(job)  # matplotlib and the fonts loaded
        wall, cpu = [], []
        for _ in range(rounds):
            start, used = time.perf_counter(), time.process_time()
            draw(job)
            wall.append(time.perf_counter() - start)
            cpu.append(time.process_time() - used)
        ms = [f"{statistics.median(t) * 1000:.0f} ms" for t in (wall, cpu)]
        rows.append([name, *ms, f"{max(cpu) * 1000:.0f} ms"])
    return rows


def seeded_table() -> Callable[[Table], tuple[Table, None]]:
    def put(table: Table) -> tuple[Table, None]:
        for character in party(10).characters:
            table = table.with_character(character)
        return table, None

    return put


@contextlib.asynccontextmanager
async def bot_with(painter: Painter, folder: Path) -> AsyncIterator[LocalDiscord]:
    async with LocalDiscord(timeout=CHART_WAIT) as discord_:
        settings = Settings(
            token=discord_.token,
            database_url=f"sqlite:///{folder / 'pictures.db'}",
            api_base=discord_.api_base,
        )
        async with Store.open(settings.database_url) as store:
            channel = discord_.table
            await store.apply(channel.id, channel.guild_id, 1, "seed", seeded_table())
            session = random_session(10, 300)
            for event in session.events[1:]:  # 300 changes in all, through the store
                step = _replay(event.after)
                await store.apply(channel.id, channel.guild_id, 1, event.action, step)
            bot = Tablekeeper(settings, store, painter=painter)
            async with running(bot, discord_, sync=True, commands=False):
                discord_.server.check_schemas = False
                yield discord_


def _replay(after: dict[str, Any]) -> Callable[[Table], tuple[Table, None]]:
    from table.snapshot import restore

    def step(table: Table) -> tuple[Table, None]:
        return restore(table, after), None

    return step


async def roll_times(discord_: LocalDiscord, rolls: int) -> list[float]:
    """`rolls` × `/roll`, one after another: each one's time to its answer."""
    times = []
    for _ in range(rolls):
        start = time.perf_counter()
        await discord_.slash("roll", user=discord_.player)
        times.append(time.perf_counter() - start)
    return times


def forget_quietly(discord_: LocalDiscord) -> None:
    """The local Discord's records dropped (it checks them all at every reply), with nothing in
    flight: each phase starts with none kept."""
    discord_.take_violations()
    with contextlib.suppress(AssertionError):
        forget(discord_)


async def under_charts(discord_: LocalDiscord, rolls: int) -> tuple[list[float], list[float], int]:
    """The /roll times while AT_ONCE `/party chart`s are always in flight; the times of the
    charts answered with their picture while the /rolls ran, and how many were answered
    without one."""
    charts: list[float] = []
    failed = 0
    rolling = False
    stop = asyncio.Event()

    async def charting() -> None:
        nonlocal failed
        while not stop.is_set():
            start = time.perf_counter()
            reply = await discord_.slash("party chart", user=discord_.player, since="all")
            if rolling and reply.files:
                charts.append(time.perf_counter() - start)
            failed += rolling and not reply.files

    tasks = [asyncio.create_task(charting()) for _ in range(AT_ONCE)]
    await asyncio.sleep(1.0)  # all of them under way
    rolling = True
    times = await roll_times(discord_, rolls)
    rolling = False
    stop.set()
    ended = await asyncio.gather(*tasks, return_exceptions=True)
    return times, charts, failed + sum(isinstance(e, BaseException) for e in ended)


class BuiltHere(Painter):
    """The baseline: a chart's series built in a thread of the bot's process, only the drawing
    in the worker."""

    async def paint(self, job: Job) -> tuple[Any, Picture]:
        if isinstance(job.data, Recipe):
            series = await asyncio.to_thread(job.data.build, *job.data.args)
            job = replace(job, data=series)
        return await super().paint(job)


WAYS: dict[str, Callable[[], Painter]] = {  # each step of the process's row on the last
    "process: series built in the bot": lambda: BuiltHere(nice=0, at_once=None),
    "process: built in the worker": lambda: Painter(nice=0, at_once=None),
    "process: + worker's priority lower": lambda: Painter(at_once=None),
    f"process: + {AT_ONCE_DRAWN} charts at a time": Painter,  # as the bot draws
    f"thread, {AT_ONCE_DRAWN} charts at a time": lambda: Painter(threads=True),
}


BLOCKS = 4  # at rest and under charts in turn, so the machine's other load falls on both


async def loop_figures(rolls: int) -> list[list[str]]:
    rows = []
    for name, make in WAYS.items():
        painter = make()
        painter.warm()
        at_rest: list[float] = []
        busy: list[float] = []
        charts: list[float] = []
        failed = 0
        with tempfile.TemporaryDirectory() as folder:
            async with bot_with(painter, Path(folder)) as discord_:
                await roll_times(discord_, 20)  # warm
                for _ in range(BLOCKS):
                    forget_quietly(discord_)
                    at_rest += await roll_times(discord_, rolls // BLOCKS)
                    forget_quietly(discord_)
                    times, drawn, not_drawn = await under_charts(discord_, rolls // BLOCKS)
                    busy += times
                    charts += drawn
                    failed += not_drawn
                forget_quietly(discord_)
        painter.close()
        rest99, busy99 = percentile(at_rest, 99), percentile(busy, 99)
        rows.append(
            [
                name,
                f"{rest99 * 1000:.1f} ms",
                f"{busy99 * 1000:.1f} ms",
                f"{busy99 / rest99:.2f}×",
                f"{len(charts)}" + (f" ({failed} failed)" if failed else ""),
                f"{statistics.median(charts):.1f} s" if charts else "—",
                f"{sum(busy) / len(charts) * 1000:.0f} ms" if charts else "—",
            ]
        )
    return rows


_ABSENT = """
import importlib.abc, importlib.machinery, sys, types

class StandIn(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return type(name, (), {})

class Absent(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, stand_in):
        self.stand_in = stand_in
    def find_spec(self, name, path, target=None):
        top = name.partition(".")[0]
        if top == "matplotlib":
            raise ImportError(f"{name} imported at start-up")
        if top == "pictures" and self.stand_in:
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None
    def create_module(self, spec):
        return StandIn(spec.name)
    def exec_module(self, module):
        pass

sys.meta_path.insert(0, Absent(STAND_IN))
"""
_START = (
    "import time; t = time.perf_counter(); import importlib; "
    "from bot.client import COGS, Tablekeeper; [importlib.import_module(c) for c in COGS]; "
    "print(time.perf_counter() - t)"
)
CHART_MODULES = (
    "pictures",
    "pictures.painter",
    "cogs._picture",
    "cogs._fatigue_chart",
    "cogs._odds",
    "render.charts",
    "table.fatigue_series",
    "table.odds_series",
    "table.monster_view",
    "store.chart",
)


def start_up(runs: int) -> tuple[list[list[str]], float]:
    """Importing the client and every cog, with the pictures package and with a stand-in for
    it, interleaved; and the chart modules' own import time (median of `runs`)."""
    ways = {"with the pictures package": "False", "with a stand-in for it": "True"}
    times: dict[str, list[float]] = {name: [] for name in ways}
    own: list[float] = []
    for _ in range(runs):
        for name, stand_in in ways.items():
            code = _ABSENT.replace("STAND_IN", stand_in) + _START
            out = subprocess.run(
                [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True
            )
            if out.returncode:
                raise RuntimeError(f"start-up failed {name}:\n{out.stderr}")
            times[name].append(float(out.stdout.strip().splitlines()[-1]))
        out = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", _START],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        )
        own.append(chart_import_time(out.stderr))
    rows = [
        [name, f"{statistics.median(t) * 1000:.0f} ms", f"{min(t) * 1000:.0f} ms"]
        for name, t in times.items()
    ]
    return rows, statistics.median(own)


def chart_import_time(importtime: str) -> float:
    """The chart modules' own import times (µs in `-X importtime`'s lines), in seconds."""
    total = 0
    for line in importtime.splitlines():
        parts = line.removeprefix("import time:").split("|")
        if len(parts) == 3 and parts[2].strip() in CHART_MODULES:
            total += int(parts[0])
    return total / 1e6


def worker_rss(painter: Painter) -> float:
    pool = painter._pool
    if not isinstance(pool, ProcessPoolExecutor):
        return 0.0
    total = 0.0
    for pid in pool._processes or {}:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
    return total


async def memory(charts: int) -> list[list[str]]:
    rows = []
    every = list(jobs().values())
    for name, threads in (("worker process", False), ("worker thread", True)):
        painter = Painter(threads=threads)
        painter.warm()
        for job in every:
            await painter.draw(job)
        before, worker_before = rss_mb(), worker_rss(painter)
        for i in range(charts):
            await painter.draw(every[i % len(every)])
        after, worker_after = rss_mb(), worker_rss(painter)
        painter.close()
        rows.append(
            [
                name,
                f"{before:.0f} → {after:.0f} MB ({after - before:+.1f})",
                f"{worker_before:.0f} → {worker_after:.0f} MB" if worker_before else "—",
            ]
        )
    return rows


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--charts", type=int, default=1000)
    parser.add_argument("--rolls", type=int, default=1000)
    args = parser.parse_args(argv)
    if args.quick:
        args.charts, args.rolls = 60, 200
    install(load())
    rss_at_start = rss_mb()
    rounds, starts = (10, 4) if args.quick else (30, 10)
    started, chart_modules = start_up(starts)
    out = [
        f"Pictures, {machine()}" + (" (--quick)" if args.quick else ""),
        "",
        f"Drawing one picture (median of {rounds}, in this process):",
        table(["picture", "wall", "CPU", "CPU, slowest"], draw_times(rounds)),
        "",
        f"/roll while {AT_ONCE} `/party chart`s (300 changes, 10 characters) are in flight"
        f" (p99 of {args.rolls} /rolls each way, in {BLOCKS} blocks of each in turn; the charts"
        " answered while the /rolls ran, their median time, and how often one was answered):",
        table(
            [
                "drawn in",
                "p99 at rest",
                f"p99, {AT_ONCE} charts",
                "ratio",
                "charts",
                "a chart",
                "a chart every",
            ],
            await loop_figures(args.rolls),
        ),
        "",
        f"Start-up: importing the client and every cog (median and best of {starts}, interleaved;"
        " matplotlib unimportable):",
        table(["", "median", "best"], started),
        f"(the chart modules' own import time, median: {chart_modules * 1000:.1f} ms)",
        "",
        f"Memory, {args.charts:,} pictures (fatigue, odds and monster in turn), after 3 to warm:",
        table(["drawn in", "this process's RSS", "the worker's RSS"], await memory(args.charts)),
        f"(this process held {rss_at_start:.0f} MB before any picture)",
    ]
    print("\n".join(out))


if __name__ == "__main__":
    asyncio.run(main())
