"""Every interaction taken, acknowledged within Discord's 3 seconds and answered once.

`take` starts every handler of the bot (the tree's `interaction_check`; the buttons, views and
forms of `cogs._views`): the interaction is taken (so it is never answered as unclaimed), its
reply's language set and its watchdog armed. The watchdog defers it if no answer went out
within WATCHDOG seconds, or at once in a burst: a command, or a form not opened from a message,
as "thinking…" (private or public as its reply is declared), a click as a silent update.
`send`, `edit` and `open_modal` answer by whichever route is still open (the answer, the
deferral filled in, or a follow-up), under a lock per interaction that keeps them from racing
the deferral. What happened is kept on the interaction (`interaction.extras`): whether it was
answered, and whether a change was saved for it (`mark_saved`), so that the error handler never
says "nothing was changed" after a commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import aiohttp
import discord

from bot.language import speak_to
from bot.message import Message
from bot.metrics import note_acknowledged

log = logging.getLogger(__name__)

LOST = (aiohttp.ClientConnectionError, asyncio.TimeoutError)  # no answer: was it received?
EDIT_TRIES = 3  # an edit is idempotent: a lost response is simply sent again
ANSWERED_ELSEWHERE = 40060  # Discord: "Interaction has already been acknowledged"
_KEY = "tablekeeper.ack"

Call = Callable[[], Awaitable[Any]]


class Watchdog(Protocol):  # `bot.watchdog.Acks`, the client's `acks`
    def arrived(self, interaction: discord.Interaction) -> bool: ...
    async def defer_now(self, interaction: discord.Interaction) -> None: ...


@dataclass
class Ack:
    """How one interaction has been taken and acknowledged, and what was saved for it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    taken: bool = False  # a handler of the bot's has it (`take`)
    private: bool = False  # its reply's declared privacy, a "thinking…" deferral's too
    # None, "thinking" (a reply deferred, not yet filled in), "update" (a click deferred) or
    # "answered" (what is said next is a follow-up)
    state: str | None = None
    # The change committed for it: its logged action, and for an undo or a redo the action of
    # the change it took back or put back (`table.actions.saved_text`)
    saved: tuple[str, str | None] | None = None
    outcome: str = "ok"  # for /metrics when its handler ends (`bot.tree.outcome` on an error)
    again: bool = False  # this process saw the same interaction arrive before
    settle: Callable[[], object] | None = None  # disarms its watchdog


def ack_of(interaction: discord.Interaction) -> Ack:
    ack = interaction.extras.get(_KEY)
    if ack is None:
        ack = interaction.extras[_KEY] = Ack()
    return ack


def taken(interaction: discord.Interaction) -> bool:
    ack = interaction.extras.get(_KEY)
    return ack is not None and ack.taken


def answered(interaction: discord.Interaction) -> bool:
    return ack_of(interaction).state is not None or interaction.response.is_done()


def mark_saved(interaction: discord.Interaction, action: str, of: str | None = None) -> None:
    """A change was committed for the interaction: its logged `action` ("fatigue spend"), and
    for an undo or a redo the action `of` the change it took back or put back."""
    ack_of(interaction).saved = action, of


def saved(interaction: discord.Interaction) -> tuple[str, str | None] | None:
    return ack_of(interaction).saved


async def take(interaction: discord.Interaction, *, private: bool = False) -> bool:
    """Start handling `interaction`, whose reply is `private` or not as declared: called before
    any await of its handler. True for a second delivery this process already answered
    (Discord has the answer): nothing more to do."""
    ack = ack_of(interaction)
    if ack.taken:
        return False
    ack.taken, ack.private = True, private
    speak_to(interaction, private)
    watchdog: Watchdog | None = getattr(interaction.client, "acks", None)
    if watchdog is not None and watchdog.arrived(interaction):
        await watchdog.defer_now(interaction)  # a burst: acknowledged before any work
    return ack.again and await has_response(interaction)


