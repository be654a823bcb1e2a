"""The PostgreSQL backend: an asyncpg pool. A change either takes the channel's advisory lock at
its BEGIN and holds it to COMMIT, or is one statement that takes it itself and writes only if the
channel is as it was read (`one_statement`, migration V12's `tk_unchanged`): changes from any
number of bot processes never lose an update."""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import re
import time
from collections.abc import Callable, Hashable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from store.backend import Body, Row, Scope
from store.errors import ChangedSinceRead, StoreError
from store.faults import Watched, commit_lost, watched
from store.migrate import Migration, check_not_newer, load_migrations

if TYPE_CHECKING:
    import asyncpg

log = logging.getLogger(__name__)
R = TypeVar("R")

PREFIXES = ("postgresql://", "postgres://")  # Heroku-style hosts hand out postgres://
INSTALL = "PostgreSQL needs the asyncpg driver: pip install asyncpg"
# Advisory locks: a channel's is its id (the one-bigint key space); migrations take a key in
# the two-int key space, which never collides with it.
MIGRATION_LOCK = (0x746B, 1)  # "tk", 1
CHANGED = "TK001"  # what `tk_unchanged` (migration V12) raises: the channel changed since read
# Seconds a read or a change waits for a connection (all in use, or the server reconnected to):
# then it is refused as the database being unreachable, inside Discord's 3 s to answer.
ACQUIRE_WAIT = 2.0


def is_postgres_url(url: str) -> bool:
    return url.startswith(PREFIXES)


