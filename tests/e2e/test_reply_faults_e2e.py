"""When Discord fails to take an answer: rate limits are waited out, server errors retried, a
lost response is neither lost nor sent twice, and a change that was saved is never reported
as "nothing was changed" (through the real client; the local Discord injects the faults)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import pytest

from bot.tree import SAVED, UNEXPECTED
from tests.e2e.conftest import Env
from tests.e2e.helpers import hero, seed
from tests.e2e.test_ack_e2e import acknowledged_in, store_held
from tests.localdiscord.faults import Fault, Faults

CALLBACK = "POST /interactions/*/callback"
WEBHOOK = "* /webhooks/*"  # follow-ups and edits of the deferred answer


async def spend_count(env: Env) -> int:
    events = await env.store.history(env.discord.table.id, limit=100)
    return sum(e.action == "fatigue spend" for e in events)


async def test_a_rate_limited_answer_waits_the_retry_after_and_arrives(env: Env) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    fault = d.server.faults.rate_limit(CALLBACK, retry_after=0.4)
    reply = await d.slash("fatigue spend", user=d.player)
    assert "Aria spends 1 FP" in reply.text and not reply.ephemeral
    ((limited_at, _),) = fault.hits
    rec = d.server.interactions[reply.interaction_id]
    assert rec.answered_at is not None and rec.answered_at - limited_at >= 0.4
    assert await spend_count(env) == 1


FAULTS: dict[str, Callable[[Faults], Fault]] = {
    "429": lambda faults: faults.rate_limit(WEBHOOK, retry_after=0.3),
    "502": lambda faults: faults.server_error(WEBHOOK, status=502),
    "lost response": lambda faults: faults.drop_response(WEBHOOK),
    "lost request": lambda faults: faults.drop_request(WEBHOOK),
}


@pytest.mark.parametrize("kind", FAULTS)
async def test_a_fault_on_the_deferred_answer_is_retried(env: Env, kind: str) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    fault = FAULTS[kind](d.server.faults)
    async with store_held(env, 1.6):  # deferred: the answer is a webhook call
        reply = await d.slash("fatigue spend", user=d.player)
    assert fault.hits
    assert "Aria spends 1 FP" in reply.text and not reply.ephemeral
    assert not reply.followups  # no error message after it
    assert await spend_count(env) == 1


ANSWER_FAULTS: dict[str, Callable[[Faults], Fault]] = {
    "503": lambda faults: faults.server_error(CALLBACK, status=503),
    "lost response": lambda faults: faults.drop_response(CALLBACK),  # Discord has the answer
    "lost request": lambda faults: faults.drop_request(CALLBACK),  # Discord has nothing
}


@pytest.mark.parametrize("kind", ANSWER_FAULTS)
async def test_a_fault_on_the_answer_is_survived_and_answered_once(env: Env, kind: str) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    fault = ANSWER_FAULTS[kind](d.server.faults)
    reply = await d.slash("fatigue spend", user=d.player)
    assert fault.hits
    assert "Aria spends 1 FP" in reply.text and not reply.ephemeral
    assert acknowledged_in(env, reply) < 3.0
    await asyncio.sleep(0.3)  # time for a second answer, were one coming
    d.assert_clean()  # none: Discord would say 40060
    assert not d.latest(reply).followups  # and no "nothing was changed" after it
    assert await spend_count(env) == 1


@pytest.mark.parametrize("deferred", [False, True], ids=["answer", "deferred answer"])
async def test_a_saved_change_whose_reply_is_refused_says_it_was_saved(
    env: Env, caplog: pytest.LogCaptureFixture, deferred: bool
) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    # Discord turns the answer away: the callback, or the edit that fills a deferral
    d.server.faults.fail("PATCH /webhooks/*" if deferred else CALLBACK, status=400)
    with caplog.at_level(logging.WARNING, logger="bot.tree"):
        async with store_held(env, 1.6 if deferred else 0):
            reply = await d.slash("fatigue spend", user=d.player)
    assert reply.ephemeral
    assert reply.text == SAVED.format(what="fatigue spend")
    assert not reply.embeds  # the public "thinking…" message went: only the user hears of it
    assert (await env.table()).get("Aria").fatigue.fp == 1
    assert await spend_count(env) == 1
    assert any("Saved fatigue spend" in r.getMessage() for r in caplog.records)


async def test_a_failure_before_anything_was_saved_says_nothing_changed(env: Env) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    # A read-only command: its answer is refused, so nothing was saved, and it says so.
    d.server.faults.fail(CALLBACK, status=400)
    reply = await d.slash("party show", user=d.player)
    assert reply.ephemeral
    assert reply.text == UNEXPECTED
    assert await spend_count(env) == 0
