"""The SQLite backend: one aiosqlite connection; each transaction runs whole on its thread.

aiosqlite runs each call as a hop to the connection's own thread and back. A change used to take
one hop per statement (BEGIN and COMMIT included): most of its time. Here a transaction's body
is handed to that thread as one callable: its `Tx` calls sqlite3 directly, so its awaits never
suspend, and `_drive` runs the coroutine to its end there. One hop per transaction, and the
thread's queue runs them one at a time, so they never interleave (BEGIN IMMEDIATE guards
against other processes). Changes that arrive while others commit are committed with the next
batch, in one transaction of savepoints: one sync of the log for many under synchronous=FULL.

A quick read (a channel's snapshot, a page of history: bounded, a few dozen microseconds of
SQLite) skips the hop altogether: it runs at once on the event loop's thread, over a second,
read-only connection (`QuickReader`). In WAL mode a reader never waits for a writer, so it can't
hold the loop up; if SQLite ever says busy all the same, the read takes the hop instead. Each
read is a fresh snapshot of the file, so it sees every commit, of this process or another.

Results are kept by change stamps: a number per channel and per server that the database bumps
itself (the `change_stamps` migration's triggers, on every row a channel's Table and history
are made of), whoever writes, in whatever process. A read with a `key` and a `scope` is
answered from the result kept for it while SQLite's data_version says nothing at all was
committed since, or else while its scope's stamps are unchanged (one statement, instead of the
statements and the decoding): a change to one channel costs no other its kept reads. A change
may `keep` what a read would find after it (the Table it leaves): with the stamps it left, read
inside its transaction, that goes to the next change of the channel (no load) and to the quick
reader (the next look is kept already), but only once its COMMIT succeeded."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import sqlite3
from collections import ChainMap, deque
from collections.abc import Callable, Coroutine, Hashable, Iterator, Mapping
from datetime import datetime
from typing import Any, TypeVar, cast

import aiosqlite

from store.backend import Body, Row, Scope
from store.errors import StoreError
from store.faults import Watched, sqlite_files, watched
from store.migrate import Migration, load_migrations, migrate
from store.preflight import check_sqlite_file

PREFIX = "sqlite:///"
QUICK_RESULTS = 2048  # results of keyed reads (and of changes) kept, at most, by each connection
R = TypeVar("R")
# In WAL mode, FULL syncs the log at every commit: a commit that returned survives a power cut.
# NORMAL syncs only at checkpoints: safe against a killed process, not against the machine dying.
SYNCHRONOUS = ("full", "normal")


def sqlite_path(url: str) -> str:
    """`sqlite:///rel/path.db` → `rel/path.db`, `sqlite:////abs.db` → `/abs.db`, and
    `sqlite:///:memory:` → `:memory:`."""
    if not url.startswith(PREFIX) or len(url) == len(PREFIX):
        raise StoreError(f"Database URLs look like sqlite:///path/to/file.db, not {url!r}")
    return url[len(PREFIX) :]


# Wall times are kept as ISO 8601 text. sqlite3's own datetime adapter is deprecated; this is
# the recipe its documentation gives, and it binds in C: no pass over every statement's arguments.
sqlite3.register_adapter(datetime, datetime.isoformat)


def _rows(cursor: sqlite3.Cursor, rows: list[tuple[Any, ...]]) -> list[Row]:
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in rows]


class SqliteTx:
    """Async in form, to fit `Tx`; synchronous in fact: only ever run inside `_run`, on the
    thread that owns the connection. `kept`: what the connection's changes left (`kept`,
    `keep`); none for reads."""

    def __init__(
        self, conn: sqlite3.Connection, kept: Mapping[Hashable, Kept] | None = None
    ) -> None:
        self._conn = conn
        self._kept = kept
        self.keeping: list[tuple[Hashable, Scope, Any]] = []  # what `keep` was given
        self.began: dict[Scope, Stamps] = {}  # each scope's stamps as `kept` first found them
        # What `follow` was given, with the stamps its scope had as the change began.
        self.following: list[tuple[Hashable, Scope, Callable[[Any], Any], Stamps]] = []

    async def fetchone(self, sql: str, *args: Any) -> Row | None:
        cursor = self._conn.execute(sql, args)
        row = cursor.fetchone()
        return None if row is None else _rows(cursor, [row])[0]

    async def fetchall(self, sql: str, *args: Any) -> list[Row]:
        cursor = self._conn.execute(sql, args)
        return _rows(cursor, cursor.fetchall())

    async def fetchvalues(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        rows: list[tuple[Any, ...]] = self._conn.execute(sql, args).fetchall()
        return rows

    async def execute(self, sql: str, *args: Any) -> None:
        self._conn.execute(sql, args)

    async def kept(self, key: Hashable, scope: Scope) -> Any:
        """What an earlier change kept under `key`, if its scope's stamps are what they were
        right after it (nothing touched the channel or its server since); else None."""
        if self._kept is None:
            return None
        now = stamps(self._conn, scope)
        self.began.setdefault(scope, now)
        found = self._kept.get(key)
        return None if found is None or now != found[1] else found[0]

    async def keep(self, key: Hashable, scope: Scope, value: Any) -> None:
        """`value` (immutable) is what a read of `key` finds once this change is committed: the
        backend keeps it, with the scope's stamps after the change, if the COMMIT succeeds."""
        if self._kept is not None:
            self.keeping.append((key, scope, value))

    async def follow(self, key: Hashable, scope: Scope, step: Callable[[Any], Any]) -> None:
        """A result kept under `key`, by the quick reader or for the next changes, that was
        true as this change began (its stamps then those `kept` found) becomes `step(result)`
        if the COMMIT succeeds."""
        began = self.began.get(scope)
        if began is not None:
            self.following.append((key, scope, step, began))


