"""`python -m tests.benchmarks.soak`: the bot's memory under a steady evening's play.

A bot runs for weeks: whatever it keeps must stop growing. This runs `python -m bot` in its own
process (as deployed) on a fresh SQLite file, against a local Discord on loopback served from
this process, and offers it mixed commands at a steady rate (`--rate`, 250 a second by default;
open loop: each is sent when it is due, whether or not the ones before were answered, so a
slow bot meets a queue, as on Discord), spread over `--channels` channels (200, then 20,000:
every channel's table read afresh each time), for `--minutes` each. The mix is
an evening at many tables: rolls, saves, fatigue spent and recovered, the party shown, history,
a monster hit, initiative moved on, an undo (`MIX`).

Every `--every` seconds it prints the bot process's RSS, the interactions answered so far and
the rate over the last interval. The figure to read is the growth after warm-up: a
least-squares line of RSS against interactions answered, fitted over the second half of the
run (the first half is warm-up: connections opened, caches filled), in MB per 10,000
interactions. A bot that keeps nothing without bound levels off, and the slope tends to 0.

If the machine can't keep the rate, the sender waits while `INFLIGHT` interactions are
unanswered, and the rate held is printed: the slope is per interaction either way. Nothing is
asserted: an answer that is an error, a timeout or anything Discord would reject is counted and
shown (`/undo` may find nothing of the player's to undo; the rest should all be answered).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from store import Store
from table import initiative
from table.model import Table
from tests.benchmarks import _soak_trace
from tests.benchmarks._bots import extra_channels, forget, rss_mb
from tests.benchmarks._figures import duration, machine, percentile, table
from tests.benchmarks._seed import TROLL, party
from tests.e2e.test_shards_process import shard_processes
from tests.localdiscord.client import LocalDiscord
from tests.localdiscord.commands import parse_command_line
from tests.localdiscord.default_world import build_world
from tests.localdiscord.reply import Reply
from tests.localdiscord.world import Channel, User

# (command line, who types it, weight): a table's evening, by how often each comes up.
MIX = (
    ("/roll dice:4d6kh3", "player", 18),
    ("/save wsr vs:7", "player", 14),
    ("/fatigue spend", "player", 14),
    ("/fatigue recover character:Aria amount:1", "gm", 8),
    ("/party show", "player", 10),
    ("/history", "player", 6),
    ("/monster hit name:Troll damage:1", "gm", 10),
    ("/init next", "gm", 10),
    ("/init show", "player", 5),
    ("/undo", "player", 5),
)
INFLIGHT = 500  # unanswered at once, at most: past it the sender waits (the rate held drops)
KEPT = 3.0  # seconds a finished interaction's records stay in the local Discord (late words)
SEED_BATCH = 500  # channels seeded at once (the store commits concurrent changes together)


@dataclass
class Run:
    """What one soak saw: RSS samples against interactions answered, and the answers."""

    samples: list[tuple[float, int, float]] = field(default_factory=list)  # (s, answered, MB)
    began: float = 0.0  # time.monotonic() as the load began
    answered: int = 0
    sent: int = 0
    errors: collections.Counter[str] = field(default_factory=collections.Counter)  # by command
    example: dict[str, str] = field(default_factory=dict)  # an error reply's words, by command
    failed: collections.Counter[str] = field(default_factory=collections.Counter)
    latencies: list[float] = field(default_factory=list)  # second half only
    busiest: list[tuple[int, float]] = field(default_factory=list)  # (most in flight, at s)


def slope(points: list[tuple[int, float]]) -> float:
    """The least-squares slope of y against x."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    spread = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / spread if spread else 0.0


def growth(samples: list[tuple[float, int, float]]) -> tuple[float, int]:
    """MB per 10,000 interactions over the second half of the run (by time), and the samples
    it was fitted on."""
    end = samples[-1][0]
    late = [(answered, mb) for t, answered, mb in samples if t >= end / 2]
    return slope(late) * 10_000, len(late)


async def seed(url: str, d: LocalDiscord, channels: list[Channel]) -> None:
    """In every channel: Aria (the player's), two companions (the other player's), the Troll,
    and an initiative of the five and a goblin under way."""
    gm = d.gm.id
    characters = party(d)[:3]

    def put(t: Table) -> tuple[Table, None]:
        for character in characters:
            t = t.with_character(character)
        t = t.with_monster(TROLL)
        for score, name in enumerate([*(c.name for c in characters), "Troll", "Goblin"]):
            t, _ = initiative.add(
                t, actor_id=gm, is_gm=True, name=name, score=score, other=True, rng=random.Random(0)
            )
        return initiative.start(t)[0], None

    async with Store.open(url) as store:
        for start in range(0, len(channels), SEED_BATCH):
            batch = channels[start : start + SEED_BATCH]
            await asyncio.gather(
                *(store.apply(c.id, c.guild_id, gm, "benchmark seed", put) for c in batch)
            )


