"""The error handler's own texts for discord.py's check failures (permissions, roles, cooldowns,
a command out of date) in the reader's language: Spanish for es-ES and es-419, English for
English and for a language with no catalog. No command of the bot declares such checks yet, so
they are read straight from `describe_error`."""

from __future__ import annotations

import pytest
from discord import app_commands

import lang
import lang.catalogs
from bot.tree import describe_error

pytestmark = pytest.mark.usefixtures("shipped_catalogs")


def said(error: BaseException, locale: str) -> str | None:
    with lang.speaking(locale):
        return describe_error(error)


def test_missing_permissions_are_named_as_discord_names_them_in_spanish() -> None:
    error = app_commands.MissingPermissions(["manage_guild", "manage_channels"])
    assert said(error, "es-ES") == (
        "Necesitas el permiso Gestionar servidor, Gestionar canales para eso."
    )
    assert said(error, "fr") == "You need the Manage Server, Manage Channels permission for that."


def test_a_permission_without_a_spanish_name_keeps_discords_english_one() -> None:
    error = app_commands.BotMissingPermissions(["use_external_stickers", "embed_links"])
    assert said(error, "es-419") == (
        "Necesito el permiso Use External Stickers, Insertar enlaces en este canal."
    )
    assert said(error, "en-US") == (
        "I need the Use External Stickers, Embed Links permission in this channel."
    )


@pytest.mark.parametrize(
    ("error", "spanish", "english"),
    [
        (
            app_commands.CommandOnCooldown(app_commands.Cooldown(1, 10.0), 2.2),
            "Más despacio: inténtalo de nuevo en 3 s.",
            "Slow down: try again in 3 s.",
        ),
        (
            app_commands.MissingRole(123),
            "No tienes el rol que necesita este comando.",
            "You don't have the role this command needs.",
        ),
        (
            app_commands.CheckFailure(),
            "No puedes usar este comando aquí.",
            "You can't use this command here.",
        ),
        (
            app_commands.CommandNotFound("retired", []),
            "Este comando ha cambiado desde la última vez que Discord lo supo; inténtalo de nuevo "
            "en un minuto.",
            "This command has changed since Discord last heard of it; try again in a minute.",
        ),
    ],
)
def test_check_failures_in_the_readers_language(
    error: BaseException, spanish: str, english: str
) -> None:
    assert said(error, "es-ES") == spanish
    assert said(error, "es-419") == spanish
    assert said(error, "en-GB") == english
    assert said(error, "fr") == english
