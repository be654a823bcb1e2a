"""What pictures cost: `python -m tests.benchmarks.pictures` prints, in one run,

1. the time to draw each picture for a 10-character party over a session of 300 changes (its
   median, wall and CPU: on a shared machine the CPU time is the steadier figure);
2. the p99 of `/roll` through the whole bot and the local Discord while 20 charts are asked for
   at once, beside its p99 at rest: drawing in a worker process and in a worker thread;
3. the bot's start-up (importing the client and every cog) with the chart code and without it
   (this checkout against `main`'s, unpacked from git), interleaved;
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
from pathlib import Path
from typing import Any

from bot.client import Tablekeeper
from bot.settings import Settings
from lang import install
from lang.catalogs import load
from pictures.examples import party, random_session, troll
from pictures.painter import Job, Painter, draw
from rules.saves import SaveKind
from store import Store
from table.fatigue_series import SINCE_ALL, FatigueSeries, Start, fatigue_series
from table.model import Table
from table.monster_view import monster_view
from table.odds_series import odds_series
from table.savecalc import DifficultyOptions, party_inputs
from tests.benchmarks._bots import forget, rss_mb
from tests.benchmarks._figures import machine, percentile, table
from tests.localdiscord.client import LocalDiscord
from tests.localdiscord.fixtures import running

REPO = Path(__file__).resolve().parents[2]
AT_ONCE = 20


def session_series() -> FatigueSeries:
    session = random_session(10, 300)
    return fatigue_series(session.table, session.newest_first(), Start(0), SINCE_ALL)


def jobs() -> dict[str, Job]:
    everyone = party_inputs(SaveKind.WSR, DifficultyOptions(vs=7), party(10))
    return {
        "fatigue (10 characters, 300 changes)": Job("fatigue", session_series(), None),
        "odds (a party of 10)": Job("odds", odds_series(everyone, 7), None),
        "monster": Job("monster", monster_view(troll(), show_hidden=True), None),
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
    async with LocalDiscord() as discord_:
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


async def roll_p99(discord_: LocalDiscord, rolls: int) -> float:
    times = []
    for _ in range(rolls):
        start = time.perf_counter()
        await discord_.slash("roll", user=discord_.player)
        times.append(time.perf_counter() - start)
    forget_quietly(discord_)
    return percentile(times, 99)


def forget_quietly(discord_: LocalDiscord) -> None:
    discord_.take_violations()
    with contextlib.suppress(AssertionError):
        forget(discord_)


async def under_charts(discord_: LocalDiscord, rolls: int) -> tuple[float, int]:
    """The p99 of /roll while AT_ONCE `/party chart`s are always in flight; charts answered."""
    done = 0
    stop = asyncio.Event()

    async def charting() -> None:
        nonlocal done
        while not stop.is_set():
            reply = await discord_.slash("party chart", user=discord_.player, since="all")
            done += bool(reply.files)

    tasks = [asyncio.create_task(charting()) for _ in range(AT_ONCE)]
    await asyncio.sleep(1.0)  # all of them under way
    p99 = await roll_p99(discord_, rolls)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    forget_quietly(discord_)
    return p99, done


async def loop_figures(rolls: int) -> list[list[str]]:
    rows = []
    for name, threads in (("worker process", False), ("worker thread", True)):
        painter = Painter(threads=threads)
        painter.warm()
        with tempfile.TemporaryDirectory() as folder:
            async with bot_with(painter, Path(folder)) as discord_:
                await roll_p99(discord_, 20)  # warm
                at_rest = await roll_p99(discord_, rolls)
                busy, charts = await under_charts(discord_, rolls)
        painter.close()
        rows.append(
            [
                name,
                f"{at_rest * 1000:.1f} ms",
                f"{busy * 1000:.1f} ms",
                f"{busy / at_rest:.2f}×",
                str(charts),
            ]
        )
    return rows


_START = (
    "import time; t = time.perf_counter(); import importlib; "
    "from bot.client import COGS, Tablekeeper; [importlib.import_module(c) for c in COGS]; "
    "print(time.perf_counter() - t)"
)


def start_up(runs: int) -> list[list[str]]:
    """Importing the client and every cog, this checkout against main's, interleaved."""
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(
            ["git", "-C", str(REPO), "archive", "main"], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
        trees = {"with the chart code": REPO, "without (main)": Path(folder)}
        times: dict[str, list[float]] = {name: [] for name in trees}
        for _ in range(runs):
            for name, tree in trees.items():
                out = subprocess.run(
                    [sys.executable, "-c", _START], cwd=tree, capture_output=True, text=True
                )
                times[name].append(float(out.stdout.strip().splitlines()[-1]))
    return [
        [name, f"{statistics.median(t) * 1000:.0f} ms", f"{min(t) * 1000:.0f} ms"]
        for name, t in times.items()
    ]


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
    parser.add_argument("--rolls", type=int, default=300)
    args = parser.parse_args(argv)
    if args.quick:
        args.charts, args.rolls = 60, 60
    install(load())
    rss_at_start = rss_mb()
    rounds, starts = (10, 4) if args.quick else (30, 10)
    out = [
        f"Pictures, {machine()}" + (" (--quick)" if args.quick else ""),
        "",
        f"Drawing one picture (median of {rounds}, in this process):",
        table(["picture", "wall", "CPU", "CPU, slowest"], draw_times(rounds)),
        "",
        f"/roll while {AT_ONCE} `/party chart`s (300 changes, 10 characters) are in flight:",
        table(
            ["drawn in", "p99 at rest", f"p99, {AT_ONCE} charts", "ratio", "charts shown"],
            await loop_figures(args.rolls),
        ),
        "",
        f"Start-up: importing the client and every cog (median and best of {starts}, interleaved):",
        table(["", "median", "best"], start_up(starts)),
        "",
        f"Memory, {args.charts:,} pictures (fatigue, odds and monster in turn), after 3 to warm:",
        table(["drawn in", "this process's RSS", "the worker's RSS"], await memory(args.charts)),
        f"(this process held {rss_at_start:.0f} MB before any picture)",
    ]
    print("\n".join(out))


if __name__ == "__main__":
    asyncio.run(main())
