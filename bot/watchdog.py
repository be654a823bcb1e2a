"""The watchdog: no interaction the bot has taken misses Discord's 3 seconds.

A timer on each interaction taken (`bot.ack.take`), cancelled by its answer, defers it
(`bot.ack.defer`) if no answer went out within WATCHDOG seconds; with more than BUSY unanswered
at once (a burst, when the event loop may be too busy for a timer to fire in time) each new one
is deferred at once, before its handler works. It also spots a second delivery of an
interaction, and keeps each handler's task until it ends, for shutdown and /metrics.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.ack import LOST, ack_of, defer

log = logging.getLogger(__name__)

WATCHDOG = 1.2  # seconds after arrival: defer if nothing was sent by then
# More unanswered interactions than this: defer each new one at once. Below it, that would only
# double a busy bot's HTTP calls (a deferral and an edit instead of one answer).
BUSY = 64
RECENT = 4096  # interaction ids remembered, to spot a second delivery in this process
WATCHED = (
    discord.InteractionType.application_command,
    discord.InteractionType.component,
    discord.InteractionType.modal_submit,
)  # an autocomplete answers with choices, which can't be deferred


class Acks:
    """The watchdog: a timer on each interaction taken, cancelled by its answer; and each
    handler's task kept until it ends (shutdown waits for `working`; `ended` counts outcomes).

    Bounded: the ids of the last RECENT interactions (a second delivery of one is spotted), the
    unanswered ones (`pending`: those of the last `watchdog` seconds) and the handlers running."""

    def __init__(
        self,
        watchdog: float = WATCHDOG,
        busy: int = BUSY,
        ended: Callable[[discord.Interaction, str], object] | None = None,
    ) -> None:
        self.watchdog, self.busy, self.ended = watchdog, busy, ended
        self.pending: dict[int, asyncio.TimerHandle] = {}  # taken, not yet acknowledged
        self.recent: dict[int, None] = {}  # in arrival order
        self.working: set[asyncio.Task[Any]] = set()
        self.deferred = 0  # how many the watchdog acknowledged, logged when the bot closes
        self.closed = False
        self._tasks: set[asyncio.Task[None]] = set()

    def arrived(self, interaction: discord.Interaction) -> bool:
        """Arm the watchdog on `interaction`: True in a burst, where it is deferred at once."""
        if interaction.type not in WATCHED:
            return False
        self.keep(interaction)
        ack = ack_of(interaction)
        if interaction.id in self.recent:
            ack.again = True  # never acknowledged twice; the store refuses to apply it twice
            return False
        self.recent[interaction.id] = None
        if len(self.recent) > RECENT:
            del self.recent[next(iter(self.recent))]
        if len(self.pending) >= self.busy:
            return True
        timer = asyncio.get_running_loop().call_later(self.watchdog, self._due, interaction)
        self.pending[interaction.id] = timer
        ack.settle = lambda: self.pending.pop(interaction.id, timer).cancel()
        return False

    def keep(self, interaction: discord.Interaction) -> None:
        """Keep the running task, the interaction's handler, until it ends: its watchdog then
        has nothing left to acknowledge (a deferral now would only leave "thinking…" standing)."""
        task = asyncio.current_task()
        if task is None:
            return
        self.working.add(task)

        def over(_: asyncio.Task[Any]) -> None:
            self.working.discard(task)
            ack = ack_of(interaction)
            ack.settle()
            if self.ended is not None:
                self.ended(interaction, ack.outcome)

        task.add_done_callback(over)

    def _due(self, interaction: discord.Interaction) -> None:
        self.pending.pop(interaction.id, None)
        if not self.closed:
            task = asyncio.get_running_loop().create_task(self.defer_now(interaction))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def defer_now(self, interaction: discord.Interaction) -> None:
        try:
            if await defer(interaction):
                self.deferred += 1
        except (discord.HTTPException, *LOST) as error:
            log.warning("Could not defer interaction %s: %r", interaction.id, error)

    def close(self) -> None:
        log.info("Deferred %d interactions that could not be answered at once", self.deferred)
        self.closed = True
        for timer in self.pending.values():
            timer.cancel()
        self.pending.clear()
        for task in self._tasks:
            task.cancel()
