"""`python -m bot copy-db`: SQLite → PostgreSQL and back, after which the bot on the target
shows the same boards and history and undoes the same change; and every refusal is one line."""

from __future__ import annotations

import io
import os
import sqlite3
import sys
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.tools import ToolError
from bot.tools.copydb import copy_db
from store.migrate import load_migrations
from store.sqlite import migrate_sqlite
from tests.e2e.conftest import Env
from tests.e2e.test_process import process_env, run_tool
from tests.localdiscord.client import LocalDiscord
from tests.pg import Unavailable, throwaway_server

VIEWS = ("party show", "history", "monster list", "settings show", "clock show")


async def views(d: LocalDiscord) -> dict[str, str]:
    """What the GM sees in #table: the board, the history, the bestiary, settings, clock."""
    return {view: (await d.slash(view, user=d.gm)).text for view in VIEWS}


async def play(d: LocalDiscord) -> None:
    await d.slash("character create", user=d.player, name="Aria", fatigue_level=20)
    await d.slash("character create", user=d.player2, name="Bo", fatigue_level=15)
    await d.slash("monster create", user=d.gm, name="Troll", rank=3, armor="medium", hp=40)
    await d.slash("monster hit", user=d.gm, name="Troll", damage=18)
    await d.slash("settings set", user=d.gm, ties="succeed")
    await d.slash("clock pass", user=d.gm, minutes=10)
    await d.slash("fatigue spend", user=d.player, amount=3)
    await d.slash("party spend", user=d.gm, amount=2)
    await d.slash("undo", user=d.player2)  # Bo's part can't be undone alone: the GM's can
    await d.slash("fatigue spend", user=d.player2, amount=4)
    await d.slash("character create", user=d.gm, name="Side", fatigue_level=10, channel=d.ooc)


async def run_copy(source: str, target: str, cwd: Path) -> tuple[int, str, str]:
    return await run_tool("copy-db", source, target, env=process_env(), cwd=cwd)


async def test_sqlite_to_postgres_and_back_keeps_boards_history_and_undo(
    tmp_path: Path, postgres_url: str
) -> None:
    sqlite_a = f"sqlite:///{tmp_path / 'a.db'}"
    sqlite_c = f"sqlite:///{tmp_path / 'c.db'}"
    async with LocalDiscord() as d:
        a = Env(d, sqlite_a)
        await a.start(sync=True)
        await play(d)
        before = await views(d)
        ooc_before = (await d.slash("party show", user=d.gm, channel=d.ooc)).text
        await a.stop()

        with sqlite3.connect(tmp_path / "a.db") as db:
            events = db.execute("SELECT count(*) FROM events").fetchone()[0]
        assert events > 8
        code, out, err = await run_copy(sqlite_a, postgres_url, tmp_path)
        assert (code, err) == (0, "")  # no progress bar: stderr is not a terminal
        assert out.startswith(f"Copied 2 channels, {events} events, 3 characters, ")
        assert ", 1 monsters" in out  # and every other table, even if empty
        assert out.endswith(f" from {sqlite_a} to {postgres_url}\n")

        # Ids kept, interaction ids too: a late second delivery is still refused after the move.
        # The keys /undo looks later changes up by, written by the target as its events went in.
        keys_sql = "SELECT channel_id, part, key, event_id FROM event_keys"
        with sqlite3.connect(tmp_path / "a.db") as db:
            ids = db.execute("SELECT id, interaction_id FROM events ORDER BY id").fetchall()
            keys = db.execute(keys_sql).fetchall()
        target = await asyncpg.connect(postgres_url)
        try:
            rows = await target.fetch("SELECT id, interaction_id FROM events ORDER BY id")
            copied_keys = await target.fetch(keys_sql)
        finally:
            await target.close()
        assert [tuple(row) for row in rows] == ids and all(i for _, i in ids)
        assert sorted(tuple(row) for row in copied_keys) == sorted(keys) and keys

        b = Env(d, postgres_url)
        await b.start(sync=False)
        assert await views(d) == before
        assert (await d.slash("party show", user=d.gm, channel=d.ooc)).text == ooc_before
        undone = await d.slash("undo", user=d.gm)  # undoes Bo's spend, as it would have on A
        assert "Bo" in undone.text and not undone.ephemeral
        spent = await d.slash("fatigue spend", user=d.player, amount=1)  # new ids follow on
        assert not spent.ephemeral
        after_b = await views(d)
        await b.stop()

        message = await copy_db(postgres_url, sqlite_c)
        assert message.startswith(f"Copied 2 channels, {events + 2} events")
        c = Env(d, sqlite_c)
        await c.start(sync=False)
        assert await views(d) == after_b
        again = await d.slash("undo", user=d.gm)
        assert "Aria" in again.text and not again.ephemeral
        await c.stop()
        d.assert_clean()


async def tablekeeper_sqlite(path: Path, *, versions: int | None = None, rows: bool = False) -> str:
    """A Tablekeeper SQLite database at the first `versions` migrations (all by default)."""
    async with aiosqlite.connect(path, isolation_level=None) as db:
        wanted = load_migrations()
        await migrate_sqlite(db, wanted if versions is None else wanted[:versions])
        if rows:
            await db.execute("INSERT INTO channels (channel_id) VALUES (1)")
    return f"sqlite:///{path}"


