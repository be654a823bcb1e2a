"""Two processes handed one interaction (both claiming its shard): when the other one deferred
it ("thinking…") and this one's answer is refused with 40060, this one fills that answer in."""

from __future__ import annotations

import asyncio

from tests.e2e.conftest import Env
from tests.localdiscord.payloads import interaction_payload
from tests.localdiscord.records import LOADING, InteractionRecord, MessageRecord
from tests.localdiscord.world import new_id


async def test_a_thinking_answer_from_the_twin_is_filled_in(env: Env) -> None:
    d = env.discord
    data = d._command_data("roll", d.table, {"mod": 25}, None)
    payload = interaction_payload(d.world, 2, d.player, d.table, data)
    thinking = MessageRecord(new_id(), d.table.id, d.world.bot, flags=LOADING)
    thinking.interaction_id = int(payload["id"])
    d.server.messages[thinking.id] = thinking
    rec = InteractionRecord(int(payload["id"]), payload["token"], 2, payload, callback_type=5)
    rec.original_id = thinking.id  # the twin process deferred it a moment ago
    d.server.interactions[rec.id] = rec
    await d.server.gateway.dispatch("INTERACTION_CREATE", payload)

    async def filled() -> None:
        while not rec.original_filled:
            rec.changed.clear()
            await rec.changed.wait()

    await asyncio.wait_for(filled(), 5)
    assert not thinking.flags & LOADING
    assert (thinking.embeds[0].get("title") or "").startswith("d100")
    assert "+25" in (thinking.embeds[0].get("description") or "")
    assert d.take_violations() == [
        f"interaction {rec.id} answered twice (40060 already acknowledged)"
    ]
