"""`python -m tests.benchmarks.processes`: throughput with each bot in its own process.

Tablekeeper runs as `python -m bot`, the way an admin runs it: settings from the environment,
DISCORD_API_BASE pointing at a local Discord served by this benchmark process, and its own
start-up (gc.freeze included). The echo bot (`_bots.EchoBot`: the same client settings) runs as
`python -m tests.benchmarks.echo_bot`. Each bot has its own local Discord, both served by this
process: only one bot is under load at a time, so one process serving both costs no more than
two would, and one bot's records never slow the other's sends. This process (the local
Discords and the load) still shares the machine's cores with the bot it measures, but no
longer its event loop and GIL, as it does in `tests.benchmarks.commands --sections load`
(the in-process figures, whose latency ratios stay the reference).

For each database, a fresh one, seeded (the table's party at #table, Aria in 100 more
channels): SQLite with SQLITE_SYNCHRONOUS=full (the default: an acknowledged change survives a
power cut) and normal, and PostgreSQL (`TEST_POSTGRES_URL`, else a throwaway server with fsync
off), Tablekeeper is started on it and:
1. warm-up: `/fatigue spend` in every channel and `/echo`, every reply checked against
   Discord's OpenAPI description and for its words (an error reply stops the run);
2. saturation: `--load` × `/fatigue spend` with `--inflight` always waiting, spread over 100
   channels and on one channel, and `/echo` spread, interleaved in shuffled order for
   `--rounds` rounds: medians, and the CPU each process used;
3. Poisson arrivals at half the median spread rate: p50 and p99;
4. latency per command, as in `tests.benchmarks.commands --sections latency` (`--rounds-latency`
   shuffled rounds of each command and `/echo`, one at a time): medians and ratios to the echo
   bot, with each bot in its own process, as deployed (its own GC settings, its own core);
5. checks: every interaction answered once and rightly, the bot's /metrics counted each, and
   Aria's FP in the database add up to the spends sent.
`--before DIR` runs another checkout's bot beside this one (DIR: e.g. `git archive main | tar -x
-C DIR`; its code, its own database seeded by its own store, its own local Discord) in the same
rounds: its spends interleaved with this bot's and the echo bot's at saturation, at its own half
rate, and its commands shuffled in with this bot's one at a time, all against the one echo bot.
`--profile DIR` records the Tablekeeper process with py-spy (`pip install py-spy`) during the
saturation rounds and prints where its time went: sampling slows it, so profile in a run of its
own and take the figures from one without.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

from tests.benchmarks._bots import ECHO_TEXT, Pair, checked, extra_channels, forget
from tests.benchmarks._figures import duration, machine, orders, percentile, table
from tests.benchmarks._profile import profiled
from tests.benchmarks.commands import ECHO as ECHO_LABEL
from tests.benchmarks.commands import (
    LATENCY_COLUMNS,
    Send,
    latency,
    poisson,
    saturate,
    senders,
)
from tests.e2e.test_process import finish, output, process_env
from tests.e2e.test_shards_process import served, shard_processes
from tests.localdiscord.client import LocalDiscord
from tests.localdiscord.default_world import build_world
from tests.localdiscord.reply import Reply
from tests.localdiscord.world import Channel
from tests.pg import postgres_server

SPEND = "/fatigue spend"
SPENT = "Aria spends 1 FP"  # what every spend's reply says
SPREAD, ONE, ECHO = "100 channels", "1 channel", "echo"
BEFORE = "before"  # the name of `--before`'s bot: its runs are "before, 100 channels", …
WARM_UP = 100
STARTUP = 60.0
HERE = Path(__file__).resolve().parents[2]  # this checkout

# What the store of a checkout does for the benchmark, run with that checkout's code (its
# schema and its store): seed the table and the spread channels, or count Aria's FP in them.
STORE_WORKER = r"""
import asyncio, json, sys
from types import SimpleNamespace as Ns
from store import Store
from tests.benchmarks import _seed

url, task, world = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])

async def main():
    async with Store.open(url) as store:
        if task == "seed":
            d = Ns(table=Ns(id=world["table"], guild_id=world["guild"]), gm=Ns(id=world["gm"]),
                   player=Ns(id=world["player"]), player2=Ns(id=world["player2"]))
            await _seed.seed_table(store, d)
            await _seed.seed_channels(store, world["spread"], world["guild"], world["player"])
        else:
            channels = [world["table"], *world["spread"]]
            print(sum([(await store.read(c)).get("Aria").fatigue.fp for c in channels]))

