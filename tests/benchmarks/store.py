"""`python -m tests.benchmarks.store`: `store.Store` on a real SQLite file, against bare SQL.

Each round runs every case once, in a shuffled order, on one database file in a temp dir:
- `apply()` of a fatigue spend (`table.partyops.spend`) on one character, one after another;
  from 20 concurrent coroutines on one channel; and from 20 coroutines on 20 channels;
- `read()` of a channel with 1, 10 and 50 characters, and `history()` of its newest page: as
  they come (each row decoded once, `store.codec`, `store.event_log`), and decoded afresh (those
  functools caches emptied before each: what they save).
Then the cost of durability: the sequential spend on two more files, one with the default
`synchronous=FULL` (a commit that returned survives a power cut) and one with NORMAL
(`SQLITE_SYNCHRONOUS=normal`: survives a killed process only), interleaved, side by side.
Last, many channels in play at once: 100, 1,000 and 3,000, a look and a spend in each, round
robin (past 4,096 characters, the decoded rows kept, each is decoded again).
The baseline is a second aiosqlite connection to the same file doing the bare minimum: for a
spend, `BEGIN IMMEDIATE; UPDATE characters SET fp = fp + 1 …; COMMIT`; for a read, `BEGIN`,
the store's own three SELECTs, `COMMIT`. Like the store, it holds an asyncio.Lock around each
transaction, which is what sharing one connection between coroutines needs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import aiosqlite

from store import Store, codec, event_log
from table.model import Character, Table
from table.names import name_key
from table.partyops import spend
from tests.benchmarks._figures import duration, machine, orders, paired_ratio, summarize, table

GUILD = 900
ACTOR = 42
SPEND_CHANNEL = 1000  # one character, spent on sequentially and by 20 coroutines at once
SPREAD_CHANNELS = tuple(range(2001, 2021))  # 20 channels of one character each
READ_CHANNELS = {1: 3001, 10: 3010, 50: 3050}  # characters → channel
HERO = "Hero"
COROUTINES = 20
SEQUENTIAL_OPS = 100
OPS_PER_COROUTINE = 5  # 20 × 5 = 100 changes per concurrent sample
READS = 50

Operation = Callable[[], Awaitable[object]]


@dataclass
class Samples:
    """Per-operation latencies (all rounds); per round, their median and the wall time per
    operation (below the latency when coroutines queue for the lock: that is throughput)."""

    latencies: list[float] = field(default_factory=list)
    round_medians: list[float] = field(default_factory=list)
    round_costs: list[float] = field(default_factory=list)
    ops: int = 0
    elapsed: float = 0.0

    def add(self, latencies: list[float], elapsed: float) -> None:
        self.latencies += latencies
        self.round_medians.append(statistics.median(latencies))
        self.round_costs.append(elapsed / len(latencies))
        self.ops += len(latencies)
        self.elapsed += elapsed


def character(name: str, owner: int) -> Character:
    # Classes rather than a fixed FL, so each spend works the Fatigue Level out as a cog's does.
    return Character(name, owner, level=5, wisdom=3, classes=((10, 5),), toughness=2)


async def seed(store: Store, channel_id: int, count: int) -> None:
    names = [HERO] if count == 1 else [f"{HERO} {i:02d}" for i in range(1, count + 1)]

    def put(table: Table) -> tuple[Table, None]:
        for i, name in enumerate(names):
            table = table.with_character(character(name, ACTOR + i))
        return table, None

    await store.apply(channel_id, GUILD, ACTOR, "benchmark seed", put)


async def timed(operation: Operation, into: list[float]) -> None:
    start = time.perf_counter()
    await operation()
    into.append(time.perf_counter() - start)


async def batch(operations: list[Operation], coroutines: int) -> tuple[list[float], float]:
    """Run `operations` split over `coroutines` concurrent coroutines (each in order); the
    latency of each operation (waiting for the lock included) and the wall time of it all."""
    latencies: list[float] = []

    async def worker(share: list[Operation]) -> None:
        for operation in share:
            await timed(operation, latencies)

    start = time.perf_counter()
    await asyncio.gather(*(worker(operations[i::coroutines]) for i in range(coroutines)))
    return latencies, time.perf_counter() - start


class Bare:
    """The baseline: the fewest statements that do the same change or read, on one connection."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self.lock = asyncio.Lock()

    async def spend(self, channel_id: int) -> None:
        async with self.lock:
            await self.db.execute("BEGIN IMMEDIATE")
            await self.db.execute(
                "UPDATE characters SET fp = fp + 1 WHERE channel_id = ? AND key = ?",
                (channel_id, name_key(HERO)),
            )
            await self.db.execute("COMMIT")

    async def read(self, channel_id: int) -> None:
        async with self.lock:
            await self.db.execute("BEGIN")
            for sql in (
                "SELECT * FROM channels WHERE channel_id = ?",
                "SELECT * FROM characters WHERE channel_id = ? ORDER BY key",
                "SELECT * FROM monsters WHERE channel_id = ? ORDER BY key",
            ):
                async with self.db.execute(sql, (channel_id,)) as cursor:
                    await cursor.fetchall()
            await self.db.execute("COMMIT")

    async def history(self, channel_id: int) -> None:
        async with self.lock:
            await self.db.execute_fetchall(
                "SELECT * FROM events WHERE channel_id = ? ORDER BY id DESC LIMIT 11",
                (channel_id,),
            )


