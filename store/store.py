"""The store: every query the bot makes, as the typed methods of one `Store`, the same on either
backend (`Store.open("sqlite:///tablekeeper.db")` or `Store.open("postgresql://…")`). Each method
is one transaction, a read or a change that holds its channel's lock, whose body lives with its
part (`store.channel_read`, `store.channel_write`, `store.undo`, `store.links`, …).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Generator, Sequence
from datetime import UTC, datetime
from typing import Any, Concatenate, NamedTuple, ParamSpec, Self, TypeVar

from store import chart, import_write, links, roll_log, undo
from store.backend import Backend, Tx
from store.channel_read import Check, anyone, load_channel
from store.channel_write import apply_change
from store.errors import StoreError
from store.event_log import Request, read_log, read_newest, read_page
from store.postgres import PostgresBackend, is_postgres_url
from store.roll_log import SecretRoll, read_rolls
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


class Exported(NamedTuple):
    table: Table
    events: list[Event]
    rolls: list[LoggedRoll]


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
        """`retry_for`: seconds to keep trying a database server that can't be reached yet."""

        async def opening() -> Store:
            return cls(await open_backend(url, sqlite_synchronous, retry_for), now)

        return _Opening(opening)

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
        guild_id: int | None,
        actor_id: int,
        interaction_id: int | None,
        body: Callable[Concatenate[Tx, Request, P], Awaitable[R]],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> R:
        """`body(tx, request, …)` in a transaction that holds the channel's lock, the request's
        `now` read as it begins."""

        def run(tx: Tx) -> Awaitable[R]:
            request = Request(channel_id, guild_id, actor_id, interaction_id, self._now())
            return body(tx, request, *args, **kwargs)

        return await self.backend.write(channel_id, run)

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

    async def read_with_history(self, channel_id: int, guild_id: int | None = None) -> Exported:
        """The channel, its whole event log and its roll log, oldest first, from one snapshot
        (/export)."""

        async def body(tx: Tx) -> Exported:
            table = (await load_channel(tx, channel_id, guild_id)).table
            return Exported(table, await read_log(tx, channel_id), await read_rolls(tx, channel_id))

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
        """The channel's newest `limit` changes, as `history` gives them; of `known`, an earlier
        answer, only the undo links are read again (what an open web page reads each change)."""
        found = await self.backend.read(
            lambda tx: read_newest(tx, channel_id, limit, known), single=True
        )
        return list(found) if found is not None else await self.history(channel_id, limit)

    async def fatigue_chart_rows(
        self, channel_id: int, guild_id: int | None, since: str, character: str | None
    ) -> chart.ChartRows:
        """What `/party chart` is built from (`store.chart.series_of`, in the picture's worker);
        RulesError for a chart that can't be drawn (no characters, a start no longer kept)."""
        return await chart.chart_rows(self.backend, channel_id, guild_id, since, character)

    async def find_link(self, token: str) -> links.Link | None:
        """The live link with this token, else None, whatever the reason, in the same time."""
        return await links.find_link(self.backend, token)

    async def live_hash(self, channel_id: int) -> str | None:
        """The hash of the channel's live link's token, or None: what open pages are checked by."""
        return await links.live_hash(self.backend, channel_id)

    async def find_secret(self, message_id: int) -> SecretRoll | None:
        """The secret roll the channel message `message_id` announces, if one was saved."""
        return await roll_log.find_secret(self.backend, message_id)

    async def dice_report_rows(
        self, channel_id: int, since: str, whose: str | None, secret: bool
    ) -> roll_log.ReportRows:
        """The rolls a `/dice report` counts (`store.roll_log.report_of`, in the picture's
        worker): since this evening (`table.evening`) or all; secret ones only when `secret`."""
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
            channel_id, guild_id, actor_id, interaction_id, apply_change, action, fn, parts
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
        """Undo the channel's latest standing change (a GM) or the actor's own (a player), logged
        as an "undo". `is_gm` may test the settings this transaction reads (a GM role cleared
        just before can't count). RulesError when there is nothing it may undo, within what
        the channel keeps; AlreadyApplied on a second delivery. With `asks`, an undo that would
        take a character or monster away raises AskFirst; the confirmed one passes `expect`,
        the target asked about, and is refused if it would now take another."""
        asked = undo.Asked(is_gm, manages_server, asks, expect)
        return await self._change(
            channel_id, guild_id, actor_id, interaction_id, undo.undo_last, asked
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
        player), logged as a "redo"; otherwise as `undo_last`."""
        asked = undo.Asked(is_gm, manages_server, asks, expect)
        return await self._change(
            channel_id, guild_id, actor_id, interaction_id, undo.redo_last, asked
        )

    async def import_channel(
        self,
        channel_id: int,
        guild_id: int | None,
        actor_id: int,
        imported: Imported,
        *,
        check: Check = anyone,
        replace: tuple[int | None] | None = None,
        interaction_id: int | None = None,
        rolls_keep: int = KEEP_DEFAULT,
    ) -> import_write.ImportDone:
        """Write a checked export (`exports.reading`) into the channel, keeping what the channel
        keeps and the newest `rolls_keep` rolls: into an empty channel at once; into one with a
        table only with `replace`, the id of the newest change the asker saw (else
        TableThere), as one change /undo takes back whole. `check` refuses by the table read."""
        return await self._change(
            channel_id,
            guild_id,
            actor_id,
            interaction_id,
            import_write.import_channel,
            imported,
            check,
            replace,
            rolls_keep,
        )

    async def make_link(
        self,
        channel_id: int,
        guild_id: int | None,
        actor_id: int,
        locale: str | None,
        key: bytes,
        *,
        check: Check = anyone,
        interaction_id: int | None = None,
    ) -> tuple[str, bool]:
        """The token of the channel's web page link, and whether it was made now ("table link");
        the one there is, if made with `key`. `check` refuses by the table read."""
        return await self._change(
            channel_id, guild_id, actor_id, interaction_id, links.make_link, locale, key, check
        )

    async def revoke_link(
        self,
        channel_id: int,
        guild_id: int | None,
        actor_id: int,
        *,
        check: Check = anyone,
        interaction_id: int | None = None,
    ) -> bool:
        """Revoke the channel's web page link (logged as "table revoke"); False when it has
        none. `check` as for `make_link`."""
        return await self._change(
            channel_id, guild_id, actor_id, interaction_id, links.revoke_link, check
        )

    async def save_secret(self, roll: SecretRoll) -> None:
        """Save a secret roll for the GM's peek and Reveal (the same message twice: the first)."""
        await roll_log.save_secret(self.backend, roll)

    async def mark_revealed(self, roll: SecretRoll, gm_id: int) -> bool:
        """Mark the roll revealed by `gm_id`; False when it already was (by anyone)."""
        return await roll_log.mark_revealed(self.backend, roll, gm_id)

    async def log_rolls(
        self, rolls: Sequence[tuple[int, LoggedRoll]], keep: int, trimmed: Sequence[int] = ()
    ) -> None:
        """Save (channel id, roll) pairs, each once, and trim the `trimmed` channels to `keep`
        rolls: no event, no channel's lock, a roll being no change (`bot.roll_writer`)."""
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
