"""A Spanish member in a server whose `guild_locale` is en-US: every refusal, prompt and button
the cogs and the error handler give them is in Spanish and still changes nothing; the same
member with an English client, or a French one (no catalog), reads the English as before."""

from __future__ import annotations

import asyncio
import logging
import re
import sys
from typing import Any

import pytest

import lang
import lang.catalogs
from bot.contexts import IN_A_SERVER
from bot.tree import ALREADY_DONE, OUT_OF_DATE
from bot.unclaimed import UNKNOWN_CLICK
from cogs._secret import ONLY_GM_AND_ROLLER, PEEK
from cogs._shared import GM_ONLY
from cogs.fatigue import RECOVER_IS_GMS
from cogs.party import PartyResetAnswer
from cogs.saves import IN_A_DM, ROLLER_OR_GM
from tests.e2e.helpers import hero, refused, seed, snapshot
from tests.e2e.rows import sqlite_rows
from tests.e2e.test_redelivery_e2e import redelivered_unanswered_spend
from tests.localdiscord import forge
from tests.localdiscord.commands import INTEGER, STRING
from tests.localdiscord.forge import option
from tests.localdiscord.world import speaking

SPANISH = "es-ES"
# Words of English the bot says (never Spanish words too: "no", "a", "me" are both).
ENGLISH_WORDS = """the you your only can can't this that these those use nothing was were changed
    change option options must and with for from here there not has have needs need try again
    server button buttons command roll character characters party channel settings already
    done between one of to in it is are gm who asked reset cancel remove next previous timed
    out answer minute whole number text value older keeps keep undo undone fresh everyone
    spends each more than"""
ENGLISH = frozenset(ENGLISH_WORDS.split())


def english_words(text: str) -> list[str]:
    """The English words in `text`, leaving out what is never translated: `code` (commands,
    options), a command's own name (`/character`), mentions and timestamps (`<@1>`, `<t:…>`)."""
    plain = re.sub(r"`[^`]*`|<[^>]*>|/\w[\w-]*", " ", text)
    return [w for w in re.findall(r"[A-Za-z']+", plain) if w.lower().strip("'") in ENGLISH]


def spanish(message: str, **params: Any) -> str:
    """The Spanish the catalogs hold for `message` (the bot installs the same catalogs)."""
    lang.install(lang.catalogs.load())
    with lang.speaking(SPANISH):
        return lang._(message, **params)


def assert_spanish(text: str) -> None:
    assert text and not english_words(text), (english_words(text), text)


# --- refusals ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "options", "message"),
    [
        ("party spend", {"amount": 2}, GM_ONLY),
        ("clock round", {"count": 1}, GM_ONLY),
        ("fatigue recover", {"amount": 1, "character": "Bree"}, RECOVER_IS_GMS),
    ],
)
async def test_a_non_gm_is_refused_in_their_own_language(
    env: Any, command: str, options: dict[str, Any], message: str
) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=10))
    text = await refused(env, command, speaking(d.player, SPANISH), **options)
    assert text == spanish(message)
    assert_spanish(text)
    # The same member, in English or in a language with no catalog: the English as before.
    for locale in ("en-US", "fr"):
        assert await refused(env, command, speaking(d.player, locale), **options) == message


async def test_a_player_undoing_someone_elses_change_is_refused_in_spanish(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=10), hero("Cato", d.player2))
    await d.slash("fatigue spend", user=d.player, amount=2, character="Bree")
    text = await refused(env, "undo", speaking(d.player2, SPANISH))
    assert text.startswith("Solo puedes deshacer tus propios cambios")
    assert "gastar fatiga" in text  # the change, named as /history names it in Spanish
    english = await refused(env, "undo", d.player2)
    assert english.startswith("You can only undo your own changes")
    assert "fatigue spend" in english


