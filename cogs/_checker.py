"""Where `/import` reads and checks a file (`exports.reading.read_export`): a worker process of
its own, so that the bot's event loop and interpreter lock stay the other channels' while a file
of 10 MiB is read.

One process, at a lower priority than the bot (NICE: on a machine whose cores are all busy, the
event loop gets one first), one file at a time (the others wait their turn), and a fresh one for
each file: what reading one took in memory is given back when it is done, and the next process
starts at once, idle until the next file, with the store and the catalogs loaded. Spawned (a new
interpreter, never a fork of a process running threads). This module imports no Discord, so
neither does the worker.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from concurrent.futures import BrokenExecutor, ProcessPoolExecutor

from exports.reading import read_export
from lang import install, speaking
from table.imported import Imported

log = logging.getLogger(__name__)
NICE = 10  # the worker's niceness above the bot's: the event loop wins a busy core


def _start_checker(nice: int) -> None:
    """The worker process's first step: its lower priority, and the catalogs."""
    from lang.catalogs import load

    if nice:
        os.nice(nice)
    install(load())


def _checked(data: bytes, guild_id: int | None, key: bytes, locale: str | None) -> Imported:
    """`read_export`, its refusal in the reader's language (in whichever process runs it)."""
    with speaking(locale):
        return read_export(data, guild_id, key)


class Checker:
    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_checker,
                initargs=(NICE,),
                max_tasks_per_child=1,
            )
        return self._pool

    async def check(
        self, data: bytes, guild_id: int | None, key: bytes, locale: str | None
    ) -> Imported:
        """The file read and checked for a channel of `guild_id` (`read_export`), off the bot's
        process; its refusal (a RulesError) in `locale`'s language."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                self._executor(), _checked, data, guild_id, key, locale
            )
        except BrokenExecutor:  # the worker died (killed, out of memory): once more, anew
            log.warning("The import checker stopped; starting another")
            await self.close()
            return await loop.run_in_executor(
                self._executor(), _checked, data, guild_id, key, locale
            )

    async def close(self) -> None:
        """The worker stopped once its check, if any, is done. Waited for: a pool told not to
        wait may still be replacing its worker (`max_tasks_per_child`), and then fails in its
        own thread (CPython 3.11)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
