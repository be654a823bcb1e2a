"""Drawing off the event loop, so a chart never delays anyone else's command.

A `Painter` hands each `Job` (a picture's series and the reader's locale: plain, picklable
values) to a small pool, started at the first picture: by default one worker process, which
draws with its own interpreter lock and its own memory (matplotlib is loaded there, never in
the bot's process), at a lower priority than the bot (`NICE`): on a machine whose cores are
all busy, the event loop gets one first and a picture waits. A series that is costly to build
(`/party chart`'s, from hundreds of logged snapshots) comes as a `Recipe`, the rows as read and
the function that builds the series from them: it is built in the worker too, off the bot's
interpreter lock; and only a few charts at a time read their rows at all (`Painter.turn`): the
rest wait, deferred, holding nothing. `threads=True` draws in a worker thread instead
(`tests/benchmarks/pictures.py` measures each way). This module imports no matplotlib itself.

What drawing keeps is bounded: a worker process is replaced by a fresh one after 500 pictures
(PICTURES_PER_WORKER), so whatever matplotlib holds on to in it (fonts, glyphs, text layouts)
lives no longer than that; the next picture waits the second or two a new worker takes to load
matplotlib. The jobs waiting are the pictures asked for and not yet drawn, one per command
under way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from collections.abc import AsyncIterator, Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from lang import install, speaking
from pictures import Picture

log = logging.getLogger(__name__)

WORKERS = 1  # one process: pictures queue for it, the bot's own core stays free
PICTURES_PER_WORKER = 500  # then a fresh process takes over: its memory starts anew
NICE = 10  # the worker's niceness above the bot's: the event loop wins a busy core
AT_ONCE = WORKERS + 1  # pictures under way at once (`Painter.turn`): one drawn, one ready
KINDS = ("fatigue", "odds", "monster", "dice")


@dataclass(frozen=True)
class Recipe:
    """A series to build where the picture is drawn: `build(*args)`; `keep(series)` is what of
    it comes back (None: all of it), the less the better, for the bot's process unpickles it.
    `build` and `keep` are module-level functions or methods (a worker process finds them by
    name), `args` plain values, such as rows as read."""

    build: Callable[..., Any]
    args: tuple[Any, ...]
    keep: Callable[[Any], Any] | None = None


@dataclass(frozen=True)
class Job:
    kind: str  # one of KINDS
    data: Any  # its series (FatigueSeries, OddsSeries, MonsterView, DiceReport) or its Recipe
    locale: str | None  # the reader's Discord locale: the picture's words are theirs


def draw(job: Job) -> Picture:
    """Draw one picture (in whichever worker runs it)."""
    return paint(job)[1]


def paint(job: Job) -> tuple[Any, Picture]:
    """Build the job's series if it came as a Recipe, and draw it: the series (what its Recipe
    keeps of it) and its picture. A series that can't be built raises its own error (a
    RulesError says why, in the reader's language)."""
    with speaking(job.locale):
        recipe = job.data if isinstance(job.data, Recipe) else None
        data = job.data if recipe is None else recipe.build(*recipe.args)
        picture = _draw(job.kind, data)
    if recipe is not None and recipe.keep is not None:
        data = recipe.keep(data)
    return data, picture


def _draw(kind: str, data: Any) -> Picture:
    if kind == "fatigue":
        from pictures.fatigue import draw_fatigue

        return draw_fatigue(data)
    if kind == "odds":
        from pictures.odds import draw_odds

        return draw_odds(data)
    if kind == "monster":
        from pictures.monster import draw_monster

        return draw_monster(data)
    if kind == "dice":
        from pictures.dice import draw_dice

        return draw_dice(data)
    raise ValueError(f"no picture of kind {kind!r}")


def _start_worker(nice: int) -> None:
    """A worker process's first step: its lower priority, the catalogs, and matplotlib loaded
    before any job."""
    from lang.catalogs import load

    if nice:
        os.nice(nice)
    install(load())
    _load()


def _load() -> bool:
    import pictures.dice
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
        nice: int = NICE,
        at_once: int | None = AT_ONCE,
    ) -> None:
        """`threads`: draw in threads of this process instead of worker processes. A worker
        process draws at most `pictures_per_worker` pictures, then a fresh one takes over;
        `nice`: how much lower a worker process runs than the bot (0: the same); `at_once`: how
        many may hold a `turn` at a time (None: any number)."""
        self.threads = threads
        self.workers = workers
        self.pictures_per_worker = pictures_per_worker
        self.nice = nice
        self.at_once = at_once
        self._pool: Executor | None = None
        self._turns: asyncio.Semaphore | None = None

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """A picture's turn to read its data and be drawn: `at_once` pictures at a time, the
        others wait here (in the order they came), before reading anything, so the bot never
        holds more than a few charts' rows, nor reads them all at once."""
        if self.at_once is None:
            yield
            return
        if self._turns is None:
            self._turns = asyncio.Semaphore(self.at_once)
        async with self._turns:
            yield

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
                    initargs=(self.nice,),
                )
        return self._pool

    def warm(self) -> None:
        """Start the pool now and wait until it can draw (a process takes a second or two to
        load matplotlib): for tests and benchmarks; the bot starts it at its first picture."""
        self._executor().submit(_load).result()

    async def draw(self, job: Job) -> Picture:
        """The job's picture, drawn off the event loop."""
        return (await self.paint(job))[1]

    async def paint(self, job: Job) -> tuple[Any, Picture]:
        """The job's series (built from its Recipe, if it came as one) and its picture, both
        made off the event loop."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), paint, job)
        except BrokenExecutor:  # the worker died (killed, out of memory): once more, anew
            log.warning("The picture worker stopped; starting another")
            self.close()
            return await loop.run_in_executor(self._executor(), paint, job)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
