"""`tests.benchmarks.soak --trace`: what grows in the bot process, from tracemalloc snapshots it
writes on SIGUSR1 (`_traced/sitecustomize.py`): halfway through the load and at its end, the
second half's growth by line of code allocating it, the largest with the calls that led there,
and the objects the collector tracks whose count grew most, by type."""

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


def settings(folder: Path) -> dict[str, str]:
    """The bot process's settings that make it trace into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    return {"PYTHONPATH": os.pathsep.join([str(TRACED), str(REPO)]), "SOAK_TRACE": str(folder)}


async def snapshot(pid: int, folder: Path) -> None:
    """Ask the bot for its next snapshot and wait until it is written."""
    n = len(list(folder.glob("*.snapshot")))
    os.kill(pid, signal.SIGUSR1)
    while not (folder / f"{n}.snapshot").exists():
        await asyncio.sleep(0.2)


async def at(seconds: float, pid: int, folder: Path) -> None:
    await asyncio.sleep(seconds)
    await snapshot(pid, folder)


def report(folder: Path, first: int = 0, last: int = 1) -> None:
    """What grew from snapshot `first` to `last`."""
    old = tracemalloc.Snapshot.load(str(folder / f"{first}.snapshot"))
    new = tracemalloc.Snapshot.load(str(folder / f"{last}.snapshot"))
    grown = sum(s.size_diff for s in new.compare_to(old, "filename"))
    print(f"\n  traced: {grown / 2**20:+.2f} MB allocated by Python between the snapshots")
    for stat in new.compare_to(old, "lineno")[:SHOWN]:
        print(f"    {stat.size_diff / 1024:+9.1f} KB {stat.count_diff:+7} blocks  {stat.traceback}")
    for stat in new.compare_to(old, "traceback")[:3]:
        print(f"  {stat.size_diff / 1024:+.1f} KB from:")
        for line in stat.traceback.format()[-12:]:
            print(f"    {line}")
    before = json.loads((folder / f"{first}.types").read_text(encoding="utf-8"))
    after = json.loads((folder / f"{last}.types").read_text(encoding="utf-8"))
    growth = sorted(((after[t] - before.get(t, 0), t) for t in after), reverse=True)[:SHOWN]
    print("  objects the collector tracks, most grown by type:")
    print("    " + ", ".join(f"{name} {diff:+,}" for diff, name in growth))
