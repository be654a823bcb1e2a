"""Two `python -m bot` processes on one PostgreSQL (and, on one machine, one SQLite file),
shards 0 and 1 of 2 (SHARD_COUNT=2, SHARD_IDS=0 / SHARD_IDS=1), against a sharded local
Discord: each guild is served by the one process that runs its shard, and a burst over both
shards changes every table exactly."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from store import Store
from tests.e2e.test_operations_process import free_port
from tests.e2e.test_process import bot_process, finish, output, process_env
from tests.localdiscord.client import LocalDiscord
from tests.localdiscord.default_world import World, build_world
from tests.localdiscord.shards import add_guild_on_shard, shard_of
from tests.localdiscord.world import Guild

SHARDS = 2
STARTUP = 45.0


def world_over_shards(per_shard: int = 2) -> World:
    world = build_world()
    for shard in range(SHARDS):
        for n in range(per_shard):
            add_guild_on_shard(world, f"Shard {shard} table {n}", shard, SHARDS)
    return world


def tables(world: World) -> list[Guild]:
    return [g for g in world.guilds if g.name.startswith("Shard ")]


async def wait_for_shards(d: LocalDiscord, wanted: list[int], logs: list[Path]) -> None:
    deadline = time.monotonic() + STARTUP
    while sorted(d.server.gateway.identified_shards) != wanted:
        if time.monotonic() > deadline:
            errors = "\n".join(output(log)[1][-2000:] for log in logs)
            raise AssertionError(f"shards {d.server.gateway.identified_shards}:\n{errors}")
        await asyncio.sleep(0.1)


async def seat_aria(d: LocalDiscord, guilds: list[Guild], fatigue_level: int) -> None:
    """A character called Aria at each guild's #table, created through the bots."""
    for guild in guilds:
        created = await d.slash(
            "character create",
            user=d.player,
            channel=guild.channels[0],
            name="Aria",
            fatigue_level=fatigue_level,
        )
        assert "Created Aria" in created.text, created.text


async def sync_once(d: LocalDiscord, env: dict[str, str], tmp_path: Path) -> None:
    """`python -m bot sync`, unless this local Discord already has the commands."""
    if not d.server.commands:
        log = tmp_path / "sync"
        assert await finish(await bot_process("sync", env=env, cwd=tmp_path, log=log)) == 0, output(
            log
        )


async def served(port: int) -> float:
    """How many interactions a process has finished, by its /metrics."""
    url = f"http://127.0.0.1:{port}/metrics"
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        text = await response.text()
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("tablekeeper_interactions_total{")
    )


@dataclass(frozen=True)
class BotProcess:
    process: asyncio.subprocess.Process
    port: int  # its HEALTH_PORT: /healthz and /metrics


@contextlib.asynccontextmanager
async def shard_processes(
    d: LocalDiscord,
    database_url: str,
    tmp_path: Path,
    shard_ids: list[str | None],
    *,
    shard_count: int | None = SHARDS,
    settings: Mapping[str, str] | None = None,
) -> AsyncIterator[list[BotProcess]]:
    """Sync once, then one `python -m bot` per entry of `shard_ids` (its SHARD_IDS, or None
    for every shard), all with SHARD_COUNT=`shard_count` (None: unset, as an admin with one
    process leaves it) and any other `settings`; yields them; SIGTERM at the end."""
    env = process_env(DISCORD_TOKEN=d.token, DISCORD_API_BASE=d.api_base, DATABASE_URL=database_url)
    env |= settings or {}
    await sync_once(d, env, tmp_path)
    ports = [free_port() for _ in shard_ids]
    logs = [tmp_path / f"bot{n}-{ids}" for n, ids in enumerate(shard_ids)]
    processes = []
    d.server.gateway.identified_shards.clear()
    try:
        for ids, port, log in zip(shard_ids, ports, logs, strict=True):
            own = {"HEALTH_PORT": str(port)}
            if shard_count is not None:
                own["SHARD_COUNT"] = str(shard_count)
            if ids is not None:
                own["SHARD_IDS"] = ids
            processes.append(await bot_process(env=env | own, cwd=tmp_path, log=log))
        await wait_for_shards(d, list(range(shard_count or 1)), logs)
        yield [BotProcess(p, port) for p, port in zip(processes, ports, strict=True)]
        for process in processes:
            process.send_signal(signal.SIGTERM)
        codes = [await finish(p) for p in processes]
        assert codes == [0] * len(processes), [output(log)[1][-2000:] for log in logs]
    finally:
        for process in processes:
            await finish(process, timeout=1)
    for log in logs:
        assert "Traceback" not in output(log)[1], output(log)[1]


