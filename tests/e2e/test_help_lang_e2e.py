"""`/help` for a user whose Discord speaks Spanish (es-ES, in a server whose `guild_locale` is
en-US): every page — the overview in a server and in a DM, each group, each command, the
error for an unknown one — reads in Spanish. What stays as written: command and option names
and the examples (`/save wsr level:5 vs:7` is typed the same in every language), and the game's
own terms. An English user, or one whose language isn't supported, reads it as before."""

from __future__ import annotations

import re
from typing import Any

import pytest

import lang
from cogs.help import EXAMPLES
from tests.localdiscord.world import speaking

# Words a Spanish page may share with the English one besides command and option names: the
# game's terms (the glossary keeps them), names, spot values typed as is (`back`), and words
# spelled the same in both languages.
ALLOWED = {
    *("tsr", "wsr", "fp", "vp", "hd", "sr", "rank", "ranks", "hp", "dj", "k"),
    *("tablekeeper", "json", "shard", "docs", "rules", "md", "back", "left", "web"),
    *("a", "no", "material", "normal", "control", "base", "total", "extra"),
    *("aria", "bórin"),  # characters' names in examples (`character:Aria, Bórin`)
    *("goblin", "familiar", "pm"),  # a group's name (`Goblin 1`), a familiar, a time (6:30 pm)
}
# Option names and a command a description names in its running text (`instead of vs or dc`,
# `e.g. character create`): typed as is, so not translated.
NAMED = {"vs", "dc", "spell", "constitution", "character", "create"}
CODE = re.compile(r"`[^`]*`")  # command lines, option names, examples: the same everywhere
COMMAND = re.compile(r"/[a-z][\w-]*(?: [a-z_]+)?")  # /character create
OPTION_VALUE = re.compile(r"\bcommand:\S+(?: [a-z_]+)?|\b[\w-]+:\S*")  # command:init add, vs:7
DICE = re.compile(r"\b\d*d\d+[\w+-]*")  # 4d6kh3
WORD = re.compile(r"[^\W\d_]+")


def words(text: str) -> set[str]:
    for pattern in (CODE, OPTION_VALUE, COMMAND, DICE):
        text = pattern.sub(" ", text)
    return {w.lower() for w in WORD.findall(text)}


def leaked(spanish: str, english: str) -> set[str]:
    """Words of the English page that the Spanish page still shows."""
    return (words(spanish) & words(english)) - ALLOWED - NAMED


async def both(env: Any, user: Any, channel: Any = None, **options: Any) -> tuple[str, str]:
    d = env.discord
    where = {} if channel is None else {"channel": channel}
    english = await d.slash("help", user=user, options=options, **where)
    spanish = await d.slash("help", user=speaking(user, "es-ES"), options=options, **where)
    assert english.ephemeral and spanish.ephemeral
    return spanish.text, english.text


def pages() -> list[str]:
    """Every command and every group `/help command:` takes."""
    return sorted(set(EXAMPLES) | {name.split()[0] for name in EXAMPLES})


async def test_the_overview_is_in_spanish(env: Any) -> None:
    spanish, english = await both(env, env.discord.player)
    assert leaked(spanish, english) == set()
    assert "Comandos de Tablekeeper" in spanish and "docs/rules.md" in spanish
    assert "p. ej. `/save tsr vs:7 label:Veneno`" in spanish  # the example, its label translated
    assert "p. ej. `/save wsr level:5 stat:10 dc:80 per:5 secret:True`" in spanish
    for name in EXAMPLES:
        assert f"`/{name}` — " in spanish  # every command, named as registered


async def test_the_overview_in_a_dm_is_in_spanish(env: Any) -> None:
    d = env.discord
    spanish, english = await both(env, d.player, channel=d.dm(d.player))
    assert leaked(spanish, english) == set()
    assert "`/roll`" in spanish and "`/character create`" not in spanish


@pytest.mark.parametrize("page", pages())
async def test_every_page_is_in_spanish(env: Any, page: str) -> None:
    spanish, english = await both(env, env.discord.player, command=page)
    assert spanish != english
    assert leaked(spanish, english) == set(), spanish
    if page in EXAMPLES:
        with lang.speaking("es-ES"):
            example = lang._(EXAMPLES[page])  # as typed; a label in it is translated
        assert f"`{example}`" in spanish


async def test_an_unknown_command_is_a_spanish_error(env: Any) -> None:
    spanish, english = await both(env, env.discord.player, command="teleport")
    assert "/teleport" in spanish
    assert leaked(spanish, english) == set(), spanish


async def test_the_english_pages_are_unchanged(env: Any) -> None:
    d = env.discord
    english = await d.slash("help", user=d.player)
    assert english.embed["title"] == "Tablekeeper commands"
    assert english.embed["footer"]["text"] == (
        "Details and an example: /help command:<name> · "
        "The rules, table by table: docs/rules.md in Tablekeeper's source"
    )
    assert "\n  e.g. `/save tsr vs:7 label:Poison`" in english.text
    detail = await d.slash("help", user=d.player, options={"command": "save wsr"})
    assert "`vs` — Attack Level of the effect (sets the Difficulty)" in detail.text
    assert [f["name"] for f in detail.embed["fields"]] == ["Options", "Example", "Where"]
    for unsupported in ("fr", "pt-BR"):  # a language without a catalog reads English
        other = await d.slash("help", user=speaking(d.player, unsupported))
        assert other.embeds == english.embeds
