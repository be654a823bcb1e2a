"""The PostgreSQL backend: an asyncpg pool. A change is one transaction that takes the channel's
advisory lock at its BEGIN and holds it to its COMMIT: changes from any number of bot processes
take turns at a channel, each reading what the one before wrote, and never lose an update."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, TypeVar

import asyncpg

from store.backend import Body, Counted, Row
from store.errors import StoreError
from store.faults import Watched, commit_lost, watched
from store.migrate import Migration, apply_migrations, load_migrations

log = logging.getLogger(__name__)
R = TypeVar("R")

PREFIXES = ("postgresql://", "postgres://")  # Heroku-style hosts hand out postgres://
# Advisory locks: a channel's is its id (the one-bigint key space); migrations take a key in
# the two-int key space, which never collides with it.
MIGRATION_LOCK = (0x746B, 1)  # "tk", 1
ACQUIRE_WAIT = 2.0  # seconds to wait for a connection, then unreachable: within Discord's 3 s


def is_postgres_url(url: str) -> bool:
    return url.startswith(PREFIXES)


def numbered(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$1, $2, …` (the store's SQL has no `?` in literals)."""
    pieces = sql.split("?")
    return "".join(f"{piece}${n}" for n, piece in enumerate(pieces[:-1], 1)) + pieces[-1]


class PostgresTx(Counted):
    dialect = "postgres"

    def __init__(self, conn: asyncpg.Connection, single: bool = False) -> None:
        super().__init__(single)
        self._conn = conn

    async def fetchone(self, sql: str, *args: Any) -> Row | None:
        self._one_more()
        row = await self._conn.fetchrow(numbered(sql), *args)
        return None if row is None else dict(row)

    async def fetchall(self, sql: str, *args: Any) -> list[Row]:
        self._one_more()
        return [dict(row) for row in await self._conn.fetch(numbered(sql), *args)]

    async def fetchvalues(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        self._one_more()
        return [tuple(row) for row in await self._conn.fetch(numbered(sql), *args)]

    async def execute(self, sql: str, *args: Any) -> None:
        """A statement with no arguments is sent as written (a migration's script, whole)."""
        self._one_more()
        await self._conn.execute(numbered(sql) if args else sql, *args)


async def run_postgres(conn: asyncpg.Connection, begin: str, body: Body[R]) -> R:
    """`body` in one transaction on `conn`, opened by `begin` (one round trip); ROLLBACK if
    anything raises, even a cancellation."""
    await conn.execute(begin)
    try:
        result = await body(PostgresTx(conn))
    except BaseException:
        await asyncio.shield(conn.execute("ROLLBACK"))
        raise
    try:
        await conn.execute("COMMIT")
    except Exception as error:
        if (lost := commit_lost(error)) is not None:
            raise lost from error
        raise
    return result


async def _end_of_use(conn: asyncpg.Connection) -> None:
    """Instead of asyncpg's session reset (a round trip a command): nothing, since the store
    changes no session state and holds no lock past its transaction (the pool rolls back one
    left open)."""


class _FloorRetries(logging.Filter):
    """asyncpg's pool logs each try to reconnect its standing connection with a traceback: the
    store's outage errors say it already, as it begins and ends (`bot.outages`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Failed to restore the pool connection floor")


_FLOOR_RETRIES = _FloorRetries()


async def create_pool(url: str, **options: Any) -> asyncpg.Pool:
    """The store's pool: at most 10 connections (tests pass `connection_class`)."""
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
        """Connect, retrying for `retry_for` seconds (a server still starting), then migrate."""
        deadline = time.monotonic() + retry_for
        delay, attempt = 0.5, 1
        while True:
            try:
                pool = await create_pool(url)
                break
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                left = deadline - time.monotonic()
                if left <= 0 or isinstance(error, FINAL_ERRORS):
                    raise StoreError(_connect_failure(error, retry_for)) from None
                wait = min(delay, left)
                # A line per attempt, as for Discord: an admin sees why, not a silent minute.
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
    async def read(self, body: Body[R], *, single: bool = False) -> R:
        async with self._pool.acquire(timeout=ACQUIRE_WAIT) as conn:
            if single:  # one statement: its own snapshot, one round trip
                return await body(PostgresTx(conn, single=True))
            return await run_postgres(conn, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)

    @watched
    async def write(self, channel_id: int, body: Body[R]) -> R:
        async with self._pool.acquire(timeout=ACQUIRE_WAIT) as conn:
            # BEGIN and the channel's lock (an int, never text) in one round trip; the next
            # change to the channel, from any process, waits here and reads what this wrote.
            lock = f"BEGIN; SELECT pg_advisory_xact_lock({int(channel_id)})"
            return await run_postgres(conn, lock, body)

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


# Answers that trying again won't change (not retried, as a wrong Discord token isn't).
FINAL_ERRORS = (
    asyncpg.InvalidAuthorizationSpecificationError,
    asyncpg.InvalidPasswordError,
    asyncpg.InvalidCatalogNameError,
)


def _connect_failure(error: BaseException, waited: float) -> str:
    final = isinstance(error, FINAL_ERRORS)
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
    """`store.migrate.apply_migrations` on `conn`, under an advisory lock: of two processes
    starting together, the second finds the first one's work done."""
    await conn.execute("SELECT pg_advisory_lock($1, $2)", *MIGRATION_LOCK)
    try:
        return await apply_migrations(
            lambda body: run_postgres(conn, "BEGIN", body), migrations, "(PostgreSQL)"
        )
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1, $2)", *MIGRATION_LOCK)