async def send(interaction: discord.Interaction, message: Message, *, private: bool) -> None:
    """A new message: the answer if none went out yet; the deferral's "thinking…" filled in if
    it was deferred so; else a follow-up."""
    ack = ack_of(interaction)
    async with ack.lock:
        if not answered(interaction):
            call = lambda: interaction.response.send_message(ephemeral=private, **message.new())  # noqa: E731
            await _answer(interaction, ack, message, call)
        # Discord pings only on a public message's creation, never on an edit.
        elif (
            ack.state == "thinking"
            and ack.private == private
            and (private or message.pinged is None)
        ):
            await _edit(lambda: interaction.edit_original_response(**message.edit()))
        else:
            if ack.state == "thinking":  # deferred the other way, or it must ping: say it anew
                with contextlib.suppress(discord.NotFound):
                    await interaction.delete_original_response()
            # A follow-up is not idempotent: a lost response is not sent again (it may have landed).
            await interaction.followup.send(ephemeral=private, **message.new())
        ack.state = "answered"  # what follows is a follow-up, never an edit of this answer


async def edit(interaction: discord.Interaction, message: Message) -> None:
    """Edit the message whose component was clicked."""
    ack = ack_of(interaction)
    async with ack.lock:
        if not answered(interaction):
            call = lambda: interaction.response.edit_message(**message.edit())  # noqa: E731
            await _answer(interaction, ack, message, call)
        else:
            await _edit(lambda: interaction.edit_original_response(**message.edit()))


async def open_modal(interaction: discord.Interaction, modal: discord.ui.Modal) -> bool:
    """Answer with a form; False if an answer went out first: Discord shows none after one."""
    ack = ack_of(interaction)
    async with ack.lock:
        if answered(interaction):
            return False
        await _first(interaction, ack, "answered", lambda: interaction.response.send_modal(modal))
        return True


async def _answer(interaction: discord.Interaction, ack: Ack, message: Message, call: Call) -> None:
    """The answer. Another process on the same shard may have been handed the interaction too
    and deferred it first ("thinking…": it found the change applied, with nothing to say): the
    token is the same, so fill that in with this answer; a full answer from it stands."""
    try:
        await _first(interaction, ack, "answered", call)
    except discord.HTTPException as error:
        original = await _original(interaction) if error.code == ANSWERED_ELSEWHERE else None
        if original is None or not original.flags.loading:
            raise
        log.info("Interaction %s was deferred elsewhere: filling in that answer", interaction.id)
        ack.state = "answered"
        await _edit(lambda: interaction.edit_original_response(**message.edit()))


async def defer(interaction: discord.Interaction) -> bool:
    """Acknowledge now, unless an answer went out already: True if this did."""
    ack = ack_of(interaction)
    async with ack.lock:
        if answered(interaction):
            return False
        if interaction.message is not None:  # a click, or a form opened by one
            await _first(interaction, ack, "update", interaction.response.defer)
        else:
            call = lambda: interaction.response.defer(thinking=True, ephemeral=ack.private)  # noqa: E731
            await _first(interaction, ack, "thinking", call)
        return True


async def _first(interaction: discord.Interaction, ack: Ack, state: str, call: Call) -> None:
    """The interaction's one callback. If the connection fails before Discord's answer, ask
    Discord whether it has the response: if so it stands, else send it once more."""
    try:
        await call()
    except LOST as error:
        if await has_response(interaction):
            log.info(
                "Interaction %s: Discord took the answer, its response was lost", interaction.id
            )
        else:
            log.warning("Lost the answer to interaction %s (%r): sent again", interaction.id, error)
            await call()
    ack.state = state
    note_acknowledged(interaction)  # for /metrics: the time to acknowledgement
    settle(ack)


async def _edit(call: Call) -> None:
    for attempt in range(EDIT_TRIES):
        try:
            await call()
            return
        except LOST as error:
            if attempt == EDIT_TRIES - 1:
                raise
            log.warning("An edit's response was lost (%r); sending it again", error)
            await asyncio.sleep(0.25 * 2**attempt)


async def _original(interaction: discord.Interaction) -> discord.InteractionMessage | None:
    """The answer Discord holds for this interaction (its original message), if any."""
    try:
        return await interaction.original_response()
    except discord.NotFound:
        return None
    except (discord.HTTPException, *LOST) as error:
        log.warning("Could not ask Discord for interaction %s's answer: %r", interaction.id, error)
        return None


async def has_response(interaction: discord.Interaction) -> bool:
    return await _original(interaction) is not None


def disarm(interaction: discord.Interaction) -> None:
    """No deferral for this interaction: its handler answers within Discord's time itself (a
    form, which Discord won't show after one)."""
    settle(ack_of(interaction))


def settle(ack: Ack) -> None:
    if ack.settle is not None:
        ack.settle()
        ack.settle = None
