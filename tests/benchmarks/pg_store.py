"""`python -m tests.benchmarks.pg_store --before DIR`: the Store on PostgreSQL, two versions of
the code side by side (DIR: another checkout, e.g. `git archive main | tar -x -C DIR`).

One throwaway PostgreSQL server; each round runs one worker process per version (in turn,
the order alternating), each on a fresh database of its own, importing `bot` from its own tree.
A worker times, interleaved, `read()` of a channel with 10 characters and 2 monsters, a page
of `history()`, and `apply()` of a fatigue spend on one character (sequential). What differs
between the versions is mostly round trips: on loopback each costs tens of microseconds, over
a network a millisecond or more, so the saving grows with the distance to the server.
`--delay MS` puts that distance in: both versions then reach the server through a relay in
this process that holds every packet MS milliseconds each way (a round trip of 2 × MS more).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parents[2]

WORKER = r"""
import asyncio, dataclasses, json, sys, time
from store import Store
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


class Relay:
    """A TCP relay on loopback to `port`, on a thread of its own, that forwards each chunk
    `delay` seconds after it came, in order, each way: a server that far away."""

    def __init__(self, port: int, delay: float) -> None:
        self.port, self.delay, self.listening = port, delay, 0
        self._ready = threading.Event()
        self._loop = asyncio.new_event_loop()
        threading.Thread(target=self._loop.run_forever, daemon=True).start()
        asyncio.run_coroutine_threadsafe(self._serve(), self._loop)
        self._ready.wait(10)

    async def _serve(self) -> None:
        server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.listening = server.sockets[0].getsockname()[1]
        self._ready.set()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.port)
        await asyncio.gather(self._pump(reader, up_writer), self._pump(up_reader, writer))

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def send() -> None:
            while True:
                due, data = await queue.get()
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                if not data:
                    writer.close()
                    return
                writer.write(data)
                await writer.drain()

        sender = asyncio.ensure_future(send())
        while data := await reader.read(65536):
            queue.put_nowait((time.monotonic() + self.delay, data))
        queue.put_nowait((time.monotonic() + self.delay, b""))
        await sender


def fmt(seconds: float) -> str:
    return f"{seconds * 1e6:,.0f} µs" if seconds < 1e-2 else f"{seconds * 1e3:,.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--before", type=Path, required=True, help="the other checkout")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--ops", type=int, default=200, help="operations per case per round")
    parser.add_argument("--delay", type=float, default=0.0, help="ms each way to the server")
    args = parser.parse_args()

    from tests.pg import postgres_server

    trees = {"before": args.before.resolve(), "after": HERE}
    medians: dict[str, dict[str, list[float]]] = {v: {} for v in trees}
    with postgres_server() as server:
        relays: dict[int, Relay] = {}
        for round_no in range(args.rounds):
            order = list(trees) if round_no % 2 == 0 else list(reversed(trees))
            for version in order:
                with server.database() as url:
                    if args.delay:
                        split = urlsplit(url)
                        port = split.port or 5432
                        if port not in relays:
                            relays[port] = Relay(port, args.delay / 1000)
                        netloc = split.netloc.replace(f":{port}", f":{relays[port].listening}")
                        url = split._replace(netloc=netloc).geturl()
                    for case, times in run_worker(trees[version], url, args.ops).items():
                        medians[version].setdefault(case, []).append(statistics.median(times))
    where = f"{args.delay:g} ms each way" if args.delay else "loopback"
    print(f"Store on PostgreSQL ({where}), {args.rounds} interleaved rounds × {args.ops} ops")
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
