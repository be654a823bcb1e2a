"""`python -m tests.benchmarks.web`: the table's web page under 200 open pages.

Tablekeeper runs as `python -m bot` (WEB_PORT set, DISCORD_API_BASE at a local Discord served
by this process), on a fresh SQLite file (synchronous FULL) and then a fresh PostgreSQL database
(`TEST_POSTGRES_URL`, else a throwaway server; `--no-postgres` skips it), its table channel
seeded with a party and a link made. This process
opens `--pages` live streams of that page (each as the page's script does: one EventSource,
here an aiohttp reader), from ten loopback addresses (the server allows 20 streams an address),
and prints:

1. memory: the bot process's RSS with no page open and with every page open, and per page;
2. delivery: `--changes` × `/fatigue spend` by a player through the local Discord, one at a
   time; for each, the time from sending the command to each page's receiving the board that
   shows it: p50, p99 and the slowest over every page and change (the goal: p99 within 1 s);
3. the Discord side: `/fatigue spend`'s latency (sent to answered) in blocks of `--block`
   with every page open and with none, alternated `--blocks` times each: medians, p99, and
   the ratio of the medians (the goal: ≤ 1.1×), with the range that ratio falls in 95% of the
   time had other blocks' rounds been drawn.

`--page-cost` measures instead, in this process on SQLite, the page of the largest table a
channel may hold (`tests.web.tables`: 200 characters, 25 monsters in the turn order, 10,000
changes kept, the newest 100 party-wide): its board's size, the CPU its building takes on the
builder's thread and the reads it needs on the event loop, a page load after a change (read,
built, sent) and the event loop's longest pause meanwhile, and a page load with nothing
changed (the kept board). `--streams N` measures only the bot's memory with N streams open,
200 to a channel (a channel's link takes at most 250).

`python -m tests.benchmarks.record web` keeps its figures (docs/benchmarks.md)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from fractions import Fraction
from pathlib import Path

import aiohttp

from rules.fatigue import FatigueState
from store import Store
from store.links import link_key
from table.model import Character, Table
from table.parts import PARTY
from tests.benchmarks._bots import rss_mb
from tests.benchmarks._figures import duration, machine, percentile, ratio_range
from tests.benchmarks._profile import profiled
from tests.benchmarks.processes import cpu_seconds
from tests.e2e.test_operations_process import free_port
from tests.e2e.test_process import REPO
from tests.e2e.test_shards_process import shard_processes
from tests.localdiscord.client import LocalDiscord
from tests.pg import Server, postgres_server
from tests.web.tables import CHARACTERS, HISTORY, MONSTERS, one_spends, write_largest
from web.boards import Read, build
from web.chart import CHART_CHANGES
from web.limits import Limits
from web.server import WebServer

WARM_UP = 20  # spends before anything is measured
ADDRESSES = 10  # loopback addresses the pages come from at least (127.0.0.1 … 127.0.0.10)
PER_ADDRESS = Limits().streams_per_address  # streams each address opens at most
PER_CHANNEL = 200  # streams to a channel in `--streams`
CH, GUILD, GM = 1001, 5005, 11  # the largest table's channel, in `--page-cost`
REFILL = 2.5  # seconds before pages open again: each address's 20 requests are allowed again
# Aria's FP in a board's event (its lines each prefixed "data: ", none inside a tag)
FP = re.compile(rb'<span class="name">Aria</span>.*?<p class="fp">(\d+)<', re.DOTALL)


class Reader:
    """One open page: the FP its newest board shows, and when each value first arrived.

    It reads its stream as it comes, a chunk at a time, and looks for Aria's FP in each whole
    event's bytes: the pages stand for browsers on other machines, so they should take as
    little of this one's CPU as they can (line by line, 200 pages took a core for 70 ms a
    board, beside the bot being measured)."""

    def __init__(self) -> None:
        self.fp = -1
        self.arrived: dict[int, float] = {}
        self.changed = asyncio.Event()

    async def follow(self, http: aiohttp.ClientSession, url: str) -> None:
        async with http.get(url) as response:
            if response.status != 200:
                raise RuntimeError(f"a page's stream answered {response.status}")
            pending = b""
            async for chunk in response.content.iter_any():
                *events, pending = (pending + chunk).split(b"\n\n")
                for found in filter(None, map(FP.search, events)):
                    self.fp = int(found.group(1))
                    self.arrived.setdefault(self.fp, time.perf_counter())
                    self.changed.set()


async def read_pages(urls: list[str], count: int) -> None:
    """The pages' own process (`--pages-of URL[,URL…]`): `count` streams of the pages, shared
    out among them; prints `ready` once each shows its first board, then for each new FP once
    every page shows it: the FP and when each page got it (perf_counter: the machine's
    monotonic clock, the same in every process)."""
    os.nice(19)  # the pages stand for browsers elsewhere: the bot and its Discord come first
    readers = [Reader() for _ in range(count)]
    addresses = max(ADDRESSES, -(-count // PER_ADDRESS))
    sessions = [
        aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(
                limit=0, local_addr=(f"127.0.{n // 250}.{n % 250 + 1}", 0)
            )
        )
        for n in range(addresses)
    ]
    tasks = [
        asyncio.create_task(r.follow(sessions[i % addresses], urls[i % len(urls)] + "/live"))
        for i, r in enumerate(readers)
    ]
    opened = asyncio.create_task(_all_open(readers))
    await asyncio.wait([opened, *tasks], return_when=asyncio.FIRST_COMPLETED)
    if not opened.done():
        await asyncio.gather(*tasks)  # a stream failed: say why
    print("ready", flush=True)
    fp = max(r.fp for r in readers)
    while True:
        fp += 1
        await _all_show(readers, fp)
        print(fp, json.dumps([r.arrived.pop(fp) for r in readers]), flush=True)
        if any(t.done() for t in tasks):
            break
    await asyncio.gather(*tasks)  # what went wrong


class Pages:
    """`count` open pages, in a process of their own (so their reading doesn't slow the local
    Discord the bot talks to): when each page showed each FP."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process, self.pid = process, process.pid
        self.arrivals: dict[int, list[float]] = {}
        self.news = asyncio.Event()
        self._reading = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.process.stdout is not None
        async for line in self.process.stdout:
            fp, arrived = line.decode().split(" ", 1)
            self.arrivals[int(fp)] = json.loads(arrived)
            self.news.set()

    async def shown(self, fp: int) -> list[float]:
        while fp not in self.arrivals:
            self.news.clear()
            await asyncio.wait_for(self.news.wait(), 30)
        return self.arrivals.pop(fp)


