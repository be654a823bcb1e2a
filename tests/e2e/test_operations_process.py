"""`python -m bot` as an operator runs it: HEALTH_PORT's /healthz and /metrics, `python -m bot
health`, LOG_FORMAT=json, and SIGTERM while an interaction is in flight (it is finished, the
database closed, exit 0 within 10 s)."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import sqlite3
import time
from pathlib import Path

import aiohttp

from tests.e2e.test_process import (
    CLEAN_CLOSE,
    bot_process,
    finish,
    output,
    process_env,
    run_tool,
    until_identified,
)
from tests.localdiscord.client import LocalDiscord

SIGTERM_LIMIT = 10.0  # seconds a host waits after SIGTERM before it kills


def free_port() -> int:
    """A port the bot can listen on, as it does, at every address: one free on 127.0.0.1 may
    still be held on 127.0.0.2 … (a client's connection from there, as the web benchmark's
    pages make), so the port is asked for on all of them."""
    with socket.socket() as sock:
        sock.bind(("0.0.0.0", 0))
        return int(sock.getsockname()[1])


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status, await response.text()


async def until_healthy(base: str, timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    while True:
        try:
            status, text = await get(base + "/healthz")
            if status == 200:
                return text
        except aiohttp.ClientError:
            status, text = 0, "no answer"
        if time.monotonic() > deadline:
            raise AssertionError(f"/healthz never said ok: {status} {text}")
        await asyncio.sleep(0.1)


def metric(text: str, name: str) -> float:
    """The value of one sample line `name{labels} value` in Prometheus text."""
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


async def test_health_metrics_json_logs_and_a_graceful_sigterm(tmp_path: Path) -> None:
    db, port = tmp_path / "tablekeeper.db", free_port()
    base = f"http://127.0.0.1:{port}"
    async with LocalDiscord() as d:
        env = process_env(
            DISCORD_TOKEN=d.token,
            DISCORD_API_BASE=d.api_base,
            DATABASE_URL=f"sqlite:///{db}",
            HEALTH_PORT=str(port),
            LOG_FORMAT="json",
        )
        sync_log = tmp_path / "sync"
        assert await finish(await bot_process("sync", env=env, cwd=tmp_path, log=sync_log)) == 0
        log = tmp_path / "run"
        run = await bot_process(env=env, cwd=tmp_path, log=log)
        try:
            await until_identified(d, run, log)
            assert await until_healthy(base) == "ok\n"
            health = process_env(HEALTH_PORT=str(port))
            code, out, _ = await run_tool("health", env=health, cwd=tmp_path)
            assert (code, out) == (0, "healthy: ok\n")

            await d.slash("character create", user=d.player, name="Aria", fatigue_level=20)
            refused = await d.slash("party reset", user=d.player)  # GM only
            assert refused.ephemeral
            status, metrics = await get(base + "/metrics")
            assert status == 200
            ok = 'tablekeeper_interactions_total{command="character create",outcome="ok"}'
            assert metric(metrics, ok) == 1
            no = 'tablekeeper_interactions_total{command="party reset",outcome="refused"}'
            assert metric(metrics, no) == 1
            assert metric(metrics, "tablekeeper_acknowledge_seconds_count") == 2
            assert metric(metrics, "tablekeeper_shards_connected") == 1
            assert 'tablekeeper_gateway_latency_seconds{shard="0"}' in metrics
            assert "tablekeeper_interaction_seconds_bucket" in metrics
            assert "tablekeeper_database_errors_total 0.0" in metrics

            # An interaction in flight when SIGTERM comes: the database is held by another
            # writer, so the bot's write waits for it (SQLite's busy timeout).
            holder = sqlite3.connect(db, isolation_level=None)
            holder.execute("BEGIN IMMEDIATE")
            spend = asyncio.ensure_future(d.slash("fatigue spend", user=d.player, amount=2))
            await asyncio.sleep(0.5)
            assert not spend.done()
            gateway = d.server.gateway.ws
            assert gateway is not None
            run.send_signal(signal.SIGTERM)
            stopped_at = time.monotonic()
            await asyncio.sleep(0.3)
            assert await get(base + "/healthz") == (503, "shutting down\n")
            holder.execute("COMMIT")
            holder.close()
            reply = await spend
            code = await finish(run, timeout=SIGTERM_LIMIT)
            took = time.monotonic() - stopped_at
        finally:
            await finish(run)
        d.assert_clean()

    out, err = output(log)
    assert code == 0, err[-3000:]
    assert took < SIGTERM_LIMIT
    assert gateway.close_code == CLEAN_CLOSE
    assert "FP 0 → **2**" in reply.text  # finished after SIGTERM, not dropped
    # The last connection to close checkpoints and removes the WAL file: the store was closed.
    assert not (tmp_path / "tablekeeper.db-wal").exists()
    with sqlite3.connect(db) as check:
        (fp,) = check.execute("SELECT fp FROM characters WHERE key = 'aria'").fetchone()
    assert fp == 2

    lines = [line for line in err.splitlines() if line.strip()]
    assert lines, "the bot logged nothing"
    records = [json.loads(line) for line in lines]  # every line one JSON object
    assert all({"time", "level", "logger", "message"} <= set(r) for r in records)
    messages = [r["message"] for r in records]
    assert any("finishing 1 interactions in flight" in m for m in messages), messages
    assert d.token not in out + err and "\x1b[" not in err


async def test_an_unreachable_database_is_one_line_and_exit_code_1(tmp_path: Path) -> None:
    log = tmp_path / "bot"
    url = "postgresql://tk:s3cret@127.0.0.1:1/tablekeeper"
    # Tried once: the retry window (STARTUP_RETRY_SECONDS) is test_startup_faults' subject.
    env = process_env(DISCORD_TOKEN="x.y.z", DATABASE_URL=url, STARTUP_RETRY_SECONDS="0")
    process = await bot_process(env=env, cwd=tmp_path, log=log)
    assert await finish(process) == 1
    out, err = output(log)
    lines = [line for line in err.splitlines() if "PostgreSQL" in line]
    assert len(lines) == 1 and lines[0].startswith("Could not open the PostgreSQL database:")
    assert err.rstrip().endswith(lines[0])
    assert "Traceback" not in err and "s3cret" not in out + err


async def test_a_health_port_in_use_is_one_line_and_exit_code_1(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = process_env(
            DISCORD_TOKEN="x.y.z",
            DATABASE_URL=f"sqlite:///{tmp_path / 'tk.db'}",
            HEALTH_PORT=str(port),
            STARTUP_RETRY_SECONDS="0",
        )
        log = tmp_path / "bot"
        process = await bot_process(env=env, cwd=tmp_path, log=log)
        assert await finish(process) == 1
    err = output(log)[1]
    lines = [line for line in err.splitlines() if "HEALTH_PORT" in line]
    assert len(lines) == 1 and str(port) in lines[0], err
    assert err.rstrip().endswith(lines[0]) and "Traceback" not in err
