"""`tests.benchmarks.soak --trace N`: what grows in the bot process, from what it writes on
SIGUSR1 (`_traced/sitecustomize.py`) halfway through the load and at its end: the second half's
growth in SQLite's memory, in Python's allocated blocks and in the objects the collector tracks
(by type); with N frames of tracemalloc (slow), by line of code allocating it, the largest with
the calls that led there."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import tracemalloc
from pathlib import Path

TRACED = Path(__file__).resolve().parent / "_traced"
REPO = Path(__file__).resolve().parents[2]
SHOWN = 15


def settings(folder: Path, frames: int) -> dict[str, str]:
    """The bot process's settings that make it write into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    return {
        "PYTHONPATH": os.pathsep.join([str(TRACED), str(REPO)]),
        "SOAK_TRACE": str(folder),
        "SOAK_TRACE_FRAMES": str(frames),
    }


async def snapshot(pid: int, folder: Path) -> None:
    """Ask the bot for its next dump and wait until it is written."""
    n = len(list(folder.glob("*.json")))
    os.kill(pid, signal.SIGUSR1)
    while not (folder / f"{n}.json").exists():
        await asyncio.sleep(0.2)


async def at(seconds: float, pid: int, folder: Path) -> None:
    await asyncio.sleep(seconds)
    await snapshot(pid, folder)


def report(folder: Path, first: int = 0, last: int = 1) -> None:
    """What grew from dump `first` to `last`."""
    before = json.loads((folder / f"{first}.json").read_text(encoding="utf-8"))
    after = json.loads((folder / f"{last}.json").read_text(encoding="utf-8"))
    if after["sqlite"] is not None:
        print(
            f"\n  SQLite's memory: {before['sqlite'] / 2**20:.2f} MB halfway,"
            f" {after['sqlite'] / 2**20:.2f} MB at the end"
        )
    print(f"  Python's allocated blocks: {after['blocks'] - before['blocks']:+,}")
    types = after["types"]
    growth = sorted(((n - before["types"].get(t, 0), t) for t, n in types.items()), reverse=True)
    print("  objects the collector tracks, most grown by type:")
    print("    " + ", ".join(f"{name} {diff:+,}" for diff, name in growth[:SHOWN]))
    if not (folder / f"{last}.snapshot").exists():
        return
    old = tracemalloc.Snapshot.load(str(folder / f"{first}.snapshot"))
    new = tracemalloc.Snapshot.load(str(folder / f"{last}.snapshot"))
    grown = sum(s.size_diff for s in new.compare_to(old, "filename"))
    print(f"  traced: {grown / 2**20:+.2f} MB allocated by Python between the snapshots")
    for stat in new.compare_to(old, "lineno")[:SHOWN]:
        print(f"    {stat.size_diff / 1024:+9.1f} KB {stat.count_diff:+7} blocks  {stat.traceback}")
    for stat in new.compare_to(old, "traceback")[:3]:
        print(f"  {stat.size_diff / 1024:+.1f} KB from:")
        for line in stat.traceback.format()[-12:]:
            print(f"    {line}")
