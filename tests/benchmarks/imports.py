"""`python -m tests.benchmarks.imports`: what an `/import` of the largest file costs, and what it
costs the other channels meanwhile.

Tablekeeper runs as `python -m bot` (DISCORD_API_BASE at a local Discord served by this
process), on a fresh SQLite file (synchronous FULL) and then a fresh PostgreSQL database
(`TEST_POSTGRES_URL`, else a throwaway server; `--no-postgres` skips it). A GM sends `/import`
with files of the most an import takes (`tests.store.big_export`, each into a channel of its
own), `--rounds` times each, in turn:

- `as exported`: 10 MiB written as `/export` writes it (indented): 200 characters (the most a
  channel keeps), 25 monsters, and as many changes as fit (about 5,300), the channel keeping
  10,000: every one logged;
- `compact`: 10 MiB of JSON without spaces: the same table and about 11,200 changes, of which
  the newest 10,000 are logged (the most a channel keeps);
- `refused at its last change`: `as exported`, its last change not fitting the table: every
  change is checked before the refusal;
- `refused at its 4th change`: `as exported`, its 4th change naming a character with a control
  character;
- `55,500 changes`: the file of the report that asked for this benchmark (10 MiB of small
  changes): refused by its number of changes.

For each: the time from the command sent to its final answer (p50 and slowest) and the bot
process's CPU for it. Meanwhile a player sends `/fatigue spend` in another channel, one after
another, as long as the import runs: their latency (p50, p99, slowest) against the same number
sent with no import running, just before.

`python -m tests.benchmarks.record imports` keeps its figures (docs/benchmarks.md)."""

from __future__ import annotations

import argparse
import asyncio
import copy
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from exports.reading import BYTES_MAX
from store import Store
from table.model import Character, Table
from tests.benchmarks._figures import duration, machine, percentile
from tests.benchmarks.web import _constants, _show, spend
from tests.e2e.test_process import REPO
from tests.e2e.test_shards_process import shard_processes
from tests.localdiscord.attachments import Upload
from tests.localdiscord.client import LocalDiscord
from tests.localdiscord.world import Channel, new_id
from tests.pg import postgres_server
from tests.store.big_export import big_export, file_bytes, small_changes

WARM_UP = 20  # spends before anything is measured


@dataclass(frozen=True)
class File:
    name: str
    data: bytes
    answer: str  # what its answer says


