"""Replies a newcomer stumbles on: the chance to succeed in words, the party save on a phone,
a rename in `/history`, and `/monster remove` asking first, as `/character remove` does."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import Scripted, fields, hero, refused, seed, snapshot

pytestmark = pytest.mark.asyncio


async def test_a_save_says_its_chance_to_succeed_beside_the_margin(env: Any) -> None:
    d = env.discord
    env.bot.get_cog("Saves").rng = Scripted([40])
    reply = await d.slash("save tsr", user=d.player, level=1, dc=55)  # needs 51+ on d100 +5
    names = [f["name"] for f in reply.embed["fields"]]
    assert names[names.index("Margin") + 1] == "Chance before the roll"
    assert fields(reply)["Chance before the roll"] == "50% to succeed"
    assert "Odds" not in reply.text


async def test_a_rename_reads_as_a_rename_in_history(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    await d.slash("character set", user=d.player, name="Aria", new_name="Arya")
    history = await d.slash("history", user=d.player)
    line = next(x for x in history.embed["description"].splitlines() if "character set" in x)
    assert "Arya renamed from Aria" in line
    assert "removed" not in line and "created" not in line
    undone = await d.slash("undo", user=d.player)
    assert "Aria renamed from Arya" in undone.text


async def test_monster_remove_asks_first(env: Any) -> None:
    d = env.discord
    await d.slash("monster create", user=d.gm, name="Imp", rank=1, armor="light", hp=8)
    assert "Only the GM" in await refused(env, "monster remove", d.player, name="Imp")
    before = await snapshot(env)
    prompt = await d.slash("monster remove", user=d.gm, name="imp")
    assert prompt.ephemeral and "Remove Imp?" in prompt.text and "HP 8 / 8" in prompt.text
    assert [b["label"] for b in prompt.buttons()] == ["Remove", "Cancel"]
    assert await snapshot(env) == before  # asking changes nothing
    kept = await d.click(prompt, "Cancel", user=d.gm)
    assert "Kept Imp" in kept.text and not kept.buttons()
    assert (await env.table()).find_monster("Imp") is not None

    prompt = await d.slash("monster remove", user=d.gm, name="Imp")
    other = await d.click(prompt, "Remove", user=d.named_gm)
    assert other.ephemeral and "can answer this" in other.text
    done = await d.click(prompt, "Remove", user=d.gm)
    assert "Removed Imp" in done.text and not done.buttons()
    assert (await env.table()).find_monster("Imp") is None
    assert (await env.store.history(d.table.id))[0].action == "monster remove"


async def test_a_gm_who_lost_the_role_cannot_confirm_a_monster_removal(env: Any) -> None:
    d = env.discord
    await d.slash("monster create", user=d.gm, name="Imp", rank=1, armor="light")
    await d.slash("settings set", user=d.gm, gm_role=d.guild.role("GM"))
    prompt = await d.slash("monster remove", user=d.named_gm, name="Imp")
    await d.slash("settings set", user=d.gm, clear_gm_role=True)
    before = await snapshot(env)
    late = await d.click(prompt, "Remove", user=d.named_gm)
    assert late.ephemeral and "Only the GM" in late.text
    assert await snapshot(env) == before


async def test_labels_name_the_roll_in_the_reply(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    save = await d.type("/save tsr dc:60 label:Poison", user=d.player)
    assert save.embed["author"]["name"] == "🏷️ Poison" and not save.ephemeral
    dice = await d.type("/roll dice:2d6 label:Sneak attack", user=d.player)
    assert dice.embed["author"]["name"] == "🏷️ Sneak attack"
    party = await d.type("/save party kind:wsr vs:3 label:Dragon fear", user=d.gm)
    assert party.embed["author"]["name"] == "🏷️ Dragon fear"
    plain = await d.type("/roll", user=d.player)
    assert "author" not in plain.embed