Stamps = tuple[int | None, int | None]
Kept = tuple[Any, Stamps]  # a result and its scope's stamps when it was true
# A step `follow` was given, with its scope's stamps as its change began and right after it.
Followed = tuple[Hashable, Callable[[Any], Any], Stamps, Stamps]
# The stamps the `change_stamps` migration's triggers keep: NULL until the first change since.
_STAMPS = (
    "SELECT (SELECT stamp FROM channel_stamps WHERE channel_id = ?1),"
    " (SELECT stamp FROM guild_stamps WHERE guild_id ="
    " COALESCE(?2, (SELECT guild_id FROM channels WHERE channel_id = ?1)))"
)


def stamps(conn: sqlite3.Connection, scope: Scope) -> Stamps:
    """The scope's change stamps, as the connection sees them now."""
    found: Stamps = conn.execute(_STAMPS, scope).fetchone()
    return found


def _stamps_once(found: dict[Scope, Stamps], conn: sqlite3.Connection, scope: Scope) -> Stamps:
    if scope not in found:
        found[scope] = stamps(conn, scope)
    return found[scope]


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.cancelled():  # the caller gave up; the change is committed (or not) all the same
        return
    if error is None:
        future.set_result(result)
    else:
        future.set_exception(error)


def _settle_all(settled: list[tuple[asyncio.Future[Any], Any, BaseException | None]]) -> None:
    for future, result, error in settled:
        _settle(future, result, error)