asyncio.run(main())
"""


async def in_store(tree: Path, url: str, task: str, d: LocalDiscord, spread: list[Channel]) -> str:
    """STORE_WORKER's `task` ("seed" or "count") with `tree`'s code; what it printed."""
    world: dict[str, object] = {"table": d.table.id, "guild": d.table.guild_id, "gm": d.gm.id}
    world |= {"player": d.player.id, "player2": d.player2.id, "spread": [c.id for c in spread]}
    worker = await asyncio.create_subprocess_exec(
        *(sys.executable, "-c", STORE_WORKER, url, task, json.dumps(world)),
        env=process_env(PYTHONPATH=str(tree)),
        cwd=tree,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await worker.communicate()
    if worker.returncode != 0:
        raise SystemExit(f"the store of {tree} could not {task}:\n{err.decode()[-3000:]}")
    return out.decode()


@dataclass(frozen=True)
class Sizes:
    rounds: int
    load: int  # commands per saturation measurement
    arrivals: int  # commands at half rate


SIZES = {
    "quick": Sizes(3, 300, 300),
    "default": Sizes(3, 1_000, 1_000),
    "large": Sizes(5, 2_000, 2_000),
}


@dataclass
class Answers:
    """What one bot answered: how many, and any that was not the expected reply."""

    expected: str
    sent: int = 0
    wrong: list[str] = field(default_factory=list)

    def check(self, send: Send) -> Send:
        async def checked_send(i: int) -> object:
            reply = await send(i)
            self.sent += 1
            if not isinstance(reply, Reply) or reply.ephemeral or self.expected not in reply.text:
                self.wrong.append(reply.text if isinstance(reply, Reply) else repr(reply))
            return reply

        return checked_send

    def stop_if_wrong(self, where: str) -> None:
        if self.wrong:
            raise SystemExit(f"{where}: {len(self.wrong)} wrong replies, e.g. {self.wrong[0]!r}")


def machine_busy() -> float:
    """CPU seconds the whole machine has spent not idle, over all cores (from /proc/stat)."""
    with open("/proc/stat") as stat:
        ticks = [int(n) for n in stat.readline().split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")  # idle, iowait


def cpu_seconds(pid: int | None = None) -> float:
    """CPU time (user + system, every thread) of process `pid`, or of this one."""
    if pid is None:
        own = os.times()
        return own.user + own.system
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()  # after "pid (name)": state is field 3
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.asynccontextmanager
async def echo_process(d: LocalDiscord, tmp: Path) -> AsyncIterator[int]:
    """The echo bot's process against `d`, once it has registered `/echo`; yields its pid."""
    env = process_env(DISCORD_TOKEN=d.token, DISCORD_API_BASE=d.api_base)
    log = tmp / "echo"
    with log.with_suffix(".out").open("wb") as out, log.with_suffix(".err").open("wb") as err:
        process = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "tests.benchmarks.echo_bot"),
            env=env,
            cwd=tmp,
            stdout=out,
            stderr=err,
        )
    try:
        try:
            await d.wait_ready(timeout=STARTUP)
        except TimeoutError:
            raise SystemExit(f"the echo bot did not start:\n{output(log)[1][-3000:]}") from None
        yield process.pid
        process.send_signal(signal.SIGTERM)
        if await finish(process) != 0:
            raise SystemExit(f"the echo bot did not stop cleanly:\n{output(log)[1][-3000:]}")
    finally:
        await finish(process, timeout=1)


def runs_of(bot: str) -> tuple[str, str]:
    """The saturation runs of a bot ("" for this checkout's): over 100 channels, on one."""
    return (SPREAD, ONE) if not bot else (f"{bot}, {SPREAD}", f"{bot}, {ONE}")


@dataclass
class Figures:
    rates: dict[str, list[float]] = field(default_factory=dict)
    bot_cpu: dict[str, list[float]] = field(default_factory=dict)
    bench_cpu: dict[str, list[float]] = field(default_factory=dict)
    busy: dict[str, list[float]] = field(default_factory=dict)
    latencies: dict[str, list[float]] = field(default_factory=dict)  # by bot, at its half rate
    half: dict[str, float] = field(default_factory=dict)
    commands: list[list[str]] = field(default_factory=list)  # latency per command
    medians: dict[str, float] = field(default_factory=dict)  # of each command one at a time
    fsync: float | None = None  # one fsync on the SQLite database's disk, median
    checks: list[str] = field(default_factory=list)

    def rate(self, run: str) -> float:
        return statistics.median(self.rates[run])


