"""`/undo` that asks before it takes a character or monster away, and `/redo`, through the real
client and a local Discord: the evenings where an undo removed a character without a word."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.e2e.helpers import hero, refused, seed, snapshot
from tests.e2e.test_history_undo_e2e import lines
from tests.localdiscord import forge
from tests.localdiscord.reply import Reply
from tests.localdiscord.world import speaking


def said(reply: Reply) -> str:
    return f"{reply.embed.get('title')}\n{reply.embed.get('description')}"


async def test_a_players_second_undo_asks_before_removing_their_character(env: Any) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Cleo", fatigue_level=20)
    await d.slash("fatigue spend", user=d.player, character="Cleo", amount=3)
    first = await d.slash("undo", user=d.player)  # the spend: taken back at once
    assert first.embed["title"] == "↩️ Undone: fatigue spend" and first.buttons() == []

    before = await snapshot(env)
    prompt = await d.slash("undo", user=d.player)  # the creation: it would take Cleo away
    assert not prompt.ephemeral
    assert prompt.embed["title"] == "↩️ Undo character create?"
    assert f"Undoing character create by <@{d.player.id}> at <t:" in said(prompt)
    assert "• Cleo removed" in said(prompt)
    assert f"Only <@{d.player.id}> can answer, within a minute." in said(prompt)
    assert [b["label"] for b in prompt.buttons()] == ["Undo", "Cancel"]
    assert await snapshot(env) == before  # asking changed nothing

    other = await d.click(prompt, "Undo", user=d.gm)  # only the asker answers
    assert other.ephemeral and f"Only <@{d.player.id}> can answer this." in other.text
    kept = await d.click(prompt, "Cancel", user=d.player)
    assert kept.embed["title"] == "Undo cancelled" and kept.buttons() == []
    assert await snapshot(env) == before

    again = await d.slash("undo", user=d.player)
    done = await d.click(again, "Undo", user=d.player)
    assert done.embed["title"] == "↩️ Undone: character create" and done.buttons() == []
    assert (await env.table()).find("Cleo") is None
    # a second click that left before the prompt was answered (the message still had its
    # buttons then): answered, and nothing more undone
    custom_id = again.buttons()[0]["custom_id"]
    forge.plant_button(d, again, custom_id, "Undo")
    stale = await forge.click_id(d, custom_id, again, user=d.player)
    assert stale.ephemeral and "Nothing was undone: the channel has changed" in stale.text
    assert (await env.table()).find("Cleo") is None

    back = await d.slash("redo", user=d.player)  # nothing taken away: at once
    assert back.embed["title"] == "↪️ Redone: character create"
    assert "• Cleo brought back" in said(back)
    assert (await env.table()).get("Cleo").fatigue.fp == 0
    history = lines(await d.slash("history", user=d.player))
    assert (
        history[0].startswith("↪️ ") and f"<@{d.player.id}> · redo · Cleo brought back" in history[0]
    )
    assert history[1].startswith("~~↩️ ") and history[1].endswith("~~ (redone)")
    assert history[2].startswith("↩️ ") and "undo · Cleo FP 3 → 0" in history[2]  # stands
    assert [line.startswith("~~🕒 ") for line in history[3:]] == [True, True]  # spend, create
    # the cancelled prompt and the stale click logged nothing


async def test_a_gms_undo_after_undoing_a_removal_asks_first(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player2))
    await d.slash("character create", user=d.player, name="Bo", fatigue_level=20)
    prompt = await d.slash("character remove", user=d.gm, name="Aria")
    await d.click(prompt, "Remove", user=d.gm)
    back = await d.slash("undo", user=d.gm)  # brings Aria back: nothing to ask
    assert back.embed["title"] == "↩️ Undone: character remove" and "• Aria brought back" in said(
        back
    )

    before = await snapshot(env)
    asked = await d.slash("undo", user=d.gm)  # the next one back would take Bo away
    assert asked.embed["title"] == "↩️ Undo character create?"
    assert f"by <@{d.player.id}>" in said(asked) and "• Bo removed" in said(asked)
    assert await snapshot(env) == before
    await d.click(asked, "Undo", user=d.gm)
    assert {c.name for c in (await env.table()).characters} == {"Aria"}

    # /redo puts back newest first: Bo's creation, then Aria's removal (which asks)
    redone = await d.slash("redo", user=d.gm)
    assert redone.embed["title"] == "↪️ Redone: character create"
    assert {c.name for c in (await env.table()).characters} == {"Aria", "Bo"}
    again = await d.slash("redo", user=d.gm)
    assert again.embed["title"] == "↪️ Redo character remove?" and "• Aria removed" in said(again)
    assert [b["label"] for b in again.buttons()] == ["Redo", "Cancel"]
    done = await d.click(again, "Redo", user=d.gm)
    assert done.embed["title"] == "↪️ Redone: character remove"
    assert {c.name for c in (await env.table()).characters} == {"Bo"}
    text = await refused(env, "redo", d.gm)
    assert "Nothing to redo here" in text


async def test_redo_is_refused_politely_when_something_newer_stands_on_it(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player, fp=18))
    await d.slash("fatigue spend", user=d.player, amount=3)
    await d.slash("undo", user=d.player)
    await d.slash("fatigue spend", user=d.gm, character="Aria", amount=5)
    text = await refused(env, "redo", d.player)
    assert text.startswith(f"Can't redo fatigue spend by <@{d.player.id}> at <t:")
    assert f"a later change, fatigue spend by <@{d.gm.id}>" in text and "Aria" in text

    await d.slash("undo", user=d.gm)  # the GM's spend taken back: nothing stands on hers
    await d.slash("redo", user=d.player)
    assert (await env.table()).get("Aria").fatigue.fp == 21


async def test_a_player_may_not_redo_what_the_gm_undid(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player, fp=18))
    await d.slash("fatigue spend", user=d.player, amount=3)
    await d.slash("undo", user=d.gm)
    text = await refused(env, "redo", d.player)
    assert "You have no undo here left to redo" in text


async def test_an_expired_undo_prompt_says_so_after_a_restart(env: Any) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Cleo")
    env.bot.get_cog("History").confirm_seconds = 0.3
    prompt = await d.slash("undo", user=d.player)
    await env.restart()  # no timer greys it out now: only the custom_id knows its age
    await asyncio.sleep(0.4)
    before = await snapshot(env)
    late = await d.click(prompt, "Undo", user=d.player)
    assert "No answer within a minute: nothing was undone" in late.text
    assert "run `/undo` again" in late.text and late.buttons() == []
    assert await snapshot(env) == before


async def test_an_undo_prompt_still_works_after_a_restart(env: Any) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Cleo")
    prompt = await d.slash("undo", user=d.player)
    await env.restart()
    done = await d.click(prompt, "Undo", user=d.player)
    assert done.embed["title"] == "↩️ Undone: character create"
    assert (await env.table()).find("Cleo") is None


async def test_the_undo_prompt_in_spanish(env: Any) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Cleo")
    spanish = speaking(d.player, "es-ES")
    prompt = await d.slash("undo", user=spanish)
    assert prompt.embed["title"] == "↩️ ¿Deshacer crear personaje?"
    assert "• Cleo" in said(prompt)
    assert [b["label"] for b in prompt.buttons()] == ["Deshacer", "Cancelar"]
    done = await d.click(prompt, "Deshacer", user=spanish)
    assert done.embed["title"] == "↩️ Deshecho: crear personaje"
    back = await d.slash("redo", user=spanish)
    assert back.embed["title"] == "↪️ Rehecho: crear personaje"
