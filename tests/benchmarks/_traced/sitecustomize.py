"""For `tests.benchmarks.soak --trace`: put this folder first on a bot process's PYTHONPATH, with
SOAK_TRACE naming a folder, and the process traces its allocations (tracemalloc, 8 frames) from
its start; each SIGUSR1 writes the next numbered snapshot there (`N.snapshot`), with a count of
the live objects the collector tracks, by type (`N.types`, JSON). Slow: for finding what grows,
never for figures."""

from __future__ import annotations

import collections
import gc
import json
import os
import signal
import tracemalloc
from pathlib import Path
from types import FrameType

FOLDER = os.environ.get("SOAK_TRACE")


def _dump(signum: int, frame: FrameType | None) -> None:
    assert FOLDER is not None
    folder = Path(FOLDER)
    n = len(list(folder.glob("*.snapshot")))
    gc.collect()
    types = collections.Counter(type(o).__qualname__ for o in gc.get_objects())
    (folder / f"{n}.types").write_text(json.dumps(types), encoding="utf-8")
    partial = folder / f"{n}.partial"
    tracemalloc.take_snapshot().dump(str(partial))
    partial.rename(folder / f"{n}.snapshot")  # whole, once it has this name


if FOLDER:
    tracemalloc.start(8)
    signal.signal(signal.SIGUSR1, _dump)