async def saturation_rounds(
    runs: dict[str, tuple[Send, LocalDiscord, int]], sizes: Sizes, inflight: int, seed: int
) -> Figures:
    figures = Figures()
    for n, order in enumerate(orders(list(runs), sizes.rounds, seed), 1):
        for run in order:
            send, discord_, pid = runs[run]
            bot, bench, busy = cpu_seconds(pid), cpu_seconds(), machine_busy()
            rate = await saturate(send, sizes.load, inflight)
            wall = sizes.load / rate
            figures.busy.setdefault(run, []).append((machine_busy() - busy) / wall)
            figures.rates.setdefault(run, []).append(rate)
            figures.bot_cpu.setdefault(run, []).append((cpu_seconds(pid) - bot) / wall)
            figures.bench_cpu.setdefault(run, []).append((cpu_seconds() - bench) / wall)
            forget(discord_)
        done = ", ".join(f"{run} {figures.rates[run][-1]:,.0f}/s" for run in runs)
        print(f"    round {n}: {done}", flush=True)
    return figures


async def all_counted(port: int, sent: int) -> float:
    """The bot's own count of interactions finished, once it reaches `sent` (or after 5 s)."""
    deadline = time.monotonic() + 5
    while (count := await served(port)) < sent and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    return count


Case = tuple[str, str, dict[str, str]]  # label, DATABASE_URL, other settings


@dataclass
class Contender:
    """A Tablekeeper bot of the run: its name ("" for this checkout's), its code, its local
    Discord, its database, and what it answered."""

    name: str
    tree: Path
    discord: LocalDiscord
    url: str
    spread: list[Channel] = field(default_factory=list)
    answers: Answers = field(default_factory=lambda: Answers(SPENT))

    @property
    def label(self) -> str:
        return self.name or "this checkout"


def one_fsync(folder: Path, times: int = 200) -> float:
    """The median time of one fsync in `folder` (the database's disk), 4 KiB appended before
    each: what a commit under FULL waits for, which `/fatigue spend`'s budget allows."""
    taken = []
    with open(folder / "fsync-probe", "ab") as probe:
        for _ in range(times):
            probe.write(b"\0" * 4096)
            probe.flush()
            start = time.perf_counter()
            os.fsync(probe.fileno())
            taken.append(time.perf_counter() - start)
    return statistics.median(taken)


