"""Every interaction taken, acknowledged within Discord's 3 seconds and answered once.

`take` starts every handler of the bot: its reply's language is set and the watchdog armed
(`bot.watchdog`), which defers it if no answer went out in time. `send`, `edit` and
`open_modal` then answer by whichever route is still open (the response, the deferral filled
in, or a follow-up), under a lock that keeps them from racing the deferral. A message is
discord.py's own keyword arguments (`content`, `embeds`, `files`, `view`, …). What happened is
kept on the interaction (`extras`), so the error handler never says "nothing was changed"
after a commit.
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

Call = Callable[[], Awaitable[Any]]


@dataclass
class Ack:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    taken: bool = False  # a handler of the bot's has it: it is not unclaimed
    private: bool = False  # its reply's declared privacy, which a "thinking…" deferral takes
    # None, "thinking" (deferred, not filled in yet), "update" (a click deferred) or "answered".
    # Kept here, not read from discord.py: a response Discord took but whose reply was lost
    # (or that another process made) is one discord.py never recorded.
    state: str | None = None
    # The change committed for it: its logged action, and for an undo or a redo the action
    # it took back or put back (`table.actions.saved_text`)
    saved: tuple[str, str | None] | None = None
    outcome: str = "ok"  # for /metrics when its handler ends
    again: bool = False  # this process saw the same interaction arrive before
    settle: Callable[[], object] | None = None  # disarms its watchdog


def ack_of(interaction: discord.Interaction) -> Ack:
    ack = interaction.extras.get("tablekeeper.ack")
    if ack is None:
        ack = interaction.extras["tablekeeper.ack"] = Ack()
    return ack


def mark_saved(interaction: discord.Interaction, action: str, of: str | None = None) -> None:
    """A change was committed: its logged `action`, and for an undo or a redo the `of` it
    took back or put back."""
    ack_of(interaction).saved = action, of


async def take(interaction: discord.Interaction, *, private: bool = False) -> bool:
    """Start handling `interaction`, before any other await of its handler. True for a
    second delivery this process already answered: Discord has the answer."""
    ack = ack_of(interaction)
    if ack.taken:
        return False
    ack.taken, ack.private = True, private
    speak_to(interaction, private)
    watchdog: Any = getattr(interaction.client, "acks", None)  # `bot.watchdog.Acks`
    if watchdog is not None and watchdog.arrived(interaction):
        await watchdog.defer_now(interaction)  # a burst: acknowledged before any work
    return ack.again and await has_response(interaction)


def _answered(interaction: discord.Interaction, ack: Ack) -> bool:
    return ack.state is not None or interaction.response.is_done()


def _args(message: dict[str, Any], *, edit: bool = False) -> dict[str, Any]:
    """discord.py's arguments for one request (an edit takes files as `attachments`). The files
    are in memory, read from the start again: a lost request is sent again."""
    for file in message.get("files", ()):
        file.reset()
    return {"attachments" if edit and k == "files" else k: v for k, v in message.items()}


async def send(interaction: discord.Interaction, private: bool, **message: Any) -> None:
    """A new message: the response, the "thinking…" deferral filled in, or a follow-up."""
    ack = ack_of(interaction)
    fill = lambda: _edit(lambda: interaction.edit_original_response(**_args(message, edit=True)))  # noqa: E731
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
                await fill()
        # Discord pings only when a message is created, never on an edit.
        elif (
            ack.state == "thinking"
            and ack.private == private
            and (private or "allowed_mentions" not in message)
        ):
            await fill()
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
            await _edit(lambda: interaction.edit_original_response(**_args(message, edit=True)))


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
        if interaction.message is not None:  # a click, or a form opened by one
            await _first(interaction, ack, "update", interaction.response.defer)
        else:
            call = lambda: interaction.response.defer(thinking=True, ephemeral=ack.private)  # noqa: E731
            await _first(interaction, ack, "thinking", call)
        return True


async def _first(interaction: discord.Interaction, ack: Ack, state: str, call: Call) -> None:
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
    settle(ack)


async def _edit(call: Call) -> None:
    for attempt in range(EDIT_TRIES):
        try:
            return await call()
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


def settle(ack: Ack) -> None:
    """Disarm its watchdog: answered, or (a form) answering in time itself."""
    if ack.settle is not None:
        ack.settle()
        ack.settle = None
