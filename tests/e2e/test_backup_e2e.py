"""`python -m bot backup PATH`: a consistent copy of the live SQLite database, taken while the
bot keeps writing to it."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.tools import ToolError
from bot.tools.backup import backup
from store import Store
from tests.e2e.conftest import Env
from tests.e2e.helpers import hero, seed
from tests.e2e.test_process import process_env, run_tool
from tests.localdiscord.world import User


async def test_a_backup_while_the_bot_writes_is_consistent(env: Env, tmp_path: Path) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player, fl=None), hero("Bo", d.player2, fl=None))
    await d.slash("character set", user=d.gm, name="Aria", fatigue_level=100)
    await d.slash("character set", user=d.gm, name="Bo", fatigue_level=100)

    async def spend(user: User, name: str) -> None:
        for _ in range(15):
            await d.slash("fatigue spend", user=user, character=name)

    copies = [tmp_path / f"copy{n}.db" for n in range(3)]
    writers = asyncio.gather(spend(d.player, "Aria"), spend(d.player2, "Bo"))
    for copy in copies:  # taken at three moments while the spends go on
        await asyncio.to_thread(backup, str(copy), env.database_url)
        await asyncio.sleep(0.05)
    await writers

    seen = []
    for copy in copies:
        assert not copy.with_name(copy.name + "-wal").exists()  # one self-contained file
        async with Store.open(f"sqlite:///{copy}") as store:
            table = await store.read(d.table.id, d.guild.id)
            events = await store.history(d.table.id, limit=100)
        for name in ("aria", "bo"):
            spends = [
                e for e in events if e.action == "fatigue spend" and name in e.after["characters"]
            ]
            assert table.get(name).fatigue.fp == len(spends)  # every change with its event
        seen.append(len(events))
    assert seen == sorted(seen)  # later copies hold at least as much
    final = await env.store.history(d.table.id, limit=100)
    assert seen[-1] <= len(final)


async def test_the_command_line_and_its_refusals(env: Env, tmp_path: Path) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Aria", fatigue_level=20)
    target = tmp_path / "nightly.db"
    code, out, err = await run_tool(
        "backup", str(target), env=process_env(DATABASE_URL=env.database_url), cwd=tmp_path
    )
    assert (code, err) == (0, "")
    assert out.startswith("Backed up ") and "(1 changes in its history)" in out
    with sqlite3.connect(target) as db:
        assert db.execute("SELECT name FROM characters").fetchall() == [("Aria",)]

    with pytest.raises(ToolError, match="already exists: give a new file name"):
        backup(str(target), env.database_url)
    with pytest.raises(ToolError, match="is PostgreSQL: back it up with pg_dump"):
        backup(str(tmp_path / "x.db"), "postgresql://tk:secret@db/tk")
    with pytest.raises(ToolError, match="No database at"):
        backup(str(tmp_path / "y.db"), f"sqlite:///{tmp_path / 'missing.db'}")
    assert not (tmp_path / "x.db").exists() and not (tmp_path / "y.db").exists()