@contextlib.asynccontextmanager
async def pages(url: str, count: int) -> AsyncIterator[Pages]:
    """`count` pages of `url` (or of several, comma-separated) in a process of their own."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.benchmarks.web",
        "--pages-of",
        url,
        "--pages",
        str(count),
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stdout is not None
        ready = await asyncio.wait_for(process.stdout.readline(), 300)
        if ready.strip() != b"ready":
            raise RuntimeError("the pages' process stopped before every page was open")
        opened = Pages(process)
        yield opened
        opened._reading.cancel()
    finally:
        if process.returncode is None:
            process.kill()
        await process.wait()


async def spend(d: LocalDiscord) -> float:
    """One `/fatigue spend` by Aria's player: seconds from sending it to its answer."""
    began = time.perf_counter()
    reply = await d.slash("fatigue spend", user=d.player, amount=1)
    took = time.perf_counter() - began
    if "spends 1 FP" not in reply.text:
        raise RuntimeError(f"unexpected answer: {reply.text[:200]}")
    return took


def _seed(table: Table, owner: int) -> tuple[Table, None]:
    party = [
        Character("Aria", owner, fl_override=Fraction(1000)),
        Character("Bórin", owner + 1, fl_override=Fraction(20), fatigue=FatigueState(fp=30)),
        Character("Cole", owner + 2, fl_override=Fraction(15), fatigue=FatigueState(fp=5)),
    ]
    for character in party:
        table = table.with_character(character)
    return table, None


