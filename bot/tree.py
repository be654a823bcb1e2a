"""The one error handler: domain errors become polite ephemeral replies, the rest is logged.

It says what happened, never guesses: a failure before anything was saved says nothing was
changed; a failure after a change was committed for the interaction (`bot.ack.mark_saved`), such
as a reply Discord would not take, says the change was saved; a second delivery of an interaction
already applied gets "already done", or nothing if Discord holds an answer to it already. A
database outage (`store.errors.DatabaseOutage`) is said plainly, with who can end it, and counted
(`bot.outages`), not logged per command."""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable
from typing import Any

import aiohttp
import discord
from discord import app_commands

from bot.ack import ANSWERED_ELSEWHERE, before_work, finished, has_response, saved, send
from bot.contexts import IN_A_SERVER, NotInServer, NotInstalledHere, needs_server
from bot.message import Message
from bot.metrics import of as metrics_of
from bot.options import MALFORMED, BadOptions, check_options
from bot.outages import of as outages_of
from lang import N_, _, speak, speaking
from rules.errors import RulesError
from store.errors import (
    AlreadyApplied,
    DatabaseFull,
    DatabaseOutage,
    DatabaseReadOnly,
)
from table.actions import action_text, saved_text

log = logging.getLogger(__name__)

UNEXPECTED = N_("Something went wrong on our side; nothing was changed.")
OUT_OF_DATE = N_("This command has changed since Discord last heard of it; try again in a minute.")
SAVED = N_("Your change was saved ({what}), but I couldn't show the reply: `/history` lists it.")
# Discord's codes for an interaction that can't be answered (again): a second answer, or too late.
EXPIRED = 10062  # with bot.ack.ANSWERED_ELSEWHERE (40060)
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
    """Reply privately, whether or not the interaction was already answered or deferred."""
    try:
        await send(interaction, Message(text), private=True)
    except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as error:
        # e.g. the 3-second window or the 15-minute token expired: nothing left to answer
        log.warning("Could not send an error reply (%r): %s", error, text)


# Discord's names for the permissions a check may name (others are shown as Discord spells them).
PERMISSION_NAMES = {
    "manage_channels": N_("Manage Channels"),
    "manage_guild": N_("Manage Server"),
    "manage_roles": N_("Manage Roles"),
    "manage_messages": N_("Manage Messages"),
    "send_messages": N_("Send Messages"),
    "embed_links": N_("Embed Links"),
    "attach_files": N_("Attach Files"),
    "view_channel": N_("View Channel"),
    "read_message_history": N_("Read Message History"),
}


def _names(permissions: list[str]) -> str:
    return ", ".join(
        _(PERMISSION_NAMES[p])
        if p in PERMISSION_NAMES
        else p.replace("_", " ").replace("guild", "server").title()
        for p in permissions
    )