async def measure(path: Path, rounds: int, seed_: int) -> None:
    async with Store.open(f"sqlite:///{path}") as store:
        await seed(store, SPEND_CHANNEL, 1)
        for channel_id in SPREAD_CHANNELS:
            await seed(store, channel_id, 1)
        for count, channel_id in READ_CHANNELS.items():
            await seed(store, channel_id, count)
        for _ in range(10):  # a page of history: ten changes after the seed
            await store.apply(READ_CHANNELS[10], GUILD, ACTOR, "fatigue spend", _spend_first)
        async with aiosqlite.connect(path, isolation_level=None) as db:
            # The same per-connection settings as the store's (WAL is already on the file).
            await db.execute("PRAGMA synchronous = FULL")
            await db.execute("PRAGMA busy_timeout = 5000")
            await run_rounds(store, Bare(db), rounds, seed_)


def operations(store: Store, bare: Bare) -> dict[str, tuple[list[Operation], int]]:
    """Case name → (the operations of one sample, how many coroutines share them)."""

    def store_spend(channel_id: int) -> Operation:
        return lambda: store.apply(
            channel_id, GUILD, ACTOR, "fatigue spend", lambda t: spend(t, HERO, 1)
        )

    def bare_spend(channel_id: int) -> Operation:
        return lambda: bare.spend(channel_id)

    def store_read(channel_id: int) -> Operation:
        return lambda: store.read(channel_id, GUILD)

    def store_read_afresh(channel_id: int) -> Operation:
        async def read() -> object:
            # A benchmark may reach in: empty the decoded rows, so this decodes them all.
            codec._character.cache_clear()
            codec._monster.cache_clear()
            return await store.read(channel_id, GUILD)

        return read

    def bare_read(channel_id: int) -> Operation:
        return lambda: bare.read(channel_id)

    def store_history(channel_id: int) -> Operation:
        return lambda: store.history(channel_id)

    def store_history_afresh(channel_id: int) -> Operation:
        async def read() -> object:
            event_log._decoded_event.cache_clear()
            return await store.history(channel_id)

        return read

    def bare_history(channel_id: int) -> Operation:
        return lambda: bare.history(channel_id)

    concurrent = COROUTINES * OPS_PER_COROUTINE
    # Coroutine i takes operations i, i + 20, …: on 20 channels, each has a channel of its own.
    spread = [SPREAD_CHANNELS[i % COROUTINES] for i in range(concurrent)]
    found: dict[str, tuple[list[Operation], int]] = {}
    for who, make in (("store", store_spend), ("bare", bare_spend)):
        found[f"{who}: spend, sequential"] = ([make(SPEND_CHANNEL)] * SEQUENTIAL_OPS, 1)
        found[f"{who}: spend, 20 coroutines, 1 channel"] = (
            [make(SPEND_CHANNEL)] * concurrent,
            COROUTINES,
        )
        found[f"{who}: spend, 20 coroutines, 20 channels"] = (
            [make(c) for c in spread],
            COROUTINES,
        )
    for who, make in (("store", store_read), ("bare", bare_read)):
        for count, channel_id in READ_CHANNELS.items():
            plural = "s" if count > 1 else ""
            found[f"{who}: read, {count} character{plural}"] = ([make(channel_id)] * READS, 1)
            # Each row is decoded once: also time the read with every row decoded again.
            afresh = store_read_afresh if who == "store" else make
            name = f"{who}: read decoded afresh, {count} character{plural}"
            found[name] = ([afresh(channel_id)] * READS, 1)
    page = READ_CHANNELS[10]  # its newest page: ten spends and the seed
    for who, history, afresh in (
        ("store", store_history, store_history_afresh),
        ("bare", bare_history, bare_history),
    ):
        found[f"{who}: history page"] = ([history(page)] * READS, 1)
        found[f"{who}: history page decoded afresh"] = ([afresh(page)] * READS, 1)
    return found


async def run_rounds(store: Store, bare: Bare, rounds: int, seed_: int) -> None:
    ops = operations(store, bare)
    samples = {name: Samples() for name in ops}
    for order in orders(list(ops), rounds, seed_):
        for name in order:
            samples[name].add(*await batch(*ops[name]))
    report(samples, rounds)


