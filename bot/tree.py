"""The one error handler: domain errors become polite ephemeral replies, the rest is logged."""

from __future__ import annotations

import logging
import math

import discord
from discord import app_commands

from bot.metrics import note_acknowledged
from bot.metrics import of as metrics_of
from rules.errors import RulesError

log = logging.getLogger(__name__)

UNEXPECTED = "Something went wrong on our side; nothing was changed."
OUT_OF_DATE = "This command has changed since Discord last heard of it; try again in a minute."


async def send_error(interaction: discord.Interaction, text: str) -> None:
    """Reply privately, whether or not the interaction was already answered or deferred."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
            note_acknowledged(interaction)
    except discord.HTTPException as error:
        # e.g. the 3-second window or the 15-minute token expired: nothing left to answer
        log.warning("Could not send an error reply (%s): %s", error.status, text)


def _names(permissions: list[str]) -> str:
    return ", ".join(p.replace("_", " ").replace("guild", "server").title() for p in permissions)


def describe_error(error: BaseException) -> str | None:
    """The reply for an expected error, or None for a bug (which the caller logs)."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    match error:
        case RulesError():
            return str(error)
        case app_commands.TransformerError():
            return f"I couldn't understand {str(error.value)[:50]!r} for that option."
        case app_commands.CommandOnCooldown():
            return f"Slow down: try again in {math.ceil(error.retry_after)} s."
        case app_commands.NoPrivateMessage():
            return "This command only works in a server channel."
        case app_commands.MissingPermissions():
            return f"You need the {_names(error.missing_permissions)} permission for that."
        case app_commands.BotMissingPermissions():
            return f"I need the {_names(error.missing_permissions)} permission in this channel."
        case app_commands.MissingRole() | app_commands.MissingAnyRole():
            return "You don't have the role this command needs."
        case app_commands.CheckFailure():
            return "You can't use this command here."
        case app_commands.CommandSignatureMismatch() | app_commands.CommandNotFound():
            return OUT_OF_DATE
    return None


async def answer_error(interaction: discord.Interaction, error: BaseException, where: str) -> None:
    """For buttons and other components, which never reach the tree's `on_error`: the same
    polite reply for an expected error; anything else is logged (with `where`) and answered."""
    text = describe_error(error)
    expected = text is not None
    if text is None:
        log.error(
            "Unexpected error in %s (user %s, channel %s, guild %s)",
            where,
            interaction.user.id,
            interaction.channel_id,
            interaction.guild_id,
            exc_info=error,
        )
        text = UNEXPECTED
    await send_error(interaction, text)
    if (metrics := metrics_of(interaction)) is not None:
        metrics.failed(interaction, error, expected=expected)


class TablekeeperTree(app_commands.CommandTree):
    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError, /
    ) -> None:
        text = describe_error(error)
        expected = text is not None
        if text is None:
            command = interaction.command.qualified_name if interaction.command else None
            log.error(
                "Unexpected error in command %r (user %s, channel %s, guild %s)",
                command,
                interaction.user.id,
                interaction.channel_id,
                interaction.guild_id,
                exc_info=error,
            )
            text = UNEXPECTED
        elif isinstance(
            error, app_commands.CommandSignatureMismatch | app_commands.CommandNotFound
        ):
            log.warning("Commands out of sync with Discord: %s (run `python -m bot sync`)", error)
        await send_error(interaction, text)
        if (metrics := metrics_of(interaction)) is not None:
            metrics.failed(interaction, error, expected=expected)
