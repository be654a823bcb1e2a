"""What pictures cost: `python -m tests.benchmarks.pictures` prints, in one run,

1. the time to draw each picture for a 10-character party over a session of 300 changes (its
   median, wall and CPU: on a shared machine the CPU time is the steadier figure);
2. the p99 of `/roll` while 20 `/party chart`s are always in flight, beside its p99 at rest,
   the same `/roll`s one after another (5 ms apart, so they span many charts' answers) either
   way (`--rolls` of each, in rounds of a block of each in turn). The bot runs as in
   production: `python -m bot` in a process of its own, its picture worker as it starts it,
   against the local Discord in this process, which sends the load (the local Discord's
   parse of each chart's upload is in this process, not the bot's). Also the CPU a chart
   takes in the bot's process and in this one. `--against DIR` runs, side by side, the bot
   of another checkout too (e.g. `git archive` of an earlier commit into DIR); `--profile
   DIR` has py-spy sample the bot and this process over the first block under charts;
   `--rolls-only` prints this part alone;
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
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from docs.examples import party, random_session, troll
from lang import install
from lang.catalogs import load
from pictures.painter import Job, Painter, draw
from rules.saves import SaveKind
from table.fatigue_series import SINCE_ALL, FatigueSeries, Start, fatigue_series
from table.monster_view import monster_view
from table.odds_series import odds_series
from table.savecalc import DifficultyOptions, party_inputs
from table.sight import GM_ALONE
from tests.benchmarks._bots import rss_mb
from tests.benchmarks._chart_load import AT_ONCE, BLOCKS, GAP, loop_figures, ways
from tests.benchmarks._figures import machine, table

REPO = Path(__file__).resolve().parents[2]


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
    return sum(rss_mb(pid) for pid in pool._processes or {})


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
    parser.add_argument("--rolls", type=int, default=4000)
    parser.add_argument("--rolls-only", action="store_true", help="only /roll under charts")
    parser.add_argument(
        "--against", action="append", type=Path, default=[], help="another checkout's bot beside"
    )
    parser.add_argument("--profile", type=Path, help="py-spy the bot over one block of charts")
    args = parser.parse_args(argv)
    if args.quick:
        args.charts, args.rolls = 60, 400
    install(load())
    under = [
        f"/roll while {AT_ONCE} `/party chart`s (300 changes, 10 characters) are always in"
        " flight, and at rest: each way's bot as `python -m bot` (its picture worker as in"
        " production), its local Discord and this load in this process; for each way"
        f" {args.rolls} /rolls at rest and as many under charts, one after another"
        f" {GAP * 1000:.0f} ms apart, in {BLOCKS} rounds of a block of each per way; the charts"
        " answered as the /rolls ran, their median time, how often one came, and the CPU"
        " a chart of the bot's process and of this one (under charts, less the /rolls' at"
        " rest):",
        table(
            [
                "the bot",
                "/roll p50 / p99 at rest",
                f"p50 / p99, {AT_ONCE} charts",
                "p99 ratio",
                "charts",
                "a chart",
                "a chart every",
                "bot CPU a chart",
                "here, a chart",
            ],
            await loop_figures(args.rolls, ways(args.against), args.profile),
        ),
    ]
    if args.rolls_only:
        print("\n".join(under))
        return
    rss_at_start = rss_mb()
    rounds, starts = (10, 4) if args.quick else (30, 10)
    started, chart_modules = start_up(starts)
    out = [
        f"Pictures, {machine()}" + (" (--quick)" if args.quick else ""),
        "",
        f"Drawing one picture (median of {rounds}, in this process):",
        table(["picture", "wall", "CPU", "CPU, slowest"], draw_times(rounds)),
        "",
        *under,
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
