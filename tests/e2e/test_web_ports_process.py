"""`python -m bot` with its web page and health port on, run under `ulimit -n 1024` (a common
host's limit) and attacked the way one machine can: 1,010 idle connections and 200 that send
their headers a byte at a time, from one address and then from many, and 40 loads at once of
the page of the largest table a channel may hold. Meanwhile `/roll`, `/fatigue spend` and
`/healthz` must answer within Discord's 3 seconds (the local Discord refuses a late answer),
the page must be served to others, and the bot must log no failure at all: no descriptor
lacking, no answer lost."""

from __future__ import annotations

import asyncio
import contextlib
import resource
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp

from store import Store
from store.links import link_key
from tests.e2e.test_operations_process import free_port
from tests.e2e.test_process import finish, output, process_env, until_identified
from tests.e2e.test_shards_process import sync_once
from tests.localdiscord.client import LocalDiscord
from tests.web.tables import write_largest
from web.edge import RESERVE

FILES = 1024  # the bot's limit of open files, soft and hard
IDLE, SLOW = 1_010, 200  # connections held by the attacker
WAIT = 60.0  # seconds: a bound on what the server does by itself, on a loaded machine


def _few_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILES, FILES))


@contextlib.asynccontextmanager
async def bot_with_few_files(
    d: LocalDiscord, tmp_path: Path, settings: dict[str, str]
) -> AsyncIterator[asyncio.subprocess.Process]:
    env = process_env(DISCORD_TOKEN=d.token, DISCORD_API_BASE=d.api_base) | settings
    await sync_once(d, env, tmp_path)
    log = tmp_path / "bot"
    with log.with_suffix(".out").open("wb") as out, log.with_suffix(".err").open("wb") as err:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            env=env,
            cwd=tmp_path,
            stdout=out,
            stderr=err,
            preexec_fn=_few_files,
        )
    try:
        await until_identified(d, process, log)
        yield process
        process.send_signal(signal.SIGTERM)
        assert await finish(process) == 0, output(log)[1][-3000:]
    finally:
        await finish(process, timeout=1)


class Attacker:
    """Connections held open against a port, from given addresses: some idle, some sending
    their headers a byte at a time; each noted when the server closes it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.writers: list[asyncio.StreamWriter] = []
        self.closed: list[asyncio.Task[bytes]] = []
        self._trickling: asyncio.Task[None] | None = None

    async def hold(self, sources: list[str], count: int, slow: bool = False) -> None:
        for n in range(count):
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", self.port, local_addr=(sources[n % len(sources)], 0)
            )
            self.writers.append(writer)
            self.closed.append(asyncio.ensure_future(reader.read()))
            if slow:
                writer.write(b"GET / HTTP/1.1\r\n")
        if slow and self._trickling is None:
            self._trickling = asyncio.ensure_future(self._trickle())

    async def _trickle(self) -> None:
        while True:
            for writer in self.writers:
                if not writer.is_closing():
                    writer.write(b"X")
            await asyncio.sleep(0.5)

    @property
    def refused(self) -> int:
        return sum(task.done() for task in self.closed)

    async def until_refused(self, at_least: int) -> None:
        for _ in range(int(WAIT / 0.1)):
            if self.refused >= at_least:
                return
            await asyncio.sleep(0.1)
        raise AssertionError(f"only {self.refused} of {len(self.closed)} closed by the server")

    def let_go(self) -> None:
        if self._trickling is not None:
            self._trickling.cancel()
        for writer in self.writers:
            writer.close()
        for task in self.closed:
            if task.done() and not task.cancelled():
                task.exception()  # reset, as a socket closed with unread bytes is
            task.cancel()


async def until_healthy(healthz: str) -> None:
    async with aiohttp.ClientSession() as http:
        for _ in range(int(WAIT / 0.1)):
            async with http.get(healthz) as response:
                if response.status == 200:
                    return
            await asyncio.sleep(0.1)
    raise AssertionError("the bot never said it was healthy")


async def answers(d: LocalDiscord, health: str, page: str, viewer: str) -> None:
    """What must keep working, all at once: the page of the largest table loaded 40 times
    from the `viewer`'s address (as many as one may ask at once), a /roll, a change, /healthz."""
    connector = aiohttp.TCPConnector(limit=0, local_addr=(viewer, 0))
    async with aiohttp.ClientSession(connector=connector) as http:

        async def load() -> int:
            async with http.get(page) as response:
                await response.read()
                return response.status

        async def healthz() -> tuple[int, str]:
            async with aiohttp.ClientSession() as own, own.get(health) as response:
                return response.status, await response.text()

        loads = [asyncio.ensure_future(load()) for _ in range(40)]
        rolled = await d.slash("roll", user=d.player2)
        spent = await d.slash("fatigue spend", user=d.player, amount=1)
        assert await healthz() == (200, "ok\n")
        assert await asyncio.gather(*loads) == [200] * 40
    assert rolled.embed["title"].startswith("d100"), rolled.embed  # "d100: 42", or open-ended
    assert "spends 1 FP" in spent.text, spent.text


async def test_held_connections_leave_the_bot_answering(tmp_path: Path) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 4 * FILES:  # the attacker's own sockets: this process may need more than the bot
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8 * FILES), hard))
    url = f"sqlite:///{tmp_path / 'tablekeeper.db'}"
    web, health = free_port(), free_port()
    async with LocalDiscord() as d:
        # Beside the channel the commands are played in: a channel with the largest table.
        largest, guild = d.table.id + 1, d.table.guild_id
        async with Store.open(url) as store:
            await write_largest(store, largest, guild, d.gm.id)
            token, _ = await store.make_link(largest, guild, d.gm.id, None, link_key(d.token))
        settings = {
            "DATABASE_URL": url,
            "WEB_PORT": str(web),
            "PUBLIC_URL": f"http://127.0.0.1:{web}",
            "HEALTH_PORT": str(health),
        }
        async with bot_with_few_files(d, tmp_path, settings):
            await d.slash("character create", user=d.player, name="Aria", fatigue_level=12)
            page = f"http://127.0.0.1:{web}/t/{token}"
            healthz = f"http://127.0.0.1:{health}/healthz"
            await until_healthy(healthz)  # ready, its guilds in: before any attack

            # One address: all it can hold is its share, the rest are told 503 and closed.
            one = Attacker(web)
            await one.hold(["127.0.0.9"], IDLE)
            await one.hold(["127.0.0.9"], SLOW, slow=True)
            on_health = Attacker(health)
            await on_health.hold(["127.0.0.9"], 100)
            await one.until_refused(IDLE + SLOW - 50)
            await on_health.until_refused(100 - 8)
            await answers(d, healthz, page, "127.0.0.3")
            one.let_go()
            on_health.let_go()

            # Many addresses, each within its share: the cap in all holds, within the files.
            many = Attacker(web)
            sources = [f"127.0.1.{n}" for n in range(1, 41)]
            await many.hold(sources, IDLE)
            await many.hold(sources, SLOW, slow=True)
            await many.until_refused(IDLE + SLOW - (FILES - RESERVE))
            await answers(d, healthz, page, "127.0.0.4")
            many.let_go()
        d.assert_clean()  # every interaction answered, and in time

    _out, err = output(tmp_path / "bot")
    for failure in (
        "Too many open files",
        "out of system resource",
        "Can't accept connections",
        "could not answer",
        "Traceback",
        "ERROR",
    ):
        assert failure not in err, err[-3000:]
