"""What the end-to-end tests share: characters, seeding the table channel, snapshots, refusals
and scripted dice. Plain functions of the `env` fixture (`tests/e2e/conftest.py`)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from dataclasses import replace
from fractions import Fraction
from typing import Any

from rules.fatigue import FatigueState
from table.event import Event
from table.model import Character, Table
from tests.localdiscord.reply import Reply

FL = Fraction(20)  # bands of 20: Fresh 0–20 … Exhausted from 61, Shattered from 81; Maximum FP 100


def hero(name: str, owner: Any, fl: Fraction | None = FL, **fatigue: Any) -> Character:
    """A character with a Fatigue Level given directly (FL 20 unless told) and this fatigue."""
    return Character(name, owner.id, fl_override=fl, fatigue=FatigueState(**fatigue))


async def seed(env: Any, *characters: Character, clock: int | None = None, **settings: Any) -> None:
    """Put characters in the table channel (replacing any of the same name), and set the clock
    and settings if given, as the GM in one logged change ("test seed")."""
    channel = env.discord.table

    def put(table: Table) -> tuple[Table, None]:
        if clock is not None:
            table = replace(table, clock=clock)
        table = replace(table, settings=replace(table.settings, **settings))
        for character in characters:
            table = table.with_character(character)
        return table, None

    await env.store.apply(channel.id, channel.guild_id, env.discord.gm.id, "test seed", put)


async def fatigue_of(env: Any, name: str) -> FatigueState:
    return (await env.table()).get(name).fatigue


async def snapshot(env: Any, channel: Any = None) -> tuple[Table, list[Event]]:
    """The channel's table and its log (the last 100 changes, undo marks included): a refused
    command must leave both as they were. #table unless another `channel` is named."""
    channel = channel or env.discord.table
    return await env.table(channel), await env.store.history(channel.id, limit=100)


async def refused(env: Any, command: str, user: Any, **options: Any) -> str:
    """Run a command that must fail: an ephemeral error, and nothing written or logged."""
    before = await snapshot(env)
    reply = await env.discord.slash(command, user=user, **options)
    assert reply.ephemeral, reply.text
    assert not reply.embeds
    assert await snapshot(env) == before
    return reply.text


def fields(reply: Reply) -> dict[str, str]:
    return {f["name"]: f["value"] for f in reply.embed.get("fields") or []}


class Scripted:
    """Dice that come up as written, in order."""

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        face = self.faces.pop(0)
        assert a <= face <= b
        return face


async def handled(env: Any) -> None:
    """Until every handler the bot was running has ended (each one's outcome counted)."""
    deadline = time.monotonic() + env.discord.timeout
    while env.bot.acks.working:
        assert time.monotonic() < deadline, "a handler never ended"
        await asyncio.sleep(0.01)


async def whispered(d: Any, reply: Reply) -> Reply:
    """The private word that follows a reply (`reply(…, private=True)`: the GM's copy of a public
    reply that left something out), once the bot has sent it."""
    deadline = time.monotonic() + d.timeout
    while not d.latest(reply).followups:
        assert time.monotonic() < deadline, f"no private word followed: {reply.text}"
        await asyncio.sleep(0.01)
    (word,) = d.latest(reply).followups
    assert word.ephemeral, word
    return word
