"""Every interaction taken, acknowledged within Discord's 3 seconds and answered once.

`take` starts every handler of the bot: it sets the reply's language and arms the watchdog
(`bot.watchdog`), which defers the interaction if no answer went out in time. `send`, `edit`
and `open_modal` answer by the route still open (the response, the deferral filled in, or a
follow-up), under a lock against the deferral, with discord.py's own arguments (`content`,
`embeds`, `files`, `view`, …). What was saved is kept for the error handler (`extras`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord

from bot.language import speak_to
from bot.metrics import note_acknowledged

log = logging.getLogger(__name__)

LOST = (aiohttp.ClientConnectionError, asyncio.TimeoutError)  # no answer: was it received?
EDIT_TRIES = 3  # an edit is idempotent: a lost response is simply sent again
ANSWERED_ELSEWHERE = 40060  # Discord: "Interaction has already been acknowledged"


@dataclass
class Ack:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    taken: bool = False  # a handler of the bot's has it: it is not unclaimed
    private: bool = False  # its reply's declared privacy, which a "thinking…" deferral takes
    # None, "thinking" (deferred, not filled in yet) or "answered". Kept here, not read from
    # discord.py: it never records a response Discord took whose reply was lost.
    state: str | None = None
    saved: tuple[str, str | None] | None = None  # the change committed for it (`mark_saved`)
    outcome: str = "ok"  # for /metrics when its handler ends
    again: bool = False  # this process saw the same interaction arrive before
    settle: Callable[[], object] = lambda: None  # disarms its watchdog (set by `bot.watchdog`)


def ack_of(interaction: discord.Interaction) -> Ack:
    ack = interaction.extras.get("tablekeeper.ack")
    if ack is None:
        ack = interaction.extras["tablekeeper.ack"] = Ack()
    return ack


def mark_saved(interaction: discord.Interaction, action: str, of: str | None = None) -> None:
    """A change was committed: its logged `action` ("fatigue spend"), and for an undo or a redo
    the action `of` the change it took back or put back (`table.actions.saved_text`)."""
    ack_of(interaction).saved = action, of


async def take(interaction: discord.Interaction, *, private: bool = False) -> bool:
    """Start handling `interaction`, before any other await of its handler. False for a second
    delivery this process already answered: Discord has its answer, nothing more to do."""
    ack = ack_of(interaction)
    if ack.taken:
        return True
    ack.taken, ack.private = True, private
    speak_to(interaction, private)
    watchdog: Any = getattr(interaction.client, "acks", None)  # `bot.watchdog.Acks`
    if watchdog is not None and watchdog.arrived(interaction):
        await watchdog.defer_now(interaction)  # a burst: acknowledged before any work
    if ack.again and await has_response(interaction):  # no HTTP call unless it came twice
        log.info("Interaction %s delivered again after it was answered: ignored", interaction.id)
        ack.outcome = "duplicate"
        return False
    return True


def _answered(interaction: discord.Interaction, ack: Ack) -> bool:
    return ack.state is not None or interaction.response.is_done()


def _args(message: dict[str, Any], *, edit: bool = False) -> dict[str, Any]:
    """discord.py's arguments for one request (an edit takes files as `attachments`). The files
    are in memory, read from the start again: a lost request is sent again."""
    for file in message.get("files") or ():  # MISSING (not given) is falsy
        file.reset()
    return {"attachments" if edit and k == "files" else k: v for k, v in message.items()}


async def send(interaction: discord.Interaction, private: bool, **message: Any) -> None:
    """A new message: the response, the "thinking…" deferral filled in, or a follow-up."""
    ack = ack_of(interaction)
    async with ack.lock:
        if not _answered(interaction, ack):
            call = lambda: interaction.response.send_message(ephemeral=private, **_args(message))  # noqa: E731
            try:
                await _first(interaction, ack, "answered", call)
            except discord.HTTPException as error:
                # Another process on the same shard deferred it first ("thinking…": it found
                # the change applied). The token is the same: fill that in; a full answer stands.
                original = (
                    await _original(interaction) if error.code == ANSWERED_ELSEWHERE else None
                )
                if original is None or not original.flags.loading:
                    raise
                log.info("Interaction %s was deferred elsewhere: filling that in", interaction.id)
                ack.state = "answered"
                await _edit_answer(interaction, message)
        # Discord pings only when a message is created, never on an edit.
        elif (
            ack.state == "thinking"
            and ack.private == private
            and (private or "allowed_mentions" not in message)
        ):
            await _edit_answer(interaction, message)
        else:
            if ack.state == "thinking":  # deferred the other way, or it must ping: said anew
                with contextlib.suppress(discord.NotFound):
                    await interaction.delete_original_response()
            # A follow-up is not idempotent: a lost response is not sent again (it may have landed).
            await interaction.followup.send(ephemeral=private, **_args(message))
        ack.state = "answered"  # what follows is a follow-up, never an edit of this answer


async def edit(interaction: discord.Interaction, **message: Any) -> None:
    """Edit the message whose component was clicked."""
    ack = ack_of(interaction)
    async with ack.lock:
        if not _answered(interaction, ack):
            call = lambda: interaction.response.edit_message(**_args(message, edit=True))  # noqa: E731
            await _first(interaction, ack, "answered", call)
        else:
            await _edit_answer(interaction, message)


async def open_modal(interaction: discord.Interaction, modal: discord.ui.Modal) -> bool:
    """Answer with a form; False if an answer went out first: Discord shows none after one."""
    ack = ack_of(interaction)
    async with ack.lock:
        if _answered(interaction, ack):
            return False
        await _first(interaction, ack, "answered", lambda: interaction.response.send_modal(modal))
        return True


async def defer(interaction: discord.Interaction) -> bool:
    """Acknowledge now, unless an answer went out already: True if this did."""
    ack = ack_of(interaction)
    async with ack.lock:
        if _answered(interaction, ack):
            return False
        thinking = interaction.message is None  # a click, or a form it opened: a silent update
        call = lambda: interaction.response.defer(thinking=thinking, ephemeral=ack.private)  # noqa: E731
        await _first(interaction, ack, "thinking" if thinking else "answered", call)
        return True


async def _first(
    interaction: discord.Interaction, ack: Ack, state: str, call: Callable[[], Awaitable[Any]]
) -> None:
    """The interaction's one response. If the connection fails before Discord's answer, ask
    Discord whether it has the response: if so it stands, else send it once more."""
    try:
        await call()
    except LOST as error:
        if await has_response(interaction):
            log.info("Interaction %s: Discord took the answer, its reply was lost", interaction.id)
        else:
            log.warning("Lost the answer to interaction %s (%r): sent again", interaction.id, error)
            await call()
    ack.state = state
    note_acknowledged(interaction)  # for /metrics: the time to acknowledgement
    ack.settle()


async def _edit_answer(interaction: discord.Interaction, message: dict[str, Any]) -> None:
    for attempt in range(EDIT_TRIES):
        try:
            await interaction.edit_original_response(**_args(message, edit=True))
            return
        except LOST as error:
            if attempt == EDIT_TRIES - 1:
                raise
            log.warning("An edit's response was lost (%r); sending it again", error)
            await asyncio.sleep(0.25 * 2**attempt)


async def _original(interaction: discord.Interaction) -> discord.InteractionMessage | None:
    """The answer Discord holds for this interaction, if any."""
    try:
        return await interaction.original_response()
    except discord.NotFound:
        return None
    except (discord.HTTPException, *LOST) as error:
        log.warning("Could not ask Discord for interaction %s's answer: %r", interaction.id, error)
        return None


async def has_response(interaction: discord.Interaction) -> bool:
    return await _original(interaction) is not None
