"""Spots and compass points in Spanish: a Spanish client types and reads `espalda` and `O`
(oeste) where an English one has `back` and `W`, and either language's name is accepted."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.english import english_words, reply_text
from tests.e2e.helpers import snapshot, whispered
from tests.localdiscord.world import speaking

pytestmark = pytest.mark.asyncio

NAMES = ("Troll", "Aria")


def spanish(user: Any) -> Any:
    return speaking(user, "es-ES")


async def troll(env: Any, spots: str = "espalda, espalda izquierda") -> None:
    """A Troll facing N with these spots, all revealed (so every reply shows them), in sight."""
    reply = await env.discord.type(
        f"/monster create name:Troll rank:3 armor:Pesada hp:40 spots:{spots} "
        f"revealed_spots:{spots}",
        user=spanish(env.discord.gm),
    )
    assert reply.ephemeral and reply.embeds, reply.content  # the GM's alone, at first
    appeared = await env.discord.type("/monster appear name:Troll", user=spanish(env.discord.gm))
    assert appeared.embed["title"] == "👁️ Aparece Troll"


async def test_spots_typed_in_spanish_are_stored_as_the_rules_name_them(env: Any) -> None:
    d = env.discord
    await troll(env)
    monster = (await env.table()).get_monster("Troll")
    assert monster.block.spot_names == ("back", "back-left")
    shown = await d.type("/monster show name:Troll", user=spanish(d.gm))
    assert "espalda (casilla S)" in shown.text and "espalda izquierda (casilla SO)" in shown.text
    assert not english_words(reply_text(shown), NAMES)
    english = await d.type("/monster show name:Troll", user=d.gm)
    assert "back (square S)" in english.text and "back-left (square SW)" in english.text


async def test_either_languages_names_are_accepted(env: Any) -> None:
    d = env.discord
    made = await d.type(
        "/monster create name:Troll rank:3 armor:heavy hp:40 spots:back, Espalda Izquierda",
        user=d.gm,
    )  # one English, one Spanish
    block = made  # the GM's alone: the whole block
    assert "back (square S) — Hard to Hit: −2 to hit — hidden from the players" in block.text
    assert "back-left (square SW) — Hard to Hit: −2 to hit — hidden from" in block.text
    assert (await env.table()).get_monster("Troll").block.spot_names == ("back", "back-left")
    revealed = await d.type("/monster reveal name:Troll spot:espalda", user=d.gm)
    assert "its back spot is revealed" in revealed.text
    again = await d.type("/monster reveal name:Troll spot:back-left", user=spanish(d.gm))
    assert "espalda izquierda" in again.text
    spots = (await env.table()).get_monster("Troll").block.spots
    assert all(spot.revealed for spot in spots)


async def test_a_facing_typed_as_o_is_west_and_shown_as_each_reader_writes_it(env: Any) -> None:
    d = env.discord
    await troll(env)
    turned = await d.type("/monster face name:Troll facing:O", user=spanish(d.gm))
    assert (await env.table()).get_monster("Troll").facing == "W"
    assert "Troll" in turned.embed["title"] and turned.embed["title"].endswith(" O")
    assert "espalda (casilla E)" in turned.text  # facing W, its back is at E
    assert not english_words(reply_text(turned), NAMES)
    shown = await d.type("/monster show name:Troll", user=d.gm)
    assert "back (square E)" in shown.text
    listed = await d.type("/monster list", user=spanish(d.player))
    assert "O" in listed.text.split("Troll")[1] and " W" not in listed.text


async def test_a_hit_from_the_west_reads_o_in_spanish(env: Any) -> None:
    d = env.discord
    await troll(env)  # facing N: its back is at S, back-left at SW
    hit = await d.type("/monster hit name:Troll damage:18 from:SO", user=spanish(d.gm))
    assert "casilla SO: su espalda izquierda" in hit.text
    assert not english_words(reply_text(hit), NAMES)
    assert "tk:hit:18:SW:Troll" in [b["custom_id"] for b in hit.buttons()]  # kept as the key
    hit = await d.type("/monster hit name:Troll damage:18 from:E", user=spanish(d.gm))
    assert "casilla E: su flanco derecho" not in hit.text  # an armored spot: the GM's to know
    assert "casilla E: su flanco derecho" in (await whispered(d, hit)).text


async def test_an_unknown_spot_lists_the_spots_in_the_readers_language(env: Any) -> None:
    d = env.discord
    before = await snapshot(env)
    reply = await d.type(
        "/monster create name:Troll rank:3 armor:Pesada hp:40 spots:cola", user=spanish(d.gm)
    )
    assert reply.ephemeral and "'cola'" in reply.content
    assert "espalda izquierda" in reply.content and "back-left" not in reply.content
    assert await snapshot(env) == before


async def test_spot_autocomplete_offers_the_readers_names(env: Any) -> None:
    d = env.discord
    offered = await d.autocomplete("monster create", "spots", "espalda, fre", user=spanish(d.gm))
    values = [c["value"] for c in offered]
    assert "espalda, frente" in values and "espalda, frente izquierdo" in values
    assert all("front" not in v and "espalda, espalda" not in v for v in values)
    english = await d.autocomplete("monster create", "spots", "back, fr", user=d.gm)
    assert "back, front" in [c["value"] for c in english]


async def test_the_hidden_spot_picker_names_them_in_spanish(env: Any) -> None:
    d = env.discord
    await d.type(
        "/monster create name:Troll rank:3 armor:heavy hp:40 spots:back, back-left, front",
        user=d.gm,
    )
    offered = await d.autocomplete(
        "monster reveal", "spot", "izq", user=spanish(d.gm), name="Troll"
    )
    assert [(c["name"], c["value"]) for c in offered] == [("espalda izquierda", "back-left")]


async def test_the_turns_facing_buttons_in_spanish(env: Any) -> None:
    d = env.discord
    await troll(env)
    await d.slash("init add", user=d.gm, name="Troll", score="18")
    await d.slash("character create", user=d.player, name="Aria")
    await d.slash("init add", user=d.player, name="Aria", score="15")
    await d.slash("init start", user=d.gm)
    done = await whispered(d, await d.slash("init next", user=spanish(d.gm)))  # the GM's alone
    labels = [b["label"] for b in done.buttons()]
    assert labels == ["N", "NE", "E", "SE", "S", "SO", "O", "NO"]
    assert "Troll termina su turno orientado a N" in done.text
    assert not english_words(reply_text(done), NAMES)
    turned = await d.click(done, "O", user=spanish(d.gm))
    assert (await env.table()).get_monster("Troll").facing == "W"
    assert turned.embed["title"].endswith(" O")
