"""For `tests.benchmarks.soak --trace`: put this folder first on a bot process's PYTHONPATH, with
SOAK_TRACE naming a folder, and each SIGUSR1 makes the process write there, numbered N from 0:
`N.json`, the memory SQLite's library holds, the blocks Python's allocator holds, and the live
objects the collector tracks, by type; and, with SOAK_TRACE_FRAMES above 0 (tracing from the
process's start, that many frames deep: slow, for finding what grows, never for figures), a
tracemalloc snapshot, `N.snapshot`."""

from __future__ import annotations

import collections
import ctypes
import ctypes.util
import gc
import json
import os
import signal
import sys
import tracemalloc
from pathlib import Path
from types import FrameType

FOLDER = os.environ.get("SOAK_TRACE")
FRAMES = int(os.environ.get("SOAK_TRACE_FRAMES", "0"))


def _sqlite_bytes() -> int | None:
    """sqlite3_memory_used(): the library is loaded once, so this is the bot's connections'."""
    found = ctypes.util.find_library("sqlite3")
    if found is None:
        return None
    used = ctypes.CDLL(found).sqlite3_memory_used
    used.restype = ctypes.c_int64
    return int(used())


def _dump(signum: int, frame: FrameType | None) -> None:
    assert FOLDER is not None
    folder = Path(FOLDER)
    n = len(list(folder.glob("*.json")))
    if FRAMES:
        partial = folder / f"{n}.partial"
        tracemalloc.take_snapshot().dump(str(partial))
        partial.rename(folder / f"{n}.snapshot")
    gc.collect()
    types = collections.Counter(type(o).__qualname__ for o in gc.get_objects())
    memory = {"sqlite": _sqlite_bytes(), "blocks": sys.getallocatedblocks(), "types": types}
    partial = folder / f"{n}.partial"
    partial.write_text(json.dumps(memory), encoding="utf-8")
    partial.rename(folder / f"{n}.json")  # whole, once it has this name


if FOLDER:
    if FRAMES:
        tracemalloc.start(FRAMES)
    signal.signal(signal.SIGUSR1, _dump)
