"""Drawing off the event loop, so a chart never delays anyone else's command.

A `Painter` hands each `Job` (a picture's series and the reader's locale: plain, picklable
values) to a small pool, started at the first picture: by default one worker process, which
draws on a core of its own with its own interpreter lock and its own memory (matplotlib is
loaded there, never in the bot's process). `threads=True` draws in a worker thread instead
(`tests/benchmarks/pictures.py` measures both). This module imports no matplotlib itself.

What drawing keeps is bounded: a worker process is replaced by a fresh one after 500 pictures
(PICTURES_PER_WORKER), so whatever matplotlib holds on to in it (fonts, glyphs, text layouts)
lives no longer than that; the next picture waits the second or two a new worker takes to load
matplotlib. The jobs waiting are the pictures asked for and not yet drawn, one per command
under way.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from lang import install, speaking
from pictures import Picture

log = logging.getLogger(__name__)

WORKERS = 1  # one process: pictures queue for it, the bot's own core stays free
PICTURES_PER_WORKER = 500  # then a fresh process takes over: its memory starts anew
KINDS = ("fatigue", "odds", "monster")


@dataclass(frozen=True)
class Job:
    kind: str  # one of KINDS
    data: Any  # its series: FatigueSeries, OddsSeries or MonsterView
    locale: str | None  # the reader's Discord locale: the picture's words are theirs


def draw(job: Job) -> Picture:
    """Draw one picture (in whichever worker runs it)."""
    with speaking(job.locale):
        if job.kind == "fatigue":
            from pictures.fatigue import draw_fatigue

            return draw_fatigue(job.data)
        if job.kind == "odds":
            from pictures.odds import draw_odds

            return draw_odds(job.data)
        if job.kind == "monster":
            from pictures.monster import draw_monster

            return draw_monster(job.data)
    raise ValueError(f"no picture of kind {job.kind!r}")


def _start_worker() -> None:
    """A worker process's first step: the catalogs, and matplotlib loaded before any job."""
    from lang.catalogs import load

    install(load())
    _load()


def _load() -> bool:
    import pictures.fatigue
    import pictures.monster
    import pictures.odds  # noqa: F401

    return True


class Painter:
    def __init__(
        self,
        *,
        threads: bool = False,
        workers: int = WORKERS,
        pictures_per_worker: int = PICTURES_PER_WORKER,
    ) -> None:
        """`threads`: draw in threads of this process instead of worker processes. A worker
        process draws at most `pictures_per_worker` pictures, then a fresh one takes over."""
        self.threads = threads
        self.workers = workers
        self.pictures_per_worker = pictures_per_worker
        self._pool: Executor | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.threads:
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="painter")
            else:
                # spawn: a fresh interpreter, never a fork of a process running threads
                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(
                    self.workers,
                    mp_context=context,
                    initializer=_start_worker,
                    max_tasks_per_child=self.pictures_per_worker,
                )
        return self._pool

    def warm(self) -> None:
        """Start the pool now and wait until it can draw (a process takes a second or two to
        load matplotlib): for tests and benchmarks; the bot starts it at its first picture."""
        self._executor().submit(_load).result()

    async def draw(self, job: Job) -> Picture:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), draw, job)
        except BrokenProcessPool:  # the worker died (killed, out of memory): once more, anew
            log.warning("The picture worker stopped; starting another")
            self.close()
            return await loop.run_in_executor(self._executor(), draw, job)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
