"""/healthz's 503 reasons and the database-error metric, on a real bot served over HTTP; and
where the health port listens when HEALTH_HOST is left alone."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.health import HealthServer
from bot.settings import Settings
from tests.e2e.conftest import Env, running_env
from tests.e2e.helpers import handled
from tests.e2e.test_operations_process import free_port


@contextlib.asynccontextmanager
async def served(env: Env) -> AsyncIterator[str]:
    port = free_port()
    server = HealthServer(env.bot.health_problem, env.bot.metrics.render, port, host="127.0.0.1")
    await server.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await server.stop()


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status, await response.text()


async def test_healthz_says_why_it_is_unhealthy(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    async with served(env) as base:
        await env.bot.wait_until_ready()
        assert await get(base + "/healthz") == (200, "ok\n")

        async def broken() -> None:
            raise sqlite3.OperationalError("disk I/O error")

        monkeypatch.setattr(env.store, "ping", broken)
        assert await get(base + "/healthz") == (503, "database not answering: OperationalError\n")
        _, metrics = await get(base + "/metrics")
        assert "tablekeeper_database_errors_total 1.0" in metrics
        monkeypatch.undo()

        await env.discord.server.gateway.drop()  # the socket gone; the bot resumes soon after
        status, text = await get(base + "/healthz")
        assert (status, text) == (503, "gateway not connected (shards 0 closed)\n")
        await env.discord.drop_connection()  # wait for the RESUME this time
        assert await get(base + "/healthz") == (200, "ok\n")


async def test_a_database_error_in_a_command_is_counted(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = env.discord

    async def broken(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(env.store, "apply", broken)
    reply = await d.slash("character create", user=d.player, name="Aria", level=1)
    assert reply.ephemeral and "nothing was changed" in reply.text
    await handled(env)
    text = env.bot.metrics.render().decode()
    assert "tablekeeper_database_errors_total 1.0" in text
    assert 'command="character create",outcome="error"} 1.0' in text


@dataclasses.dataclass
class HealthEnv(Env):
    """`Env` with HEALTH_PORT set and nothing else: where the bot listens by default."""

    port: int = dataclasses.field(default_factory=free_port)

    @property
    def settings(self) -> Settings:
        return dataclasses.replace(super().settings, health_port=self.port)


async def test_the_health_port_listens_on_this_machine_only_by_default(tmp_path: Path) -> None:
    async with running_env(f"sqlite:///{tmp_path / 'tk.db'}", make=HealthEnv) as env:
        assert isinstance(env, HealthEnv)
        await env.bot.wait_until_ready()
        assert await get(f"http://127.0.0.1:{env.port}/healthz") == (200, "ok\n")
        # Another address of this machine (as another interface would be) finds nothing there.
        with pytest.raises(ConnectionRefusedError):
            await asyncio.open_connection("127.0.0.2", env.port)