class Soak:
    """Offers the mix at a steady rate and keeps the local Discord's records short."""

    def __init__(self, d: LocalDiscord, channels: list[Channel], seed_: int) -> None:
        self.d = d
        self.channels = channels
        self.rng = random.Random(seed_)
        commands = d.commands()
        self.lines = [(parse_command_line(line, commands), line, who) for line, who, _ in MIX]
        self.weights = [weight for _, _, weight in MIX]
        self.inflight = 0
        self.room = asyncio.Event()
        self.done: collections.deque[tuple[float, int]] = collections.deque()  # (when, id)

    def user(self, who: str) -> User:
        return self.d.gm if who == "gm" else self.d.player

    async def one(self, run: Run, timed: bool) -> None:
        (path, options), line, who = self.rng.choices(self.lines, self.weights)[0]
        channel = self.channels[self.rng.randrange(len(self.channels))]
        start = time.perf_counter()
        self.inflight += 1
        if self.inflight > (run.busiest[-1][0] if run.busiest else 0):
            run.busiest.append((self.inflight, time.monotonic()))
        try:
            reply = await self.d.slash(path, user=self.user(who), channel=channel, options=options)
        except Exception as error:  # counted and shown: a soak runs on
            run.failed[f"{line}: {type(error).__name__}: {str(error)[:120]}"] += 1
            self.d.violations.clear()
            return
        finally:
            self.inflight -= 1
            self.room.set()
        run.answered += 1
        if timed:
            run.latencies.append(time.perf_counter() - start)
        if isinstance(reply, Reply) and reply.ephemeral:
            run.errors[line] += 1
            run.example.setdefault(line, reply.text[:100])
        self.done.append((time.monotonic(), reply.interaction_id))

    def prune(self) -> None:
        """Drop the records of interactions finished more than KEPT seconds ago (the local
        Discord looks through all it keeps on every answer)."""
        server, now = self.d.server, time.monotonic()
        while self.done and now - self.done[0][0] > KEPT:
            rec = server.interactions.pop(self.done.popleft()[1], None)
            if rec is not None:
                for message_id in (rec.original_id, *rec.followup_ids):
                    server.messages.pop(message_id or 0, None)
        server.requests.clear()
        for session in server.gateway.sessions:
            session.sent.clear()

    async def offer(self, run: Run, rate: float, seconds: float, pid: int, every: float) -> None:
        """`rate` a second for `seconds`, sampling the bot's RSS every `every` seconds."""
        tasks: set[asyncio.Task[None]] = set()
        began = due = run.began = time.monotonic()
        next_sample, last = began, (began, 0)
        while (now := time.monotonic()) < began + seconds:
            if now >= next_sample:
                self.prune()
                mb = rss_mb(pid)
                run.samples.append((now - began, run.answered, mb))
                rate_now = (run.answered - last[1]) / (now - last[0]) if now > last[0] else 0
                print(
                    f"  {now - began:6.0f} s  {run.answered:8,} answered  {rate_now:5.0f}/s"
                    f"  {self.inflight:4} in flight  RSS {mb:6.1f} MB",
                    flush=True,
                )
                last, next_sample = (now, run.answered), next_sample + every
            while self.inflight >= INFLIGHT:
                self.room.clear()
                await self.room.wait()
            due += 1 / rate
            if due > now:
                await asyncio.sleep(due - now)
            else:
                due = max(due, now - 1.0)  # behind: catch up at most a second's worth at once
            task = asyncio.create_task(self.one(run, now - began >= seconds / 2))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            run.sent += 1
        await asyncio.gather(*tasks)
        self.prune()
        run.samples.append((time.monotonic() - began, run.answered, rss_mb(pid)))


