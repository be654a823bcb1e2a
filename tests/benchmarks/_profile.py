"""`--profile` of `tests.benchmarks.processes`: py-spy sampling a bot's process, and a summary
of where its time went."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

from tests.benchmarks._figures import table


@contextlib.asynccontextmanager
async def profiled(folder: Path | None, label: str, pid: int) -> AsyncIterator[None]:
    """py-spy sampling process `pid` while the block runs; then its top costs printed."""
    if folder is None:
        yield
        return
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / f"{label.replace(' ', '-').lower()}.txt"
    spy = await asyncio.create_subprocess_exec(
        *("py-spy", "record", "--pid", str(pid), "--format", "raw", "--function", "--gil"),
        *("--rate", "200", "--output", str(out)),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        yield
    finally:
        spy.send_signal(signal.SIGINT)  # py-spy writes its samples when interrupted
        await spy.wait()
    print(where_time_goes(out))


ROOTS = ("threading.py", "<frozen runpy>", "asyncio/runners.py", "base_events.py", "__main__.py")


def where_time_goes(samples: Path, top: int = 25) -> str:
    """From py-spy's collapsed stacks (samples holding the GIL: the bot's one core of Python):
    each function's share on its own (the innermost frame) and with what it calls."""
    own: Counter[str] = Counter()
    within: Counter[str] = Counter()
    total = 0
    for line in samples.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")[1:]  # the first is the thread
        n = int(count)
        total += n
        own[frames[-1]] += n
        for frame in set(frames):
            within[frame] += n
    if not total:
        return f"  py-spy: no samples in {samples}"
    rows = [[name[:90], f"{n / total:.1%}"] for name, n in own.most_common(top)]
    inner = [(name, n) for name, n in within.most_common() if not any(r in name for r in ROOTS)]
    rows2 = [[name[:90], f"{n / total:.1%}"] for name, n in inner[:top]]
    return "\n".join(
        [
            f"  py-spy, {total:,} samples holding the GIL ({samples}):",
            table(["on its own", "share"], rows),
            table(["with what it calls", "share"], rows2),
        ]
    )
