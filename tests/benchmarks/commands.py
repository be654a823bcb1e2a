"""`python -m tests.benchmarks.commands`: Tablekeeper against an echo bot, through local Discords.

Every figure comes from real interactions: the local Discord dispatches INTERACTION_CREATE over
its gateway and times until the bot's answer has arrived by REST. The echo bot (a minimal
discord.py bot with the same client settings, answering `/echo` with a fixed text) runs in the
same process, on its own local Discord, interleaved with Tablekeeper: its figures are the cost of
discord.py and the transport alone, and each ratio divides by the echo bot's of the same run.

Sections (`--sections` picks some; `--quick` shrinks them all, `--large` grows them):
1. rss (first, on a fresh process): RSS of the whole process (both bots and both local
   Discords) at start, idle with Tablekeeper up, and after a command in each of 10,000 channels.
2. latency: each command's median and p99, and ratio to `/echo`, in shuffled rounds; with the
   range the ratio falls in 95% of the time had other rounds been drawn (a bootstrap over them:
   the scatter within this run; runs minutes apart drift by more on a shared machine).
3. load: throughput at saturation, `/fatigue spend` from `--inflight` concurrent users, spread
   over 100 channels and on one channel, on SQLite (synchronous NORMAL and FULL) and PostgreSQL,
   all in this one process: the bots share its event loop and GIL with the local Discords and
   the load (`tests.benchmarks.processes` runs each bot in its own process, as deployed);
4. (also load) latency at half the spread saturation rate, Poisson arrivals: p50 and p99.
5. growth: the table's commands with 10 → 100,000 characters stored; `/undo` (the player's own
   last change, under every later one; the GM's latest), `/redo` (the player's own undos, newest
   first) and `/history` with 10 → 50,000 events.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path

from tests.benchmarks import _seed
from tests.benchmarks._bots import Pair, checked, extra_channels, forget, pair, rss_mb, use
from tests.benchmarks._figures import duration, machine, orders, percentile, ratio_range, table
from tests.e2e.conftest import Env
from tests.localdiscord.world import Channel, User

# (label, command line, who types it): the list.
COMMANDS = (
    ("/roll", "/roll", "player"),
    ("/save level:5 vs:7", "/save wsr level:5 vs:7", "player"),
    ("/save (stored character)", "/save wsr vs:7", "player"),
    ("/party show", "/party show", "player"),
    ("/history", "/history", "player"),
    ("/fatigue spend", "/fatigue spend", "player"),
    ("/monster hit", "/monster hit name:Troll damage:1", "gm"),
)
ECHO = "/echo (baseline)"
SPEND = "/fatigue spend"


@dataclass(frozen=True)
class Sizes:
    rounds: int  # latency rounds
    load: int  # commands per saturation measurement
    arrivals: int  # commands at half rate
    chars: tuple[int, ...]  # characters stored, for growth
    events: tuple[int, ...]  # events in the channel, for growth
    samples: int  # per growth point
    channels: int  # for RSS


SIZES = {
    "quick": Sizes(40, 200, 200, (10, 10_000), (10, 5_000), 3, 1_000),
    "default": Sizes(150, 600, 600, (10, 1_000, 100_000), (10, 1_000, 10_000, 50_000), 9, 10_000),
    "large": Sizes(
        400, 2_000, 2_000, (10, 10_000, 100_000), (10, 1_000, 10_000, 50_000), 10, 10_000
    ),
}

Send = Callable[[int], Awaitable[object]]


def who(p: Pair, name: str) -> User:
    return p.tk.gm if name == "gm" else p.tk.player


LATENCY_COLUMNS = ["command", "median", "p99", "÷ echo", "95% range"]  # `latency`'s rows


async def latency(
    bots: dict[str, Pair], rounds: int, seed: int, medians: dict[str, float] | None = None
) -> list[list[str]]:
    """Each command one at a time, in shuffled rounds with the echo bot's `/echo`, for each
    bot (keyed by its name, "" for this checkout's, which prefixes its commands' labels);
    all the pairs share one echo bot. `medians` is given each label's median, in seconds."""
    parsed = {
        (f"{name}: {label}" if name else label, name): (p.parse(line), who(p, user))
        for name, p in bots.items()
        for label, line, user in COMMANDS
    }
    for (label, name), (cmd, user) in parsed.items():  # warm up, and never time an error
        reply = await bots[name].tk_once(cmd, user, learn=True)
        if reply.ephemeral:
            raise SystemExit(f"{label} answered with an error: {reply.text}")
    echo = next(iter(bots.values()))
    await echo.echo_once()
    for p in bots.values():
        checked(p, False)
    named = {label: name for label, name in parsed}
    samples: dict[str, list[float]] = {label: [] for label in [*named, ECHO]}
    for order in orders(list(samples), rounds, seed):
        for label in order:
            start = time.perf_counter()
            if label == ECHO:
                await echo.echo_once()
            else:
                await bots[named[label]].tk_once(*parsed[label, named[label]])
            samples[label].append(time.perf_counter() - start)
        for p in bots.values():  # the local Discord looks through its records on every send:
            forget(p.tk)  # keep it as light for one bot as for the other
        forget(echo.echo)
    base = statistics.median(samples[ECHO])
    rows = []
    for label, values in samples.items():
        median = statistics.median(values)
        if medians is not None:
            medians[label] = median
        low, high = ratio_range(values, samples[ECHO], seed=seed)
        rows.append(
            [
                label,
                duration(median),
                duration(percentile(values, 99)),
                f"{median / base:.2f}×",
                f"{low:.2f}–{high:.2f}×",
            ]
        )
    return rows


