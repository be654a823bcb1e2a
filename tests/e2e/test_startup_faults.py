"""`python -m bot` against a bad disk, a bad database, or a service that can't be reached: one
clear line naming the problem, a non-zero exit, no traceback, and the database file untouched."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import shutil
import signal
import sqlite3
import stat
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web

from store import Store, StoreError
from store.migrate import load_migrations
from tests.e2e.test_operations_process import free_port
from tests.e2e.test_process import bot_process, finish, output, process_env

pytestmark = pytest.mark.asyncio

TOKEN = "MTIzNDU2Nzg5.start.c2VjcmV0LXRva2VuLWZvci1zdGFydC11cA"
KNOWN = load_migrations("sqlite")[-1].version
# Root may write any file whatever its mode; without these two capabilities it may not.
AS_A_USER = (
    ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"]
    if os.geteuid() == 0
    else []
)
needs_a_user = pytest.mark.skipif(
    os.geteuid() == 0 and shutil.which("setpriv") is None,
    reason="as root, read-only files need setpriv (util-linux) to stay read-only",
)


def discord_at(api: str, database: Path, retry_for: str) -> dict[str, str]:
    """The bot's settings with Discord's API at `api`, tried for `retry_for` seconds."""
    return process_env(
        DISCORD_TOKEN=TOKEN,
        DISCORD_API_BASE=api,
        DATABASE_URL=f"sqlite:///{database}",
        STARTUP_RETRY_SECONDS=retry_for,
    )


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def made_database(path: Path, rows: int = 0) -> Path:
    """A database as the bot leaves it (every migration applied), closed, WAL checkpointed."""
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute(
            "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at TEXT NOT NULL, checksum TEXT)"
        )
        for migration in load_migrations("sqlite"):
            db.executescript(migration.sql)
            db.execute(
                "INSERT INTO schema_version VALUES (?, ?, '2026-01-01', ?)",
                (migration.version, migration.name, migration.checksum),
            )
        db.execute("CREATE TABLE padding (text TEXT)")
        db.executemany("INSERT INTO padding VALUES (?)", [("x" * 500,)] * rows)
    return path  # closed: the last close checkpoints and removes the -wal


async def fails_in_one_line(
    tmp_path: Path, *, prefix: list[str] | None = None, **settings: str
) -> str:
    """Run `python -m bot`; it must exit non-zero with exactly one line on stderr."""
    env = process_env(DISCORD_TOKEN=TOKEN, **settings)
    log = tmp_path / "bot"
    process = await bot_process(env=env, cwd=tmp_path, log=log, prefix=prefix or [])
    code = await finish(process)
    out, err = output(log)
    assert code != 0, err
    assert "Traceback" not in out + err
    lines = err.splitlines()
    assert out == "" and len(lines) == 1, err
    return lines[0]


async def test_a_missing_folder_is_named_not_created(tmp_path: Path) -> None:
    folder = tmp_path / "tabels"  # a typo
    line = await fails_in_one_line(tmp_path, DATABASE_URL=f"sqlite:///{folder}/tk.db")
    assert str(folder) in line and "does not exist" in line
    assert not folder.exists()


async def test_with_json_logs_the_reason_is_a_json_line_too(tmp_path: Path) -> None:
    """A log collector parses every line: the last one, saying why, is JSON like the rest."""
    folder = tmp_path / "tabels"
    env = process_env(
        DISCORD_TOKEN=TOKEN, LOG_FORMAT="json", DATABASE_URL=f"sqlite:///{folder}/tk.db"
    )
    log = tmp_path / "bot"
    code = await finish(await bot_process(env=env, cwd=tmp_path, log=log))
    out, err = output(log)
    assert code != 0 and "Traceback" not in out + err
    lines = [json.loads(line) for line in err.splitlines()]  # each one a JSON object
    assert lines and lines[-1]["level"] == "CRITICAL"
    assert str(folder) in lines[-1]["message"] and "does not exist" in lines[-1]["message"]
    assert not folder.exists()


async def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("Shopping: rope, torches, 3 days of rations\n" * 100)
    before = digest(path)
    line = await fails_in_one_line(tmp_path, DATABASE_URL=f"sqlite:///{path}")
    assert str(path) in line and "not an SQLite database" in line
    assert digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("notes")) == ["notes.db"]


async def test_a_corrupt_database(tmp_path: Path) -> None:
    path = made_database(tmp_path / "tk.db", rows=200)
    data = bytearray(path.read_bytes())
    page = 4096
    data[3 * page : 6 * page] = os.urandom(3 * page)  # a few pages past the schema: garbage
    path.write_bytes(bytes(data))
    before = digest(path)
    line = await fails_in_one_line(tmp_path, DATABASE_URL=f"sqlite:///{path}")
    assert str(path) in line and "corrupt" in line
    assert digest(path) == before


@needs_a_user
async def test_a_read_only_database_file(tmp_path: Path) -> None:
    path = made_database(tmp_path / "tk.db")
    path.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    before = digest(path)
    line = await fails_in_one_line(tmp_path, prefix=AS_A_USER, DATABASE_URL=f"sqlite:///{path}")
    assert str(path) in line and "read-only" in line
    assert digest(path) == before


@needs_a_user
@pytest.mark.parametrize("existing", [False, True])
async def test_a_read_only_folder(tmp_path: Path, existing: bool) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    path = made_database(folder / "tk.db") if existing else folder / "tk.db"
    before = digest(path) if existing else None
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        line = await fails_in_one_line(tmp_path, prefix=AS_A_USER, DATABASE_URL=f"sqlite:///{path}")
        listed = sorted(p.name for p in folder.iterdir())
    finally:
        folder.chmod(stat.S_IRWXU)
    assert str(folder) in line and "read-only" in line
    assert listed == (["tk.db"] if existing else [])
    assert (digest(path) if existing else None) == before


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc")
async def test_a_folder_that_holds_no_files(tmp_path: Path) -> None:
    """/proc takes no new file, and says "No such file or directory": the line says what that
    means for the database, not that the folder is read-only."""
    line = await fails_in_one_line(tmp_path, DATABASE_URL="sqlite:////proc/tk.db")
    assert line.startswith("The folder /proc can't hold new files (No such file or directory)")
    assert "read-only" not in line


async def test_a_database_newer_than_the_code(tmp_path: Path) -> None:
    path = made_database(tmp_path / "tk.db")
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute(
            "INSERT INTO schema_version VALUES (?, 'from_the_future', '2027-01-01', NULL)",
            (KNOWN + 3,),
        )
    before = digest(path)
    line = await fails_in_one_line(tmp_path, DATABASE_URL=f"sqlite:///{path}")
    assert f"schema version {KNOWN + 3}" in line and f"({KNOWN})" in line
    assert digest(path) == before


async def test_a_migration_changed_since_it_was_applied_is_refused(tmp_path: Path) -> None:
    path = made_database(tmp_path / "tk.db")
    with contextlib.closing(sqlite3.connect(path)) as db, db:  # as if V8's file had changed
        db.execute("UPDATE schema_version SET checksum = 'edited' WHERE version = 8")
    before = digest(path)
    line = await fails_in_one_line(tmp_path, DATABASE_URL=f"sqlite:///{path}")
    assert line.startswith(
        "store/migrations/sqlite/V8__retention.sql is not the V8__retention.sql that was"
        f" applied to the database {path}: put back that file as released"
    ), line
    assert digest(path) == before


async def test_a_changed_postgres_migration_is_refused(tmp_path: Path, postgres_url: str) -> None:
    asyncpg = pytest.importorskip("asyncpg")
    async with Store.open(postgres_url):
        pass
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute("UPDATE schema_version SET checksum = 'edited' WHERE version = 8")
        line = await fails_in_one_line(tmp_path, DATABASE_URL=postgres_url)
        left = await conn.fetch("SELECT version, checksum FROM schema_version ORDER BY version")
    finally:
        await conn.close()
    assert line.startswith(
        "store/migrations/postgres/V8__retention.sql is not the V8__retention.sql that was"
        " applied to the database (PostgreSQL): put back that file as released"
    ), line
    assert [row["checksum"] == "edited" for row in left].count(True) == 1  # nothing written


async def test_postgres_unreachable_says_so_once_per_attempt(tmp_path: Path) -> None:
    """As for Discord: a line per attempt (where, why, when again), never the password, then
    the one line that says why it stopped."""
    pytest.importorskip("asyncpg")
    where = f"127.0.0.1:{free_port()}/tk"
    env = process_env(
        DISCORD_TOKEN=TOKEN,
        DATABASE_URL=f"postgresql://tk:secret-pw@{where}",
        STARTUP_RETRY_SECONDS="1.5",
    )
    log = tmp_path / "bot"
    started = time.monotonic()
    code = await finish(await bot_process(env=env, cwd=tmp_path, log=log))
    out, err = output(log)
    assert code == 1, err
    assert time.monotonic() - started >= 1.5  # it kept trying for the whole window
    assert "Traceback" not in out + err and "secret-pw" not in out + err
    lines = err.splitlines()
    attempts = [line for line in lines if "trying again" in line]
    assert len(attempts) >= 2, err  # backing off: 0.5 s, 1 s, then what is left
    assert all(f"PostgreSQL can't be reached at {where} (" in line for line in attempts)
    assert lines[:-1] == attempts, err
    assert lines[-1].startswith(
        "Could not open the PostgreSQL database: the server could not be reached (tried for 1.5 s)"
    )


@pytest.mark.parametrize(
    "role, database, says",
    [
        ("no_such_role", None, "the server refused the login"),
        (None, "no_such_database", "the server has no such database"),
    ],
)
async def test_a_wrong_postgres_login_or_database_is_not_retried(
    tmp_path: Path, postgres_url: str, role: str | None, database: str | None, says: str
) -> None:
    """No answer of that server will change: one line at once, not a minute of retries."""
    user, host = postgres_url.split("://", 1)[1].split("@", 1)
    url = f"postgresql://{role or user}@{host}"
    if database is not None:
        url = url.rsplit("/", 1)[0] + f"/{database}"
    line = await fails_in_one_line(tmp_path, DATABASE_URL=url, STARTUP_RETRY_SECONDS="600")
    assert line.startswith(f"Could not open the PostgreSQL database: {says}: "), line
    assert (role or database or "") in line


async def test_discord_unreachable_says_so_once_per_attempt(tmp_path: Path) -> None:
    path = made_database(tmp_path / "tk.db")
    before = digest(path)
    api = f"http://127.0.0.1:{free_port()}/api/v10"
    env = discord_at(api, path, retry_for="2.5")
    log = tmp_path / "bot"
    code = await finish(await bot_process(env=env, cwd=tmp_path, log=log))
    out, err = output(log)
    assert code == 1, err
    assert "Traceback" not in out + err and "Unclosed" not in err
    lines = err.splitlines()
    attempts = [line for line in lines if "trying again" in line]
    assert len(attempts) >= 2, err  # backing off: 1 s, then what is left of the window
    assert all(api in line for line in attempts)
    assert lines[-1].startswith(f"Discord can't be reached at {api}")
    assert f"after {len(attempts) + 1} attempts" in lines[-1]
    others = [line for line in lines[:-1] if line not in attempts]
    assert not [line for line in others if "WARNING" in line or "ERROR" in line], err
    assert digest(path) == before


@contextlib.asynccontextmanager
async def not_discord(status: int, body: str) -> AsyncIterator[str]:
    """A web server on loopback that answers every request with `status` and `body` (a proxy
    or a site where DISCORD_API_BASE should point at Discord); yields its API base."""

    async def answer(request: web.Request) -> web.Response:
        return web.Response(status=status, text=body, content_type="text/html")

    app = web.Application()
    app.router.add_route("*", "/{path:.*}", answer)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        yield f"http://127.0.0.1:{port}/api/v10"
    finally:
        await runner.cleanup()


@pytest.mark.parametrize(
    "status, says",
    [(404, "failed with 404 Not Found"), (200, "got an answer that isn't Discord's")],
)
async def test_an_api_base_that_is_not_discord_is_one_line(
    tmp_path: Path, status: int, says: str
) -> None:
    """Not tried again for the whole window: no answer of that server will change."""
    async with not_discord(status, "<html>Welcome</html>") as api:
        env = discord_at(api, tmp_path / "tk.db", retry_for="600")
        log = tmp_path / "bot"
        code = await finish(await bot_process(env=env, cwd=tmp_path, log=log))
    out, err = output(log)
    assert code == 1, err
    assert "Traceback" not in out + err and "Unclosed" not in err
    assert err.splitlines()[-1] == f"Logging in at {api} {says}: check DISCORD_API_BASE"
    assert "trying again" not in err and TOKEN not in out + err


@pytest.mark.parametrize("waiting_for", ["Discord", "PostgreSQL"])
async def test_sigterm_while_starting_stops_at_once(tmp_path: Path, waiting_for: str) -> None:
    """A host stops a worker that can't log in yet, or is still waiting for its database (a
    deploy, a scale-down): it stops, and says so, rather than trying on for the rest of
    STARTUP_RETRY_SECONDS."""
    nowhere = f"127.0.0.1:{free_port()}"
    env = discord_at(f"http://{nowhere}/api/v10", tmp_path / "tk.db", "600")
    if waiting_for == "PostgreSQL":
        pytest.importorskip("asyncpg")
        env["DATABASE_URL"] = f"postgresql://tk:pw@{nowhere}/tk"
    log = tmp_path / "bot"
    process = await bot_process(env=env, cwd=tmp_path, log=log)
    try:
        while f"{waiting_for} can't be reached" not in output(log)[1]:  # its first attempt failed
            assert process.returncode is None, output(log)[1]
            await asyncio.sleep(0.05)
        process.send_signal(signal.SIGTERM)
    finally:
        code = await finish(process)  # within STARTUP, not the 600 s window
    out, err = output(log)
    assert code == 0, err
    assert "Traceback" not in out + err and "Unclosed" not in err
    assert "gave up" not in err and "Could not open" not in err
    assert "Stopped before logging in" in err.splitlines()[-1]


async def test_a_postgres_database_newer_than_the_code_is_refused(postgres_url: str) -> None:
    asyncpg = pytest.importorskip("asyncpg")
    async with Store.open(postgres_url):
        pass  # migrated to what this code knows
    known = load_migrations("postgres")[-1].version
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute(
            "INSERT INTO schema_version VALUES ($1, 'from_the_future', now(), NULL)", known + 2
        )
        with pytest.raises(StoreError, match=rf"schema version {known + 2}, .*\({known}\)"):
            await Store.open(postgres_url)
        tables = await conn.fetchval("SELECT count(*) FROM schema_version")
    finally:
        await conn.close()
    assert tables == len(load_migrations("postgres")) + 1  # nothing applied, nothing removed
