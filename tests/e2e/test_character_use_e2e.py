"""`/character use`: a player with several characters in a channel picks the one their commands
take when they name none (`/fatigue`, `/save`, `/character show`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import fatigue_of, hero, refused, seed, two_of_one_player
from tests.localdiscord.world import speaking

pytestmark = pytest.mark.asyncio


async def test_with_two_characters_a_player_is_asked_until_they_use_one(env: Any) -> None:
    d = env.discord
    await two_of_one_player(env)
    text = await refused(env, "fatigue spend", d.player, amount=2)  # asked in a menu
    assert "several characters here: which one?" in text and "`/character use`" in text
    chosen = await d.type("/character use name:Grusk", user=d.player)
    assert chosen.ephemeral and chosen.embed["title"] == "You now play Grusk here"
    spent = await d.slash("fatigue spend", user=d.player, amount=2)
    assert "Grusk spends 2 FP" in spent.embed["title"]
    assert (await fatigue_of(env, "Grusk")).fp == 2 and (await fatigue_of(env, "Aria")).fp == 0
    shown = await d.slash("character show", user=d.player)
    assert shown.embed["title"] == "Grusk"
    saved = await d.type("/save wsr vs:3", user=d.player)
    assert saved.embed["title"].startswith("Grusk")
    other = await d.slash("fatigue show", user=d.player, character="Aria")  # still named at will
    assert "Aria" in other.texts()[0]  # its card's heading


async def test_using_another_replaces_the_first(env: Any) -> None:
    d = env.discord
    await two_of_one_player(env)
    await d.type("/character use name:Grusk", user=d.player)
    await d.type("/character use name:aria", user=d.player)
    table = await env.table()
    assert [c.name for c in table.characters if c.active] == ["Aria"]
    assert (await d.slash("character show", user=d.player)).embed["title"] == "Aria"


async def test_each_player_uses_their_own(env: Any) -> None:
    d = env.discord
    await two_of_one_player(env)
    await seed(env, hero("Cy", d.player2))
    text = await refused(env, "character use", d.player2, name="Grusk")
    assert "You can only use a character you play" in text
    await d.type("/character use name:Cy", user=d.player2)
    await d.type("/character use name:Aria", user=d.player)
    assert (await d.slash("character show", user=d.player2)).embed["title"] == "Cy"
    assert (await d.slash("character show", user=d.player)).embed["title"] == "Aria"


async def test_it_is_a_change_history_shows_and_undo_takes_back(env: Any) -> None:
    d = env.discord
    await two_of_one_player(env)
    await d.type("/character use name:Grusk", user=d.player)
    history = await d.slash("history", user=d.player)
    newest = history.embed["description"].splitlines()[0]
    assert "character use" in newest and "Grusk active off → on" in newest
    await d.slash("undo", user=d.player)
    assert not any(c.active for c in (await env.table()).characters)


async def test_a_character_given_to_another_player_is_no_longer_active(env: Any) -> None:
    d = env.discord
    await two_of_one_player(env)
    await d.type("/character use name:Grusk", user=d.player)
    await d.slash("character set", user=d.gm, name="Grusk", owner=d.player2)
    assert not (await env.table()).get("Grusk").active
    # player2 now plays Bo and Grusk, and has chosen neither.
    text = await refused(env, "fatigue show", d.player2)
    assert "several characters here" in text


async def test_the_choice_survives_a_restart(env: Any) -> None:
    d = env.discord
    await two_of_one_player(env)
    await d.type("/character use name:Grusk", user=d.player)
    await env.restart()
    assert (await d.slash("character show", user=d.player)).embed["title"] == "Grusk"


async def test_use_in_spanish(env: Any) -> None:
    d = env.discord
    await two_of_one_player(env)
    spanish = speaking(d.player, "es-ES")
    asked = await d.slash("fatigue show", user=spanish)
    assert "`/character use`" in asked.content and "varios personajes" in asked.content
    chosen = await d.type("/character use name:Grusk", user=spanish)
    assert chosen.embed["title"] == "Ahora juegas con Grusk aquí"
