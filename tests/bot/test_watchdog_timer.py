"""`bot.ack.Acks`: each unanswered interaction is deferred once, `watchdog` seconds after it
arrived and not before; an answered one never."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord

from bot.ack import ack_of
from bot.watchdog import Acks

WATCHDOG = 0.05


class Recorded(Acks):
    """Notes when each interaction would be deferred, instead of deferring it."""

    def __init__(self) -> None:
        super().__init__(watchdog=WATCHDOG)
        self.spawned: dict[int, float] = {}

    async def defer_now(self, interaction: discord.Interaction) -> None:
        assert interaction.id not in self.spawned, "deferred twice"
        self.spawned[interaction.id] = asyncio.get_running_loop().time()


def interaction(number: int) -> Any:
    kind = discord.InteractionType.application_command
    return SimpleNamespace(id=number, type=kind, extras={})


async def arrivals(answered: set[int]) -> tuple[Recorded, dict[int, float]]:
    acks, arrived = Recorded(), {}
    loop = asyncio.get_running_loop()
    for number in range(8):
        item = interaction(number)
        arrived[number] = loop.time()
        acks.arrived(item)
        if number in answered:
            ack_of(item).settle()  # answered at once, as the fast path is
        await asyncio.sleep(WATCHDOG / 4)  # some arrive while others are due
    await asyncio.sleep(WATCHDOG * 2)
    return acks, arrived


async def test_each_unanswered_one_is_deferred_once_when_due() -> None:
    acks, arrived = await arrivals(answered={0, 2, 3, 7})
    assert sorted(acks.spawned) == [1, 4, 5, 6]
    for number, when in acks.spawned.items():  # never early (asyncio may run a timer up to
        assert when >= arrived[number] + WATCHDOG - 0.001  # its clock's resolution early)
    assert not acks.pending  # nothing left armed


async def test_none_answered_all_deferred_and_all_answered_none() -> None:
    acks = (await arrivals(answered=set()))[0]
    assert sorted(acks.spawned) == list(range(8))
    acks = (await arrivals(answered=set(range(8))))[0]
    assert acks.spawned == {}
    assert not acks.pending


async def test_closing_disarms_the_timer() -> None:
    acks = Recorded()
    acks.arrived(interaction(1))
    acks.close()
    await asyncio.sleep(WATCHDOG * 2)
    assert acks.spawned == {}