def _drive(coro: Coroutine[Any, Any, R]) -> R:
    """Run a coroutine that never suspends (a body over a SqliteTx) to its end."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise StoreError("A SQLite transaction awaited something other than its database")


class SqliteBackend(Watched):
    dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection, reader: QuickReader | None = None) -> None:
        self._db = db
        self._reader = reader  # for quick reads on the loop's thread; None for :memory:
        # Migrations and closing still take several hops: they hold this; transactions need
        # not (each is one hop, and the thread runs one at a time).
        self._lock = asyncio.Lock()
        # Changes to commit, each with its task's context.
        self._pending: deque[tuple[Body[Any], asyncio.Future[Any], contextvars.Context]] = deque()
        self._queued = False  # a call to `_commit_pending` waits on the thread's queue
        # What committed changes kept (`SqliteTx.keep`), with their stamps: used only on the
        # connection's thread, by the changes that come after.
        self._kept: dict[Hashable, Kept] = {}
        # Told each channel whose change committed, on the loop's thread (store.changes).
        self.committed: list[Callable[[int], None]] = []

    @classmethod
    async def open(cls, url: str, synchronous: str = "full") -> SqliteBackend:
        if synchronous not in SYNCHRONOUS:
            raise StoreError(f"SQLite synchronous is full or normal, not {synchronous!r}")
        path = sqlite_path(url)
        # Refuse a missing folder, a bad or read-only file, a newer schema: before writing.
        await asyncio.to_thread(check_sqlite_file, path, load_migrations(cls.dialect)[-1].version)
        # isolation_level=None: no implicit transactions; we BEGIN and COMMIT ourselves.
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            async with db.execute("PRAGMA journal_mode = WAL") as cursor:
                mode = await cursor.fetchone()
            await db.execute(f"PRAGMA synchronous = {synchronous.upper()}")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute("PRAGMA busy_timeout = 5000")
            backend = cls(db)
            backend.files = sqlite_files(path)
            await backend.migrate()
            if mode is not None and str(mode[0]).lower() == "wal":  # else readers wait
                backend._reader = QuickReader.open(path)
        except BaseException:
            await backend_close(db, None)
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
        return await self._transaction("BEGIN", body)

    @watched
    async def write(self, channel_id: int, body: Body[R], *, one_statement: bool = False) -> R:
        # The whole file is locked for writing, which covers the channel. Changes that queue
        # while one commits go together (group commit): see `_commit_pending`.
        if not self._db._running or self._db._connection is None:
            raise ValueError("Connection closed")  # as aiosqlite's own calls say it
        loop = asyncio.get_running_loop()
        future: asyncio.Future[R] = loop.create_future()
        # The body runs on the connection's thread, in this task's context: the words it
        # raises or returns are in the language of the interaction it serves (`lang`).
        self._pending.append((body, future, contextvars.copy_context()))
        if not self._queued:
            # One call on the thread's queue, with no future of aiosqlite's: the batch settles
            # its callers' futures itself, in one wake-up of this loop (not one per caller,
            # plus one for aiosqlite's own future).
            self._queued = True
            self._db._tx.put_nowait((None, functools.partial(self._commit_pending, loop)))
        result = await future
        for told in self.committed:
            told(channel_id)
        return result

    def _commit_pending(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the connection's thread: every change queued so far, in order, in ONE transaction,
        each in a savepoint of its own, so one that raises takes back only itself. One COMMIT
        (one sync of the log under synchronous=FULL) for them all; each caller hears its result
        only after it, and if the COMMIT fails, they all hear that nothing was kept."""
        self._queued = False  # first: a change queued from now on queues another call
        batch = []
        while self._pending:
            batch.append(self._pending.popleft())
        if not batch:
            return
        outcomes: list[tuple[Any, BaseException | None]] = []
        # What this batch's changes keep (`SqliteTx.keep`): seen by the later changes of the
        # batch at once, kept for good (and offered to the quick reader) only once committed.
        staged: dict[Hashable, Kept] = {}
        kept = ChainMap(staged, self._kept)
        followed: list[Followed] = []  # in the order of the changes
        try:
            conn = self._db._conn
            conn.execute("BEGIN IMMEDIATE")
            for body, _, context in batch:
                conn.execute("SAVEPOINT change")
                tx = SqliteTx(conn, kept)
                try:
                    outcome: Any = context.run(_drive, body(tx))  # type: ignore[arg-type]
                    after: dict[Scope, Stamps] = {}  # each scope's stamps after its change
                    for key, scope, value in tx.keeping:
                        staged[key] = (value, _stamps_once(after, conn, scope))
                    for key, scope, step, began in tx.following:
                        followed.append((key, step, began, _stamps_once(after, conn, scope)))
                    outcomes.append((outcome, None))
                except Exception as error:  # this change only: the others go on
                    conn.execute("ROLLBACK TO change")
                    outcomes.append((None, error))
                conn.execute("RELEASE change")
            conn.execute("COMMIT")
        except BaseException as fault:  # nothing of the batch was kept
            with contextlib.suppress(Exception):
                if self._db._conn.in_transaction:
                    self._db._conn.execute("ROLLBACK")
            outcomes = [(None, fault)] * len(batch)
            staged, followed = {}, []
        for key, found in staged.items():
            _put(self._kept, key, found)
        for key, result, now in _steps_taken(self._kept, followed):  # for the next changes
            _put(self._kept, key, (result, now))
        settled = [
            (future, *outcome) for (_, future, _), outcome in zip(batch, outcomes, strict=True)
        ]
        loop.call_soon_threadsafe(self._settle, settled, staged, followed)

    def _settle(
        self,
        settled: list[tuple[asyncio.Future[Any], Any, BaseException | None]],
        staged: dict[Hashable, Kept],
        followed: list[Followed],
    ) -> None:
        """On the loop's thread, after a batch: what it committed goes to the quick reader
        first, so a caller's next look finds its own change kept (`QuickReader.offer`,
        `QuickReader.follow`)."""
        if self._reader is not None:
            if staged:
                self._reader.offer(staged)
            if followed:
                self._reader.follow(followed)
        _settle_all(settled)

    async def _transaction(self, begin: str, body: Body[R]) -> R:
        # aiosqlite's way to run a callable on the connection's thread (it has no public one),
        # in this task's context, as `write`'s changes are.
        context = contextvars.copy_context()
        result: R = await self._db._execute(context.run, _run, self._db._conn, begin, body)
        return result

    async def migrate(self, migrations: list[Migration] | None = None) -> list[int]:
        async with self._lock:
            return await migrate(
                self._db, load_migrations(self.dialect) if migrations is None else migrations
            )

    async def close(self) -> None:
        async with self._lock:
            await backend_close(self._db, self._reader)
            self._reader = None


