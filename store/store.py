"""The store: what the bot asks of its database, as the typed methods of one `Store`, the same
for every backend. `read` (a channel's Table), `history` (a page of its log),
`read_with_history` (/export), `fatigue_chart` (/party chart), `apply` (a change: one
transaction, applied once), `undo_last`, the secret rolls' `keep_secret`, `find_secret` and
`mark_revealed`, the roll log's `log_rolls`, `channel_rolls` and `dice_report_rows`;
`import_channel` (/import).

`Store.open("sqlite:///tablekeeper.db")` or `Store.open("postgresql://user:pass@host/db")`.
Where each part lives: reading a channel `store.channel_read`; applying a change
`store.change`, saving it `store.channel_write` and logging it `store.event_log`; reading the
log `store.events` and `store.chart`; undo `store.undo`. What differs between SQLite and
PostgreSQL lives behind `store.backend.Backend` (`store.sqlite`, `store.postgres`).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Generator, Sequence
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, Self, TypeVar

from store import chart, import_write, links, redo, roll_log, secrets, undo
from store.backend import Backend, Tx
from store.change import Changes, table_key
from store.channel_read import EVERYTHING, Loaded, Parts, load_channel
from store.errors import StoreError
from store.events import page_key, read_log, read_newest, read_page
from store.postgres import is_postgres_url
from store.secrets import SecretRoll
from store.sqlite import PREFIX as SQLITE_PREFIX
from store.sqlite import SqliteBackend
from table.event import Event
from table.fatigue_series import FatigueSeries
from table.imported import Imported
from table.model import Table
from table.roll_log import LoggedRoll
from table.undo import GmTest, Redone, Undone

R = TypeVar("R")
URL_FORMS = "sqlite:///path/to/file.db or postgresql://user:password@host:5432/database"


async def open_backend(
    url: str, sqlite_synchronous: str = "full", retry_for: float = 0.0
) -> Backend:
    """The backend the URL names: SQLite (`sqlite:///…`) or PostgreSQL (`postgresql://…`).
    `sqlite_synchronous` ("full" or "normal") is SQLite's durability; PostgreSQL's commit is
    always durable (its default synchronous_commit). A PostgreSQL server that can't be reached
    is tried again for `retry_for` seconds: it may still be starting."""
    if is_postgres_url(url):
        from store.postgres import PostgresBackend

        return await PostgresBackend.open(url, retry_for)
    if url.startswith(SQLITE_PREFIX):
        return await SqliteBackend.open(url, sqlite_synchronous)
    scheme = url.split(":", 1)[0] if ":" in url else url  # never echo a password
    raise StoreError(f"Database URLs look like {URL_FORMS}, not {scheme!r}…")


def _utcnow() -> datetime:
    return datetime.now(UTC)


class Store:
    """Open with `await Store.open(url)` or `async with Store.open(url) as store:`."""

    def __init__(self, backend: Backend, now: Callable[[], datetime] = _utcnow) -> None:
        self._backend = backend
        self._changes = Changes(backend, now)

    @classmethod
    def open(
        cls,
        url: str,
        *,
        now: Callable[[], datetime] = _utcnow,
        sqlite_synchronous: str = "full",
        retry_for: float = 0.0,
    ) -> _Opening:
        """`retry_for`: seconds to keep trying a database server that can't be reached yet."""
        return _Opening(lambda: cls._open(url, now, sqlite_synchronous, retry_for))

    @classmethod
    async def _open(
        cls, url: str, now: Callable[[], datetime], synchronous: str, retry_for: float
    ) -> Store:
        return cls(await open_backend(url, synchronous, retry_for), now)

    @property
    def dialect(self) -> str:
        return self._backend.dialect

    async def close(self) -> None:
        await self._backend.close()

    def watch(self, watcher: Callable[[bool], None] | None) -> None:
        """Have `watcher(wrote)` called after each read (False) and change (True) that reached
        the database, until `watch(None)`: how the end of an outage is noticed."""
        self._backend.watcher = watcher

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # --- reading ---------------------------------------------------------------------------

    async def ping(self) -> None:
        """One round trip to the database: the health check's "does it answer?"."""

        async def body(tx: Tx) -> None:
            await tx.fetchone("SELECT 1 AS one")

        await self._backend.read(body)

    async def read(
        self, channel_id: int, guild_id: int | None = None, parts: Parts = EVERYTHING
    ) -> Table:
        """A snapshot of the channel; an unknown channel reads as the defaults (nothing written).
        `parts` names what to load besides the channel row: a Table read without "monsters"
        simply has none (commands that never touch monsters skip reading them)."""

        async def body(tx: Tx) -> Loaded:
            return await load_channel(tx, channel_id, guild_id, parts)

        # A Table is immutable: it may be shared (and remembered, `store.remembered`, with
        # whether its row is stored, for a change that finds it).
        key, scope = table_key(channel_id, guild_id, parts), (channel_id, guild_id)
        return (await self._backend.read(body, quick=True, key=key, scope=scope)).table

    async def read_with_history(
        self, channel_id: int, guild_id: int | None = None
    ) -> tuple[Table, list[Event]]:
        """The channel and its whole event log, oldest first, from one snapshot (/export)."""

        async def body(tx: Tx) -> tuple[Table, list[Event]]:
            table = (await load_channel(tx, channel_id, guild_id)).table
            return table, await read_log(tx, channel_id)

        return await self._backend.read(body)

    async def history(
        self,
        channel_id: int,
        limit: int = 10,
        before_id: int | None = None,
        after_id: int | None = None,
        guild_id: int | None = None,
    ) -> list[Event]:
        """The channel's latest changes, newest first; `before_id` pages further back, and
        `after_id` gives the `limit` changes right after that one (a page back towards now).
        `guild_id`, the channel's server, as changes name it: the newest `HISTORY_PAGE` then
        follows them where it is remembered (`Tx.step_remembered`), instead of being read
        again."""

        async def body(tx: Tx) -> tuple[Event, ...]:
            return await read_page(tx, channel_id, limit, before_id, after_id)

        # Events are never changed by their readers: a page may be shared (and remembered by
        # the channel's stamps, and its server's, which a page doesn't need but costs nothing).
        key = page_key(channel_id, limit, before_id, after_id)
        scope = (channel_id, guild_id)
        events = await self._backend.read(body, quick=True, key=key, scope=scope)
        return sorted(events, key=lambda event: event.id, reverse=True)

    async def newest(self, channel_id: int, limit: int, known: Sequence[Event] = ()) -> list[Event]:
        """The channel's newest `limit` changes, newest first, as `history` gives them.
        `known`, an earlier answer, is kept where it still holds: only the changes logged since
        are read in full, and of the rest only their undo links (what an open web page reads
        after every change: on PostgreSQL, reading 100 changes whole each time cost its server
        more than the change itself)."""

        async def body(tx: Tx) -> tuple[Event, ...] | None:
            return await read_newest(tx, channel_id, limit, known)

        kept = await self._backend.read(body, quick=True)
        return list(kept) if kept is not None else await self.history(channel_id, limit)

    # --- changing --------------------------------------------------------------------------

    async def apply(
        self,
        channel_id: int,
        guild_id: int | None,
        actor_id: int,
        action: str,
        fn: Callable[[Table], tuple[Table, R]],
        parts: Parts = EVERYTHING,
        *,
        interaction_id: int | None = None,
    ) -> R:
        """Load the channel, run the pure `fn`, save what changed and log it, all in one
        transaction that holds the channel's lock. If `fn` (or anything) raises, nothing is
        written and the error propagates. An unchanged Table writes nothing, not even an event.
        `parts` as for `read`: `fn` sees (and may change) only those. With `interaction_id`,
        the change is applied at most once: if an event already carries that id, nothing runs
        or is written and AlreadyApplied is raised.

        On PostgreSQL it first tries one or two round trips instead of four: `fn` may then run
        more than once, each time on a fresh read (it is pure)."""
        return await self._changes.apply(
            channel_id, guild_id, actor_id, action, fn, parts, interaction_id
        )

    async def undo_last(
        self,
        channel_id: int,
        guild_id: int | None,
        actor_id: int,
        is_gm: bool | GmTest,
        manages_server: bool = False,
        *,
        interaction_id: int | None = None,
        asks: bool = False,
        expect: int | None = None,
    ) -> Undone:
        """Undo the channel's latest change that isn't undone (a GM) or the actor's own latest
        (a player): restore, log an "undo" event, mark the target, all in one transaction that
        holds the channel's lock, as `apply` does. `is_gm` may be a test of the channel's
        settings: it is then asked of the settings this transaction loads (a GM role cleared
        just before can't count). Undo stops at the channel's retention edge (`history_keep`).
        Raises RulesError (nothing written) when there is nothing to undo or it can't be
        undone, and AlreadyApplied when this `interaction_id` undid something already (a second
        delivery). With `asks`, an undo that would take a character or monster away raises
        AskFirst instead (nothing written); the confirmed command passes `expect`, the target it
        was asked about, and is refused if the undo would now take another."""
        return await undo.undo_last(
            self._changes,
            channel_id,
            guild_id,
            actor_id,
            is_gm,
            manages_server,
            interaction_id=interaction_id,
            asks=asks,
            expect=expect,
        )

    async def redo_last(
        self,
        channel_id: int,
        guild_id: int | None,
        actor_id: int,
        is_gm: bool | GmTest,
        manages_server: bool = False,
        *,
        interaction_id: int | None = None,
        asks: bool = False,
        expect: int | None = None,
    ) -> Redone:
        """Take back the channel's latest undo not yet redone (a GM) or the actor's own (a
        player): put back what it took, log a "redo" event, mark the undo `undone_by` it, all in
        one transaction that holds the channel's lock. `is_gm`, `asks` and `expect` as for
        `undo_last`. Raises RulesError (nothing written) when there is nothing to redo or it
        can't be redone, and AlreadyApplied when this `interaction_id` redid something already."""
        return await redo.redo_last(
            self._changes,
            channel_id,
            guild_id,
            actor_id,
            is_gm,
            manages_server,
            interaction_id=interaction_id,
            asks=asks,
            expect=expect,
        )

    async def import_channel(
        self,
        channel_id: int,
        guild_id: int | None,
        actor_id: int,
        imported: Imported,
        *,
        check: import_write.Check = import_write.anyone,
        replace: tuple[int | None] | None = None,
        interaction_id: int | None = None,
    ) -> import_write.ImportDone:
        """Write a checked export (`store.import_file`, `table.imported`) into the channel, in
        one transaction that holds its lock: at once into an empty channel; into one with a
        table only with `replace`, holding the id of the newest change the asker saw (else
        TableThere, nothing written), as one change that /undo takes back whole. `check`
        refuses (raises) by the table this transaction reads: who may, by its settings."""
        return await import_write.import_channel(
            self._changes,
            channel_id,
            guild_id,
            actor_id,
            imported,
            check=check,
            replace=replace,
            interaction_id=interaction_id,
        )

    async def make_link(
        self,
        channel_id: int,
        guild_id: int | None,
        actor_id: int,
        locale: str | None,
        key: bytes,
        *,
        check: links.Check = links.anyone,
        interaction_id: int | None = None,
    ) -> tuple[str, bool]:
        """The token of the channel's web page link, and whether it was made now (logged as
        "table link"); the one there is, when its token can be made again with `key`. `check`
        refuses (raises) by the table this transaction reads: who may, by its settings."""
        return await links.make_link(
            self._changes,
            channel_id,
            guild_id,
            actor_id,
            locale,
            key,
            check=check,
            interaction_id=interaction_id,
        )

    async def revoke_link(
        self,
        channel_id: int,
        guild_id: int | None,
        actor_id: int,
        *,
        check: links.Check = links.anyone,
        interaction_id: int | None = None,
    ) -> bool:
        """Revoke the channel's web page link (logged as "table revoke"); False when it has
        none. `check` as for `make_link`."""
        return await links.revoke_link(
            self._changes,
            channel_id,
            guild_id,
            actor_id,
            check=check,
            interaction_id=interaction_id,
        )

    async def find_link(self, token: str) -> links.Link | None:
        """The live link with this token, else None, whatever the reason, in the same time."""
        return await links.find_link(self._backend, token)

    async def live_hash(self, channel_id: int) -> str | None:
        """The hash of the channel's live link's token, or None: what open pages are checked by."""
        return await links.live_hash(self._backend, channel_id)

    async def fatigue_chart(
        self, channel_id: int, guild_id: int | None, since: str, character: str | None
    ) -> FatigueSeries:
        """The series of the channel's fatigue chart (`/party chart`), from `since` (a
        `table.fatigue_series` start) for one `character` or the party; RulesError for a chart
        that can't be drawn: no characters, no Fatigue Level, a start the kept history no
        longer reaches."""
        return await chart.fatigue_chart(self._backend, channel_id, guild_id, since, character)

    async def fatigue_chart_rows(
        self, channel_id: int, guild_id: int | None, since: str, character: str | None
    ) -> chart.ChartRows:
        """What `fatigue_chart` builds its series from, as read (`store.chart.series_of` builds
        it): for a caller that builds it elsewhere, such as the picture's worker process.
        RulesError as `fatigue_chart` for a start the kept history no longer reaches."""
        return await chart.chart_rows(self._backend, channel_id, guild_id, since, character)

    # --- the roll log ----------------------------------------------------------------------

    async def log_rolls(
        self, rolls: Sequence[tuple[int, LoggedRoll]], keep: int, trimmed: Sequence[int] = ()
    ) -> None:
        """Keep (channel id, roll) pairs in the roll log in one transaction, each roll once
        (one kept already stays as it was), then trim the `trimmed` channels to their newest
        `keep` rolls. No event: a roll is no change (`store.roll_writer` calls this)."""
        await roll_log.log_rolls(self._backend, rolls, keep, trimmed)

    async def channel_rolls(self, channel_id: int) -> list[LoggedRoll]:
        """The channel's kept rolls, oldest first, secret ones too (/export)."""
        return await roll_log.channel_rolls(self._backend, channel_id)

    async def dice_report_rows(
        self, channel_id: int, since: str, whose: str | None, secret: bool
    ) -> roll_log.ReportRows:
        """The rolls a `/dice report` counts, as read (`store.roll_log.report_of` builds it):
        since this evening (`table.evening`, by the channel's changes and rolls) or all kept;
        secret ones only when `secret`."""
        return await roll_log.report_rows(self._backend, channel_id, since, whose, secret)

    # --- secret rolls ----------------------------------------------------------------------

    async def keep_secret(self, roll: SecretRoll) -> None:
        """Keep a secret roll, so the GM's peek and Reveal find it again, after a restart too
        (one transaction; the same message twice keeps the first)."""
        await secrets.keep_secret(self._backend, roll)

    async def find_secret(self, message_id: int) -> SecretRoll | None:
        """The secret roll the channel message `message_id` announces, if one is kept."""
        return await secrets.find_secret(self._backend, message_id)

    async def mark_revealed(self, roll: SecretRoll, gm_id: int) -> bool:
        """Mark the roll revealed by `gm_id`; False when it already was (by anyone)."""
        return await secrets.mark_revealed(self._backend, roll, gm_id)


class _Opening:
    """What `Store.open` returns: await it for a Store, or use it with `async with`."""

    def __init__(self, opening: Callable[[], Coroutine[Any, Any, Store]]) -> None:
        self._opening = opening
        self._store: Store | None = None

    def __await__(self) -> Generator[Any, None, Store]:
        return self._opening().__await__()

    async def __aenter__(self) -> Store:
        self._store = await self._opening()
        return self._store

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._store is not None:
            await self._store.close()