def report(samples: dict[str, Samples], rounds: int) -> None:
    cases = [name.removeprefix("store: ") for name in samples if name.startswith("store: ")]
    print(f"Store on a SQLite file (WAL), {rounds} interleaved rounds; bare = aiosqlite alone")
    print("latency per operation (waiting for the lock included); ÷ bare: median of per-round")
    print("ratios of medians; ops/s: operations over wall time, all rounds")
    print(machine())
    rows = []
    for case in cases:
        mine, base = samples[f"store: {case}"], samples[f"bare: {case}"]
        s, b = summarize(mine.latencies), summarize(base.latencies)
        rows.append(
            [
                case,
                duration(s.median),
                duration(s.p95),
                duration(b.median),
                duration(b.p95),
                f"{paired_ratio(mine.round_medians, base.round_medians):.3g}×",
                f"{mine.ops / mine.elapsed:,.0f}",
                f"{base.ops / base.elapsed:,.0f}",
            ]
        )
    headers = ["per operation", "median", "p95", "bare med", "bare p95", "÷ bare", "ops/s"]
    print(table([*headers, "bare ops/s"], rows))
    write = samples["bare: spend, sequential"].round_costs
    print()
    print("wall time per store operation ÷ that of the bare sequential write, same round")
    print("(the bare BEGIN IMMEDIATE; UPDATE; COMMIT: the store's whole overhead per change)")
    print(
        table(
            ["store case", "÷ bare write"],
            [
                [case, f"{paired_ratio(samples[f'store: {case}'].round_costs, write):.3g}×"]
                for case in cases
            ],
        )
    )


async def durability(folder: Path, rounds: int, seed_: int) -> None:
    """The sequential spend with SQLite's FULL against NORMAL sync, each on its own file."""
    levels = ("full", "normal")
    samples = {level: Samples() for level in levels}
    async with contextlib.AsyncExitStack() as stack:
        stores = {}
        for level in levels:
            path = f"sqlite:///{folder / f'{level}.db'}"
            stores[level] = await stack.enter_async_context(
                Store.open(path, sqlite_synchronous=level)
            )
            await seed(stores[level], SPEND_CHANNEL, 1)
        for order in orders(list(levels), rounds, seed_):
            for level in order:
                store = stores[level]
                op = lambda s=store: s.apply(  # noqa: E731
                    SPEND_CHANNEL, GUILD, ACTOR, "fatigue spend", lambda t: spend(t, HERO, 1)
                )
                samples[level].add(*await batch([op] * SEQUENTIAL_OPS, 1))
    full, normal = samples["full"], samples["normal"]
    print()
    print(f"Durability: one change (store spend, sequential), {rounds} interleaved rounds")
    rows = [
        [
            f"synchronous={level.upper()}",
            duration(summarize(samples[level].latencies).median),
            duration(summarize(samples[level].latencies).p95),
            f"{samples[level].ops / samples[level].elapsed:,.0f}",
        ]
        for level in levels
    ]
    print(table(["SQLite WAL", "median", "p95", "ops/s"], rows))
    cost = paired_ratio(full.round_medians, normal.round_medians)
    print(f"FULL ÷ NORMAL: {cost:.3g}× per commit (median of per-round ratios)")


def _spend_first(table: Table) -> tuple[Table, object]:
    return spend(table, f"{HERO} 01", 1)


async def many_channels(folder: Path, counts: tuple[int, ...]) -> None:
    """Channels in play at once, each a party of five: a look at the party and a spend in each,
    round robin, three times."""
    rows = []
    for count in counts:
        path = f"sqlite:///{folder / f'many-{count}.db'}"
        async with Store.open(path, sqlite_synchronous="normal") as store:
            channels = range(5001, 5001 + count)
            for channel in channels:
                await seed(store, channel, 5)
            looks: list[float] = []
            spends: list[float] = []
            for __ in range(3):
                for channel in channels:
                    await timed(functools.partial(store.read, channel, GUILD), looks)
                    change = functools.partial(
                        store.apply, channel, GUILD, ACTOR, "fatigue spend", _spend_first
                    )
                    await timed(change, spends)
        rows.append(
            [f"{count:,}", duration(summarize(looks).median), duration(summarize(spends).median)]
        )
    print()
    print("Channels in play (parties of five, round robin; synchronous=NORMAL; medians)")
    print(table(["channels", "look", "spend"], rows))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--seed", type=int, default=20240)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tk-bench-") as tmp:
        asyncio.run(measure(Path(tmp) / "bench.db", args.rounds, args.seed))
        asyncio.run(durability(Path(tmp), args.rounds, args.seed))
        asyncio.run(many_channels(Path(tmp), (100, 1_000, 3_000)))


if __name__ == "__main__":
    main()
