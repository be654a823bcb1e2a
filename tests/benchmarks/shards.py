"""`python -m tests.benchmarks.shards`: throughput of one bot process against two, on PostgreSQL.

Both setups run `python -m bot` as separate processes with SHARD_COUNT=2 against a sharded local
Discord: one process running shards 0 and 1, or two processes with SHARD_IDS=0 and 1. The
interactions are `/fatigue spend` over many guilds (half on each shard), `--concurrency` in
flight at a time; each setup gets a fresh database, and they alternate for `--rounds` rounds.
Everything (PostgreSQL, the local Discord, the bots) shares this machine's cores, so the figure
is what a second process buys here, not on a real deployment.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from store import Store
from tests.benchmarks._figures import duration, machine, ratio, summarize, table
from tests.e2e.test_shards_process import seat_aria, shard_processes, tables, world_over_shards
from tests.localdiscord.client import LocalDiscord
from tests.localdiscord.world import Guild
from tests.pg import postgres_server

SETUPS: dict[str, list[str | None]] = {"one process": [None], "two processes": ["0", "1"]}


async def burst(d: LocalDiscord, guilds: list[Guild], total: int, concurrency: int) -> list[float]:
    """`total` spends spread over the guilds, `concurrency` at a time; each one's seconds."""
    gate = asyncio.Semaphore(concurrency)
    samples: list[float] = []

    async def one(n: int) -> None:
        guild = guilds[n % len(guilds)]
        async with gate:
            start = time.perf_counter()
            reply = await d.slash("fatigue spend", user=d.player, channel=guild.channels[0])
            samples.append(time.perf_counter() - start)
        if reply.ephemeral:
            raise SystemExit(f"/fatigue spend answered with an error: {reply.text}")

    await asyncio.gather(*(one(n) for n in range(total)))
    return samples


async def measure(
    d: LocalDiscord, url: str, tmp: Path, shard_ids: list[str | None], total: int, concurrency: int
) -> tuple[float, list[float]]:
    guilds = tables(d.world)
    async with shard_processes(d, url, tmp, shard_ids):
        await seat_aria(d, guilds, fatigue_level=1000)
        await burst(d, guilds, len(guilds), concurrency)  # warm up: every table once
        start = time.perf_counter()
        samples = await burst(d, guilds, total, concurrency)
        wall = time.perf_counter() - start
    async with Store.open(url) as store:  # every spend landed, or the figure timed errors
        fp = [(await store.read(g.channels[0].id)).get("Aria").fatigue.fp for g in guilds]
    if sum(fp) != total + len(guilds):
        raise SystemExit(f"spends lost: {sum(fp)} FP for {total + len(guilds)} spends")
    return wall, samples


async def run(args: argparse.Namespace) -> dict[str, list[tuple[float, list[float]]]]:
    results: dict[str, list[tuple[float, list[float]]]] = {name: [] for name in SETUPS}
    world = world_over_shards(per_shard=args.guilds // 2)
    with postgres_server() as server, tempfile.TemporaryDirectory(prefix="tk-bench-") as tmp:
        async with LocalDiscord(world, shard_count=2, timeout=30.0) as d:
            for _ in range(args.rounds):
                for name, shard_ids in SETUPS.items():
                    with server.database() as url:
                        results[name].append(
                            await measure(
                                d, url, Path(tmp), shard_ids, args.interactions, args.concurrency
                            )
                        )
            d.assert_clean()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--interactions", type=int, default=400)
    parser.add_argument("--guilds", type=int, default=16)
    parser.add_argument("--concurrency", type=int, default=32)
    args = parser.parse_args()
    results = asyncio.run(run(args))

    print(
        f"/fatigue spend over {args.guilds} guilds on 2 shards, PostgreSQL, {args.interactions}"
        f" interactions per run, {args.concurrency} in flight, {args.rounds} rounds"
    )
    print(machine())
    rows = []
    rates = {}
    for name, runs in results.items():
        rates[name] = sorted(args.interactions / wall for wall, _ in runs)[len(runs) // 2]
        latency = summarize([s for _, samples in runs for s in samples])
        rows.append([name, f"{rates[name]:.0f}/s", duration(latency.median), duration(latency.p95)])
    print(table(["setup", "throughput (median run)", "latency median", "p95"], rows))
    print(f"two ÷ one: {ratio(rates['two processes'] / rates['one process'])}")


if __name__ == "__main__":
    main()
