"""Acknowledge every interaction within Discord's 3 seconds, answer it once, and say truthfully
what happened when the answer can't be shown.

Discord turns away an answer that comes more than 3 s after the interaction was created ("The
application did not respond"). The fast path stays one HTTP call, the answer itself. A watchdog,
armed when the interaction arrives (`Acks.arrived`, called from the client's `dispatch`), defers
it if no answer went out within `WATCHDOG` seconds, or at once when many interactions are
waiting (a burst: the event loop may then be too busy for a timer to fire in time). A command
defers with the ephemeral/public choice its reply will make (declared on the command, see
`cogs._reply`), a component as a silent update. `send` and `edit` take one `bot.message.Message`
(text, embeds, files, buttons) and say it by whichever route is still open: the answer, the
deferral filled in, or a follow-up. A lock per interaction keeps the answer and the deferral
from racing.

What happened is kept on the interaction (`interaction.extras`): whether it was answered, and
whether a change was saved for it (`mark_saved`), so the error handler never says "nothing was
changed" after a commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord

from bot.message import Message
from bot.metrics import note_acknowledged
from lang import speak

log = logging.getLogger(__name__)

WATCHDOG = 1.2  # seconds after arrival: defer if nothing was sent by then
# More unanswered interactions than this in flight: defer each new one at once. A loop turn
# takes one step of each, well under a millisecond: with 64 in flight the watchdog's timer is
# late by tens of milliseconds, not seconds. Below that, deferring at once only doubled the HTTP
# calls of a busy bot (a deferral and an edit instead of one answer) and slowed it further.
BUSY = 64
RECENT = 4096  # interaction ids remembered, to spot a second delivery in this process
LOST = (aiohttp.ClientConnectionError, asyncio.TimeoutError)  # no answer: was it received?
EDIT_TRIES = 3  # an edit is idempotent: a lost response is simply sent again
BURST_WAIT = 2.0  # seconds work waits at most for the burst's deferrals to go out
_KEY = "tablekeeper.ack"
EPHEMERAL = "ephemeral"  # app command `extras` key: True, "<option>" or "!<option>"
ANSWERED_ELSEWHERE = 40060  # Discord: "Interaction has already been acknowledged"

Call = Callable[[], Awaitable[Any]]


@dataclass
class Ack:
    """How one interaction has been acknowledged, and what was saved for it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # None; "thinking" (a reply deferred, not yet filled in); "update" (a click deferred);
    # "answered" (what is said next is a follow-up)
    state: str | None = None
    ephemeral: bool = False  # a "thinking" deferral's choice
    # The change committed for this interaction: its logged action, and for an undo or a redo
    # the action of the change it took back or put back (`table.actions.saved_text`)
    saved: tuple[str, str | None] | None = None
    done: Callable[[], object] | None = None  # tells Acks it is answered
    again: bool = False  # this process saw the same interaction arrive before
    burst: asyncio.Event | None = None  # arrived in a burst: set when no deferral is pending


def ack_of(interaction: discord.Interaction) -> Ack:
    ack = interaction.extras.get(_KEY)
    if ack is None:
        ack = interaction.extras[_KEY] = Ack()
    return ack


def answered(interaction: discord.Interaction) -> bool:
    return ack_of(interaction).state is not None or interaction.response.is_done()


def mark_saved(interaction: discord.Interaction, action: str, of: str | None = None) -> None:
    """Record that a change was committed for the interaction: its logged `action` ("fatigue
    spend"), and for an undo or a redo the action `of` the change it took back or put back."""
    ack_of(interaction).saved = action, of


def saved(interaction: discord.Interaction) -> tuple[str, str | None] | None:
    """The change committed for the interaction (`mark_saved`), if one was."""
    return ack_of(interaction).saved


def declared_ephemeral(interaction: discord.Interaction) -> bool:
    """The ephemeral choice the command declares (`extras={"ephemeral": …}`): True, or the
    name of a boolean option ("private"), or "!name" for its negation ("!public")."""
    command = interaction.command
    choice = command.extras.get(EPHEMERAL, False) if command is not None else False
    if isinstance(choice, bool):
        return choice
    negate = choice.startswith("!")
    value = bool(_option(interaction.data or {}, choice.lstrip("!")))
    return value != negate


def _option(data: Any, name: str) -> Any:
    """An option's value, looking inside subcommands and groups."""
    for option in data.get("options") or ():
        if option.get("name") == name and "value" in option:
            return option["value"]
        if option.get("type") in (1, 2):
            found = _option(option, name)
            if found is not None:
                return found
    return None


# --- answering ---------------------------------------------------------------------------------


