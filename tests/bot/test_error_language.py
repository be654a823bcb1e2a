"""The error handler's own texts for discord.py's check failures and a command out of date in
the reader's language: Spanish for es-ES and es-419, English for English and for a language with
no catalog. No command of the bot declares such checks yet, so they are read straight from
`describe_error`."""

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


@pytest.mark.parametrize(
    ("error", "spanish", "english"),
    [
        (
            app_commands.MissingRole(123),
            "No puedes usar este comando aquí.",
            "You can't use this command here.",
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
