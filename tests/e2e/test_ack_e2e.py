"""Answered within Discord's 3 seconds even when the answer is slow: the watchdog defers the
interaction (public or private as its reply will be, a click as a silent update) and the
answer follows. The store is held by the test, as a slow disk or a busy channel would hold it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.watchdog import WATCHDOG
from tests.e2e.conftest import Env
from tests.e2e.helpers import hero, seed
from tests.localdiscord.reply import Reply

DEADLINE = 3.0


@contextlib.asynccontextmanager
async def store_held(env: Env, seconds: float) -> AsyncIterator[None]:
    """Keep the store busy for `seconds`, as a slow disk would: a change and a read that take
    that long hold the store's connections, so every command that reads or writes waits."""
    held = [asyncio.Event(), asyncio.Event()]

    async def slow_disk(tx: object, held: asyncio.Event) -> None:
        held.set()
        await asyncio.sleep(seconds)

    backend = env.store.backend
    tasks = [
        asyncio.create_task(backend.write(0, lambda tx: slow_disk(tx, held[0]))),
        asyncio.create_task(backend.read(lambda tx: slow_disk(tx, held[1]))),
    ]
    for each in held:
        await each.wait()
    try:
        yield
    finally:
        await asyncio.gather(*tasks)


def acknowledged_in(env: Env, reply: Reply) -> float:
    rec = env.discord.server.interactions[reply.interaction_id]
    assert rec.answered_at is not None
    return rec.answered_at - rec.sent_at


async def test_a_slow_change_is_deferred_in_time_and_then_answered(env: Env) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    async with store_held(env, DEADLINE + 0.5):
        reply = await d.slash("fatigue spend", user=d.player, amount=2)
    assert reply.callback_type == 5  # "thinking…", then the answer in its place
    assert acknowledged_in(env, reply) < DEADLINE
    assert not reply.ephemeral
    assert "Aria spends 2 FP" in reply.text
    assert (await env.table()).get("Aria").fatigue.fp == 2


async def test_a_deferral_is_private_exactly_when_the_reply_is(env: Env) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    cases = [
        ("character list", {}, True),
        ("character show", {"public": True}, False),
        ("character show", {}, True),
        ("history", {"private": True}, True),
        ("history", {}, False),
        ("party show", {}, False),
    ]
    async with store_held(env, 1.6):  # all at once: fewer than a burst, so by the watchdog
        replies = await asyncio.gather(
            *(d.slash(command, user=d.player, options=options) for command, options, _ in cases)
        )
    for (command, options, private), reply in zip(cases, replies, strict=True):
        assert reply.callback_type == 5, command
        assert reply.ephemeral is private, (command, options)
        assert reply.embeds or reply.texts(), command  # an embed, or a card (`/party show`)


async def test_an_error_after_a_public_deferral_is_still_private(env: Env) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    async with store_held(env, 1.6):
        reply = await d.slash("fatigue spend", user=d.player, character="Nobody")
    assert reply.ephemeral
    assert "Nobody" in reply.text
    assert not reply.embeds
    # the public "thinking…" message is gone: the channel sees nothing of it
    channel = [m for m in d.server.messages.values() if m.channel_id == d.table.id]
    assert all(m.flags & 64 for m in channel if m.interaction_id == reply.interaction_id)


async def test_a_slow_click_is_deferred_as_an_update_then_answered(env: Env) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    first = await d.slash("fatigue spend", user=d.player)
    async with store_held(env, 1.6):
        again = await d.click(first, "Spend 1 more", user=d.player)
    assert again.callback_type == 6  # a silent acknowledgement, the new message follows
    assert not again.ephemeral
    assert "Aria spends 1 FP" in again.text
    assert (await env.table()).get("Aria").fatigue.fp == 2


async def test_a_slow_page_turn_edits_the_clicked_message(env: Env) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    for _ in range(11):
        await d.slash("fatigue spend", user=d.player)
    page = await d.slash("history", user=d.player)
    async with store_held(env, 1.6):
        older = await d.click(page, "Next", user=d.player)
    assert older.callback_type == 6
    assert older.message_id == page.message_id  # edited in place, no new message
    assert older.embed != page.embed


@pytest.mark.parametrize("busy", [None, 8])
async def test_a_burst_waiting_on_the_store_is_acknowledged_in_time(
    env: Env, busy: int | None
) -> None:
    """32 at once: by the watchdog, or (more in flight than `busy`) each deferred at once."""
    d = env.discord
    assert env.bot is not None
    if busy is not None:
        env.bot.acks.busy = busy
    await seed(env, hero("Aria", d.player), hero("Bo", d.player2))
    commands = [
        d.slash(command, user=user, options=options)
        for _ in range(8)
        for command, user, options in (
            ("fatigue spend", d.player, dict[str, Any]()),
            ("fatigue spend", d.player2, {"amount": 2}),
            ("party show", d.gm, {}),
            ("character list", d.player, {}),
        )
    ]
    async with store_held(env, DEADLINE + 0.5):  # nobody can answer before the deadline
        replies = await asyncio.gather(*commands)
    assert all(r.callback_type == 5 for r in replies)  # each acknowledged, none late
    assert all(acknowledged_in(env, r) < DEADLINE for r in replies)
    at_once = [r for r in replies if acknowledged_in(env, r) < WATCHDOG / 2]
    if busy is None:  # 32 in flight are no burst: the watchdog's timer defers them
        assert not at_once
    else:
        assert len(at_once) >= len(replies) - busy
    assert [r.ephemeral for r in replies] == [False, False, False, True] * 8
    assert (await env.table()).get("Aria").fatigue.fp == 8
    assert (await env.table()).get("Bo").fatigue.fp == 16


async def test_a_quick_answer_is_one_http_call(env: Env) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    replies = [await d.slash(c, user=d.player) for c in ("fatigue spend", "character list", "roll")]
    await asyncio.sleep(WATCHDOG + 0.2)  # the watchdog, had it been left armed, fires
    for reply in replies:
        rec = d.server.interactions[reply.interaction_id]
        calls = [r for r in d.requests if str(rec.id) in r or rec.token in r]
        assert calls == [f"POST /interactions/{rec.id}/{rec.token}/callback"], reply.text
        assert reply.callback_type == 4 and not reply.deferred