async def fp_by_channel(database_url: str, channels: list[int]) -> dict[int, int]:
    """Aria's FP in each channel, checking that every FP spent has its one event."""
    found = {}
    async with Store.open(database_url) as store:
        for channel in channels:
            fp = (await store.read(channel)).get("Aria").fatigue.fp
            events = await store.history(channel, limit=100)
            assert sum(e.action == "fatigue spend" for e in events) == fp
            found[channel] = fp
    return found


@pytest.fixture(params=["postgres", "sqlite"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """One PostgreSQL database, or one SQLite file on this machine, shared by both processes."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'shared.db'}"
    return str(request.getfixturevalue("postgres_url"))


async def test_two_processes_split_the_guilds_by_shard(tmp_path: Path, database_url: str) -> None:
    world = world_over_shards()
    async with (
        LocalDiscord(world, shard_count=SHARDS, timeout=15.0) as d,
        shard_processes(d, database_url, tmp_path, ["0", "1"]) as bots,
    ):
        gateway = d.server.gateway
        assert sorted(s.shard for s in gateway.sessions) == [0, 1]  # one session per shard
        await seat_aria(d, tables(world), fatigue_level=40)

        rounds = 5
        burst = [
            d.slash("fatigue spend", user=user, channel=guild.channels[0], character="Aria")
            for _ in range(rounds)
            for guild in tables(world)
            for user in (d.gm, d.player)
        ]
        replies = await asyncio.gather(*burst)
        assert all(not reply.ephemeral for reply in replies), [r.text for r in replies]

        # Each process answered exactly the interactions of its own shard's guilds.
        per_guild = 1 + rounds * 2
        for shard, bot in enumerate(bots):
            mine = [g for g in tables(world) if shard_of(g.id, SHARDS) == shard]
            assert await served(bot.port) == per_guild * len(mine)
        d.assert_clean()  # nothing answered twice, late or not at all

    channels = [g.channels[0].id for g in tables(world)]
    assert await fp_by_channel(database_url, channels) == dict.fromkeys(channels, rounds * 2)


async def test_one_process_with_the_shard_count_unset_runs_the_shard_discord_suggests(
    tmp_path: Path,
) -> None:
    """As an admin with one process runs it (no SHARD_COUNT), with the `settings` given."""
    database_url = f"sqlite:///{tmp_path / 'one.db'}"
    async with (
        LocalDiscord(timeout=15.0) as d,
        shard_processes(
            d, database_url, tmp_path, [None], shard_count=None, settings={"LOG_FORMAT": "json"}
        ) as (bot,),
    ):
        assert d.server.gateway.identified_shards == [0]
        reply = await d.slash("character create", user=d.player, name="Aria", level=2)
        assert "Created Aria" in reply.text
        assert await served(bot.port) == 1
        d.assert_clean()
    logged = output(tmp_path / "bot0-None")[1].splitlines()
    assert logged and all(json.loads(line)["message"] for line in logged)


async def test_a_killed_process_loses_nothing_acknowledged_while_the_other_answers(
    tmp_path: Path, postgres_url: str
) -> None:
    """SIGKILL the shard-0 process in the middle of a burst over both shards: shard 1 keeps
    answering, every acknowledged change is in the database (with its one event), and the
    restarted process serves shard 0 again."""
    world = world_over_shards()
    async with LocalDiscord(world, shard_count=SHARDS, timeout=4.0) as d:
        # The killed process's interactions go unanswered, as they would on Discord; the test
        # waits for each answer 4 s and checks Discord's 3 s deadline itself, on the answered.
        d.server.deadline = 600.0
        env = process_env(
            DISCORD_TOKEN=d.token, DISCORD_API_BASE=d.api_base, DATABASE_URL=postgres_url
        )
        await sync_once(d, env, tmp_path)
        logs = [tmp_path / f"shard{shard}" for shard in range(SHARDS)]

        async def start(shard: int, log: Path) -> asyncio.subprocess.Process:
            own = {"SHARD_COUNT": str(SHARDS), "SHARD_IDS": str(shard)}
            return await bot_process(env=env | own, cwd=tmp_path, log=log)

        processes = [await start(shard, logs[shard]) for shard in range(SHARDS)]
        try:
            await wait_for_shards(d, [0, 1], logs)
            guilds = tables(world)
            await seat_aria(d, guilds, fatigue_level=100)
            sent = dict.fromkeys((g.id for g in guilds), 0)
            acked = dict.fromkeys((g.id for g in guilds), 0)

            async def spend(guild: Guild) -> None:
                sent[guild.id] += 1
                try:
                    reply = await d.slash("fatigue spend", user=d.player, channel=guild.channels[0])
                except TimeoutError:
                    return  # never acknowledged: may or may not have been applied
                assert not reply.ephemeral, reply.text
                acked[guild.id] += 1

            tasks = []
            for n in range(12):
                if n == 6:
                    processes[0].kill()  # SIGKILL: no goodbye, no cleanup
                    await processes[0].wait()
                tasks += [asyncio.ensure_future(spend(g)) for g in guilds]
                await asyncio.sleep(0.05)
            await asyncio.gather(*tasks)

            on = {g.id: shard_of(g.id, SHARDS) for g in guilds}
            assert all(acked[g] == sent[g] for g in on if on[g] == 1)  # shard 1 kept answering
            assert any(acked[g] < sent[g] for g in on if on[g] == 0)  # shard 0 did go down

            processes[0] = await start(0, tmp_path / "shard0-restarted")
            await wait_for_shards(d, [0, 0, 1], logs)
            before = sum(acked.values())
            for guild in guilds:  # the restarted process serves shard 0 again
                await spend(guild)
            assert sum(acked.values()) == before + len(guilds)
            late = [
                r
                for r in d.server.interactions.values()
                if r.answered_at is not None and r.answered_at - r.sent_at > 3.0
            ]
            assert late == []
        finally:
            for process in processes:
                if process.returncode is None:
                    process.send_signal(signal.SIGTERM)
                await finish(process)

    async with Store.open(postgres_url) as store:
        for guild in guilds:
            channel = guild.channels[0].id
            fp = (await store.read(channel)).get("Aria").fatigue.fp
            events = await store.history(channel, limit=100)
            assert sum(e.action == "fatigue spend" for e in events) == fp  # one event a change
            assert acked[guild.id] <= fp <= sent[guild.id]  # nothing acknowledged was lost
            if on[guild.id] == 1:
                assert fp == acked[guild.id]


async def test_a_pair_both_claiming_shard_0_applies_each_interaction_once(
    tmp_path: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Misconfigured: two processes with SHARD_IDS=0 (and nobody on shard 1). Discord sends
    each event of shard 0 to both; each interaction still changes the table once (its id is
    stored unique with the change), and a second answer is refused with 40060."""
    world = world_over_shards(per_shard=1)
    guild = next(g for g in tables(world) if shard_of(g.id, SHARDS) == 0)
    spends = 10
    async with LocalDiscord(world, shard_count=SHARDS, timeout=10.0) as d:
        # Here a second answer is Discord's 40060 for the slower process, not a bot's bug.
        second_answers: list[str] = []
        record = d.server.record
        monkeypatch.setattr(
            d.server,
            "record",
            lambda problem: (
                second_answers.append(problem) if "answered twice" in problem else record(problem)
            ),
        )
        env = process_env(
            DISCORD_TOKEN=d.token, DISCORD_API_BASE=d.api_base, DATABASE_URL=postgres_url
        )
        await sync_once(d, env, tmp_path)
        own = {"SHARD_COUNT": str(SHARDS), "SHARD_IDS": "0"}
        logs = [tmp_path / "first", tmp_path / "second"]
        processes = [await bot_process(env=env | own, cwd=tmp_path, log=log) for log in logs]
        try:
            await wait_for_shards(d, [0, 0], logs)
            assert len([s for s in d.server.gateway.sessions if s.live]) == 2
            await seat_aria(d, [guild], fatigue_level=100)
            channel = guild.channels[0]
            replies = await asyncio.gather(
                *(d.slash("fatigue spend", user=d.player, channel=channel) for _ in range(spends))
            )
            assert all(not reply.ephemeral for reply in replies), [r.text for r in replies]
            assert all("Aria spends 1 FP" in reply.text for reply in replies)
            d.assert_clean()
        finally:
            for process in processes:
                process.send_signal(signal.SIGTERM)
                await finish(process)

    async with Store.open(postgres_url) as store:
        table = await store.read(guild.channels[0].id)
        events = await store.history(guild.channels[0].id, limit=100)
    assert len(table.characters) == 1
    assert table.get("Aria").fatigue.fp == spends
    assert [e.action for e in events].count("fatigue spend") == spends
    assert [e.action for e in events].count("character create") == 1