async def saturate(send: Send, count: int, inflight: int) -> float:
    """`count` sends with `inflight` always waiting: operations per second."""
    queue = iter(range(count))

    async def user() -> None:
        for i in queue:
            await send(i)

    start = time.perf_counter()
    await asyncio.gather(*(user() for _ in range(inflight)))
    return count / (time.perf_counter() - start)


async def poisson(send: Send, count: int, rate: float, seed: int) -> list[float]:
    """`count` sends arriving at `rate` per second on average (exponential gaps); latencies."""
    rng = random.Random(seed)
    latencies: list[float] = []

    async def one(i: int) -> None:
        start = time.perf_counter()
        await send(i)
        latencies.append(time.perf_counter() - start)

    tasks = []
    due = time.perf_counter()
    for i in range(count):
        due += rng.expovariate(rate)
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        tasks.append(asyncio.create_task(one(i)))
    await asyncio.gather(*tasks)
    return latencies


def senders(p: Pair, spread: list[Channel]) -> tuple[Send, Send, Send]:
    """Tablekeeper's `/fatigue spend` over the spread channels and on #table; `/echo` spread."""
    cmd = p.parse("/fatigue spend")
    player = p.tk.player

    async def tk_spread(i: int) -> object:
        return await p.tk.slash(cmd[0], user=player, channel=spread[i % len(spread)])

    async def tk_one(i: int) -> object:
        return await p.tk.slash(cmd[0], user=player)

    async def echo_spread(i: int) -> object:
        return await p.echo.slash("echo", user=p.echo.player, channel=spread_echo[i % 100])

    spread_echo = extra_channels(p.echo, 100, "spread")
    return tk_spread, tk_one, echo_spread


async def load(
    p: Pair, env: Env, label: str, count: int, inflight: int, arrivals: int, seed: int
) -> tuple[list[str], list[str]]:
    spread = extra_channels(p.tk, 100, "spread")
    await _seed.seed_channels(env.store, [c.id for c in spread], p.tk.guild.id, p.tk.player.id)
    tk_spread, tk_one, echo_spread = senders(p, spread)
    use(p.tk)
    await saturate(tk_spread, min(count, 100), inflight)  # warm up
    await p.echo_once()
    checked(p, False)
    rates = {}
    for name, send, discord_ in (
        ("spread", tk_spread, p.tk),
        ("one", tk_one, p.tk),
        ("echo", echo_spread, p.echo),
    ):
        use(discord_)
        rates[name] = await saturate(send, count, inflight)
        forget(discord_)
    use(p.tk)
    half = rates["spread"] / 2
    latencies = await poisson(tk_spread, arrivals, half, seed)
    forget(p.tk)
    throughput = [
        label,
        f"{rates['spread']:,.0f}/s",
        f"{rates['one']:,.0f}/s",
        f"{rates['one'] / rates['spread']:.0%}",
        f"{rates['echo']:,.0f}/s",
    ]
    at_half = [
        label,
        f"{half:,.0f}/s",
        duration(percentile(latencies, 50)),
        duration(percentile(latencies, 99)),
    ]
    return throughput, at_half


