"""`bot.translator`: what `python -m bot sync` asks for each locale — descriptions and choice
names from the catalogs, values filled in after translating, names never — and `/help`'s
`in_language` reading the same."""

from __future__ import annotations

from typing import Any

import pytest
from discord import Locale, app_commands

import lang
from bot.translator import CatalogTranslator, described, in_language
from lang import N_

pytestmark = pytest.mark.usefixtures("shipped_catalogs")

Where = app_commands.TranslationContextLocation
SCORE = N_("Armor Enchantment Ranks, e.g. 1 2 (at most {most}, each ≤ its Rank)")


async def translate(
    text: str | app_commands.locale_str, locale: Locale, where: Where
) -> str | None:
    string = text if isinstance(text, app_commands.locale_str) else app_commands.locale_str(text)
    context: Any = app_commands.TranslationContext(location=where, data=None)  # type: ignore[call-overload]
    return await CatalogTranslator().translate(string, locale, context)


@pytest.mark.parametrize("locale", [Locale.spain_spanish, Locale.latin_american_spanish])
async def test_descriptions_and_choice_names_are_translated(locale: Locale) -> None:
    with lang.speaking("es-ES"):
        spanish = lang._("Which monster")
    assert spanish != "Which monster"
    for where in (Where.parameter_description, Where.command_description, Where.choice_name):
        assert await translate("Which monster", locale, where) == spanish


async def test_names_and_other_languages_are_left_to_discord() -> None:
    assert await translate("save", Locale.spain_spanish, Where.command_name) is None
    assert await translate("level", Locale.spain_spanish, Where.parameter_name) is None
    assert await translate("Which monster", Locale.french, Where.parameter_description) is None
    assert await translate("Which monster", Locale.american_english, Where.choice_name) is None
    untranslated = "Not a message of the catalogs"
    assert await translate(untranslated, Locale.spain_spanish, Where.choice_name) is None


async def test_a_value_in_a_description_is_filled_in_every_language() -> None:
    score = described(SCORE, most=7)
    assert score.message == "Armor Enchantment Ranks, e.g. 1 2 (at most 7, each ≤ its Rank)"
    spanish = await translate(score, Locale.latin_american_spanish, Where.parameter_description)
    assert spanish is not None and "7" in spanish and spanish != score.message
    with lang.speaking("es-419"):
        assert in_language(score) == spanish
        assert in_language("Which monster") == lang._("Which monster")
    assert in_language(score) == score.message  # English: as formatted