async def backend_close(db: aiosqlite.Connection, reader: QuickReader | None) -> None:
    if reader is not None:
        reader.close()
    await db.close()


class QuickReader:
    """The connection for quick reads, used only on the event loop's thread: it can't write
    (query_only), and never waits for a lock (busy_timeout 0: the read takes the hop instead).

    It keeps the results of keyed reads, each with the change stamps of its scope (its channel
    and server) as they were just before it was read. While `PRAGMA data_version` says
    no other connection committed since a result was last found true (a few microseconds to
    ask), it is given again as it is; after a commit, it is given again if its scope's stamps
    are unchanged (one statement), so a change to one channel costs no other channel its kept
    reads. The writer offers what its changes leave (`offer`), so a look right after a change
    here finds it kept."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        # key -> (result, its scope's stamps (None: no scope), the data_version it was true at)
        self._results: dict[Hashable, tuple[Any, Stamps | None, int | None]] = {}

    @classmethod
    def open(cls, path: str) -> QuickReader | None:
        """None for an in-memory database, which a second connection would not share."""
        if path == ":memory:":
            return None
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("PRAGMA query_only = ON")
        conn.execute("PRAGMA busy_timeout = 0")
        return cls(conn)

    def read(self, body: Body[R], key: Hashable = None, scope: Scope | None = None) -> R:
        """`body` in a snapshot; with a `key` (naming all that `body` reads: its result must be
        immutable, as it is shared), the kept result for it while it is still true: nothing
        committed since, or nothing in `scope` (the channel and server `body` reads)."""
        if key is None:
            return _run(self._conn, "BEGIN", body)
        (version,) = self._conn.execute("PRAGMA data_version").fetchone()
        found = self._results.get(key)
        if found is not None and found[2] == version:
            return cast(R, found[0])
        # Read before the snapshot, the stamps may be older than what the body reads, never
        # newer: a result is kept by stamps that can only make it checked again too soon.
        now = None if scope is None else stamps(self._conn, scope)
        if found is not None and now is not None and now == found[1]:
            self._results[key] = (found[0], now, version)
            return cast(R, found[0])
        result = _run(self._conn, "BEGIN", body)
        _put(self._results, key, (result, now, version))
        return result

    def offer(self, committed: Mapping[Hashable, Kept]) -> None:
        """Results a committed change left, with their scopes' stamps right after it: each is
        given only once its stamps are checked (the reader doesn't know the commit's version)."""
        for key, (result, kept_stamps) in committed.items():
            _put(self._results, key, (result, kept_stamps, None))

    def follow(self, followed: list[Followed]) -> None:
        """Committed changes' steps, in order: a result kept with the stamps its scope had as
        the change began (so true right before it) becomes the step's result, true right after
        it; any other is left to be checked by its stamps, and read again."""
        for key, result, after in _steps_taken(self._results, followed):
            _put(self._results, key, (result, after, None))

    def forget(self) -> None:
        """Drop every kept result (a benchmark timing reads afresh)."""
        self._results.clear()

    def close(self) -> None:
        self.forget()
        self._conn.close()


def _steps_taken(
    kept: Mapping[Hashable, tuple[Any, ...]], followed: list[Followed]
) -> Iterator[tuple[Hashable, Any, Stamps]]:
    """For each step in order whose key's kept result (result first, stamps second) was true
    as its change began: the key, the step's result and the stamps right after the change.
    Lazy, so a step sees what the ones before it put back."""
    for key, step, began, after in followed:
        found = kept.get(key)
        if found is not None and found[1] == began:
            yield key, step(found[0]), after


def _put(kept: dict[Hashable, Any], key: Hashable, value: Any) -> None:
    """Keep `value` under `key`, forgetting the longest kept first beyond QUICK_RESULTS."""
    kept.pop(key, None)
    if len(kept) >= QUICK_RESULTS:
        del kept[next(iter(kept))]
    kept[key] = value


def _busy(error: sqlite3.OperationalError) -> bool:
    text = str(error)
    return "locked" in text or "busy" in text


def _run(conn: sqlite3.Connection, begin: str | None, body: Body[R]) -> R:
    """The whole transaction (begun already if `begin` is None), on the thread that owns `conn`.
    Even if the awaiting task is cancelled meanwhile, this runs to its COMMIT or ROLLBACK."""
    if begin is not None:
        conn.execute(begin)
    try:
        result: R = _drive(body(SqliteTx(conn)))  # type: ignore[arg-type]
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result