async def send(interaction: discord.Interaction, message: Message, *, private: bool) -> None:
    """A new message, by whichever route is open: the answer if none went out yet; the
    deferral's "thinking…" filled in if it was deferred so; else a follow-up."""
    ack = ack_of(interaction)
    async with ack.lock:
        if not answered(interaction):
            await _answer(
                interaction,
                ack,
                message,
                lambda: interaction.response.send_message(ephemeral=private, **message.new()),
            )
        elif ack.state == "thinking" and ack.ephemeral == private and not _pings(message, private):
            await _edit(lambda: interaction.edit_original_response(**message.edit()))  # idempotent
        else:
            if ack.state == "thinking":
                # Deferred the other way (an error after a public deferral), or the answer must
                # ping someone, which no edit does: take it away, then say it anew.
                with contextlib.suppress(discord.NotFound):
                    await interaction.delete_original_response()
            # A follow-up is not idempotent: a lost response is not sent again (it may have landed).
            await interaction.followup.send(ephemeral=private, **message.new())
        ack.state = "answered"  # what follows is a follow-up, never an edit of this answer


def _pings(message: Message, private: bool) -> bool:
    """Whether the message must notify someone: Discord pings only on a public message's
    creation, never when a deferral's "thinking…" is filled in (an edit)."""
    return message.pinged is not None and not private


async def edit(interaction: discord.Interaction, message: Message) -> None:
    """Edit the message whose component was clicked."""
    ack = ack_of(interaction)
    async with ack.lock:
        if not answered(interaction):
            call = lambda: interaction.response.edit_message(**message.edit())  # noqa: E731
            await _answer(interaction, ack, message, call)
        else:
            await _edit(lambda: interaction.edit_original_response(**message.edit()))


async def _answer(interaction: discord.Interaction, ack: Ack, message: Message, call: Call) -> None:
    """The interaction's callback, as `_first` sends it. Another delivery of it (to a second
    process on the same shard) may have been acknowledged first: if that was a "thinking…"
    deferral, its process found the change already applied and has nothing to say. The token is
    the same, so fill that answer in with this one rather than leave it thinking; a full answer
    from the other side stands."""
    try:
        await _first(interaction, ack, "answered", call)
    except discord.HTTPException as error:
        if error.code != ANSWERED_ELSEWHERE or not await _thinking_elsewhere(interaction):
            raise
        log.info("Interaction %s was deferred elsewhere: filling in that answer", interaction.id)
        ack.state = "answered"
        await _edit(lambda: interaction.edit_original_response(**message.edit()))


async def _thinking_elsewhere(interaction: discord.Interaction) -> bool:
    """Whether the interaction's answer, sent by someone else, is a "thinking…" deferral."""
    try:
        original = await interaction.original_response()
    except (discord.HTTPException, *LOST):
        return False
    return original.flags.loading


async def defer(interaction: discord.Interaction) -> None:
    """Acknowledge now, unless an answer went out already (the watchdog's move)."""
    ack = ack_of(interaction)
    async with ack.lock:
        if answered(interaction):
            return
        if interaction.type is discord.InteractionType.application_command:
            ack.ephemeral = private = declared_ephemeral(interaction)
            call = lambda: interaction.response.defer(thinking=True, ephemeral=private)  # noqa: E731
            await _first(interaction, ack, "thinking", call)
        elif interaction.type is discord.InteractionType.component:
            await _first(interaction, ack, "update", interaction.response.defer)


async def _first(interaction: discord.Interaction, ack: Ack, state: str, call: Call) -> None:
    """The interaction's one callback. If the connection fails before Discord's answer, ask
    Discord whether it has the response: if so it stands, else send it once more."""
    try:
        await call()
    except LOST as error:
        if await has_response(interaction):
            log.info(
                "Interaction %s: Discord took the answer, the response was lost", interaction.id
            )
        else:
            log.warning("Lost the answer to interaction %s (%r): sent again", interaction.id, error)
            await call()
    ack.state = state
    note_acknowledged(interaction)  # for /metrics: the time to acknowledgement
    _settle(ack)


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


async def has_response(interaction: discord.Interaction) -> bool:
    """Whether Discord already holds an answer to this interaction (its original message)."""
    try:
        await interaction.original_response()
    except discord.NotFound:
        return False
    except (discord.HTTPException, *LOST) as error:
        log.warning("Could not ask Discord for interaction %s's answer: %r", interaction.id, error)
        return False
    return True


def finished(interaction: discord.Interaction) -> None:
    """Its handling is over, answered or not: the watchdog has nothing left to acknowledge
    (a deferral now would only leave "thinking…" standing, or be a second answer)."""
    _settle(ack_of(interaction))


