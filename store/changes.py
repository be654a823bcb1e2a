"""The change feed: which channels' changes committed, for an open web page to follow (web/).

On SQLite (one process) the backend tells it after each commit. On PostgreSQL each event's
insert NOTIFYs its channel (migration V15), so a page follows every bot process's changes, on a
listening connection of its own; lost, it is opened again, and then every channel is said to
have changed (None), so nothing missed meanwhile stays missed."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import asyncpg

from store.sqlite import SqliteBackend
from store.store import Store

log = logging.getLogger(__name__)
CHANNEL = "tablekeeper_changes"  # what migration V15's trigger notifies
Told = Callable[[int | None], None]  # a channel id, or None: any channel may have changed


class ChangeFeed:
    """Tells `told` each channel whose change committed, until closed."""

    def __init__(self, store: Store, told: Told, url: str = "") -> None:
        self._store, self._told, self._url = store, told, url
        self._listening: asyncpg.Connection | None = None
        self._reconnecting: asyncio.Task[None] | None = None
        self._closed = False

    @classmethod
    async def open(cls, store: Store, url: str, told: Told) -> ChangeFeed:
        """Follow `store`'s changes (`url`: its PostgreSQL database, listened to)."""
        feed = cls(store, told, url)
        if isinstance(store.backend, SqliteBackend):
            store.backend.committed.append(told)
        else:
            await feed._listen()
        return feed

    async def _listen(self) -> None:
        conn = await asyncpg.connect(self._url, server_settings={"application_name": "tk-web"})
        await conn.add_listener(CHANNEL, self._notified)
        conn.add_termination_listener(self._lost)
        self._listening = conn

    def _notified(self, conn: Any, pid: int, channel: str, payload: str) -> None:
        with contextlib.suppress(ValueError):
            self._told(int(payload))

    def _lost(self, conn: Any) -> None:
        if not self._closed and self._reconnecting is None:
            self._reconnecting = asyncio.ensure_future(self._reconnect())

    async def _reconnect(self) -> None:
        delay = 0.5
        while not self._closed:
            try:
                await self._listen()
            except Exception as error:  # whatever the reason, try again
                log.warning("Can't listen for changes (%s): trying again in %.1f s", error, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)
                continue
            self._reconnecting = None
            self._told(None)  # what changed while no one listened is caught up
            return

    async def close(self) -> None:
        self._closed = True
        backend = self._store.backend
        if isinstance(backend, SqliteBackend) and self._told in backend.committed:
            backend.committed.remove(self._told)
        if self._reconnecting is not None:
            self._reconnecting.cancel()
        if self._listening is not None:
            with contextlib.suppress(Exception):
                await self._listening.close()
            self._listening = None