@functools.lru_cache(maxsize=256)
def numbered(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$1, $2, …` (the store's SQL has no `?` in literals).
    Each statement's text is worked out once: at most 256 (the store sends a few dozen
    shapes), 4 µs a statement saved."""
    counter = itertools.count(1)
    return re.sub(r"\?", lambda _: f"${next(counter)}", sql)


class PostgresTx:
    """`single`: the body runs outside a transaction, so it may send one statement only (one
    statement sees one snapshot by itself, and is a transaction by itself; a second would see
    another snapshot, and commit apart)."""

    dialect = "postgres"

    def __init__(self, conn: asyncpg.Connection, single: bool = False) -> None:
        self._conn = conn
        self._single = single
        self._sent = 0

    def _sql(self, sql: str) -> str:
        self._sent += 1
        if self._single and self._sent > 1:
            raise StoreError("Outside a transaction, PostgreSQL runs one statement (no more)")
        return numbered(sql)

    async def fetchone(self, sql: str, *args: Any) -> Row | None:
        row = await self._conn.fetchrow(self._sql(sql), *args)
        return None if row is None else dict(row)

    async def fetchall(self, sql: str, *args: Any) -> list[Row]:
        return [dict(row) for row in await self._conn.fetch(self._sql(sql), *args)]

    async def fetchvalues(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in await self._conn.fetch(self._sql(sql), *args)]

    async def execute(self, sql: str, *args: Any) -> None:
        await self._conn.execute(self._sql(sql), *args)

    async def remembered(self, key: Hashable, scope: Scope) -> Any:
        return None  # nothing is remembered here: every load goes to the server

    async def remember(self, key: Hashable, scope: Scope, answer: Any) -> None:
        pass

    async def step_remembered(
        self, key: Hashable, scope: Scope, step: Callable[[Any], Any]
    ) -> None:
        pass


async def _end_of_use(conn: asyncpg.Connection) -> None:
    """What the pool does as a connection comes back, instead of asyncpg's session reset (a
    round trip on every command): nothing. The store never changes session state, its
    channel locks are the transaction's, the migration lock is released in a `finally`, and
    a transaction left open is rolled back by the pool itself before this runs."""


class _FloorRetries(logging.Filter):
    """While the server is down, asyncpg's pool tries to reconnect its one kept connection,
    backing off, and logs each try with a traceback: the store's own outage errors say it
    already, once as it begins and once as it ends (`bot.outages`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Failed to restore the pool connection floor")


_FLOOR_RETRIES = _FloorRetries()


async def create_pool(url: str, **options: Any) -> asyncpg.Pool:
    """The store's pool (tests pass `connection_class` to count round trips): at most 10
    connections, each keeping at most 100 prepared statements (asyncpg's default)."""
    import asyncpg

    logging.getLogger("asyncpg.pool").addFilter(_FLOOR_RETRIES)  # once: the same filter

    return await asyncpg.create_pool(
        url,
        min_size=1,
        max_size=10,
        reset=_end_of_use,
        server_settings={"application_name": "tablekeeper"},
        **options,
    )


class PostgresBackend(Watched):
    dialect = "postgres"

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    @classmethod
    async def open(cls, url: str, retry_for: float = 0.0) -> PostgresBackend:
        """Connect, retrying with backoff for `retry_for` seconds (a database that is still
        starting, a network that is not up yet), then migrate."""
        try:
            import asyncpg
        except ImportError:
            raise StoreError(INSTALL) from None
        deadline = time.monotonic() + retry_for
        delay, attempt = 0.5, 1
        while True:
            try:
                pool = await create_pool(url)
                break
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                left = deadline - time.monotonic()
                if left <= 0 or isinstance(error, _final_errors()):
                    raise StoreError(_connect_failure(error, retry_for)) from None
                wait = min(delay, left)
                # As for Discord (bot.connect): a line per attempt, so an admin waiting on a
                # wrong port or a server still starting sees why, not a silent minute.
                log.warning(
                    "PostgreSQL can't be reached at %s (%s): attempt %d, trying again in %.1f s",
                    _server_of(url),
                    _reason(error),
                    attempt,
                    wait,
                )
                await asyncio.sleep(wait)
                delay, attempt = min(delay * 2, 10.0), attempt + 1
        backend = cls(pool)
        try:
            await backend.migrate()
        except BaseException:
            await pool.close()
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
        async with self._pool.acquire(timeout=ACQUIRE_WAIT) as conn:
            if quick:  # one statement (the store's quick reads are): its own snapshot
                return await body(PostgresTx(conn, single=True))
            # One round trip opens the snapshot (asyncpg's transaction() would take its own).
            await conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            return await self._run(conn, body)

    @watched
    async def write(self, channel_id: int, body: Body[R], *, one_statement: bool = False) -> R:
        async with self._pool.acquire(timeout=ACQUIRE_WAIT) as conn:
            if one_statement:  # it takes the channel's lock itself (`tk_unchanged`)
                try:
                    return await body(PostgresTx(conn, single=True))
                except Exception as error:
                    if getattr(error, "sqlstate", None) == CHANGED or (
                        getattr(error, "constraint_name", None) == "events_by_interaction"
                    ):  # changed, or a second delivery: a fresh read says which
                        raise ChangedSinceRead(str(error)) from None
                    if (lost := commit_lost(error)) is not None:  # it is its own COMMIT
                        raise lost from error
                    raise
            # BEGIN and the channel's lock in one round trip (the id is an int, never text).
            # Held until this transaction ends: the next change to the channel, from this
            # process or another, waits here and then loads what this one wrote.
            await conn.execute(f"BEGIN; SELECT pg_advisory_xact_lock({int(channel_id)})")
            return await self._run(conn, body, writes=True)

    @staticmethod
    async def _run(conn: asyncpg.Connection, body: Body[R], writes: bool = False) -> R:
        try:
            result = await body(PostgresTx(conn))
        except BaseException:
            # shield: even if we are being cancelled, the rollback must reach the connection
            await asyncio.shield(conn.execute("ROLLBACK"))
            raise
        try:
            await conn.execute("COMMIT")
        except Exception as error:
            if writes and (lost := commit_lost(error)) is not None:
                raise lost from error
            raise
        return result

    async def migrate(self, migrations: list[Migration] | None = None) -> list[int]:
        migrations = load_migrations(self.dialect) if migrations is None else migrations
        async with self._pool.acquire() as conn:
            return await migrate_postgres(conn, migrations)

    async def close(self) -> None:
        await self._pool.close()


def _server_of(url: str) -> str:
    """`host:5432/db` of a database URL: where it points, never who logs in or the password."""
    return url.split("://", 1)[-1].rsplit("@", 1)[-1].split("?", 1)[0] or "the local server"


def _reason(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def _final_errors() -> tuple[type[BaseException], ...]:
    """Answers that trying again won't change: a wrong login or database name (not retried,
    as a wrong Discord token isn't)."""
    import asyncpg

    return (
        asyncpg.InvalidAuthorizationSpecificationError,
        asyncpg.InvalidPasswordError,
        asyncpg.InvalidCatalogNameError,
    )


def _connect_failure(error: BaseException, waited: float) -> str:
    import asyncpg

    final = isinstance(error, _final_errors())
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        what = "the server has no such database"
    elif final:
        what = "the server refused the login"
    elif isinstance(error, OSError | asyncpg.CannotConnectNowError | TimeoutError):
        what = "the server could not be reached"
    else:
        what = "the server refused it"
    after = f" (tried for {waited:g} s)" if waited > 0 and not final else ""
    detail = _reason(error)
    return (
        f"Could not open the PostgreSQL database: {what}{after}: {detail}. "
        "Check DATABASE_URL and that the server is up"
    )


async def migrate_postgres(conn: asyncpg.Connection, migrations: list[Migration]) -> list[int]:
    """Apply what is pending, each migration in its own transaction; returns the versions
    applied now. Two processes starting together queue on an advisory lock, so the second
    finds the first one's work done."""
    await conn.execute("SELECT pg_advisory_lock($1, $2)", *MIGRATION_LOCK)
    try:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL)"
        )
        found = await conn.fetchval("SELECT max(version) FROM schema_version")
        check_not_newer(found, migrations[-1].version, "(PostgreSQL)")
        applied: list[int] = []
        for migration in migrations:
            async with conn.transaction():
                done = await conn.fetchval(
                    "SELECT 1 FROM schema_version WHERE version = $1", migration.version
                )
                if not done:
                    await conn.execute(migration.sql)  # no arguments: the whole script runs
                    await conn.execute(
                        "INSERT INTO schema_version (version, name, applied_at)"
                        " VALUES ($1, $2, $3)",
                        migration.version,
                        migration.name,
                        datetime.now(UTC),
                    )
            if not done:
                log.info("Applied migration V%d__%s", migration.version, migration.name)
                applied.append(migration.version)
        return applied
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1, $2)", *MIGRATION_LOCK)