async def test_a_rules_refusal_of_a_cog_is_in_spanish(env: Any) -> None:
    """`/roll` with both `mod:` and `dice:`: the cog's own refusal, its example kept."""
    d = env.discord
    text = await refused(env, "roll", speaking(d.player, SPANISH), mod=3, dice="2d6")
    assert text == "Pon el modificador dentro de `dice:` (p. ej. `2d6+3`)"
    english = await refused(env, "roll", speaking(d.player, "fr"), mod=3, dice="2d6")
    assert english == "Put the modifier inside `dice:` (e.g. `2d6+3`)"


async def test_no_character_here_is_said_in_spanish(env: Any) -> None:
    d = env.discord
    text = await refused(env, "fatigue spend", speaking(d.player2, SPANISH), amount=1)
    assert text.startswith("Aún no tienes ningún personaje en este canal")
    assert_spanish(text)


# --- forged and bad option values -------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "options", "said"),
    [
        (
            "fatigue spend",
            [option("amount", INTEGER, 1001)],
            "La opción `amount` debe estar entre 1 y 1000.",
        ),
        (
            "fatigue spend",
            [option("amount", INTEGER, "3")],
            "La opción `amount` necesita un número entero.",
        ),
        (
            "character create",
            [option("name", STRING, "Ar\x00ia")],
            "La opción `name` no puede contener un carácter NUL.",
        ),
        ("fatigue temp", [], "/fatigue temp necesita la opción `amount`."),
        (
            "fatigue spend",
            [option("amount", INTEGER, 1), option("amount", INTEGER, 2)],
            "La opción `amount` se dio dos veces.",
        ),
    ],
)
async def test_forged_options_are_refused_in_spanish(
    env: Any,
    caplog: pytest.LogCaptureFixture,
    command: str,
    options: list[dict[str, Any]],
    said: str,
) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player))
    before = sqlite_rows(env.database_url)
    data = forge.command_data(d, command, options)
    with caplog.at_level(logging.WARNING, logger="bot.options"):
        reply = await forge.send(d, data, user=speaking(d.player, SPANISH))
    assert reply.ephemeral and not reply.embeds
    assert reply.content == said
    assert_spanish(reply.content)
    assert sqlite_rows(env.database_url) == before
    english = await forge.send(d, data, user=speaking(d.player, "fr"))
    assert english.content.startswith(("Option `", "/fatigue"))
    # The log is for the bot's admins: English, whoever was answered.
    logged = [r.getMessage() for r in caplog.records if r.name == "bot.options"]
    assert len(logged) == 2  # the Spanish member's refusal, then the French one's
    assert logged[0] == logged[1] and logged[0].endswith(english.content)


async def test_a_malformed_payload_is_refused_in_spanish(env: Any) -> None:
    d = env.discord
    before = sqlite_rows(env.database_url)
    data = forge.command_data(d, "fatigue spend")
    data["options"] = [{"name": "spend", "type": 1, "options": "amount=3"}]
    reply = await forge.send(d, data, user=speaking(d.gm, SPANISH))
    assert reply.ephemeral
    assert reply.content == (
        "Las opciones de /fatigue spend llegaron mal formadas; no se ha cambiado nada."
    )
    assert sqlite_rows(env.database_url) == before
    english = await forge.send(d, data, user=d.gm)
    assert english.content == (
        "The options of /fatigue spend arrived malformed; nothing was changed."
    )


# --- outside a server -------------------------------------------------------------------------


async def test_a_stateful_command_from_a_dm_names_a_server_channel_in_spanish(env: Any) -> None:
    d = env.discord
    spanish_gm = speaking(d.gm, SPANISH)
    channel = d.dm(spanish_gm)
    before = await snapshot(env)
    reply = await d.slash("fatigue spend", user=spanish_gm, channel=channel, offered=False)
    assert reply.ephemeral and not reply.embeds
    assert reply.text == spanish(IN_A_SERVER)
    assert "canal de un servidor" in reply.text
    assert_spanish(reply.text)
    assert await snapshot(env) == before
    assert await env.store.history(channel.id) == []
    english = await d.slash("fatigue spend", user=d.gm, channel=channel, offered=False)
    assert english.text == IN_A_SERVER


