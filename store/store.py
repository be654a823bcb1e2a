"""The store: what the bot asks of its database, as the typed methods of one `Store`, the same
for every backend. Each method is one transaction: a read (`read`, `history`, `newest`,
`read_with_history`, `fatigue_chart_rows`, `find_link`, `live_hash`, `find_secret`) or a change
that holds its channel's lock (`apply`, `undo_last`, `redo_last`, `import_channel`,
`make_link`, `revoke_link`, `save_secret`, `mark_revealed`); the roll log's reads
(`channel_rolls`, `dice_report_rows`) and its writes (`log_rolls`), which are no change.

`Store.open("sqlite:///tablekeeper.db")` or `Store.open("postgresql://user:pass@host/db")`.
Each transaction's body lives with its part: reading a channel `store.channel_read`; a change
`store.channel_write`, logged by `store.event_log`; the log read back `store.events` and
`store.chart`; `store.undo` (and redo), `store.import_write`, `store.links`,
`store.secrets`, `store.roll_log`. What differs between SQLite and PostgreSQL lives behind
`store.backend.Backend` (`store.sqlite`, `store.postgres`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Generator, Sequence
from datetime import UTC, datetime
from typing import Any, Concatenate, ParamSpec, Self, TypeVar

from store import chart, import_write, links, roll_log, secrets, undo
from store.backend import Backend, Tx
from store.channel_read import load_channel
from store.channel_write import apply_change
from store.errors import StoreError
from store.events import read_log, read_newest, read_page
from store.postgres import PostgresBackend, is_postgres_url
from store.secrets import SecretRoll
from store.sqlite import PREFIX as SQLITE_PREFIX
from store.sqlite import SqliteBackend
from table.event import Event
from table.imported import Imported
from table.model import Table
from table.parts import EVERYTHING, Parts
from table.roll_log import KEEP_DEFAULT, LoggedRoll
from table.undo import GmTest, Redone, Undone

R = TypeVar("R")
P = ParamSpec("P")
URL_FORMS = "sqlite:///path/to/file.db or postgresql://user:password@host:5432/database"


async def open_backend(
    url: str, sqlite_synchronous: str = "full", retry_for: float = 0.0
) -> Backend:
    """The backend the URL names: SQLite (`sqlite:///…`) or PostgreSQL (`postgresql://…`).
    `sqlite_synchronous` ("full" or "normal") is SQLite's durability; PostgreSQL's commit is
    always durable (its default synchronous_commit). A PostgreSQL server that can't be reached
    is tried again for `retry_for` seconds: it may still be starting."""
    if is_postgres_url(url):
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
        self.backend = backend
        self._now = now  # the clock changes are logged at

    @classmethod
    def open(
        cls,
        url: str,
        *,
        now: Callable[[], datetime] = _utcnow,
        sqlite_synchronous: str = "full",
        retry_for: float = 0.0,
    ) -> _Opening:
        """`retry_for`: seconds to go on trying a database server that can't be reached yet."""
        return _Opening(lambda: cls._open(url, now, sqlite_synchronous, retry_for))

    @classmethod
    async def _open(
        cls, url: str, now: Callable[[], datetime], synchronous: str, retry_for: float
    ) -> Store:
        return cls(await open_backend(url, synchronous, retry_for), now)

    @property
    def dialect(self) -> str:
        return self.backend.dialect

    async def close(self) -> None:
        await self.backend.close()

    def watch(self, watcher: Callable[[bool], None] | None) -> None:
        """Have `watcher(wrote)` called after each read (False) and change (True) that reached
        the database, until `watch(None)`: how the end of an outage is noticed."""
        self.backend.watcher = watcher

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _change(
        self,
        channel_id: int,
        body: Callable[Concatenate[Tx, datetime, int, P], Awaitable[R]],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> R:
        """`body(tx, now, channel_id, …)` in a transaction that holds the channel's lock, `now`
        read as it begins."""
        return await self.backend.write(
            channel_id, lambda tx: body(tx, self._now(), channel_id, *args, **kwargs)
        )

    # --- reading ---------------------------------------------------------------------------

    async def ping(self) -> None:
        """One round trip to the database: the health check's "does it answer?"."""
        await self.backend.read(lambda tx: tx.fetchone("SELECT 1 AS one"), single=True)

    async def read(
        self, channel_id: int, guild_id: int | None = None, parts: Parts = EVERYTHING
    ) -> Table:
        """A snapshot of the channel; an unknown channel reads as the defaults (nothing written).
        `parts` names what to load besides the channel row: a Table read without "monsters"
        simply has none (commands that never touch monsters skip reading them)."""
        read = await self.backend.read(
            lambda tx: load_channel(tx, channel_id, guild_id, parts), single=True
        )
        return read.table

    async def read_with_history(
        self, channel_id: int, guild_id: int | None = None
    ) -> tuple[Table, list[Event]]:
        """The channel and its whole event log, oldest first, from one snapshot (/export)."""

        async def body(tx: Tx) -> tuple[Table, list[Event]]:
            table = (await load_channel(tx, channel_id, guild_id)).table
            return table, await read_log(tx, channel_id)

        return await self.backend.read(body)

    async def history(
        self,
        channel_id: int,
        limit: int = 10,
        before_id: int | None = None,
        after_id: int | None = None,
    ) -> list[Event]:
        """The channel's latest changes, newest first; `before_id` pages further back, and
        `after_id` gives the `limit` changes right after that one (a page back towards now)."""
        events = await self.backend.read(
            lambda tx: read_page(tx, channel_id, limit, before_id, after_id), single=True
        )
        return sorted(events, key=lambda event: event.id, reverse=True)

    async def newest(self, channel_id: int, limit: int, known: Sequence[Event] = ()) -> list[Event]:
        """The channel's newest `limit` changes, newest first, as `history` gives them.
        `known`, an earlier answer, is used again where it still holds: only the changes logged
        since are read in full, and of the rest only their undo links (what an open web page
        reads after every change)."""
        found = await self.backend.read(
            lambda tx: read_newest(tx, channel_id, limit, known), single=True
        )
        return list(found) if found is not None else await self.history(channel_id, limit)

    async def fatigue_chart_rows(
        self, channel_id: int, guild_id: int | None, since: str, character: str | None
    ) -> chart.ChartRows:
        """What the channel's fatigue chart (`/party chart`) is built from, from `since` (a
        `table.fatigue_series` start) for one `character` or the party, as read
        (`store.chart.series_of` builds it, in the picture's worker process). RulesError for a
        chart that can't be drawn: no characters, a start the kept history no longer reaches."""
        return await chart.chart_rows(self.backend, channel_id, guild_id, since, character)

    async def find_link(self, token: str) -> links.Link | None:
        """The live link with this token, else None, whatever the reason, in the same time."""
        return await links.find_link(self.backend, token)

    async def live_hash(self, channel_id: int) -> str | None:
        """The hash of the channel's live link's token, or None: what open pages are checked by."""
        return await links.live_hash(self.backend, channel_id)

    async def find_secret(self, message_id: int) -> SecretRoll | None:
        """The secret roll the channel message `message_id` announces, if one was saved."""
        return await secrets.find_secret(self.backend, message_id)

    async def channel_rolls(self, channel_id: int) -> list[LoggedRoll]:
        """The channel's roll log, oldest first, secret rolls too (/export)."""
        return await roll_log.channel_rolls(self.backend, channel_id)

    async def dice_report_rows(
        self, channel_id: int, since: str, whose: str | None, secret: bool
    ) -> roll_log.ReportRows:
        """The rolls a `/dice report` counts, as read (`store.roll_log.report_of` builds it, in
        the picture's worker): since this evening (`table.evening`, by the channel's changes and
        rolls) or all the log holds; secret ones only when `secret`."""
        return await roll_log.report_rows(self.backend, channel_id, since, whose, secret)

    # --- changing: each a transaction that holds its channel's lock -------------------------

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
        or is written and AlreadyApplied is raised."""
        return await self._change(
            channel_id,
            apply_change,
            guild_id,
            actor_id,
            action,
            fn,
            parts,
            interaction_id=interaction_id,
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
        asked = undo.Asked(guild_id, actor_id, is_gm, manages_server, interaction_id, asks, expect)
        return await self._change(channel_id, undo.undo_last, asked)

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
        asked = undo.Asked(guild_id, actor_id, is_gm, manages_server, interaction_id, asks, expect)
        return await self._change(channel_id, undo.redo_last, asked)

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
        rolls_keep: int = KEEP_DEFAULT,
    ) -> import_write.ImportDone:
        """Write a checked export (`store.import_file`, `table.imported`: checked for a channel of
        `guild_id`) into the channel, in one transaction that holds its lock, keeping of its
        history what the channel keeps, and of its rolls the newest `rolls_keep` (the roll
        log's bound, ROLL_LOG_KEEP): at once into an empty channel; into one with a
        table only with `replace`, holding the id of the newest change the asker saw (else
        TableThere, nothing written), as one change that /undo takes back whole. `check`
        refuses (raises) by the table this transaction reads: who may, by its settings."""
        return await self._change(
            channel_id,
            import_write.import_channel,
            guild_id,
            actor_id,
            imported,
            check=check,
            replace=replace,
            interaction_id=interaction_id,
            rolls_keep=rolls_keep,
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
        return await self._change(
            channel_id,
            links.make_link,
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
        return await self._change(
            channel_id,
            links.revoke_link,
            guild_id,
            actor_id,
            check=check,
            interaction_id=interaction_id,
        )

    async def save_secret(self, roll: SecretRoll) -> None:
        """Save a secret roll, so the GM's peek and Reveal find it again, after a restart too
        (one transaction; the same message twice: the first stays)."""
        await secrets.save_secret(self.backend, roll)

    async def mark_revealed(self, roll: SecretRoll, gm_id: int) -> bool:
        """Mark the roll revealed by `gm_id`; False when it already was (by anyone)."""
        return await secrets.mark_revealed(self.backend, roll, gm_id)

    async def log_rolls(
        self, rolls: Sequence[tuple[int, LoggedRoll]], keep: int, trimmed: Sequence[int] = ()
    ) -> None:
        """Save (channel id, roll) pairs in the roll log in one transaction, each roll once (one
        saved already stays as it was), then trim the `trimmed` channels to their newest `keep`
        rolls. No event and no channel's lock: a roll is no change (`store.roll_writer`)."""
        await roll_log.log_rolls(self.backend, rolls, keep, trimmed)


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

    async def __aexit__(self, *exc: object) -> None:
        if self._store is not None:
            await self._store.close()