async def soak(
    args: argparse.Namespace, tmp: Path, channel_count: int
) -> tuple[Run, float, float, float]:
    """One soak over `channel_count` channels: its run, the RSS idle, after warm-up, at the end."""
    folder = tmp / f"{channel_count}"
    folder.mkdir()
    url = f"sqlite:///{folder / 'tablekeeper.db'}"
    async with LocalDiscord(build_world()) as d:
        d.server.deadline = 30.0  # count a slow answer, don't fail it
        d.timeout = 60.0
        channels = extra_channels(d, channel_count, "soak")
        started = time.perf_counter()
        await seed(url, d, channels)
        print(f"  seeded {channel_count:,} channels in {duration(time.perf_counter() - started)}")
        trace = folder / "trace"
        traced = None if args.trace is None else _soak_trace.settings(trace, args.trace)
        async with shard_processes(d, url, folder, [None], shard_count=None, settings=traced) as (
            bot,
        ):
            pid = bot.process.pid
            idle = rss_mb(pid)
            s = Soak(d, channels, args.seed)
            checked_run = Run()
            d.server.check_schemas = True  # the warm-up's replies against Discord's OpenAPI
            for _ in range(len(MIX) * 5):
                await s.one(checked_run, False)
            forget(d)
            d.server.check_schemas = False  # the tests' cost, not the bot's
            if checked_run.failed:
                raise SystemExit(f"warm-up failed: {dict(checked_run.failed)}")
            run = Run()
            seconds = args.minutes * 60
            if traced:
                halfway = asyncio.create_task(_soak_trace.at(seconds / 2, pid, trace))
            await s.offer(run, args.rate, seconds, pid, args.every)
            if traced:
                await halfway
                await _soak_trace.snapshot(pid, trace)
                _soak_trace.report(trace)
            end = rss_mb(pid)
        half = [mb for t, _, mb in run.samples if t >= run.samples[-1][0] / 2]
    return run, idle, half[0], end


def report(channels: int, run: Run, idle: float, warm: float, end: float, rate: float) -> list[str]:
    """Print one soak's figures; its row of the closing table."""
    seconds = run.samples[-1][0]
    per_10k, points = growth(run.samples)
    print(f"\n  {channels:,} channels: {run.sent:,} sent, {run.answered:,} answered", end="")
    print(f" in {seconds:.0f} s")
    print(f"  RSS {idle:.1f} MB idle, {warm:.1f} MB after warm-up, {end:.1f} MB at the end")
    print(f"  growth after warm-up: {per_10k:+.3f} MB per 10,000 interactions ({points} samples)")
    if run.busiest:  # a queue's memory stays with the process: RSS steps up where it peaks
        most, when = run.busiest[-1]
        print(f"  most unanswered at once: {most}, {when - run.began:.0f} s in")
    for what, count in sorted(run.errors.items(), key=lambda kv: -kv[1]):
        print(f"  error replies to {what}: {count:,}, e.g. {run.example[what]!r}")
    for what, count in sorted(run.failed.items(), key=lambda kv: -kv[1]):
        print(f"  FAILED ×{count}: {what}")
    lat = run.latencies or [0.0]
    return [
        f"{channels:,}",
        f"{rate:,.0f}/s",
        f"{run.answered / seconds:,.0f}/s",
        f"{run.answered:,}",
        duration(percentile(lat, 50)),
        duration(percentile(lat, 99)),
        f"{idle:.0f} MB",
        f"{warm:.0f} MB",
        f"{end:.0f} MB",
        f"{per_10k:+.3f}",
    ]


async def run(args: argparse.Namespace) -> None:
    rows = []
    with tempfile.TemporaryDirectory(prefix="tk-soak-") as tmp:
        for count in args.channels:
            print(f"\nSoak over {count:,} channels, {args.rate:,.0f}/s offered, {args.minutes} min")
            soaked, idle, warm, end = await soak(args, Path(tmp), count)
            rows.append(report(count, soaked, idle, warm, end, args.rate))
    print(f"\nMemory under a steady mix ({', '.join(line for line, _, _ in MIX)})")
    print(f"{machine()}, {os.cpu_count()} cores")
    heads = ["channels", "offered", "held", "answered", "p50", "p99", "RSS idle", "at half"]
    print(table([*heads, "at end", "MB / 10k after warm-up"], rows))
    print(
        "(MB / 10k: the least-squares slope of the bot's RSS against interactions answered,"
        " over the run's second half; p50/p99 over the second half, sent to final answer)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rate", type=float, default=250.0, help="commands offered a second")
    parser.add_argument("--minutes", type=float, default=5.0, help="of load, per channel count")
    parser.add_argument(
        "--channels",
        default="200,20000",
        help="comma-separated channel counts, one soak each (default 200,20000)",
    )
    parser.add_argument("--every", type=float, default=5.0, help="seconds between RSS samples")
    parser.add_argument("--seed", type=int, default=20240)
    parser.add_argument(
        "--trace",
        type=int,
        metavar="FRAMES",
        help="find what grows: the bot's memory halfway and at the end (SQLite's, Python's,"
        " objects by type); FRAMES > 0 adds tracemalloc that deep (slow)",
    )
    args = parser.parse_args()
    args.channels = [int(n) for n in args.channels.split(",")]
    started = time.perf_counter()
    asyncio.run(run(args))
    print(f"\n(the whole run took {duration(time.perf_counter() - started)})")


if __name__ == "__main__":
    main()