async def measure(
    echo_d: LocalDiscord,
    echo_pid: int,
    bots: list[Contender],
    case: Case,
    tmp: Path,
    args: argparse.Namespace,
) -> Figures:
    label, _url, settings = case
    sizes: Sizes = args.sizes
    echo = Answers(ECHO_TEXT)
    runs: dict[str, tuple[Send, LocalDiscord, int]] = {}
    async with contextlib.AsyncExitStack() as stack:
        started = {}
        for bot in bots:
            bot.spread = extra_channels(bot.discord, 100, "spread")
            await in_store(bot.tree, bot.url, "seed", bot.discord, bot.spread)
            own = tmp / (bot.name or "bot")
            own.mkdir()
            code = {**settings, "PYTHONPATH": str(bot.tree)}
            shards = shard_processes(
                bot.discord, bot.url, own, [None], shard_count=None, settings=code
            )
            (started[bot.name],) = await stack.enter_async_context(shards)
            p = Pair(echo_d, bot.discord)
            tk_spread, tk_one, echo_spread = senders(p, bot.spread)
            pid = started[bot.name].process.pid
            spread_run, one_run = runs_of(bot.name)
            runs[spread_run] = (bot.answers.check(tk_spread), bot.discord, pid)
            runs[one_run] = (bot.answers.check(tk_one), bot.discord, pid)
        runs[ECHO] = (echo.check(echo_spread), echo_d, echo_pid)
        for bot in bots:  # warm-up: every body against Discord's OpenAPI description
            checked(Pair(echo_d, bot.discord), True)
        for send, discord_, _ in runs.values():
            await saturate(send, WARM_UP, args.inflight)
            forget(discord_)
        for bot in bots:
            checked(Pair(echo_d, bot.discord), False)
            bot.answers.stop_if_wrong(f"warm-up, {bot.label}")
        echo.stop_if_wrong("warm-up, echo bot")
        async with profiled(args.profile, label, started[""].process.pid):
            figures = await saturation_rounds(runs, sizes, args.inflight, args.seed)
        for bot in bots:
            spread_run = runs_of(bot.name)[0]
            figures.half[bot.name] = half = figures.rate(spread_run) / 2
            sent = runs[spread_run][0]
            figures.latencies[bot.name] = await poisson(sent, sizes.arrivals, half, args.seed)
            forget(bot.discord)
        counted = {
            bot.name: await all_counted(started[bot.name].port, bot.answers.sent) for bot in bots
        }
        fp = {  # the bot running: a second connection
            bot.name: int(await in_store(bot.tree, bot.url, "count", bot.discord, bot.spread))
            for bot in bots
        }
        if args.latency_rounds:  # after the counts: its spends are not the load's
            pairs = {bot.name: Pair(echo_d, bot.discord) for bot in bots}
            figures.commands = await latency(pairs, args.latency_rounds, args.seed, figures.medians)
            if label.startswith("SQLite"):
                figures.fsync = one_fsync(tmp)
            for bot in bots:
                forget(bot.discord)
            forget(echo_d)
    for bot in bots:
        bot.answers.stop_if_wrong(bot.label)
        checks = (
            f"{bot.answers.sent:,} spends answered rightly, {counted[bot.name]:,.0f} counted by"
            f" the bot, {fp[bot.name]:,} FP in the database"
        )
        if not bot.answers.sent == counted[bot.name] == fp[bot.name]:
            raise SystemExit(f"{bot.label}: lost or doubled: {checks}")
        figures.checks.append(f"{bot.label}: {checks}")
    echo.stop_if_wrong("echo bot")
    figures.checks.append(f"{echo.sent:,} echoes")
    return figures


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="tk-bench-") as tmp:
        await run_cases(args, Path(tmp))


async def run_cases(args: argparse.Namespace, tmp: Path) -> None:
    sizes: Sizes = args.sizes
    cases: list[Case] = [
        ("SQLite FULL", f"sqlite:///{tmp / 'full.db'}", {"SQLITE_SYNCHRONOUS": "full"}),
        ("SQLite NORMAL", f"sqlite:///{tmp / 'normal.db'}", {"SQLITE_SYNCHRONOUS": "normal"}),
    ]
    trees = {"": HERE} | ({BEFORE: args.before.resolve()} if args.before else {})
    results: dict[str, Figures] = {}
    with contextlib.ExitStack() as stack:
        server = None if args.no_postgres else stack.enter_context(postgres_server())
        if server is not None:
            cases.append(("PostgreSQL", "", {}))
        async with contextlib.AsyncExitStack() as discords:
            echo_d = await discords.enter_async_context(LocalDiscord(build_world()))
            own = {name: await discords.enter_async_context(LocalDiscord()) for name in trees}
            for d in (echo_d, *own.values()):
                d.server.deadline = 30.0  # count at saturation, not fail
                d.timeout = 60.0
            async with echo_process(echo_d, tmp) as echo_pid:
                for case in cases:
                    label, url, _ = case
                    if args.only and label not in args.only:
                        continue
                    print(f"  {label}", flush=True)
                    folder = tmp / label.replace(" ", "-")
                    folder.mkdir()
                    bots = []
                    for name, tree in trees.items():
                        if server is not None and label == "PostgreSQL":
                            where = stack.enter_context(server.database())
                        else:
                            where = url.replace(".db", f"-{name}.db") if name else url
                        bots.append(Contender(name, tree, own[name], where))
                    results[label] = await measure(echo_d, echo_pid, bots, case, folder, args)
                    for line in results[label].checks:
                        print(f"    checks: {line}", flush=True)
    report(results, sizes, args.inflight)