async def measure(
    args: argparse.Namespace, d: LocalDiscord, url: str, tmp: Path, server: Server | None = None
) -> list[str]:
    channel = d.table
    async with Store.open(url) as store:
        await store.apply(
            channel.id, channel.guild_id, d.gm.id, "seed", lambda t: _seed(t, d.player.id)
        )
        token, _ = await store.make_link(
            channel.id, channel.guild_id, d.gm.id, None, link_key(d.token)
        )
    port = free_port()
    settings = {"WEB_PORT": str(port), "PUBLIC_URL": f"http://127.0.0.1:{port}"}
    if args.set:
        settings["PYTHONPATH"] = os.pathsep.join([str(_constants(args.set, tmp)), str(REPO)])
    page = f"http://127.0.0.1:{port}/t/{token}"
    async with shard_processes(d, url, tmp, [None], shard_count=None, settings=settings) as bots:
        pid = bots[0].process.pid
        for _ in range(WARM_UP):  # the command's path, and the page once
            await spend(d)
        async with aiohttp.ClientSession() as http, http.get(page) as response:
            if response.status != 200:
                raise RuntimeError(f"the page answered {response.status}")
        await asyncio.sleep(1)
        idle = rss_mb(pid)
        fp = WARM_UP  # Aria's FP after the warm-up's spends
        async with pages(page, args.pages) as open_pages:
            await asyncio.sleep(1)
            opened = rss_mb(pid)
            delays: list[float] = []
            for _ in range(args.changes):
                began = time.perf_counter()
                await spend(d)
                fp += 1
                delays += [at - began for at in await open_pages.shown(fp)]
        with_pages, without = [], []
        cpu: dict[bool, dict[str, float]] = {True: {}, False: {}}  # CPU seconds by whose
        for _ in range(args.blocks):
            await asyncio.sleep(REFILL)
            async with pages(page, args.pages) as these:
                whose = {"bot": [pid], "database": database_pids(server), "pages": [these.pid]}
                start = cpu_of(whose)
                async with profiled(args.profile, "with pages", pid):
                    with_pages += [await spend(d) for _ in range(args.block)]
                _add(cpu[True], start, cpu_of(whose))  # the pages' before they close
            whose = {"bot": [pid], "database": database_pids(server)}
            start = cpu_of(whose)
            without += [await spend(d) for _ in range(args.block)]
            _add(cpu[False], start, cpu_of(whose))
        spends = args.blocks * args.block
    low, high = ratio_range(_medians(with_pages, args.block), _medians(without, args.block))
    ratio = statistics.median(with_pages) / statistics.median(without)

    def ms(pages_open: bool, whose: str) -> str:
        return f"{cpu[pages_open].get(whose, 0.0) / spends * 1000:.2f} ms"

    return [
        f"Memory (the bot process's RSS): {idle:.1f} MB with no page open,"
        f" {opened:.1f} MB with {args.pages} open: {(opened - idle) * 1024 / args.pages:.1f} KB"
        " a page",
        f"One change to {args.pages} open pages ({args.changes} changes, one at a time), from the"
        f" command sent to each page's new board: p50 {duration(percentile(delays, 50))},"
        f" p99 {duration(percentile(delays, 99))}, slowest {duration(max(delays))}"
        f" ({len(delays)} deliveries)",
        f"/fatigue spend, sent to answered, {args.blocks} blocks of {args.block} each way:"
        f" with {args.pages} pages open median {duration(statistics.median(with_pages))}"
        f" p99 {duration(percentile(with_pages, 99))}; with none median"
        f" {duration(statistics.median(without))} p99 {duration(percentile(without, 99))};"
        f" ratio {ratio:.2f}× (95% range of the blocks' medians' ratio {low:.2f}–{high:.2f}×)",
        f"CPU per /fatigue spend with {args.pages} pages open and with none:"
        f" the bot {ms(True, 'bot')} and {ms(False, 'bot')} (sending each page its new board),"
        + (
            f" the database server {ms(True, 'database')} and {ms(False, 'database')},"
            if server is not None and server.control is not None
            else ""
        )
        + f" the local Discord with the load {ms(True, 'here')} and {ms(False, 'here')};"
        f" the pages' own process {ms(True, 'pages')}",
    ]


def database_pids(server: Server | None) -> list[int]:
    """A throwaway PostgreSQL's processes: its postmaster and every child (its connections'
    backends among them); none on SQLite, or for a server of TEST_POSTGRES_URL's."""
    if server is None or server.control is None:
        return []
    postmaster = int((server.control.data / "postmaster.pid").read_text().split()[0])
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == postmaster:
                children.append(int(stat.parent.name))
    return [postmaster, *children]


