"""The whole bot on PostgreSQL: commands through the local Discord change the table, and the
state (characters, fatigue, the log, undo marks) survives a restart of the bot."""

from __future__ import annotations

from tests.e2e.conftest import Env


async def test_the_bot_keeps_its_tables_in_postgres_across_a_restart(pg_env: Env) -> None:
    env, d = pg_env, pg_env.discord
    assert env.settings.database_url.startswith("postgresql://")
    assert env.store.dialect == "postgres"

    created = await d.slash("character create", user=d.player, name="Aria", fatigue_level=20)
    assert "Created Aria" in created.text
    spent = await d.slash("fatigue spend", user=d.player, amount=3)
    assert "FP 0 → **3**" in spent.text
    await d.slash("fatigue spend", user=d.player, amount=5)
    undone = await d.slash("undo", user=d.player)
    assert not undone.ephemeral, undone.text
    before = await env.table()
    log = await env.store.history(d.table.id)

    await env.restart()

    after = await env.table()
    assert after == before
    assert after.get("aria").fatigue.fp == 3  # spent 3, then 5 undone
    assert await env.store.history(d.table.id) == log
    assert [e.action for e in log] == ["undo", "fatigue spend", "fatigue spend", "character create"]
    assert log[1].undone_by == log[0].id
    shown = await d.slash("fatigue show", user=d.player)  # the restarted bot reads it back
    assert "Aria — Fresh" in shown.text and "3/100 FP" in shown.text
