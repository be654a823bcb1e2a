"""The command tree, and the one error handler: expected errors become polite private replies,
the rest is logged. It says what happened, never guesses: "nothing was changed" only if nothing
was saved for the interaction (`bot.ack.mark_saved`), "already done" to a second delivery of a
change Discord has no answer to, and a database outage plainly, with who can end it."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp
import discord
from discord import app_commands

from bot.ack import ANSWERED_ELSEWHERE, ack_of, has_response, send, take
from bot.contexts import IN_A_SERVER, NotInstalledHere
from bot.language import speak_to
from bot.metrics import of as metrics_of
from bot.options import BadOptions, Declarations
from bot.outages import of as outages_of
from lang import N_, _, again, speaking
from rules.errors import RulesError
from store.errors import AlreadyApplied, DatabaseFull, DatabaseOutage, DatabaseReadOnly
from table.actions import action_text, saved_text

log = logging.getLogger(__name__)

UNEXPECTED = N_("Something went wrong on our side; nothing was changed.")
OUT_OF_DATE = N_("This command has changed since Discord last heard of it; try again in a minute.")
SAVED = N_("Your change was saved ({what}), but I couldn't show the reply: `/history` lists it.")
UNANSWERABLE = (ANSWERED_ELSEWHERE, 10062)  # Discord's codes: answered already, or too late
ANSWER_AGAIN_WAITS = (0.1, 0.2, 0.3, 0.4)  # seconds between looks for the first answer: 1 s
ALREADY_DONE = N_(
    "Already done: this {what} was saved when Discord first sent it, and was not applied again."
)
# A database outage, said plainly: what happened to the change, and who can end it (whoever
# runs the bot, who for a public bot is not the Discord server's admin).
UNREACHABLE = N_(
    "This table's database can't be reached right now, so nothing was changed. "
    "Try again in a moment."
)
OUTCOME_UNKNOWN = N_(
    "This table's database stopped answering while your change was being saved: it may or may "
    "not have been saved. Look at `/history` in a moment before trying again."
)
DISK_FULL = N_(
    "Nothing was saved: the disk that holds this table's database is full. Tell whoever runs "
    "this bot. Looking at the table still works."
)
READ_ONLY = N_(
    "Nothing was saved: this table's database has become read-only. Tell whoever runs this "
    "bot. Looking at the table still works."
)


async def send_error(interaction: discord.Interaction, text: str) -> None:
    """Say `text` privately, by whichever route is open."""
    try:
        await send(interaction, True, content=text)
    except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as error:
        # e.g. the 3-second window or the 15-minute token expired: nothing left to answer
        log.warning("Could not send an error reply (%r): %s", error, text)


def describe_error(error: BaseException) -> str | None:
    """The reply for an expected error, or None for a bug (which the caller logs)."""
    match error:
        case RulesError() | BadOptions():
            return again(str(error))  # in the reader's language, if made in a table's
        case DatabaseOutage(maybe_saved=True):
            return _(OUTCOME_UNKNOWN)
        case DatabaseFull():
            return _(DISK_FULL)
        case DatabaseReadOnly():
            return _(READ_ONLY)
        case DatabaseOutage():
            return _(UNREACHABLE)
        case app_commands.TransformerError():
            return _(
                "I couldn't understand {value} for that option.", value=repr(str(error.value)[:50])
            )
        case app_commands.NoPrivateMessage():
            return _(IN_A_SERVER)
        case NotInstalledHere():
            return str(error)
        case app_commands.CheckFailure():
            return _("You can't use this command here.")
        case app_commands.CommandSignatureMismatch() | app_commands.CommandNotFound():
            return _(OUT_OF_DATE)
    return None


async def answer_error(interaction: discord.Interaction, error: BaseException, where: str) -> None:
    """The one answer to a failed command, click or form (`where` names it in the log), said
    to the reader alone: an expected error's polite reply, or a bug logged; either way a change
    saved before it failed is said to be saved. Its outcome is counted as its handler ends."""
    speak_to(interaction, private=True)
    ack = ack_of(interaction)
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if (metrics := metrics_of(interaction)) is not None:
        metrics.failed(original)
    if isinstance(original, AlreadyApplied):
        ack.outcome = "duplicate"
        await answer_again(interaction, original)
        return
    text = describe_error(original)
    if isinstance(original, DatabaseOutage):
        ack.outcome = "outage"
        if (outages := outages_of(interaction)) is not None:
            outages.refused(original)  # counted, and logged as the outage begins and ends
    else:
        ack.outcome = "refused" if text is not None else "error"
    who = f"user {interaction.user.id}, channel {interaction.channel_id}"
    where = f"{where} ({who}, guild {interaction.guild_id})"
    if ack.saved is not None:
        with speaking(None):  # the log's words are English
            logged = saved_text(*ack.saved)
        log.warning(
            "Saved %s in %s but could not answer: %r", logged, where, original, exc_info=not text
        )
        text = _(SAVED, what=saved_text(*ack.saved))
    elif text is None:
        log.error("Unexpected error in %s", where, exc_info=error)
        text = _(UNEXPECTED)
    elif isinstance(original, app_commands.CommandSignatureMismatch | app_commands.CommandNotFound):
        log.warning("Commands out of sync with Discord: %s (run `python -m bot sync`)", original)
    if isinstance(original, discord.HTTPException) and original.code in UNANSWERABLE:
        # Answered already (another delivery, another process) or past its time: a message
        # now would fail too, or stand beside the answer the user already has.
        log.warning("Interaction %s can't be answered (%s): %s", interaction.id, original, text)
        return
    await send_error(interaction, text)


async def answer_again(interaction: discord.Interaction, error: AlreadyApplied) -> None:
    """A second delivery of a change that is saved: "already done", unless Discord holds an
    answer to it. The delivery that applied it may be answering right now (in another process
    claiming the same shard): its answer is given a second to land first."""
    log.info("Interaction %s delivered again: %s", interaction.id, error)
    for wait in (*ANSWER_AGAIN_WAITS, 0):
        if await has_response(interaction):
            return
        await asyncio.sleep(wait)
    await send_error(interaction, _(ALREADY_DONE, what=action_text(error.action)))


PRIVATE_WHEN = "tablekeeper_private"  # on a command's callback: `cogs._reply.private`


def declared_private(interaction: discord.Interaction) -> bool:
    """Whether the command declares its reply private: always, or as its options say."""
    when = getattr(getattr(interaction.command, "callback", None), PRIVATE_WHEN, False)
    return bool(when(interaction.namespace) if callable(when) else when)


class TablekeeperTree(app_commands.CommandTree):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.declarations = Declarations(self)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Before any work: take the interaction (`bot.ack.take`); refuse options that don't fit
        the command's declaration, or a server that didn't install the bot (`bot.options`), here,
        where discord.py's error path would re-read the bad data. Autocomplete offers nothing."""
        speak_to(interaction, private=True)  # a refusal's words, made as it is found
        refusal = self.declarations.refusal(interaction)
        # A refusal is private, and reads no more of the data (it may be malformed).
        private = refusal is not None or declared_private(interaction)
        if not await take(interaction, private=private):
            return False
        if refusal is None:
            return True
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            data: Any = interaction.data or {}
            name = str(data.get("name"))[:40]
            await answer_error(interaction, refusal, f"command {name!r}")
        return False

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError, /
    ) -> None:
        command = interaction.command.qualified_name if interaction.command else None
        await answer_error(interaction, error, f"command {command!r}")
