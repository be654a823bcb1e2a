"""A throwaway PostgreSQL server for the tests (and the store benchmark): `TEST_POSTGRES_URL`
if set, else one started here from the machine's PostgreSQL binaries, with a fresh database
per test. Without either, PostgreSQL tests skip, or fail when TK_REQUIRE_POSTGRES=1 (CI)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

T = TypeVar("T")
_names = itertools.count(1)


class Unavailable(Exception):
    """No PostgreSQL to test against; the text says why."""


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to the end from sync code, even inside a running event loop."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


@dataclass(frozen=True)
class Control:
    """pg_ctl over a throwaway server: stop it (as a host's maintenance or a crash would) and
    start it again, on the same data and port."""

    pg_ctl: tuple[str, ...]  # the binary, run as the server's user
    data: Path
    log: Path
    options: str

    def start(self) -> None:
        start = ["-D", str(self.data), "-l", str(self.log), "-o", self.options, "-w", "-t", "60"]
        subprocess.run([*self.pg_ctl, *start, "start"], check=True, capture_output=True)

    def stop(self, mode: str = "fast") -> None:
        """`fast`: sessions are ended and their transactions rolled back; `immediate`: the
        server dies at once, as in a crash (its log is replayed at the next start)."""
        stop = ["-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop"]
        subprocess.run([*self.pg_ctl, *stop], check=True, capture_output=True)


@dataclass(frozen=True)
class Server:
    admin_url: str  # a database we may CREATE DATABASE from
    control: Control | None = None  # a throwaway server's; None for TEST_POSTGRES_URL's

    async def _admin(self, sql: str) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.admin_url)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    @contextmanager
    def database(self) -> Iterator[str]:
        """A new, empty database for one test; dropped afterwards."""
        name = f"tk_test_{os.getpid()}_{next(_names)}_{uuid.uuid4().hex[:6]}"
        run_sync(self._admin(f'CREATE DATABASE "{name}" TEMPLATE template0'))
        try:
            yield with_database(self.admin_url, name)
        finally:
            run_sync(self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def _binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    if found:
        return Path(found[0]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def throwaway_server(password: str | None = None, *, durable: bool = False) -> Iterator[Server]:
    """initdb + pg_ctl in a temp dir, trust auth on 127.0.0.1 and a socket in that dir (or,
    with a `password`, scram-sha-256: a wrong one is refused); made fast by giving up
    durability (fsync off, and unless `durable`, commits answered before their log is
    written: a killed server would lose them), stopped and removed at the end."""
    bindir = _binaries()
    if bindir is None:
        raise Unavailable("no PostgreSQL binaries (initdb, pg_ctl) and no TEST_POSTGRES_URL")
    try:
        import asyncpg  # noqa: F401
    except ImportError:
        raise Unavailable('asyncpg is not installed: pip install -e ".[test]"') from None
    tmp = Path(tempfile.mkdtemp(prefix="tk-pg-"))
    # initdb refuses to run as root: then the server runs as the postgres user.
    as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if as_user:
        shutil.chown(tmp, "postgres")
    data, log = tmp / "data", tmp / "server.log"
    try:
        auth = ["-A", "trust"]
        if password is not None:
            pwfile = tmp / "password"
            pwfile.write_text(password + "\n", encoding="utf-8")
            if as_user:
                shutil.chown(pwfile, "postgres")
            auth = ["-A", "scram-sha-256", f"--pwfile={pwfile}"]
        initdb = ["-D", str(data), *auth, "-U", "postgres", "--no-sync", "-E", "UTF8"]
        subprocess.run(
            [*as_user, str(bindir / "initdb"), *initdb, "--locale=C"],
            check=True,
            capture_output=True,
        )
        port = _free_port()
        options = (
            f"-c listen_addresses=127.0.0.1 -p {port} -k {tmp} -c fsync=off"
            f" -c synchronous_commit={'on' if durable else 'off'}"
            " -c full_page_writes=off -c max_connections=200"
        )
        control = Control((*as_user, str(bindir / "pg_ctl")), data, log, options)
        control.start()
    except subprocess.CalledProcessError as error:
        text = (error.stderr or b"").decode(errors="replace").strip()
        if log.exists():
            text += "\n" + log.read_text(errors="replace")
        shutil.rmtree(tmp, ignore_errors=True)
        raise RuntimeError(f"Could not start a throwaway PostgreSQL: {text}") from error
    try:
        user = "postgres" if password is None else f"postgres:{password}"
        yield Server(f"postgresql://{user}@127.0.0.1:{port}/postgres", control)
    finally:
        subprocess.run(
            [*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
        )
        shutil.rmtree(tmp, ignore_errors=True)


@contextmanager
def postgres_server() -> Iterator[Server]:
    """TEST_POSTGRES_URL's server, or a throwaway one; raises Unavailable without either."""
    url = os.environ.get("TEST_POSTGRES_URL", "").strip()
    if url:
        yield Server(url)
        return
    with throwaway_server() as server:
        yield server
