"""The real bot keeps its session through a dropped gateway connection."""

from tests.e2e.conftest import Env
from tests.e2e.helpers import fatigue_of, hero, seed


async def test_the_bot_resumes_after_a_dropped_socket_and_keeps_answering(env: Env) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    await d.slash("fatigue spend", user=d.player, amount=2)
    await d.drop_connection()  # returns once the bot has RESUMEd
    reply = await d.slash("fatigue spend", user=d.player, amount=3)
    assert "FP 2 → **5**" in reply.text
    assert (await fatigue_of(env, "Aria")).fp == 5
    gateway = d.server.gateway
    assert gateway.resumes == 1 and gateway.connections == 2
