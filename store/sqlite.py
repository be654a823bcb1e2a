"""The SQLite backend: one writing connection on a thread of its own, and a read-only one for
quick reads on the event loop's thread.

A transaction runs whole on the writing connection's thread (`SqliteThread`): its body is handed
over as one job, and its `Tx` calls sqlite3 directly, so its awaits never suspend (`drive`). One
hop to the thread and back per transaction; the thread runs them one at a time, so they never
interleave (BEGIN IMMEDIATE guards against other processes).

Group commit: changes that arrive while others commit are committed with the next batch, in
one transaction of savepoints, one sync of the log for them all under synchronous=FULL. A
change that raises takes back only its own savepoint. In `tests.benchmarks.processes --only
"SQLite FULL"` (two runs each, side by side with a batch of one change) the bot's CPU per
/fatigue spend is 0.77–0.90 ms against 1.47–1.69 ms, 1,100–1,300 spends a second on a core of
its own against 590–680.

Quick reads (a channel's Table, a page of history) skip the hop (`QuickReader`), and reads and
changes reuse what is remembered (`store.remembered`).

What it keeps in memory is bounded, whatever the size of the file: SQLite's page cache, at its
default of at most 2,000 KiB for each of the two connections; at most 128 prepared statements
a connection (sqlite3's default); and the changes waiting for the next batch, no more than the
changes under way."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import sqlite3
from collections import deque
from collections.abc import Callable, Hashable
from datetime import datetime
from typing import Any, TypeVar

from store.backend import Body, Scope
from store.errors import StoreError
from store.faults import Watched, sqlite_files, watched
from store.migrate import Migration, load_migrations, migrate
from store.preflight import check_sqlite_file
from store.remembered import Remembered, Stamps, stamps
from store.sqlite_reader import QuickReader
from store.sqlite_thread import SqliteThread
from store.sqlite_tx import SqliteTx, drive, run_transaction

PREFIX = "sqlite:///"
R = TypeVar("R")
# In WAL mode, FULL syncs the log at every commit: a commit that returned survives a power cut.
# NORMAL syncs only at checkpoints: safe against a killed process, not against the machine dying.
SYNCHRONOUS = ("full", "normal")
Change = tuple[Body[Any], asyncio.Future[Any], contextvars.Context]  # a body, its caller, context
Outcome = tuple[Any, BaseException | None]  # a change's result, or what it raised
# What a committed batch leaves to remember: answers, with their scope's stamps after it, and
# steps in the order of the changes, each with its scope's stamps as its change began and after.
Answers = dict[Hashable, tuple[Any, Stamps]]
Step = tuple[Hashable, Any, Stamps, Stamps]


def sqlite_path(url: str) -> str:
    """`sqlite:///rel/path.db` → `rel/path.db`, `sqlite:////abs.db` → `/abs.db`, and
    `sqlite:///:memory:` → `:memory:`."""
    if not url.startswith(PREFIX) or len(url) == len(PREFIX):
        raise StoreError(f"Database URLs look like sqlite:///path/to/file.db, not {url!r}")
    return url[len(PREFIX) :]


# Wall times are kept as ISO 8601 text. sqlite3's own datetime adapter is deprecated; this is
# the recipe its documentation gives, and it binds in C: no pass over every statement's arguments.
sqlite3.register_adapter(datetime, datetime.isoformat)


class SqliteBackend(Watched):
    dialect = "sqlite"

    def __init__(self, thread: SqliteThread) -> None:
        self._thread = thread
        self._remembered = Remembered()
        self._reader: QuickReader | None = None  # for quick reads; None for :memory:
        # Migrations and closing take several jobs: they hold this; transactions need not
        # (each is one job, and the thread runs one at a time).
        self._lock = asyncio.Lock()
        self._pending: deque[Change] = deque()  # changes to commit in the next batch
        self._queued = False  # a batch (`_commit_pending`) waits on the thread's queue
        # Told each channel whose change committed, on the loop's thread (store.changes).
        self.committed: list[Callable[[int], None]] = []

    @classmethod
    async def open(cls, url: str, synchronous: str = "full") -> SqliteBackend:
        if synchronous not in SYNCHRONOUS:
            raise StoreError(f"SQLite synchronous is full or normal, not {synchronous!r}")
        path = sqlite_path(url)
        # Refuse a missing folder, a bad or read-only file, a newer schema: before writing.
        await asyncio.to_thread(check_sqlite_file, path, load_migrations(cls.dialect)[-1].version)
        thread = await SqliteThread.open(path)
        try:
            mode = await thread.run(_set_up, thread.conn, synchronous)
            backend = cls(thread)
            backend.files = sqlite_files(path)
            await backend.migrate()
            if mode == "wal":  # else a reader would wait for the writer
                backend._reader = QuickReader.open(path, backend._remembered)
        except BaseException:
            await thread.close()
            raise
        return backend

    @watched
    async def read(
        self,
        body: Body[R],
        *,
        quick: bool = False,
        key: Hashable = None,
        scope: Scope | None = None,
    ) -> R:
        if quick and self._reader is not None:
            try:
                return self._reader.read(body, key, scope)
            except sqlite3.OperationalError as error:
                if not _busy(error):
                    raise
                # Locked after all (e.g. another process recovering the log): take the hop,
                # where the connection waits its busy timeout.
        # In this task's context, as `write`'s changes are.
        context = contextvars.copy_context()
        return await self._thread.run(context.run, run_transaction, self._thread.conn, body)

    @watched
    async def write(self, channel_id: int, body: Body[R], *, one_statement: bool = False) -> R:
        # The whole file is locked for writing, which covers the channel. Changes that queue
        # while one commits go together (group commit): see `_commit_pending`.
        if self._thread.closed:
            raise ValueError("Connection closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[R] = loop.create_future()
        # The body runs on the connection's thread, in this task's context: the words it
        # raises or returns are in the language of the interaction it serves (`lang`).
        self._pending.append((body, future, contextvars.copy_context()))
        if not self._queued:
            self._queued = True
            self._thread.post(lambda: self._commit_pending(loop))
        result = await future
        for told in self.committed:
            told(channel_id)
        return result

    def _commit_pending(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the connection's thread: every change queued so far, in order, in ONE transaction,
        each in a savepoint of its own, so one that raises takes back only itself. One COMMIT
        (one sync of the log under synchronous=FULL) for them all; each caller hears its result
        only after it, and if the COMMIT fails, they all hear that nothing was kept."""
        self._queued = False  # first: a change queued from now on queues another batch
        batch = []
        while self._pending:
            batch.append(self._pending.popleft())
        if not batch:
            return
        outcomes: list[Outcome] = []
        # What this batch's changes leave (`SqliteTx.remember`): seen by its later changes at
        # once, remembered for good only once committed (on the loop's thread, `_settle`).
        answers: Answers = {}
        steps: list[Step] = []  # in the order of the changes

        def lookup(key: Hashable, now: Stamps) -> Any:
            found = answers.get(key)
            if found is not None and found[1] == now:
                return found[0]
            return self._remembered.get(key, now)

        conn = self._thread.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            for body, _, context in batch:
                conn.execute("SAVEPOINT change")
                tx = SqliteTx(conn, lookup)
                try:
                    outcome: Any = context.run(drive, body(tx))  # type: ignore[arg-type]
                    after: dict[Scope, Stamps] = {}  # each scope's stamps after this change
                    for key, scope, answer in tx.to_remember:
                        answers[key] = answer, _stamps_once(after, conn, scope)
                    for key, scope, step, began in tx.steps:
                        steps.append((key, step, began, _stamps_once(after, conn, scope)))
                    outcomes.append((outcome, None))
                except Exception as error:  # this change only: the others go on
                    conn.execute("ROLLBACK TO change")
                    outcomes.append((None, error))
                conn.execute("RELEASE change")
            conn.execute("COMMIT")
        except BaseException as fault:  # nothing of the batch was kept
            with contextlib.suppress(Exception):
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
            outcomes = [(None, fault)] * len(batch)
            answers, steps = {}, []
        callers = [future for _, future, _ in batch]
        loop.call_soon_threadsafe(self._settle, callers, outcomes, answers, steps)

    def _settle(
        self,
        callers: list[asyncio.Future[Any]],
        outcomes: list[Outcome],
        answers: Answers,
        steps: list[Step],
    ) -> None:
        """On the loop's thread, after a batch: what it committed is remembered first, so a
        caller's next look finds its own change; then every caller hears its outcome."""
        for key, (answer, at) in answers.items():
            self._remembered.put(key, answer, at)
        for key, step, began, after in steps:
            self._remembered.step(key, began, after, step)
        for future, (result, error) in zip(callers, outcomes, strict=True):
            if future.cancelled():  # the caller gave up; the change is committed all the same
                continue
            if error is None:
                future.set_result(result)
            else:
                future.set_exception(error)

    async def migrate(self, migrations: list[Migration] | None = None) -> list[int]:
        wanted = load_migrations(self.dialect) if migrations is None else migrations
        async with self._lock:
            return await self._thread.run(migrate, self._thread.conn, wanted)

    async def close(self) -> None:
        async with self._lock:
            if self._reader is not None:
                self._reader.close()
                self._reader = None
            await self._thread.close()


def _set_up(conn: sqlite3.Connection, synchronous: str) -> str:
    """The writing connection's settings; returns its journal mode ("wal" unless the file
    can't have one, as :memory: can't)."""
    (mode,) = conn.execute("PRAGMA journal_mode = WAL").fetchone()
    conn.execute(f"PRAGMA synchronous = {synchronous.upper()}")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA busy_timeout = 5000")
    return str(mode).lower()


def _stamps_once(found: dict[Scope, Stamps], conn: sqlite3.Connection, scope: Scope) -> Stamps:
    if scope not in found:
        found[scope] = stamps(conn, scope)
    return found[scope]


def _busy(error: sqlite3.OperationalError) -> bool:
    text = str(error)
    return "locked" in text or "busy" in text