def describe_error(error: BaseException) -> str | None:
    """The reply for an expected error, or None for a bug (which the caller logs)."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    match error:
        case RulesError() | BadOptions():
            return str(error)
        case DatabaseOutage():
            return _(_outage_words(error))
        case app_commands.TransformerError():
            return _(
                "I couldn't understand {value} for that option.", value=repr(str(error.value)[:50])
            )
        case app_commands.CommandOnCooldown():
            return _("Slow down: try again in {seconds} s.", seconds=math.ceil(error.retry_after))
        case app_commands.NoPrivateMessage():
            return _(IN_A_SERVER)
        case NotInstalledHere():
            return str(error)
        case app_commands.MissingPermissions():
            return _(
                "You need the {permissions} permission for that.",
                permissions=_names(error.missing_permissions),
            )
        case app_commands.BotMissingPermissions():
            return _(
                "I need the {permissions} permission in this channel.",
                permissions=_names(error.missing_permissions),
            )
        case app_commands.MissingRole() | app_commands.MissingAnyRole():
            return _("You don't have the role this command needs.")
        case app_commands.CheckFailure():
            return _("You can't use this command here.")
        case app_commands.CommandSignatureMismatch() | app_commands.CommandNotFound():
            return _(OUT_OF_DATE)
    return None


def _outage_words(error: DatabaseOutage) -> str:
    if error.maybe_saved:
        return OUTCOME_UNKNOWN
    if isinstance(error, DatabaseFull):
        return DISK_FULL
    if isinstance(error, DatabaseReadOnly):
        return READ_ONLY
    return UNREACHABLE


class AnsweredAlready(app_commands.CheckFailure):
    """A second delivery of an interaction whose answer Discord has: nothing more to do."""


async def answer_error(interaction: discord.Interaction, error: BaseException, where: str) -> None:
    """The one answer to a failed command or component (`where` names it in the log): a polite
    reply for an expected error; anything else is logged and answered; and either way, if a
    change was saved before it failed, the reply says so."""
    speak(interaction.locale.value)  # it may have failed before `before_work` set it
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(original, DatabaseOutage) and (outages := outages_of(interaction)) is not None:
        outages.refused(original)
    try:
        await _answer_error(interaction, error, where)
    finally:
        finished(interaction)
        if (metrics := metrics_of(interaction)) is not None:
            metrics.failed(interaction, error, outcome(error))


def outcome(error: BaseException) -> str:
    """For /metrics: `duplicate` (a second delivery), `outage` (the database could not serve
    it), `refused` (an expected error, answered politely) or `error` (a bug, or a failure of
    Discord or the database)."""
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(original, AnsweredAlready | AlreadyApplied):
        return "duplicate"
    if isinstance(original, DatabaseOutage):
        return "outage"
    return "refused" if describe_error(error) is not None else "error"


async def _answer_error(interaction: discord.Interaction, error: BaseException, where: str) -> None:
    if isinstance(error, AnsweredAlready):
        log.info("Interaction %s delivered again after it was answered: ignored", interaction.id)
        return
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(original, AlreadyApplied):
        await answer_again(interaction, original)
        return
    text = describe_error(error)
    done = saved(interaction)
    context = (interaction.user.id, interaction.channel_id, interaction.guild_id)
    if done is not None:
        with speaking(None):  # the log's words are English
            logged = saved_text(*done)
        log.warning(
            "Saved %s in %s but could not answer (user %s, channel %s, guild %s): %r",
            logged,
            where,
            *context,
            original,
            exc_info=text is None,
        )
        text = _(SAVED, what=saved_text(*done))
    elif text is None:
        log.error(
            "Unexpected error in %s (user %s, channel %s, guild %s)",
            where,
            *context,
            exc_info=error,
        )
        text = _(UNEXPECTED)
    elif isinstance(error, app_commands.CommandSignatureMismatch | app_commands.CommandNotFound):
        log.warning("Commands out of sync with Discord: %s (run `python -m bot sync`)", error)
    if isinstance(original, discord.HTTPException) and original.code in (
        ANSWERED_ELSEWHERE,
        EXPIRED,
    ):
        # Answered already (another delivery, another process) or past its time: a message
        # now would fail too, or stand beside the answer the user already has.
        log.warning("Interaction %s can't be answered (%s): %s", interaction.id, original, text)
        return
    await send_error(interaction, text)


async def answer_again(interaction: discord.Interaction, error: AlreadyApplied) -> None:
    """A second delivery of an interaction whose change is saved: nothing more if Discord has
    an answer to it (the first delivery's), else say it was done."""
    log.info("Interaction %s delivered again: %s", interaction.id, error)
    # The delivery that applied it may be answering right now (in another process claiming the
    # same shard): give its answer a moment to land before saying "already done" beside it.
    for wait in ANSWER_AGAIN_WAITS:
        if await has_response(interaction):
            return
        await asyncio.sleep(wait)
    if not await has_response(interaction):
        await send_error(interaction, _(ALREADY_DONE, what=action_text(error.action)))


AnyCommand = app_commands.Command[Any, ..., Any] | app_commands.Group


class TablekeeperTree(app_commands.CommandTree):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Each command's registration JSON, built once: it is fixed while the bot runs, and
        # building it costs more than checking an interaction against it.
        self._declarations: dict[AnyCommand, dict[str, Any]] = {}

    def _declaration(self, command: AnyCommand) -> dict[str, Any]:
        found = self._declarations.get(command)
        if found is None:
            found = self._declarations[command] = command.to_dict(self)
        return found

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Before any work: a second delivery already answered stops here; a command that
        needs a server (by its declared contexts, `bot.contexts`) refuses an interaction without
        one, or one in a server that didn't install the bot (a user's own install), whatever
        the client was told: nothing runs, nothing is written. While autocompleting, it offers
        no choices."""
        if await before_work(interaction):  # no HTTP call unless it arrived twice
            raise AnsweredAlready()
        return await self._fits_declaration(interaction)

    async def _fits_declaration(self, interaction: discord.Interaction) -> bool:
        """Before discord.py reads a single option: the options must fit what the command
        declares (a forged payload must not reach a cog), and a command that needs a server
        comes from one that installed the bot. A refusal is answered here (discord.py's own
        error path would re-read the bad data); while autocompleting, with no choices."""
        data: Any = interaction.data
        if not isinstance(data, dict) or data.get("type", 1) != 1:
            return True  # not a slash command: discord.py's own lookup refuses it
        autocomplete = interaction.type is discord.InteractionType.autocomplete
        command = self._declared(data)
        if command is None and isinstance(data.get("name"), str):
            return True  # unknown: discord.py raises CommandNotFound, answered as out of date
        try:
            if command is None:  # discord.py's own lookup would fail on it with a TypeError
                raise BadOptions(_(MALFORMED))
            check_options(self._declaration(command), data, autocomplete=autocomplete)
            # Where it may run: its declared contexts (`bot.contexts`); in a server, through the
            # server's own install, not only a user's (asked first: most interactions come so).
            if not interaction.is_guild_integration() and needs_server(_leaf(command, data)):
                raise NotInServer() if interaction.guild_id is None else NotInstalledHere()
        except (BadOptions, app_commands.NoPrivateMessage, NotInstalledHere) as error:
            if autocomplete:
                await interaction.response.autocomplete([])
                return False
            name = str(data.get("name"))[:40]
            if isinstance(error, BadOptions):  # a forged payload, or a very stale client
                with speaking(None):  # the log reads in English, whatever the user reads
                    reason = _refusal(command, self._declaration, data, autocomplete)
                log.warning(
                    "Refused the options of %r from user %s: %s", name, interaction.user.id, reason
                )
            interaction.command_failed = True
            await answer_error(interaction, error, f"command {name!r}")
            return False
        return True

    def _declared(self, data: dict[str, Any]) -> AnyCommand | None:
        name = data.get("name")
        if not isinstance(name, str):
            return None
        guild_id = data.get("guild_id")
        if isinstance(guild_id, str) and guild_id.isdigit():
            found = self.get_command(name, guild=discord.Object(int(guild_id)))
            if found is not None and not isinstance(found, app_commands.ContextMenu):
                return found
        found = self.get_command(name)
        return None if isinstance(found, app_commands.ContextMenu) else found

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError, /
    ) -> None:
        command = interaction.command.qualified_name if interaction.command else None
        await answer_error(interaction, error, f"command {command!r}")


def _refusal(
    command: AnyCommand | None,
    declaration: Callable[[AnyCommand], dict[str, Any]],
    data: dict[str, Any],
    autocomplete: bool,
) -> str:
    """Why the options were refused, in the current language (checked again: refusals are rare)."""
    try:
        if command is None:
            return _(MALFORMED)
        check_options(declaration(command), data, autocomplete=autocomplete)
    except BadOptions as error:
        return str(error)
    return "?"


def _leaf(command: AnyCommand, data: dict[str, Any]) -> AnyCommand:
    """The subcommand `data` names (already checked against the declaration)."""
    options = data.get("options") or []
    while isinstance(command, app_commands.Group) and options:
        found = command.get_command(options[0]["name"])
        if found is None:
            break
        command, options = found, options[0].get("options") or []
    return command