async def before_work(interaction: discord.Interaction) -> bool:
    """Called before a command or button does its work. In a burst, work waits until every
    deferral under way has gone out: acknowledgements have 3 seconds, the work has 15 minutes.
    True for a second delivery this process already answered (Discord has the answer):
    nothing more to do. From here on, everything said for it is in the user's language."""
    speak(interaction.locale.value)
    ack = ack_of(interaction)
    if ack.burst is not None and not ack.burst.is_set():
        with contextlib.suppress(TimeoutError):  # a deferral that hangs holds nobody for long
            await asyncio.wait_for(ack.burst.wait(), BURST_WAIT)
    return ack.again and await has_response(interaction)


def _settle(ack: Ack) -> None:
    if ack.done is not None:
        ack.done()
        ack.done = None


# --- the watchdog ------------------------------------------------------------------------------


class Acks:
    """Arms a watchdog on every command and component interaction as it arrives.

    One timer serves them all: the interactions wait in arrival order, each due `watchdog`
    seconds after it came, and the timer is set for the first one still unanswered (answers
    come in milliseconds, so it rarely fires for nothing). An interaction costs an append, not
    a timer of its own to arm and cancel.

    What it keeps is bounded: the ids of the last 4,096 interactions (RECENT: a second delivery
    of one of them is spotted), the unanswered ones (`pending`, `_due`: those of the last
    `watchdog` seconds, dropped as they are answered or deferred) and the deferrals under way."""

    def __init__(self, watchdog: float = WATCHDOG, busy: int = BUSY) -> None:
        self.watchdog = watchdog
        self.busy = busy
        self.pending: dict[int, discord.Interaction] = {}  # arrived, not yet acknowledged
        self.recent: OrderedDict[int, None] = OrderedDict()
        self.deferred = 0  # how many the watchdog acknowledged, logged when the bot closes
        self.closed = False
        self.deferring = 0  # deferrals under way
        self.quiet = asyncio.Event()  # set when none is
        self.quiet.set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._due: deque[tuple[float, int]] = deque()  # (when, interaction id), arrival order
        self._timer: asyncio.TimerHandle | None = None  # for the first of them still pending

    def arrived(self, interaction: discord.Interaction) -> None:
        if interaction.type not in (
            discord.InteractionType.application_command,
            discord.InteractionType.component,
        ):
            return  # autocomplete answers with choices, which can't be deferred
        if interaction.id in self.recent:
            # A second delivery: it must not be acknowledged again. The command looks first
            # (`before_work`), and the store refuses to apply its change twice.
            ack_of(interaction).again = True
            return
        self.recent[interaction.id] = None
        if len(self.recent) > RECENT:
            self.recent.popitem(last=False)
        ack = ack_of(interaction)
        self.pending[interaction.id] = interaction
        ack.done = lambda: self.pending.pop(interaction.id, None)
        if len(self.pending) > self.busy:
            ack.burst = self.quiet
            self._spawn(interaction)
        else:
            loop = asyncio.get_running_loop()
            self._due.append((loop.time() + self.watchdog, interaction.id))
            if self._timer is None:
                self._timer = loop.call_at(self._due[0][0], self._check)

    def _check(self) -> None:
        """The timer: defer every interaction due and still unanswered, then wait for the
        first one left (the answered ones met on the way are dropped)."""
        self._timer = None
        loop = asyncio.get_running_loop()
        now = loop.time()
        while self._due:
            when, interaction_id = self._due[0]
            interaction = self.pending.get(interaction_id)
            if interaction is not None and when > now:
                self._timer = loop.call_at(when, self._check)
                return
            self._due.popleft()
            if interaction is not None:
                self._spawn(interaction)

    def _spawn(self, interaction: discord.Interaction) -> None:
        if self.closed:
            return
        self.deferring += 1
        self.quiet.clear()
        task = asyncio.get_running_loop().create_task(self._defer(interaction))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _defer(self, interaction: discord.Interaction) -> None:
        ack = ack_of(interaction)
        start = time.monotonic()
        try:
            if not answered(interaction):
                await defer(interaction)
                if ack.state in ("thinking", "update"):
                    self.deferred += 1
        except (discord.HTTPException, *LOST) as error:
            log.warning("Could not defer interaction %s: %r", interaction.id, error)
        finally:
            self.pending.pop(interaction.id, None)
            self.deferring -= 1
            if not self.deferring:
                self.quiet.set()
        log.debug("Deferred interaction %s in %.3f s", interaction.id, time.monotonic() - start)

    def close(self) -> None:
        log.info("Deferred %d interactions that could not be answered at once", self.deferred)
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for task in self._tasks:
            task.cancel()
