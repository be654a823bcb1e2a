"""A table's language through the real client and the local Discord: where a channel (or its
server) sets one, every public reply there speaks it whoever types, and private replies speak
their reader's; where none is set, a Community server's `guild_locale`, else the reader's. The
setting is a change like every other: undone, logged, exported."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.english import english_words, reply_text
from tests.e2e.helpers import Scripted, hero, seed
from tests.localdiscord.world import speaking

pytestmark = pytest.mark.asyncio

NAMES = ("Aria", "Bree", "Troll")


def english(reply: Any) -> bool:
    return "spends" in reply.text or "Spend 1 more" in str(reply.buttons())


def spanish(reply: Any) -> bool:
    return "gasta" in reply.text and not english_words(reply_text(reply), NAMES)


async def test_a_spanish_players_spend_posts_english_to_an_english_table(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player, fp=4))
    pippa = speaking(d.player, "es-ES")
    before = await d.slash("fatigue spend", user=pippa)
    assert spanish(before)  # no language set: the reader's, as before
    changed = await d.slash("settings set", user=d.gm, language="en-US")
    assert "**Language**: **English (en-US)**" in changed.text

    spent = await d.slash("fatigue spend", user=pippa)
    assert english(spent) and "Aria spends 1 FP" in spent.text
    # Private replies speak the reader's: the card behind Details, and an error.
    details = await d.click(spent, "Details", user=pippa)
    assert details.ephemeral and "Gastar 1" in str(details.buttons())
    refused = await d.slash("fatigue recover", user=pippa)
    assert refused.ephemeral and "Solo el DJ" in refused.content
    # The channel's cards too: public, in the table's language.
    card = await d.slash("party show", user=pippa)
    assert "Party fatigue" in card.text and "Spend 1" in str(card.buttons())


async def test_a_server_language_and_a_channels_own(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    await d.slash("settings server", user=d.owner, language="es-ES")
    spent = await d.slash("fatigue spend", user=d.player)  # an English reader, a Spanish table
    assert spanish(spent) and "Aria gasta 1 FP" in spent.text
    own = await d.slash("settings set", user=d.gm, language="en-US")  # the channel's own first
    assert not own.ephemeral and "Language" in own.text  # said in the language it now speaks
    assert english(await d.slash("fatigue spend", user=speaking(d.player, "es-ES")))
    reset = await d.slash("settings set", user=d.gm, reset="language")
    assert "Idioma" in reset.text  # back to the server's
    assert spanish(await d.slash("fatigue spend", user=d.player))


async def test_the_language_setting_is_undone_and_logged(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    await d.slash("settings set", user=d.gm, language="es-ES")
    assert (await env.table()).settings.language == "es-ES"
    history = await d.slash("history", user=d.gm, private=True)  # the reader's language
    assert "language" in history.text and "Spanish (es-ES)" in history.text
    undone = await d.slash("undo", user=d.gm)
    assert (await env.table()).settings.language is None
    assert "settings set" in undone.text or "ajustes" in undone.text
    assert english(await d.slash("fatigue spend", user=d.player))


async def test_only_languages_with_a_catalog_are_offered(env: Any) -> None:
    d = env.discord
    (settings,) = [c for c in d.commands() if c["name"] == "settings"]
    (set_,) = [o for o in settings["options"] if o["name"] == "set"]
    (language,) = [o for o in set_["options"] if o["name"] == "language"]
    assert [c["value"] for c in language["choices"]] == ["en-US", "es-ES"]
    assert language["choices"][1]["name_localizations"]["es-ES"] == "Español (es-ES)"


async def test_a_roll_reads_no_table_and_speaks_the_language_last_read_here(env: Any) -> None:
    d = env.discord
    await d.slash("settings set", user=d.gm, language="es-ES")
    env.bot.get_cog("Roll").rng = Scripted([97, 41, 97, 41])  # the same d100 twice
    rolled = await d.slash("roll", user=d.player)  # no table read: known already
    # What a Spanish reader gets where no language is set:
    alike = await d.slash("roll", user=speaking(d.player, "es-ES"), channel=d.side_table)
    assert rolled.embeds == alike.embeds and english_words(reply_text(rolled)) == []


async def test_guild_locale_speaks_only_on_a_community_server(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    d.guild.locale = "es-ES"  # Discord sends it; without COMMUNITY it means nothing
    await env.restart()
    assert english(await d.slash("fatigue spend", user=d.player))
    d.guild.features.append("COMMUNITY")  # a Community server: its admins chose Spanish
    await env.restart()  # the bot learns the server's features as it connects
    spent = await d.slash("fatigue spend", user=d.player)
    assert spanish(spent)
    details = await d.click(spent, "Detalles", user=d.player)  # private: the reader's English
    assert details.ephemeral and "Spend 1" in str(details.buttons())
    await d.slash("settings set", user=d.gm, language="en-US")  # a table's own comes first
    assert english(await d.slash("fatigue spend", user=d.player))