async def refusal(source: str, target: str) -> str:
    with pytest.raises(ToolError) as caught:
        await copy_db(source, target)
    text = str(caught.value)
    assert "\n" not in text
    return text


async def test_refusals_are_one_clear_line_and_write_nothing(tmp_path: Path) -> None:
    good = await tablekeeper_sqlite(tmp_path / "good.db", rows=True)
    latest = load_migrations()[-1].version

    full = await tablekeeper_sqlite(tmp_path / "full.db", rows=True)
    assert "already holds data (1 channels)" in await refusal(good, full)

    old = await tablekeeper_sqlite(tmp_path / "old.db", versions=1)
    assert f"is at schema version 1, this Tablekeeper's is {latest}" in await refusal(good, old)
    assert "run this version of the bot on it once" in await refusal(
        old, f"sqlite:///{tmp_path / 'x.db'}"
    )

    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    target = f"sqlite:///{tmp_path / 'new.db'}"
    assert "is not a Tablekeeper database" in await refusal(f"sqlite:///{other}", target)
    assert "holds other tables (notes)" in await refusal(good, f"sqlite:///{other}")

    text = tmp_path / "notes.log"
    text.write_text("just some notes\n" * 100, encoding="utf-8")
    assert "is not a SQLite database" in await refusal(f"sqlite:///{text}", target)
    assert "no such file" in await refusal(f"sqlite:///{tmp_path / 'missing.db'}", target)
    assert "same database" in await refusal(good, good)
    assert "must be sqlite:///" in await refusal("mysql://x/y", target)
    assert not (tmp_path / "new.db").exists()  # nothing was created for a refused source

    with sqlite3.connect(tmp_path / "old.db") as db:  # the refused target was left untouched
        assert db.execute("SELECT max(version) FROM schema_version").fetchone() == (1,)


async def test_unreachable_postgres_is_one_line_without_the_password(tmp_path: Path) -> None:
    good = await tablekeeper_sqlite(tmp_path / "good.db")
    url = "postgresql://tk:s3cret@127.0.0.1:1/tablekeeper"
    code, out, err = await run_copy(good, url, tmp_path)
    assert code == 1 and out == ""
    assert err.startswith(
        "Could not connect to TARGET postgresql://tk:***@127.0.0.1:1/tablekeeper:"
    )
    assert len(err.splitlines()) == 1 and "s3cret" not in err and "Traceback" not in err


async def test_a_wrong_password_is_one_line(tmp_path: Path) -> None:
    try:
        server_cm = throwaway_server(password="right-password")
        server = server_cm.__enter__()
    except Unavailable as why:
        if os.environ.get("TK_REQUIRE_POSTGRES") == "1":
            pytest.fail(str(why))
        pytest.skip(str(why))
    try:
        wrong = server.admin_url.replace("right-password", "wrong-password")
        good = await tablekeeper_sqlite(tmp_path / "good.db")
        text = await refusal(wrong, good)
        assert text.startswith("Could not connect to SOURCE postgresql://postgres:***@127.0.0.1")
        assert "password authentication failed" in text and "wrong-password" not in text
    finally:
        server_cm.__exit__(None, None, None)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


async def test_a_progress_bar_only_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = await tablekeeper_sqlite(tmp_path / "good.db", rows=True)
    terminal, log = Terminal(), io.StringIO()
    monkeypatch.setattr(sys, "stderr", terminal)
    await copy_db(good, f"sqlite:///{tmp_path / 'one.db'}")
    monkeypatch.setattr(sys, "stderr", log)
    await copy_db(good, f"sqlite:///{tmp_path / 'two.db'}")
    assert "Copying" in terminal.getvalue() and "rows" in terminal.getvalue()
    assert log.getvalue() == ""


async def test_the_copy_is_one_transaction(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure halfway (after a few values went in) leaves the target without any row, and
    the same copy then goes through."""
    async with LocalDiscord() as d:
        source = f"sqlite:///{tmp_path / 'a.db'}"
        a = Env(d, source)
        await a.start(sync=True)
        await play(d)
        await a.stop()

    from bot.tools import copydb

    real = copydb._convert
    target = tmp_path / "b.db"
    calls = {"n": 0}

    def fail_on_events(value: object, target_type: str) -> object:
        calls["n"] += 1
        if calls["n"] > 5:
            raise RuntimeError("disk full")
        return real(value, target_type)

    monkeypatch.setattr(copydb, "_convert", fail_on_events)
    with pytest.raises(RuntimeError, match="disk full"):
        await copy_db(source, f"sqlite:///{target}")
    with sqlite3.connect(target) as db:
        counts = [
            db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("channels", "events")
        ]
    assert counts == [0, 0]
    monkeypatch.setattr(copydb, "_convert", real)
    assert (await copy_db(source, f"sqlite:///{target}")).startswith("Copied 2 channels")
