"""An interaction Discord delivers twice (after a gateway RESUME, or to two processes) is
applied once: the second delivery writes nothing, and is answered only if Discord has no
answer yet ("already done"). On a SQLite file and on PostgreSQL, and across a restart."""

from __future__ import annotations

import asyncio

from bot.tree import ALREADY_DONE
from bot.watchdog import WATCHDOG
from tests.e2e.conftest import Env
from tests.e2e.helpers import handled, hero, seed, snapshot
from tests.localdiscord.faults import redeliver
from tests.localdiscord.payloads import interaction_payload
from tests.localdiscord.records import InteractionRecord
from tests.localdiscord.reply import Reply
from tests.localdiscord.world import User

CALLBACK = "POST /interactions/*/callback"


async def asked_for_its_answer(env: Env, reply: Reply, before: int) -> None:
    """Until the bot has asked Discord whether the interaction has an answer (what it does
    with a second delivery of a change it finds applied) more often than `before` times, or
    has answered it a second time."""
    token = env.discord.server.interactions[reply.interaction_id].token
    wanted = f"/{token}/messages/@original"
    for _ in range(200):
        asked = sum(r.startswith("GET") and r.endswith(wanted) for r in env.discord.requests)
        if asked > before or env.discord.violations:
            await asyncio.sleep(0.05)  # and whatever it does next
            return
        await asyncio.sleep(0.025)
    raise TimeoutError("the bot never looked at the second delivery")


async def duplicates(env: Env) -> float:
    """How many interactions /metrics counts as a second delivery, once every handler ended."""
    await handled(env)
    env.bot.metrics.render()
    return sum(
        sample.value
        for metric in env.bot.metrics.registry.collect()
        for sample in metric.samples
        if sample.name == "tablekeeper_interactions_total"
        and sample.labels.get("outcome") == "duplicate"
    )


async def applied_once(env: Env, *, restart: bool = False) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    reply = await d.slash("fatigue spend", user=d.player, amount=3)
    assert "Aria spends 3 FP" in reply.text
    before = await snapshot(env)
    messages = dict(d.server.messages)
    if restart:
        await env.restart()  # a new process remembers nothing: only the database knows
    await redeliver(d, d.server.interactions[reply.interaction_id])
    await asked_for_its_answer(env, reply, 0)
    await asyncio.sleep(WATCHDOG + 0.3)  # the watchdog must not acknowledge it a second time
    assert await snapshot(env) == before
    assert (await env.table()).get("Aria").fatigue.fp == 3
    assert d.server.messages.keys() == messages.keys()  # nothing said twice
    d.assert_clean()  # and no second callback (Discord would say 40060)
    assert await duplicates(env) == 1


async def test_a_change_delivered_twice_is_applied_once(env: Env) -> None:
    await applied_once(env)


async def test_a_change_delivered_again_after_a_restart_is_applied_once(env: Env) -> None:
    await applied_once(env, restart=True)


async def test_a_change_delivered_twice_is_applied_once_on_postgres(pg_env: Env) -> None:
    await applied_once(pg_env)


async def test_a_look_or_a_click_delivered_twice_is_answered_once(env: Env) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    first = await d.slash("fatigue spend", user=d.player)
    roll = await d.slash("roll", user=d.player, dice="2d6")
    click = await d.click(first, "Spend 1 more", user=d.player)
    messages = dict(d.server.messages)
    for reply in (roll, click):
        await redeliver(d, d.server.interactions[reply.interaction_id])
        await asked_for_its_answer(env, reply, 0)
    await asyncio.sleep(WATCHDOG + 0.3)
    assert d.server.messages.keys() == messages.keys()
    assert (await env.table()).get("Aria").fatigue.fp == 2
    d.assert_clean()
    assert await duplicates(env) == 2


async def redelivered_unanswered_spend(env: Env, user: User) -> Reply:
    """`user`'s `/fatigue spend` commits (Aria: FP 1), but Discord takes neither its answer nor
    the error after it; the answer to the same interaction delivered again."""
    d = env.discord
    await seed(env, hero("Aria", d.player))
    fault = d.server.faults.fail(CALLBACK, status=400, times=2)
    data = d._command_data("fatigue spend", d.table, {}, None)
    rec = await d._send(2, data, user, d.table)
    while len(fault.hits) < 2:
        await asyncio.sleep(0.025)
    assert rec.callback_type is None and (await env.table()).get("Aria").fatigue.fp == 1
    d.server.faults.pending.clear()
    await redeliver(d, rec)
    for _ in range(200):
        if rec.callback_type is not None:
            break
        await asyncio.sleep(0.025)
    return d.latest(Reply(rec.id, 0))


async def test_a_second_delivery_of_an_unanswered_change_says_already_done(env: Env) -> None:
    answer = await redelivered_unanswered_spend(env, env.discord.player)
    assert answer.ephemeral
    assert answer.text == ALREADY_DONE.format(what="fatigue spend")
    assert (await env.table()).get("Aria").fatigue.fp == 1


async def test_an_interaction_another_process_answered_gets_no_second_message(env: Env) -> None:
    d = env.discord
    # Another bot process answered this /roll first; this one, handed it too, is refused (40060)
    data = d._command_data("roll", d.table, {}, None)
    payload = interaction_payload(d.world, 2, d.player, d.table, data)
    rec = InteractionRecord(int(payload["id"]), payload["token"], 2, payload, callback_type=4)
    d.server.interactions[rec.id] = rec
    await d.server.gateway.dispatch("INTERACTION_CREATE", payload)
    for _ in range(200):
        if d.violations:
            break
        await asyncio.sleep(0.025)
    await asyncio.sleep(0.3)  # time for anything more it would send
    assert d.take_violations() == [
        f"interaction {rec.id} answered twice (40060 already acknowledged)"
    ]
    # No error message after it (a look at what Discord holds, GET @original, says nothing).
    sent = [r for r in d.requests if rec.token in r and not r.startswith("GET ")]
    assert not sent[1:]
