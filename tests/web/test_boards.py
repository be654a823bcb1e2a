"""A channel's board built once per change and language, whether a page is loaded or a stream
is open, off the event loop; and built again when its server's settings change it, though its
own log didn't."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from table.model import Table
from table.sheet import SettingsOptions, change_server_settings
from tests.store.conftest import Database
from tests.web.test_server import CH, GM, GUILD, _spend, fetch, serving
from web import boards

OTHER = 1002  # another channel of the same server


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The thread each board was built on, in the order they were built."""
    threads: list[int] = []
    build = boards.build

    def counted(read: boards.Read, language: str | None) -> boards.Board:
        threads.append(threading.get_ident())
        return build(read, language)

    monkeypatch.setattr(boards, "build", counted)
    yield threads


def _monster_stats_shown(table: Table) -> tuple[Table, object]:
    return change_server_settings(table, SettingsOptions(monster_stats="shown"))


async def test_a_board_is_built_once_per_change_off_the_event_loop(
    db: Database, built: list[int], shipped_catalogs: None
) -> None:
    async with serving(db) as s:
        for _ in range(3):
            assert (await fetch(s.page))[0] == 200
        assert len(built) == 1  # loaded three times, no stream open: built once
        assert threading.get_ident() not in built  # not on the event loop's thread
        await s.store.apply(CH, GUILD, GM, "fatigue spend", _spend(9))
        status, html, _headers = await fetch(s.page)
        assert status == 200 and "9<span" in html and len(built) == 2
        await fetch(s.page + "?lang=es")
        await fetch(s.page + "?lang=es-ES")
        assert len(built) == 3  # Spanish has a board of its own
        # The server's settings changed from another channel: this one's board changes too.
        await s.store.apply(OTHER, GUILD, GM, "settings server", _monster_stats_shown)
        await fetch(s.page)
        assert len(built) == 4
        assert threading.get_ident() not in built