def report(results: dict[str, Figures], sizes: Sizes, inflight: int) -> None:
    print(
        f"\n1. Throughput at saturation, each bot its own process: {sizes.load:,} × {SPEND},"
        f" {inflight} in flight; medians of {sizes.rounds} interleaved rounds"
    )
    rows = []
    for label, f in results.items():
        echo = f.rate(ECHO)
        for bot in f.half:
            spread, one = (f.rate(run) for run in runs_of(bot))
            rows.append(
                [
                    f"{label}, {bot}" if bot else label,
                    f"{spread:,.0f}/s",
                    f"{one:,.0f}/s",
                    f"{one / spread:.0%}",
                    f"{echo:,.0f}/s",
                    f"{spread / echo:.0%}",
                ]
            )
    print(table(["database", "100 channels", "1 channel", "1 ÷ 100", "echo", "100 ÷ echo"], rows))
    print("\n2. CPU during saturation, in cores (medians): the bot measured, this process")
    print("   (the local Discords and the load) and the whole machine; the bot's CPU per")
    print("   command, and the rate that gives on a core of its own (steadier than the rates")
    print("   when others share the machine; the bot's Python runs on one core at a time)")
    rows = []
    for label, f in results.items():
        for run in f.rates:
            cores = statistics.median(f.bot_cpu[run])
            per = cores / f.rate(run)
            cells = [f"{cores:.2f}", f"{per * 1000:.2f} ms", f"{1 / per:,.0f}/s"]
            cells += [f"{statistics.median(f.bench_cpu[run]):.2f}"]
            rows.append([f"{label}, {run}", *cells, f"{statistics.median(f.busy[run]):.2f}"])
    heads = ["run", "bot", "bot CPU / cmd", "on its own core", "benchmark", "machine"]
    print(table(heads, rows))
    print(f"\n3. At half the saturation rate (100 channels), Poisson arrivals, {sizes.arrivals:,}")
    rows = [
        [
            f"{label}, {bot}" if bot else label,
            f"{half:,.0f}/s",
            duration(percentile(f.latencies[bot], 50)),
            duration(percentile(f.latencies[bot], 99)),
        ]
        for label, f in results.items()
        for bot, half in f.half.items()
    ]
    print(table(["database", "rate", "p50", "p99"], rows))
    for label, f in results.items():
        if f.commands:
            print(f"\n4. Latency per command, {label}, one at a time, shuffled rounds")
            print(table(LATENCY_COLUMNS, f.commands))
            if f.fsync is not None and SPEND in f.medians:
                echo = f.medians[ECHO_LABEL]
                budget = 2 * echo + f.fsync
                spends = ", ".join(
                    f"{label} {median / echo:.2f}×"
                    for label, median in f.medians.items()
                    if label.endswith(SPEND)
                )
                print(
                    f"   One fsync on the database's disk: {duration(f.fsync)} (median of 200)."
                    f"\n   /fatigue spend's budget, 2.0 × echo + one fsync: {duration(budget)},"
                    f" {budget / echo:.2f}× echo; the medians: {spends}"
                )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="300 commands a measurement")
    size.add_argument("--large", action="store_true", help="2,000 commands, 5 rounds")
    parser.add_argument("--rounds", type=int, help="saturation rounds (default by size)")
    parser.add_argument("--inflight", type=int, default=32, help="concurrent users at saturation")
    parser.add_argument(
        "--rounds-latency",
        dest="latency_rounds",
        type=int,
        default=200,
        metavar="N",
        help="rounds of each command one at a time (0: skip)",
    )
    parser.add_argument("--seed", type=int, default=20240)
    parser.add_argument("--no-postgres", action="store_true", help="skip PostgreSQL")
    parser.add_argument("--only", help="comma-separated: SQLite FULL, SQLite NORMAL, PostgreSQL")
    parser.add_argument("--profile", type=Path, metavar="DIR", help="py-spy the bot into DIR")
    parser.add_argument("--before", type=Path, metavar="DIR", help="another checkout beside")
    args = parser.parse_args()
    args.only = set(args.only.split(",")) if args.only else set()
    sizes = SIZES["quick" if args.quick else "large" if args.large else "default"]
    if args.rounds:
        sizes = Sizes(args.rounds, sizes.load, sizes.arrivals)
    args.sizes = sizes
    print("Tablekeeper and an echo bot, each in its own process, through local Discords")
    print(f"{machine()}, {os.cpu_count()} cores; {sizes}")
    started = time.perf_counter()
    asyncio.run(run(args))
    print(f"\n(the whole run took {duration(time.perf_counter() - started)})")


if __name__ == "__main__":
    main()
