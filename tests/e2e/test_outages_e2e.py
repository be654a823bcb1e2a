"""Outages made for real under the running bot, through the local Discord: a PostgreSQL
stopped and started again while GMs advance their clocks, a SQLite file on a tmpfs filled to its
last byte, a SQLite file made read-only. Each refused command gets the plain words, privately,
within Discord's 3 seconds (the local Discord fails the test otherwise); `/roll` and reads go on
where they can; the outage is logged once as it begins and once as it ends, `/healthz` names
it, the metric counts its refusals; every change the bot confirmed survives a restart; and the
bot recovers by itself."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import re
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.tree import DISK_FULL, OUTCOME_UNKNOWN, READ_ONLY, UNREACHABLE
from lang import _, speaking
from tests.disks import fill, read_only, small_disk
from tests.e2e.conftest import Env, running_env
from tests.localdiscord.client import LocalDiscord
from tests.localdiscord.reply import Reply
from tests.localdiscord.world import Channel, User
from tests.localdiscord.world import speaking as speaking_as
from tests.pg import Server

ROUND = 60  # seconds a round takes on the clock, by default
RECOVERY = 30.0  # seconds the bot has to answer changes again once the database is back
OUTAGE_LOG = "bot.outages"


@dataclasses.dataclass
class Rounds:
    """GMs advancing their channels' clocks one round at a time, one after another in each
    channel, both channels at once; every answer is kept."""

    discord: LocalDiscord
    saved: dict[int, int] = dataclasses.field(default_factory=dict)  # channel id: rounds
    refusals: list[Reply] = dataclasses.field(default_factory=list)
    refused_in: set[int] = dataclasses.field(default_factory=set)
    last_saved: dict[int, float] = dataclasses.field(default_factory=dict)

    @property
    def gms(self) -> list[tuple[Channel, User]]:
        d = self.discord
        return [(d.table, d.gm), (d.side_table, d.player)]  # Players manage side-table

    async def round(self, channel: Channel, gm: User) -> None:
        reply = await self.discord.slash("clock round", user=gm, channel=channel)
        if "1 round passes" in reply.text:
            self.saved[channel.id] = self.saved.get(channel.id, 0) + 1
            self.last_saved[channel.id] = time.monotonic()
        else:
            self.refusals.append(reply)
            self.refused_in.add(channel.id)
            await asyncio.sleep(0.05)

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        stop = asyncio.Event()

        async def keep_going(channel: Channel, gm: User) -> None:
            while not stop.is_set():
                await self.round(channel, gm)

        tasks = [asyncio.create_task(keep_going(c, gm)) for c, gm in self.gms]
        try:
            yield
        finally:
            stop.set()
            await asyncio.gather(*tasks)

    async def until_refused_everywhere(self) -> None:
        deadline = time.monotonic() + RECOVERY
        while len(self.refused_in) < len(self.gms):
            assert time.monotonic() < deadline, "a channel never met the outage"
            await asyncio.sleep(0.02)

    async def until_saving(self, since: float) -> None:
        deadline = time.monotonic() + RECOVERY
        while not all(self.last_saved.get(c.id, 0) > since for c, _ in self.gms):
            assert time.monotonic() < deadline, "the bot did not recover by itself"
            await asyncio.sleep(0.05)


async def outage_lines(env: Env, caplog: pytest.LogCaptureFixture) -> list[str]:
    """The outage's log lines, once it is over (its end is logged when it has settled)."""
    deadline = time.monotonic() + env.bot.outages.settle + RECOVERY
    while env.bot.outages.on:
        assert time.monotonic() < deadline, "the outage never ended"
        await asyncio.sleep(0.05)
    return [r.getMessage() for r in caplog.records if r.name == OUTAGE_LOG]


def refused_count(metrics: str, reason: str) -> float:
    found = re.search(rf'tablekeeper_outage_refusals_total{{reason="{reason}"}} (\S+)', metrics)
    assert found, metrics
    return float(found.group(1))


def check_logged_once(lines: list[str], said: str, refused: int) -> None:
    """One line as the outage began, one as it ended, with how many commands it refused."""
    assert len(lines) == 2, lines
    assert lines[0].startswith(f"Database outage began: {said} ("), lines
    assert re.fullmatch(
        rf"Database outage ended: {re.escape(said)}, for \d+\.\d s; commands refused: {refused}",
        lines[1],
    ), lines


# --- PostgreSQL ------------------------------------------------------------------------------