def cpu_of(whose: dict[str, list[int]]) -> dict[str, float]:
    """CPU seconds so far of each one's processes (those gone since count no more), and this
    process's as "here": the local Discord and the load."""
    spent = {"here": cpu_seconds()}
    for name, pids in whose.items():
        spent[name] = 0.0
        for pid in pids:
            with contextlib.suppress(OSError):
                spent[name] += cpu_seconds(pid)
    return spent


def _add(total: dict[str, float], began: dict[str, float], now: dict[str, float]) -> None:
    for name, seconds in now.items():
        total[name] = total.get(name, 0.0) + seconds - began.get(name, 0.0)


def _constants(assignments: list[str], tmp: Path) -> Path:
    """A folder whose sitecustomize.py sets each `module.NAME=value` as the bot starts."""
    folder = tmp / "constants"
    folder.mkdir(exist_ok=True)
    lines = ["import importlib"]
    for assignment in assignments:
        target, value = assignment.split("=", 1)
        module, name = target.rsplit(".", 1)
        lines.append(f"setattr(importlib.import_module({module!r}), {name!r}, {value})")
    (folder / "sitecustomize.py").write_text("\n".join(lines) + "\n")
    return folder


def _medians(samples: list[float], block: int) -> list[float]:
    return [statistics.median(samples[i : i + block]) for i in range(0, len(samples), block)]


async def _all_open(readers: list[Reader]) -> None:
    await asyncio.gather(*(r.changed.wait() for r in readers))


async def _all_show(readers: list[Reader], fp: int) -> None:
    for reader in readers:
        while fp not in reader.arrived:
            reader.changed.clear()
            await reader.changed.wait()


async def page_cost(args: argparse.Namespace, tmp: Path) -> list[str]:
    """The page of the largest table a channel may hold, served by this process."""
    url = f"sqlite:///{tmp / 'largest.db'}"
    plenty = Limits(requests_per_second=1e6, burst=10**6)
    async with Store.open(url) as store:
        began = time.perf_counter()
        await write_largest(store, CH, GUILD, GM, history=args.history)
        seeded = time.perf_counter() - began
        token, _ = await store.make_link(CH, GUILD, GM, None, link_key("benchmark"))
        port = free_port()
        server = WebServer(store, url, port, host="127.0.0.1", limits=plenty)
        await server.start()
        page = f"http://127.0.0.1:{port}/t/{token}"
        cold, warm, pauses, reads, builds = [], [], [], [], []
        try:
            async with aiohttp.ClientSession() as http:
                for n in range(args.rounds):
                    await store.apply(CH, GUILD, GM, "fatigue spend", one_spends(n), PARTY)
                    with Pauses() as paused:
                        took, size = await _load(http, page)
                    cold.append(took)
                    pauses.append(paused.longest)
                    warm.append((await _load(http, page))[0])
                    began = time.perf_counter()
                    read = Read(await store.read(CH, GUILD), await store.newest(CH, CHART_CHANGES))
                    reads.append(time.perf_counter() - began)
                    began = time.process_time()
                    board = build(read, None)
                    builds.append(time.process_time() - began)
        finally:
            await server.stop()

    def mid(samples: list[float]) -> str:
        return f"median {duration(statistics.median(samples))} (slowest {duration(max(samples))})"

    return [
        f"The largest table ({CHARACTERS} characters, {MONSTERS} monsters in the turn order,"
        f" {args.history:,} changes kept, the newest {CHART_CHANGES} party-wide; written in"
        f" {seeded:.0f} s): its board {len(board.html) / 1024:.0f} KB, its page {size / 1024:.0f}"
        " KB",
        f"Its board built ({args.rounds} times, once a change): {mid(builds)} of CPU, on the"
        f" builder's thread; read first on the event loop (the table, its newest"
        f" {CHART_CHANGES} changes whole): {mid(reads)}",
        f"A page load after a change (read, built, sent, over loopback): {mid(cold)}; the event"
        f" loop's longest pause meanwhile {mid(pauses)}",
        f"A page load with nothing changed (two light reads, the kept board): {mid(warm)}",
    ]


