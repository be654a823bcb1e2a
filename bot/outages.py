"""The database's outages as the bot lives them: each kind (unreachable, disk full, read-only) is
logged once when it begins and once when it ends, with how long it lasted and how many commands
it refused, never once per command; `/healthz` says which are on (`problem`).

Fed by the error handler (`refused`: the store refused a command with a `DatabaseOutage`), by
whatever else meets one (`noticed`: the health check's ping, an autocomplete) and, while one is
on, by the store itself (`Store.watch`): a read that reached the database ends an unreachable
one; a change that was saved ends every one (a full disk or a read-only file only shows in a
write). An end is logged only once `settle` seconds pass without the outage being met again:
as a server goes down or comes back, a call may still get through between two refusals, and
that is one outage, not several."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import discord

from store.errors import DatabaseFull, DatabaseOutage, DatabaseReadOnly, DatabaseUnreachable

log = logging.getLogger(__name__)

UNREACHABLE, DISK_FULL, READ_ONLY = (
    DatabaseUnreachable.reason,
    DatabaseFull.reason,
    DatabaseReadOnly.reason,
)
REASONS = (UNREACHABLE, DISK_FULL, READ_ONLY)
# How the log and /healthz say each (in English: they are read by whoever runs the bot).
SAID = {
    UNREACHABLE: "database unreachable",
    DISK_FULL: "database disk full",  # changes refused, reads go on
    READ_ONLY: "database read-only",  # the same
}
Watcher = Callable[[bool], None]
SETTLE = 2.0  # seconds an outage must go unmet after the database was reached, to be over


@dataclass
class Outage:
    reason: str
    began: float  # on the monotonic clock
    cause: str  # the first error met, as the store said it
    refused: int = 0  # commands refused so far
    ended: float | None = None  # when the database was reached again, if it was
    settling: asyncio.TimerHandle | None = None  # logs the end, if nothing meets it again


class Outages:
    """`watch` is the store's (`Store.watch`): it is given `reached` while an outage is on,
    and None once none is, so the store's calls cost nothing more in between."""

    def __init__(
        self,
        watch: Callable[[Watcher | None], None],
        clock: Callable[[], float] = time.monotonic,
        settle: float = SETTLE,
    ) -> None:
        self._watch = watch
        self._clock = clock
        self.settle = settle
        self.on: dict[str, Outage] = {}  # by reason, in the order they began

    def refused(self, error: DatabaseOutage) -> None:
        """A command was refused for `error`."""
        self.noticed(error).refused += 1

    def noticed(self, error: DatabaseOutage) -> Outage:
        """`error` was met: the outage of its kind is on (logged if it begins now)."""
        outage = self.on.get(error.reason)
        if outage is None:
            outage = self.on[error.reason] = Outage(error.reason, self._clock(), str(error))
            log.warning("Database outage began: %s (%s)", _said(error.reason), outage.cause)
            if len(self.on) == 1:
                self._watch(self.reached)
        elif outage.settling is not None:  # it was ending: it goes on
            outage.settling.cancel()
            outage.ended = outage.settling = None
        return outage

    def reached(self, wrote: bool) -> None:
        """The store reached the database: a read ends an unreachable outage, a saved change
        ends every one (logged once `settle` seconds pass without it met again)."""
        for outage in self.on.values():
            if outage.ended is None and (wrote or outage.reason == UNREACHABLE):
                outage.ended = self._clock()
                loop = asyncio.get_running_loop()
                outage.settling = loop.call_later(self.settle, self._end, outage.reason)

    def _end(self, reason: str) -> None:
        outage = self.on.pop(reason)
        log.warning(
            "Database outage ended: %s, for %.1f s; commands refused: %d",
            _said(reason),
            (outage.ended or self._clock()) - outage.began,
            outage.refused,
        )
        if not self.on:
            self._watch(None)

    def problem(self) -> str | None:
        """What `/healthz` says of the outages on now (not those ending), or None."""
        now = self._clock()
        said = [
            f"{_said(o.reason)} for {now - o.began:.0f} s (commands refused: {o.refused})"
            for o in self.on.values()
            if o.ended is None
        ]
        return "; ".join(said) or None


def _said(reason: str) -> str:
    return SAID.get(reason, f"database {reason}")


def of(interaction: discord.Interaction) -> Outages | None:
    """The bot's outages, if the client is a Tablekeeper (a bare test client has none)."""
    outages = getattr(interaction.client, "outages", None)
    return outages if isinstance(outages, Outages) else None