def _spoiled(document: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    spoiled = copy.deepcopy(document)
    change(spoiled)
    return spoiled


def _unfit_last(document: dict[str, Any]) -> None:
    ((_key, record),) = document["history"][-1]["after"]["characters"].items()
    record["fatigue"] = dict(record["fatigue"], fp=record["fatigue"]["fp"] + 7)


def _control_at_4th(document: dict[str, Any]) -> None:
    ((_key, record),) = document["history"][3]["after"]["characters"].items()
    record["name"] = "Hero\r4"


def files() -> list[File]:
    exported = big_export(200, monsters=25, keep=10_000, size=BYTES_MAX)
    compact = big_export(200, monsters=25, keep=10_000, size=BYTES_MAX, compact=True)
    changes = len(exported["history"])
    return [
        File("as exported", file_bytes(exported), f"and {changes} changes"),
        File("compact", file_bytes(compact, compact=True), "older changes were left out"),
        File(
            "refused at its last change",
            file_bytes(_spoiled(exported, _unfit_last)),
            f"history[{changes - 1}].after",
        ),
        File(
            "refused at its 4th change",
            file_bytes(_spoiled(exported, _control_at_4th)),
            "history[3].after.characters",
        ),
        File(
            "55,500 changes",
            file_bytes(small_changes(55_500), compact=True),
            "history: 55,500 items",
        ),
    ]


def _seed(table: Table, owner: int) -> tuple[Table, None]:
    return table.with_character(Character("Aria", owner, fl_override=Fraction(1000))), None


@dataclass
class Figures:
    answers: list[float]
    cpu: list[float]
    during: list[float]
    before: list[float]


def cpu_with_children(pid: int) -> float:
    """CPU time of process `pid` and of its children that ended (the checker's processes)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


async def _imported(d: LocalDiscord, file: File) -> None:
    channel = Channel(new_id(), d.guild.id, "import-target")  # first seen in the interaction
    upload = Upload("tablekeeper-export.json", file.data)
    reply = await d.slash("import", user=d.gm, channel=channel, file=upload)
    if file.answer not in reply.text:
        raise RuntimeError(f"{file.name}: unexpected answer: {reply.text[:300]}")


async def _alone(d: LocalDiscord, pid: int, file: File) -> tuple[float, float]:
    """The file imported into a channel of its own, nothing else going on: seconds from the
    command sent to its answer, and the CPU seconds the bot and its checker took."""
    cpu = cpu_with_children(pid)
    began = time.perf_counter()
    await _imported(d, file)
    took = time.perf_counter() - began
    await asyncio.sleep(0.5)  # the checker's process ends, and is counted
    return took, cpu_with_children(pid) - cpu


async def _beside(d: LocalDiscord, file: File) -> list[float]:
    """The file imported again, spends in the table channel one after another meanwhile."""
    sent = asyncio.ensure_future(_imported(d, file))
    spends = []
    while not sent.done():
        spends.append(await spend(d))
    sent.result()
    return spends


async def measure(
    args: argparse.Namespace, d: LocalDiscord, url: str, tmp: Path, every: list[File]
) -> list[str]:
    async with Store.open(url) as store:
        await store.apply(
            d.table.id, d.table.guild_id, d.gm.id, "seed", lambda t: _seed(t, d.player.id)
        )
    figures = {file.name: Figures([], [], [], []) for file in every}
    settings = {}
    if args.set:
        settings["PYTHONPATH"] = os.pathsep.join([str(_constants(args.set, tmp)), str(REPO)])
    async with shard_processes(d, url, tmp, [None], shard_count=None, settings=settings) as bots:
        pid = bots[0].process.pid
        for _ in range(WARM_UP):
            await spend(d)
        for _ in range(args.rounds):
            for file in every:
                kept = figures[file.name]
                took, cpu = await _alone(d, pid, file)
                kept.answers.append(took)
                kept.cpu.append(cpu)
                during = await _beside(d, file)
                kept.during += during
                kept.before += [await spend(d) for _ in range(max(len(during), 5))]
                d.server.interactions.clear()
                d.server.messages.clear()
    lines = []
    for name, kept in figures.items():
        lines.append(
            f"{name}: answered in p50 {duration(statistics.median(kept.answers))}, slowest"
            f" {duration(max(kept.answers))}; CPU (the bot and its checker)"
            f" {statistics.median(kept.cpu):.2f} s. /fatigue spend in another channel meanwhile"
            f" ({len(kept.during)}): p50 {duration(statistics.median(kept.during))}, p99"
            f" {duration(percentile(kept.during, 99))}, slowest {duration(max(kept.during))};"
            f" with no import ({len(kept.before)}): p50 {duration(statistics.median(kept.before))},"
            f" p99 {duration(percentile(kept.before, 99))}, slowest"
            f" {duration(max(kept.before))}"
        )
    return lines


async def run(args: argparse.Namespace) -> None:
    if args.set:
        print(f"The bot with {', '.join(args.set)}", flush=True)
    every = files()
    print("Files: " + ", ".join(f"{file.name} {len(file.data):,} bytes" for file in every))
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        async with LocalDiscord() as d:
            d.timeout = 120.0
            print(f"\nOn SQLite (synchronous FULL), {machine()}:", flush=True)
            _show(await measure(args, d, f"sqlite:///{tmp / 'tk.db'}", tmp, every))
        if args.no_postgres:
            return
        async with LocalDiscord() as d:
            d.timeout = 120.0
            with postgres_server() as server, server.database() as url:
                print("\nOn PostgreSQL:", flush=True)
                _show(await measure(args, d, url, tmp, every))


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.imports")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--set", action="append", metavar="MODULE.NAME=VALUE")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