async def test_a_save_for_a_character_in_a_dm_is_refused_in_spanish(env: Any) -> None:
    d = env.discord
    player = speaking(d.player, SPANISH)
    reply = await d.slash("save wsr", user=player, channel=d.dm(player), vs=3, character="Bree")
    assert reply.ephemeral and reply.text == spanish(IN_A_DM)
    assert "canales de un servidor" in reply.text


# --- clicks -----------------------------------------------------------------------------------


async def test_an_unknown_click_is_answered_in_spanish(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    player = speaking(d.player, SPANISH)
    shown = await d.slash("fatigue show", user=player)
    assert [b["label"] for b in shown.buttons()] == ["Gastar 1", "Gráfico"]
    forge.plant_button(d, shown, "tk:gone:1")
    before = await snapshot(env)
    reply = await forge.click_id(d, "tk:gone:1", shown, user=player)
    assert reply.ephemeral and reply.content == spanish(UNKNOWN_CLICK)
    assert_spanish(reply.content)
    assert await snapshot(env) == before
    english = await forge.click_id(d, "tk:gone:1", shown, user=speaking(d.player, "fr"))
    assert english.content == UNKNOWN_CLICK


async def test_a_reset_prompt_its_buttons_and_its_expiry_speak_spanish(
    env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=30))
    gm = speaking(d.gm, SPANISH)
    monkeypatch.setattr(sys.modules["cogs.party"], "CONFIRM_SECONDS", 0.3)
    prompt = await d.slash("party reset", user=gm)
    assert prompt.embed["title"] == "¿Reiniciar la fatiga de todo el grupo?"
    assert [b["label"] for b in prompt.buttons()] == ["Reiniciar a todos", "Cancelar"]
    assert_spanish(prompt.text)
    before = await snapshot(env)
    # Someone else's click, in Spanish: refused, nothing changes.
    other = await d.click(prompt, "Reiniciar a todos", user=speaking(d.player, SPANISH))
    assert other.ephemeral and other.text == spanish(PartyResetAnswer.ONLY_ASKER)
    await asyncio.sleep(0.4)
    greyed = await d.settle(prompt)  # the prompt's own timer greyed it out, in its language
    assert greyed.embed["title"] == "El reinicio del grupo ha caducado"
    assert all(b["disabled"] for b in greyed.buttons())
    custom_id = prompt.buttons()[0]["custom_id"]
    late = await forge.click_id(d, custom_id, prompt, user=gm)  # a stale client clicks anyway
    assert late.embed["title"] == "El reinicio del grupo ha caducado"
    assert "vuelve a usar `/party reset`" in late.text
    assert_spanish(late.text)
    assert late.buttons() == []
    assert await snapshot(env) == before


async def test_an_english_gm_gets_the_english_prompt(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=30))
    prompt = await d.slash("party reset", user=speaking(d.gm, "fr"))
    assert prompt.embed["title"] == "Reset the whole party's fatigue?"
    assert [b["label"] for b in prompt.buttons()] == ["Reset everyone", "Cancel"]
    cancelled = await d.click(prompt, "Cancel", user=d.gm)
    assert cancelled.embed["title"] == "Party reset cancelled"


async def test_a_spanish_change_titles_its_reply_in_spanish(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player), hero("Cato", d.player2))
    reply = await d.slash("party spend", user=speaking(d.gm, SPANISH), amount=2)
    assert reply.embed["title"] == "El grupo gasta 2 FP cada uno"
    rounds = await d.slash("clock round", user=speaking(d.gm, SPANISH), count=3)
    assert rounds.embed["title"] == "Pasan 3 asaltos"
    one = await d.slash("clock round", user=speaking(d.gm, "es-419"), count=1)
    assert one.embed["title"] == "Pasa 1 asalto"
    english = await d.slash("clock round", user=d.gm, count=1)
    assert english.embed["title"] == "1 round passes"


