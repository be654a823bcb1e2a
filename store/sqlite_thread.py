"""The thread that owns the store's writing SQLite connection. sqlite3 blocks, so every use of
that connection runs there, one job at a time, in the order given; the event loop only hands
jobs over and is told when each is done.

A job is a plain callable: `run` awaits its result; `post` hands it over without waiting, for a
job that tells its callers itself (the group commit settles every change of its batch in one
call back to the loop, not one per change)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import queue
import sqlite3
import threading
from collections.abc import Callable
from typing import Any, TypeVar

log = logging.getLogger(__name__)
R = TypeVar("R")
_STOP = None  # what `close` puts on the queue last: the thread ends when it gets there


class SqliteThread:
    """One sqlite3 connection (`conn`, used only by jobs) and its thread. Open with `open`,
    end with `close` (its jobs queued before it still run)."""

    def __init__(self) -> None:
        self.conn: sqlite3.Connection | Any = None  # Any: a test may wrap it
        self._jobs: queue.SimpleQueue[Callable[[], object] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=_serve, args=(self._jobs,), name="tk-sqlite")
        self._closed = False

    @classmethod
    async def open(cls, path: str) -> SqliteThread:
        """The thread, with its connection to `path` open in autocommit mode (no implicit
        transactions: the store begins and commits its own)."""
        thread = cls()
        thread._thread.start()
        try:
            thread.conn = await thread.run(sqlite3.connect, path, isolation_level=None)
        except BaseException:
            thread._closed = True
            thread._jobs.put(_STOP)
            raise
        return thread

    @property
    def closed(self) -> bool:
        return self._closed

    def post(self, job: Callable[[], object]) -> None:
        """Hand `job` to the thread and return at once; it must report its own outcome."""
        if self._closed:
            raise ValueError("Connection closed")
        self._jobs.put(job)

    async def run(self, fn: Callable[..., R], *args: Any, **kwargs: Any) -> R:
        """`fn(*args, **kwargs)` on the thread: its result, or what it raised."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[R] = loop.create_future()

        def job() -> None:
            try:
                result = fn(*args, **kwargs)
            except BaseException as error:  # handed to the caller, whatever it is
                _tell(loop, _fail, future, error)
            else:
                _tell(loop, _succeed, future, result)

        self.post(job)
        return await future

    async def close(self) -> None:
        """Close the connection after the jobs queued before; the thread ends right after."""
        if self._closed:
            return
        try:
            if self.conn is not None:
                await self.run(self.conn.close)
        finally:
            self._closed = True
            self._jobs.put(_STOP)

    def __del__(self) -> None:
        # Never left running by a store that was dropped unclosed: the thread holds only
        # the queue, so it ends here, and the connection with it.
        if not self._closed:
            self._jobs.put(_STOP)


def _serve(jobs: queue.SimpleQueue[Callable[[], object] | None]) -> None:
    while (job := jobs.get()) is not _STOP:
        try:
            job()
        except Exception:  # a posted job reports its own outcome; this is a bug in one
            log.exception("A job on the SQLite thread failed")


def _tell(loop: asyncio.AbstractEventLoop, settle: Callable[..., None], *args: Any) -> None:
    with contextlib.suppress(RuntimeError):  # the loop is closed: no one is waiting any more
        loop.call_soon_threadsafe(functools.partial(settle, *args))


def _succeed(future: asyncio.Future[R], result: R) -> None:
    if not future.done():  # the caller may have given up (cancelled)
        future.set_result(result)


def _fail(future: asyncio.Future[Any], error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)
