"""`python -m bot` as the Procfile runs it: a separate process, configured by the environment,
against a local Discord on loopback; `python -m bot sync` first, SIGTERM at the end."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.localdiscord.client import LocalDiscord

pytestmark = pytest.mark.asyncio

REPO = Path(__file__).resolve().parents[2]
SETTINGS = (
    *("DISCORD_TOKEN", "DISCORD_API_BASE", "DATABASE_URL", "DEV_GUILD_ID", "LOG_LEVEL"),
    *("LOG_FORMAT", "SHARD_COUNT", "SHARD_IDS", "HEALTH_PORT", "SQLITE_SYNCHRONOUS"),
    "STARTUP_RETRY_SECONDS",
    *("WEB_PORT", "PORT", "PUBLIC_URL", "WEB_TRUSTED_PROXIES", "HEALTH_HOST"),
)
STARTUP = 30.0  # seconds; a cold interpreter importing discord.py is slow on a busy CI box
CLEAN_CLOSE = 1000  # the websocket close code of a client that said goodbye


def process_env(**values: str) -> dict[str, str]:
    """This environment without the bot's settings (a developer's own must not leak in)."""
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env | values


async def bot_process(
    *args: str, env: dict[str, str], cwd: Path, log: Path, prefix: Sequence[str] = ()
) -> asyncio.subprocess.Process:
    # Output goes to files, not pipes: a chatty bot must never block on a full pipe. The
    # working directory is a scratch one, so no `.env` next to the code is read. `prefix`
    # runs it under another program (e.g. setpriv, to drop root's power to write anything).
    with log.with_suffix(".out").open("wb") as out, log.with_suffix(".err").open("wb") as err:
        return await asyncio.create_subprocess_exec(
            *prefix, sys.executable, "-m", "bot", *args, env=env, cwd=cwd, stdout=out, stderr=err
        )


async def run_tool(*args: str, env: dict[str, str], cwd: Path) -> tuple[int, str, str]:
    """`python -m bot ARGS` for a tool that ends by itself: exit code, stdout, stderr."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        env=env,
        cwd=cwd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), STARTUP)
    return process.returncode or 0, out.decode(), err.decode()


def output(log: Path) -> tuple[str, str]:
    out = log.with_suffix(".out").read_text(encoding="utf-8", errors="replace")
    return out, log.with_suffix(".err").read_text(encoding="utf-8", errors="replace")


async def finish(process: asyncio.subprocess.Process, timeout: float = STARTUP) -> int:
    try:
        return await asyncio.wait_for(process.wait(), timeout)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def until_identified(
    discord_: LocalDiscord, process: asyncio.subprocess.Process, log: Path
) -> None:
    ready = asyncio.ensure_future(discord_.wait_ready(commands=False, timeout=STARTUP))
    died = asyncio.ensure_future(process.wait())
    await asyncio.wait({ready, died}, return_when=asyncio.FIRST_COMPLETED)
    died.cancel()
    if not ready.done():
        ready.cancel()
        pytest.fail(f"python -m bot exited {process.returncode} first:\n{output(log)[1]}")
    ready.result()


async def test_sync_then_run_answers_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    db = tmp_path / "tablekeeper.db"
    async with LocalDiscord() as discord_:
        env = process_env(
            DISCORD_TOKEN=discord_.token,
            DISCORD_API_BASE=discord_.api_base,
            DATABASE_URL=f"sqlite:///{db}",
        )
        sync_log = tmp_path / "sync"
        sync = await bot_process("sync", env=env, cwd=tmp_path, log=sync_log)
        assert await finish(sync) == 0, output(sync_log)
        sync_out, sync_err = output(sync_log)
        registered = sorted(c["name"] for c in discord_.commands())
        assert {"character", "help"} <= set(registered)
        listed = ", ".join(f"/{name}" for name in registered)
        assert f"Registered {len(registered)} commands globally: {listed}" in sync_out
        assert discord_.server.gateway.connections == 0  # sync logs in over REST only

        run_log = tmp_path / "run"
        # DEBUG: the most talkative the bot gets, so the token check below covers every log.
        run = await bot_process(env=env | {"LOG_LEVEL": "DEBUG"}, cwd=tmp_path, log=run_log)
        try:
            await until_identified(discord_, run, run_log)
            reply = await discord_.slash(
                "character create", user=discord_.player, name="Aria", level=5, wisdom=3
            )
            gateway = discord_.server.gateway.ws
            assert gateway is not None
            run.send_signal(signal.SIGTERM)
        finally:
            code = await finish(run)
        run_out, run_err = output(run_log)
        assert code == 0, run_err[-3000:]
        assert gateway.close_code == CLEAN_CLOSE  # it said goodbye rather than dropping
        discord_.assert_clean()

    assert "Aria" in reply.embed["title"]
    for text in (sync_out, sync_err, run_out, run_err):
        assert discord_.token not in text
        assert "Traceback" not in text
    assert "Unclosed" not in run_err  # aiohttp's complaint when a session is left open
    assert "\x1b[" not in run_err and "[INFO    ]" in run_err  # plain text: not a terminal

    # The change is on disk, written by the other process: read it with plain sqlite3.
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT name, owner_id, level, wisdom FROM characters WHERE channel_id = ?",
            (discord_.table.id,),
        ).fetchall()
        actions = connection.execute(
            "SELECT action, actor_id FROM events WHERE channel_id = ?", (discord_.table.id,)
        ).fetchall()
    assert rows == [("Aria", discord_.player.id, 5, 3)]
    assert actions == [("character create", discord_.player.id)]


async def test_missing_token_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    log = tmp_path / "bot"
    process = await bot_process(env=process_env(), cwd=tmp_path, log=log)
    assert await finish(process) == 2
    out, err = output(log)
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert "DISCORD_TOKEN" in lines[0]
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "pasted, hint",
    [
        ("MTIzNDU2Nzg5.wrong.c2VjcmV0LXRva2VuLXRoYXQtaXMtd3Jvbmc", "Reset Token)"),
        # The right token as a host's settings page may keep it: the line says what to drop.
        ('"{token}"', "without the quotes around it"),
        ("Bot {token}", 'without "Bot " in front'),
    ],
)
async def test_wrong_token_is_one_clear_line_and_exit_code_1(
    tmp_path: Path, pasted: str, hint: str
) -> None:
    async with LocalDiscord() as discord_:
        wrong = pasted.format(token=discord_.token)
        env = process_env(
            DISCORD_TOKEN=wrong,
            DISCORD_API_BASE=discord_.api_base,
            DATABASE_URL=f"sqlite:///{tmp_path / 'tablekeeper.db'}",
        )
        log = tmp_path / "bot"
        process = await bot_process(env=env, cwd=tmp_path, log=log)
        assert await finish(process) == 1
        # The local Discord refused it, as Discord would: that refusal is the point here.
        assert discord_.take_violations() == [
            "GET /users/@me: missing or wrong Authorization header"
        ]
    out, err = output(log)
    about_token = [line for line in err.splitlines() if "DISCORD_TOKEN" in line]
    assert len(about_token) == 1, err
    assert "rejected" in about_token[0] and about_token[0].endswith(hint)
    assert err.rstrip().endswith(about_token[0])  # the last word, after any log lines
    assert "Traceback" not in err
    assert wrong not in out + err
    assert discord_.token not in out + err