async def timed(send: Callable[[], Awaitable[object]], samples: int) -> float:
    values = []
    for _ in range(samples):
        start = time.perf_counter()
        await send()
        values.append(time.perf_counter() - start)
    return statistics.median(values)


async def growth(p: Pair, tmp: Path, sizes: Sizes) -> list[list[str]]:
    rows = []
    samples = sizes.samples
    async with p.tablekeeper(f"sqlite:///{tmp / 'commands.db'}"):  # registers the commands
        spend, show, history, undo, redo = (
            p.parse(line)
            for line in ("/fatigue spend", "/party show", "/history", "/undo", "/redo")
        )
    for n in sizes.chars:
        path = tmp / f"chars-{n}.db"
        await _seed.seed_characters(path, p.tk, n)
        # NORMAL: the lookups are timed, not the disk's sync
        async with p.tablekeeper(f"sqlite:///{path}", "normal"):
            for warm in (spend, show):
                await p.tk_once(warm, p.tk.player)
            checked(p, False)
            s = await timed(lambda: p.tk_once(spend, p.tk.player), samples * 4)
            v = await timed(lambda: p.tk_once(show, p.tk.player), samples * 4)
        rows.append(
            [f"{n:,} characters", duration(s), duration(v), "", "", "", "", f"{rss_mb():.0f} MB"]
        )
    for n in sizes.events:
        path = tmp / f"events-{n}.db"
        await _seed.seed_events(path, p.tk, samples + 2, n)
        opened = time.perf_counter()
        async with p.tablekeeper(f"sqlite:///{path}", "normal"):  # the lookups timed
            opened = time.perf_counter() - opened
            await _seed.keep_all_history(path, p.tk.table.id)
            await p.tk_once(history, p.tk.player)
            checked(p, False)
            h = await timed(lambda: p.tk_once(history, p.tk.player), samples)
            mine = await timed(lambda: p.tk_once(undo, p.tk.player), samples)
            gms = await timed(lambda: p.tk_once(undo, p.tk.gm), samples)
            check = await p.tk_once(undo, p.tk.player)
            if check.ephemeral:
                raise SystemExit(f"/undo at {n} events answered with an error: {check.text}")
            back = await timed(lambda: p.tk_once(redo, p.tk.player), samples)
            check = await p.tk_once(redo, p.tk.player)
            if check.ephemeral:
                raise SystemExit(f"/redo at {n} events answered with an error: {check.text}")
        rss = f"{rss_mb():.0f} MB"
        times = (h, mine, gms, back)
        rows.append([f"{n:,} events", "", "", *(duration(t) for t in times), rss])
        print(f"  ({n:,} events: the bot started in {duration(opened)}, migrations included)")
    return rows


async def memory(p: Pair, tmp: Path, channels: int, inflight: int) -> list[str]:
    path = tmp / "rss.db"
    where = extra_channels(p.tk, channels, "rss")
    raw = await _seed.raw_database(path)
    for c in where:
        await raw.channel(c.id, p.tk.guild.id)
        await raw.characters(c.id, [_seed.aria(p.tk.player.id)])
    await _seed.finish(raw)
    async with p.tablekeeper(f"sqlite:///{path}"):
        checked(p, False)
        idle = rss_mb()
        spend = p.parse("/fatigue spend")

        done = 0

        async def send(i: int) -> object:
            return await p.tk.slash(spend[0], user=p.tk.player, channel=where[done + i])

        while done < channels:
            batch = min(1000, channels - done)
            await saturate(send, batch, inflight)
            forget(p.tk)
            done += batch
        held = rss_mb()
    return [f"{idle:.0f} MB", f"{held:.0f} MB", f"{channels:,}"]


def settle(args: argparse.Namespace) -> None:
    """`--gc-freeze`: what start-up made (modules, the command tree, the seeded table) moves
    out of the collector's generations, so later collections no longer walk it."""
    if args.gc_freeze:
        gc.collect()
        gc.freeze()


