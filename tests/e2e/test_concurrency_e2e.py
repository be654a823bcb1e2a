"""Commands racing each other through the whole bot never lose an update."""

import asyncio

from tests.e2e.conftest import Env
from tests.e2e.helpers import fatigue_of, hero, seed


async def test_twenty_simultaneous_spends_all_count(env: Env) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player), hero("Bo", d.player2))
    spends = [
        d.slash("fatigue spend", user=user, character=name, amount=1)
        for _ in range(10)
        for user, name in ((d.gm, "Aria"), (d.player, "Aria"), (d.player2, "Bo"))
    ]
    replies = await asyncio.gather(*spends)
    assert all(not reply.ephemeral for reply in replies)
    assert (await fatigue_of(env, "Aria")).fp == 20
    assert (await fatigue_of(env, "Bo")).fp == 10
    events = await env.store.history(d.table.id, limit=100)
    assert sum(e.action == "fatigue spend" for e in events) == 30
