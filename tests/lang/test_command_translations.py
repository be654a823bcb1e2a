"""Every command, group and option description and every choice name, as `python -m bot sync`
sends them (the live tree, every cog, through `bot.translator.CatalogTranslator`), is translated
for every Discord locale a shipped catalog speaks (Spanish: es-ES and es-419) within Discord's
limits, keeps the numbers in it, and passes the checks Discord makes; command and option names
stay English."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from discord import Locale

import lang
from bot.client import COGS, Tablekeeper
from bot.settings import Settings
from bot.translator import CatalogTranslator
from cogs.help import EXAMPLES
from store import Store
from tests.localdiscord.commands import parse_command_line
from tests.localdiscord.validate import validate_request

Payload = dict[str, Any]
DIE_SIZE = re.compile(r"^d\d+$")  # a choice such as `d10` reads the same in Spanish
NUMBER = re.compile(r"\d+(?:,\d{3})*")
SUBCOMMAND, GROUP = 1, 2


async def _translated(db: Path) -> list[Payload]:
    settings = Settings(token="unused.in.this.test", database_url=f"sqlite:///{db}")
    async with Store.open(settings.database_url) as store:
        bot = Tablekeeper(settings, store, cogs=COGS)
        await bot.setup_hook()  # loads every cog and sets the translator, as a real start does
        translator = bot.tree.translator
        assert isinstance(translator, CatalogTranslator)
        return [
            await command.get_translated_payload(bot.tree, translator)
            for command in bot.tree.get_commands()
        ]


@pytest.fixture(scope="module")
def slash(tmp_path_factory: pytest.TempPathFactory) -> list[Payload]:
    payloads = asyncio.run(_translated(tmp_path_factory.mktemp("tree") / "tree.db"))
    return [p for p in payloads if (p.get("type") or 1) == 1]


def nodes(payload: Payload, path: str = "") -> Iterator[tuple[str, Payload]]:
    """(where, node) for the command, each subcommand group, subcommand and option."""
    where = f"{path} {payload['name']}".strip()
    yield where, payload
    for option in payload.get("options") or []:
        yield from nodes(option, where)


def choices(slash: list[Payload]) -> Iterator[tuple[str, Payload]]:
    for payload in slash:
        for where, node in nodes(payload):
            for choice in node.get("choices") or []:
                yield f"{where} {choice['value']!r}", choice


def spoken() -> set[str]:
    """The Discord locales the installed catalogs answer (the bot installs them when built)."""
    return {locale.value for locale in Locale if lang.language_of(locale.value)}


def test_spanish_is_spoken_in_both_its_discord_locales(slash: list[Payload]) -> None:
    assert spoken() >= {"es-ES", "es-419"}
    assert "en-US" not in spoken() and "pt-BR" not in spoken()


def numbers(text: str) -> Counter[str]:
    """The numbers a text shows (`1,000` and `1000` are one number)."""
    return Counter(n.replace(",", "") for n in NUMBER.findall(text))


def test_the_tree_has_descriptions_and_choices(slash: list[Payload]) -> None:
    assert len([n for p in slash for n in nodes(p)]) > 100
    assert len(list(choices(slash))) > 30


def test_every_description_is_translated_for_every_spoken_locale(slash: list[Payload]) -> None:
    problems, wanted = [], spoken()
    for payload in slash:
        for where, node in nodes(payload):
            english = node["description"]
            localized = node.get("description_localizations") or {}
            if set(localized) != wanted:
                problems.append(f"/{where}: localized for {sorted(localized)}, not {wanted}")
            for locale, text in localized.items():
                if not 1 <= len(text) <= 100:
                    problems.append(f"/{where} [{locale}]: {len(text)} characters (1-100)")
                if text == english:
                    problems.append(f"/{where} [{locale}]: still English: {text!r}")
                if numbers(text) != numbers(english):
                    problems.append(f"/{where} [{locale}]: numbers differ: {text!r}")
    assert problems == []


def test_every_choice_name_is_translated_for_every_spoken_locale(slash: list[Payload]) -> None:
    problems, wanted = [], spoken()
    for where, choice in choices(slash):
        localized = choice.get("name_localizations") or {}
        if DIE_SIZE.match(choice["name"]):
            if localized:
                problems.append(f"/{where}: a die size needs no translation: {localized}")
            continue
        if set(localized) != wanted:
            problems.append(f"/{where}: localized for {sorted(localized)}, not {wanted}")
        for locale, text in localized.items():
            if not 1 <= len(text) <= 100 or text == choice["name"]:
                problems.append(f"/{where} [{locale}]: {text!r}")
            if numbers(text) != numbers(choice["name"]):
                problems.append(f"/{where} [{locale}]: numbers differ: {text!r}")
    assert problems == []


def test_both_spanish_locales_read_the_same(slash: list[Payload]) -> None:
    for payload in slash:
        for where, node in nodes(payload):
            for found in (node, *(node.get("choices") or [])):
                for field in ("description_localizations", "name_localizations"):
                    localized = found.get(field) or {}
                    assert localized.get("es-ES") == localized.get("es-419"), where


def test_command_and_option_names_stay_english(slash: list[Payload]) -> None:
    renamed = [
        f"/{where}: {node['name_localizations']}"
        for payload in slash
        for where, node in nodes(payload)
        if node.get("name_localizations")
    ]
    assert renamed == []


def test_the_localized_payload_is_what_discords_api_accepts(slash: list[Payload]) -> None:
    # The request `python -m bot sync` makes, localizations included: lengths by the spec,
    # locale keys, and each command's size counting its longest localizations.
    assert validate_request("PUT", "/applications/1/commands", slash) == []


def test_validation_would_catch_bad_localizations(slash: list[Payload]) -> None:
    save = next(p for p in slash if p["name"] == "save")
    unknown = {**save, "description_localizations": {"es": "Tirada"}}  # es-ES or es-419 only
    too_long = {**save, "name": "save2", "description_localizations": {"es-ES": "x" * 101}}
    option = {"type": 3, "name": "kind", "description": "d", "name_localizations": {"es-ES": "X"}}
    renamed = {"name": "renamed", "description": "d", "options": [option]}
    problems = validate_request("PUT", "/applications/1/commands", [unknown, too_long, renamed])
    assert any("'es' is not a locale" in p for p in problems), problems
    assert any("[1].description_localizations.es-ES" in p for p in problems), problems
    assert any("'X' is not a valid name" in p for p in problems), problems


def test_the_size_limit_counts_each_fields_longest_localization() -> None:
    def command(spanish: bool) -> Payload:
        def localized(text: str) -> dict[str, str]:
            return {"es-ES": text} if spanish else {}

        choices = [
            {"name": f"c{i}", "value": f"c{i}", "name_localizations": localized("y" * 100)}
            for i in range(25)
        ]
        options = [
            {
                "type": 3,
                "name": f"o{i}",
                "description": "d",
                "description_localizations": localized("x" * 100),
            }
            for i in range(25)
        ]
        options[0]["choices"] = choices
        return {"name": "big", "description": "d", "options": options}

    # English alone is small; 50 Spanish texts of 100 characters are 5000: over Discord's 4000.
    assert validate_request("PUT", "/applications/1/commands", [command(spanish=False)]) == []
    problems = validate_request("PUT", "/applications/1/commands", [command(spanish=True)])
    assert any("longest localization" in p for p in problems), problems


@pytest.mark.parametrize("locale", ["es-ES", "es-419"])
def test_help_examples_in_spanish_run_the_same_command(slash: list[Payload], locale: str) -> None:
    """`/help` shows a Spanish user the examples with their labels translated: each is still a
    command line their client takes, for the same command (names and choices as registered)."""
    registered = [{**p, "id": "1"} for p in slash]
    for name, line in EXAMPLES.items():
        with lang.speaking(locale):
            shown = lang._(line)
        assert parse_command_line(shown, registered, locale)[0] == name, shown
    with lang.speaking(locale):
        assert lang._(EXAMPLES["roll"]) != EXAMPLES["roll"]  # "Sneak attack" is translated