async def test_a_save_button_and_its_refusal_speak_the_clickers_language(env: Any) -> None:
    d = env.discord
    rolled = await d.slash("save wsr", user=speaking(d.player, SPANISH), level=5, vs=7)
    assert [b["label"] for b in rolled.buttons()] == ["Tirar otra vez", "Probabilidades"]
    before = await snapshot(env)
    other = await d.click(rolled, "Tirar otra vez", user=speaking(d.player2, SPANISH))
    assert other.ephemeral and other.text == spanish(ROLLER_OR_GM)
    assert_spanish(other.text)
    english = await d.click(rolled, "Tirar otra vez", user=d.player2)
    assert english.ephemeral and english.text == ROLLER_OR_GM
    assert await snapshot(env) == before


async def test_a_secret_roll_refuses_a_stranger_in_spanish(env: Any) -> None:
    d = env.discord
    player = speaking(d.player, SPANISH)
    rolled = await d.settle(await d.slash("roll", user=player, label="Sigilo", secret=True))
    assert [b["label"] for b in rolled.buttons()] == [spanish(PEEK)]
    stranger = await d.click(rolled, spanish(PEEK), user=speaking(d.player2, SPANISH))
    assert stranger.ephemeral and stranger.text == spanish(ONLY_GM_AND_ROLLER)
    assert_spanish(stranger.text)
    english = await d.click(rolled, spanish(PEEK), user=speaking(d.player2, "en-GB"))
    assert english.text == ONLY_GM_AND_ROLLER


async def test_a_command_discord_knows_but_the_bot_no_longer_has_is_out_of_date_in_spanish(
    env: Any,
) -> None:
    d = env.discord
    data = {"id": str(d.world.application_id), "name": "retired", "type": 1, "options": []}
    before = sqlite_rows(env.database_url)
    reply = await forge.send(d, data, user=speaking(d.player, SPANISH))
    assert reply.ephemeral and reply.content == spanish(OUT_OF_DATE)
    assert_spanish(reply.content)
    english = await forge.send(d, data, user=speaking(d.player, "fr"))
    assert english.content == OUT_OF_DATE
    assert sqlite_rows(env.database_url) == before


async def test_a_second_delivery_says_already_done_in_spanish(env: Any) -> None:
    """The first delivery commits but Discord takes no answer; the second writes nothing and
    says so in the member's language (the change named as /history names it)."""
    d = env.discord
    answer = await redelivered_unanswered_spend(env, speaking(d.player, SPANISH))
    assert answer.ephemeral
    assert answer.text == spanish(ALREADY_DONE, what="gastar fatiga")
    assert_spanish(answer.text)
    assert answer.text.startswith("Ya está hecho")
    assert (await env.table()).get("Aria").fatigue.fp == 1


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("fatigue spend", {"amount": 2, "character": "Bree"}),
        ("character set", {"name": "Bree", "level": 3}),
        ("rest short", {"character": "Bree"}),
    ],
)
async def test_a_player_changing_anothers_character_is_refused_in_spanish(
    env: Any, command: str, options: dict[str, Any]
) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=10), hero("Cato", d.player2))
    text = await refused(env, command, speaking(d.player2, SPANISH), **options)
    assert text == spanish("You can only change your own characters; ask the GM")
    assert_spanish(text)
    english = await refused(env, command, speaking(d.player2, "fr"), **options)
    assert english == "You can only change your own characters; ask the GM"


async def test_another_players_spend_button_is_refused_in_spanish(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=10), hero("Cato", d.player2))
    shown = await d.slash("fatigue show", user=d.player)  # the owner's board, in English
    assert [b["label"] for b in shown.buttons()] == ["Spend 1", "Chart"]
    before = await snapshot(env)
    other = await d.click(shown, "Spend 1", user=speaking(d.player2, SPANISH))
    assert other.ephemeral and not other.embeds
    assert other.text == spanish("You can only change your own characters; ask the GM")
    assert await snapshot(env) == before