class Pauses:
    """The event loop's longest pause while the block runs: a task asks to run every
    millisecond, and notes how late it is let."""

    def __enter__(self) -> Pauses:
        self.longest = 0.0
        self._ticking = asyncio.ensure_future(self._tick())
        return self

    def __exit__(self, *_exc: object) -> None:
        self._ticking.cancel()

    async def _tick(self) -> None:
        while True:
            began = time.perf_counter()
            await asyncio.sleep(0.001)
            self.longest = max(self.longest, time.perf_counter() - began - 0.001)


async def _load(http: aiohttp.ClientSession, page: str) -> tuple[float, int]:
    began = time.perf_counter()
    async with http.get(page) as response:
        body = await response.read()
        if response.status != 200:
            raise RuntimeError(f"the page answered {response.status}")
    return time.perf_counter() - began, len(body)


async def stream_memory(args: argparse.Namespace, d: LocalDiscord, url: str, tmp: Path) -> str:
    """The bot's memory with `args.streams` streams open, 200 to a channel."""
    channels = [d.table.id + n for n in range(-(-args.streams // PER_CHANNEL))]
    tokens = []
    async with Store.open(url) as store:
        for channel in channels:
            await store.apply(channel, d.table.guild_id, d.gm.id, "seed", lambda t: _seed(t, 1))
            token, _ = await store.make_link(
                channel, d.table.guild_id, d.gm.id, None, link_key(d.token)
            )
            tokens.append(token)
    port = free_port()
    settings = {"WEB_PORT": str(port), "PUBLIC_URL": f"http://127.0.0.1:{port}"}
    urls = [f"http://127.0.0.1:{port}/t/{token}" for token in tokens]
    async with shard_processes(d, url, tmp, [None], shard_count=None, settings=settings) as bots:
        pid = bots[0].process.pid
        async with aiohttp.ClientSession() as http:
            for page in urls:
                await _load(http, page)
        await asyncio.sleep(1)
        idle = rss_mb(pid)
        async with pages(",".join(urls), args.streams):
            await asyncio.sleep(1)
            opened = rss_mb(pid)
    return (
        f"Memory (the bot process's RSS): {idle:.1f} MB with no stream open, {opened:.1f} MB"
        f" with {args.streams:,} open over {len(channels)} channels:"
        f" {(opened - idle) * 1024 / args.streams:.1f} KB a stream"
    )


async def run(args: argparse.Namespace) -> None:
    if args.set:
        print(f"The bot with {', '.join(args.set)}", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        if args.page_cost:
            print(f"The largest table's page, on SQLite (synchronous FULL), {machine()}:")
            _show(await page_cost(args, tmp))
            return
        if args.streams:
            async with LocalDiscord() as d:
                print(f"Open streams, on SQLite (synchronous FULL), {machine()}:", flush=True)
                _show([await stream_memory(args, d, f"sqlite:///{tmp / 'tk.db'}", tmp)])
            return
        if not args.no_sqlite:
            async with LocalDiscord() as d:
                print(f"On SQLite (synchronous FULL), {machine()}:", flush=True)
                _show(await measure(args, d, f"sqlite:///{tmp / 'tk.db'}", tmp))
        if args.no_postgres:
            return
        async with LocalDiscord() as d:
            with postgres_server() as server, server.database() as url:
                print("\nOn PostgreSQL:", flush=True)
                _show(await measure(args, d, url, tmp, server))


def _show(lines: list[str]) -> None:
    for line in lines:
        print(f"- {line}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.web")
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--changes", type=int, default=30)
    parser.add_argument("--block", type=int, default=40)
    parser.add_argument("--blocks", type=int, default=16)
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--no-sqlite", action="store_true")
    parser.add_argument("--page-cost", action="store_true", help="the largest table's page only")
    parser.add_argument("--history", type=int, default=HISTORY, help="with --page-cost")
    parser.add_argument("--rounds", type=int, default=10, help="with --page-cost")
    parser.add_argument("--streams", type=int, metavar="N", help="memory with N streams only")
    parser.add_argument("--set", action="append", metavar="MODULE.NAME=VALUE")
    parser.add_argument(
        "--profile", type=Path, metavar="DIR", help="py-spy the bot with the pages open, into DIR"
    )
    parser.add_argument("--pages-of", metavar="URL", help=argparse.SUPPRESS)  # pages' process
    args = parser.parse_args()
    if args.pages_of:
        asyncio.run(read_pages(args.pages_of.split(","), args.pages))
        return
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
