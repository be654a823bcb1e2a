"""A character whose level and class levels disagree is made, with a warning in the reply."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.english import english_words, reply_text
from tests.localdiscord.world import speaking

WARNING = "Level 3, but the highest class level is 9 (d8/9)"


async def test_create_with_a_class_level_past_the_level_warns_and_still_creates(env: Any) -> None:
    d = env.discord
    reply = await d.type("/character create name:Zed level:3 classes:d8/9", user=d.player)
    assert not reply.ephemeral and "Created Zed" in reply.text
    assert WARNING in reply.text and "`/character set`" in reply.text
    zed = (await env.table()).get("Zed")
    assert (zed.level, zed.classes) == (3, ((8, 9),))


@pytest.mark.parametrize(
    "typed",
    [
        "/character create name:Zed level:9 classes:d8/9",
        "/character create name:Zed classes:d8/9",  # the level comes from the class
        "/character create name:Zed level:6 classes:d10/5 d6/6 combine:multi",
        "/character create name:Zed level:6 classes:d10/6 d6/2 combine:dual",
        "/character create name:Zed level:3",  # no classes: nothing to disagree with
        "/character create name:Zed level:3 classes:d8/9 fatigue_level:12",  # FL set directly
    ],
)
async def test_levels_that_agree_say_nothing(env: Any, typed: str) -> None:
    reply = await env.discord.type(typed, user=env.discord.player)
    assert "Created Zed" in reply.text and "Warning" not in reply.text


async def test_multiclass_levels_below_the_level_warn(env: Any) -> None:
    d = env.discord
    reply = await d.type(
        "/character create name:Zed level:8 classes:d10/5 d6/6 combine:multi", user=d.player
    )
    assert "Level 8, but the highest class level is 6 (d10/5 d6/6)" in reply.text


async def test_set_warns_when_it_makes_them_disagree_and_not_again_for_other_changes(
    env: Any,
) -> None:
    d = env.discord
    await d.type("/character create name:Zed level:9 classes:d8/9", user=d.player)
    lowered = await d.type("/character set name:Zed level:3", user=d.player)
    assert "Changed Zed" in lowered.text and WARNING in lowered.text
    other = await d.type("/character set name:Zed wisdom:5", user=d.player)
    assert "Changed Zed" in other.text and "Warning" not in other.text
    fixed = await d.type("/character set name:Zed classes:d8/3", user=d.player)
    assert "Warning" not in fixed.text
    assert (await env.table()).get("Zed").classes == ((8, 3),)


async def test_the_warning_in_spanish(env: Any) -> None:
    d = env.discord
    spanish = speaking(d.player, "es-ES")
    reply = await d.type("/character create name:Zed level:3 classes:d8/9", user=spanish)
    assert "Aviso" in reply.text and "Nivel 3" in reply.text
    assert not english_words(reply_text(reply), ("Zed",))


async def test_raising_the_level_alone_offers_to_raise_the_class_with_it(env: Any) -> None:
    """`/character set level:6` on a d10/5 character: the reply warns that the levels
    disagree and offers, by a button its player (or the GM) may press, to raise the class too;
    the click is one more `character set`, which `/undo` takes back."""
    d = env.discord
    await d.type("/character create name:Zed classes:d10/5 d6/4 combine:multi", user=d.player)
    raised = await d.type("/character set level:6", user=d.player)  # their only character
    assert "Level 6, but the highest class level is 5" in raised.text
    assert [b["label"] for b in raised.buttons()] == ["Raise the d10 class to level 6 too"]
    other = await d.click(raised, "Raise the d10 class to level 6 too", user=d.player2)
    assert other.ephemeral and "your own characters" in other.text
    done = await d.click(raised, "Raise the d10 class to level 6 too", user=d.player)
    assert "Changed Zed" in done.text and "Warning" not in done.text and done.buttons() == []
    zed = (await env.table()).get("Zed")
    assert (zed.level, zed.classes) == (6, ((10, 6), (6, 4)))
    history = (await d.slash("history", user=d.player)).embed["description"].splitlines()
    assert history[0].endswith("classes d10/5 d6/4 → d10/6 d6/4")
    # Lowered, or raised with the classes given, there is nothing to offer.
    for typed in ("/character set name:Zed level:4", "/character set level:9 classes:d10/9 d6/4"):
        assert (await d.type(typed, user=d.player)).buttons() == []
    spanish = await d.type("/character set level:10", user=speaking(d.player, "es-ES"))
    assert not english_words(reply_text(spanish), ("Zed",))
