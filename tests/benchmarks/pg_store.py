"""`python -m tests.benchmarks.pg_store --before DIR`: the Store on PostgreSQL, two versions of
the code side by side (DIR: another checkout, e.g. `git archive main | tar -x -C DIR`).

One throwaway PostgreSQL server; each round runs one worker process per version (in turn,
the order alternating), each on a fresh database of its own, importing `bot` from its own tree.
A worker times, interleaved, `read()` of a channel with 10 characters and 2 monsters, a page
of `history()`, and `apply()` of a fatigue spend on one character (sequential). What differs
between the versions is mostly round trips: on loopback each costs tens of microseconds, over
a network a millisecond or more, so the saving grows with the distance to the server.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]

WORKER = r"""
import asyncio, dataclasses, json, sys, time
from bot.store import Store
from rules.fatigue import FatigueState
from table.model import Character, Monster

URL, N = sys.argv[1], int(sys.argv[2])
CHANNEL, GUILD, GM = 11, 22, 33

def spend(table):
    ana = next(c for c in table.characters if c.name == "Ana 0")
    fatigue = dataclasses.replace(ana.fatigue, fp=(ana.fatigue.fp + 1) % 5)
    return table.with_character(dataclasses.replace(ana, fatigue=fatigue)), None

async def main():
    async with Store.open(URL) as store:
        def seed(t):
            for i in range(10):
                t = t.with_character(Character(f"Ana {i}", owner_id=GM, level=3,
                                               fatigue=FatigueState(fp=0)))
            for name in ("Imp", "Troll"):
                t = t.with_monster(Monster(name, {"rank": 0, "armor": "light"}))
            return t, None
        await store.apply(CHANNEL, GUILD, GM, "seed", seed)
        cases = {
            "read (10 characters, 2 monsters)": lambda: store.read(CHANNEL, GUILD),
            "history (a page of 10)": lambda: store.history(CHANNEL),
            "apply (fatigue spend)": lambda: store.apply(CHANNEL, GUILD, GM, "spend", spend),
        }
        for call in cases.values():  # asyncpg prepares each statement once per connection
            for _ in range(3):
                await call()
        times = {name: [] for name in cases}
        for _ in range(N):
            for name, call in cases.items():
                start = time.perf_counter()
                await call()
                times[name].append(time.perf_counter() - start)
        print(json.dumps(times))

asyncio.run(main())
"""


def run_worker(tree: Path, url: str, n: int) -> dict[str, list[float]]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, "-c", WORKER, url, str(n)],
        env=env,
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    )
    times: dict[str, list[float]] = json.loads(out.stdout)
    return times


def fmt(seconds: float) -> str:
    return f"{seconds * 1e6:,.0f} µs" if seconds < 1e-2 else f"{seconds * 1e3:,.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--before", type=Path, required=True, help="the other checkout")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--ops", type=int, default=200, help="operations per case per round")
    args = parser.parse_args()

    from tests.pg import postgres_server

    trees = {"before": args.before.resolve(), "after": HERE}
    medians: dict[str, dict[str, list[float]]] = {v: {} for v in trees}
    with postgres_server() as server:
        for round_no in range(args.rounds):
            order = list(trees) if round_no % 2 == 0 else list(reversed(trees))
            for version in order:
                with server.database() as url:
                    for case, times in run_worker(trees[version], url, args.ops).items():
                        medians[version].setdefault(case, []).append(statistics.median(times))
    print(f"Store on PostgreSQL (loopback), {args.rounds} interleaved rounds × {args.ops} ops")
    print("median of per-round medians; ratio: median of per-round after ÷ before")
    print(f"{'case':34}  {'before':>9}  {'after':>9}  {'after ÷ before':>14}")
    print(f"{'-' * 34}  {'-' * 9}  {'-' * 9}  {'-' * 14}")
    for case, before in medians["before"].items():
        after = medians["after"][case]
        ratio = statistics.median(a / b for a, b in zip(after, before, strict=True))
        b, a = fmt(statistics.median(before)), fmt(statistics.median(after))
        print(f"{case:34}  {b:>9}  {a:>9}  {ratio:>13.2f}×")


if __name__ == "__main__":
    main()