async def run_load(p: Pair, tmp: Path, args: argparse.Namespace, sizes: Sizes) -> None:
    urls = [
        ("SQLite NORMAL", f"sqlite:///{tmp / 'load-normal.db'}", "normal"),
        ("SQLite FULL", f"sqlite:///{tmp / 'load-full.db'}", "full"),
    ]
    with ExitStack() as stack:
        if not args.no_postgres:
            from tests.pg import postgres_server

            server = stack.enter_context(postgres_server())
            urls.append(("PostgreSQL", stack.enter_context(server.database()), "full"))
        through, half = [], []
        for label, url, mode in urls:
            async with p.tablekeeper(url, mode) as env:
                await _seed.seed_table(env.store, p.tk)
                settle(args)
                t, h = await load(
                    p, env, label, sizes.load, args.inflight, sizes.arrivals, args.seed
                )
                through.append(t)
                half.append(h)
    print(
        f"\n3. Throughput at saturation, all in this one process: {sizes.load} × {SPEND},"
        f" {args.inflight} in flight (each bot in its own process: tests.benchmarks.processes)"
    )
    print(table(["database", "100 channels", "1 channel", "1 ÷ 100", "echo"], through))
    print(f"\n4. At half the saturation rate (spread), Poisson arrivals, {sizes.arrivals} commands")
    print(table(["database", "rate", "p50", "p99"], half))


async def run(args: argparse.Namespace, sizes: Sizes) -> None:
    with tempfile.TemporaryDirectory(prefix="tk-bench-") as tmp_name:
        tmp = Path(tmp_name)
        async with pair() as p:
            idle_rss = rss_mb()
            if "rss" in args.sections:
                row = await memory(p, tmp, sizes.channels, args.inflight)
                print("\n1. Memory (RSS of the whole process: both bots, both local Discords)")
                heads = ["at start", "idle, 1 table", "after", "channels"]
                print(table(heads, [[f"{idle_rss:.0f} MB", *row]]))
            if "latency" in args.sections:
                async with p.tablekeeper(f"sqlite:///{tmp / 'main.db'}") as env:
                    await _seed.seed_table(env.store, p.tk)
                    settle(args)
                    rows = await latency({"": p}, sizes.rounds, args.seed)
                print(f"\n2. Latency per command, SQLite, {sizes.rounds} shuffled rounds")
                print(table(LATENCY_COLUMNS, rows))
            if "load" in args.sections:
                await run_load(p, tmp, args, sizes)
            if "growth" in args.sections:
                print("\n5. Growth (SQLite, synchronous NORMAL: lookups, no sync noise; medians)")
                rows = await growth(p, tmp, sizes)
                heads = ["stored", SPEND, "/party show", "/history", "/undo (player)", "/undo (GM)"]
                heads += ["/redo (player)", "RSS after"]
                print(table(heads, rows))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="smaller sizes: well under a minute")
    size.add_argument("--large", action="store_true", help="larger sizes and more rounds")
    parser.add_argument("--rounds", type=int, help="latency rounds (default by size)")
    parser.add_argument("--inflight", type=int, default=32, help="concurrent users at saturation")
    parser.add_argument("--seed", type=int, default=20240)
    parser.add_argument("--no-postgres", action="store_true", help="skip PostgreSQL")
    parser.add_argument(
        "--gc-freeze", action="store_true", help="gc.freeze() once the bot is up and seeded"
    )
    parser.add_argument(
        "--sections",
        default="latency,load,growth,rss",
        help="comma-separated: latency, load, growth, rss",
    )
    args = parser.parse_args()
    args.sections = set(args.sections.split(","))
    sizes = SIZES["quick" if args.quick else "large" if args.large else "default"]
    if args.rounds:
        sizes = replace(sizes, rounds=args.rounds)
    print("Tablekeeper against an echo bot, through local Discords on loopback")
    print(f"{machine()}; {sizes}")
    started = time.perf_counter()
    asyncio.run(run(args, sizes))
    print(f"\n(the whole run took {duration(time.perf_counter() - started)})")


if __name__ == "__main__":
    main()