async def test_postgres_stopped_and_started_under_a_running_bot(
    own_postgres: Server, caplog: pytest.LogCaptureFixture
) -> None:
    control = own_postgres.control
    assert control is not None
    caplog.set_level(logging.WARNING, logger=OUTAGE_LOG)
    with own_postgres.database() as url:
        async with running_env(url) as env:
            d = env.discord
            await env.bot.wait_until_ready()  # else /healthz says the gateway is not
            rounds = Rounds(d)
            async with rounds.running():
                await rounds.until_saving(time.monotonic())
                control.stop("fast")
                await rounds.until_refused_everywhere()
                await asyncio.sleep(1.0)  # down for a while: refused again and again
                rolled = await d.slash("roll", user=d.player2)  # needs no table: goes on
                assert rolled.embed["title"].startswith("d100")
                problem = await env.bot.health_problem()
                assert problem is not None and problem.startswith("database unreachable for ")
                control.start()
                await rounds.until_saving(time.monotonic())
            assert await env.bot.health_problem() is None

            unknown = [r for r in rounds.refusals if r.text == OUTCOME_UNKNOWN]
            for reply in rounds.refusals:
                assert reply.ephemeral, reply.text
                assert reply.text in (UNREACHABLE, OUTCOME_UNKNOWN), reply.text
            refused = len(rounds.refusals)
            assert refused_count(env.bot.metrics.render().decode(), "unreachable") == refused
            check_logged_once(await outage_lines(env, caplog), "database unreachable", refused)

            await env.restart()  # what the database kept, read by a new bot
            for channel, _gm in rounds.gms:
                kept = (await env.table(channel)).clock // ROUND
                assert 0 <= kept - rounds.saved[channel.id] <= len(unknown)


# --- SQLite ----------------------------------------------------------------------------------


def truncate_log(path: Path) -> None:
    """The write-ahead log folded into the database and cut to nothing: the next change needs
    new room on the disk."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        (busy, _, _) = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        assert busy == 0


async def check_refused_while_reads_go_on(env: Env, words: str, said: str) -> None:
    """Two changes refused with `words` (once in Spanish); a look at the clock and a roll go
    on; /healthz says `said`."""
    d = env.discord
    await env.bot.wait_until_ready()  # else /healthz says the gateway is not
    refused = await d.slash("clock round", user=d.gm)
    assert refused.ephemeral and refused.text == words
    spanish = await d.slash("clock round", user=speaking_as(d.gm, "es-ES"))
    with speaking("es-ES"):
        assert spanish.ephemeral and spanish.text == _(words) != words
    shown = await d.slash("clock show", user=d.player)
    assert "Day 1, 00:01" in shown.text, shown.text
    rolled = await d.slash("roll", user=d.player2)
    assert rolled.embed["title"].startswith("d100")
    problem = await env.bot.health_problem()
    assert problem is not None and problem.startswith(f"{said} for "), problem
    assert problem.endswith("(commands refused: 2)"), problem


async def test_sqlite_disk_full_under_a_running_bot(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger=OUTAGE_LOG)
    with small_disk(tmp_path / "disk") as disk:
        path = disk / "tablekeeper.db"
        async with running_env(f"sqlite:///{path}") as env:
            d = env.discord
            assert "1 round passes" in (await d.slash("clock round", user=d.gm)).text
            truncate_log(path)
            filler = fill(disk)
            said = "database disk full"
            await check_refused_while_reads_go_on(env, DISK_FULL, said)
            assert refused_count(env.bot.metrics.render().decode(), "disk_full") == 2
            filler.unlink()  # the admin makes room: the next change is saved
            assert "1 round passes" in (await d.slash("clock round", user=d.gm)).text
            assert await env.bot.health_problem() is None
            check_logged_once(await outage_lines(env, caplog), said, 2)
            await env.restart()
            assert (await env.table()).clock == 2 * ROUND


async def test_sqlite_file_made_read_only_under_a_running_bot(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger=OUTAGE_LOG)
    path = tmp_path / "tablekeeper.db"
    async with running_env(f"sqlite:///{path}") as env:
        d = env.discord
        assert "1 round passes" in (await d.slash("clock round", user=d.gm)).text
        said = "database read-only"
        with read_only(path, Path(f"{path}-wal")):
            await check_refused_while_reads_go_on(env, READ_ONLY, said)
            assert refused_count(env.bot.metrics.render().decode(), "read_only") == 2
        assert "1 round passes" in (await d.slash("clock round", user=d.gm)).text
        assert await env.bot.health_problem() is None
        check_logged_once(await outage_lines(env, caplog), said, 2)
        await env.restart()
        assert (await env.table()).clock == 2 * ROUND
