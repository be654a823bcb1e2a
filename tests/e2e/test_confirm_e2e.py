"""Every click is answered: confirm prompts survive a restart, an expired one says so and how to
ask again, and a custom_id no button of ours has gets a polite answer."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import pytest

from rules.fatigue import FatigueState
from tests.e2e.helpers import hero, seed, snapshot
from tests.e2e.rows import sqlite_rows
from tests.localdiscord import forge
from tests.localdiscord.reply import Reply


async def test_a_remove_prompt_still_works_after_a_restart(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player))
    prompt = await d.slash("character remove", user=d.player, name="Bree")
    await env.restart()
    done = await d.click(prompt, "Remove", user=d.player)
    assert "Removed Bree" in done.text and done.buttons() == []
    assert (await env.table()).find("Bree") is None


async def test_a_reset_prompt_still_works_after_a_restart(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=30))
    prompt = await d.slash("party reset", user=d.gm)
    await env.restart()
    done = await d.click(prompt, "Reset everyone", user=d.gm)
    assert "everyone is fresh" in done.text
    assert (await env.table()).get("Bree").fatigue == FatigueState()


async def test_an_expired_remove_prompt_says_so_after_a_restart(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player))
    env.bot.get_cog("Characters").confirm_seconds = 0.3
    prompt = await d.slash("character remove", user=d.player, name="Bree")
    await env.restart()  # no timer greys it out now: only the custom_id knows its age
    await asyncio.sleep(0.4)
    before = await snapshot(env)
    late = await d.click(prompt, "Remove", user=d.player)
    assert "No answer within a minute" in late.text
    assert "run `/character remove` again" in late.text
    assert late.buttons() == []
    assert await snapshot(env) == before


async def test_an_expired_reset_prompt_says_so(env: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=30))
    monkeypatch.setattr(sys.modules["cogs.party"], "CONFIRM_SECONDS", 0.3)
    prompt = await d.slash("party reset", user=d.gm)
    custom_id = prompt.buttons()[0]["custom_id"]
    await env.restart()
    await asyncio.sleep(0.4)
    before = await snapshot(env)
    late = await forge.click_id(d, custom_id, prompt, user=d.gm)
    assert "timed out" in late.text and "run `/party reset` again" in late.text
    assert await snapshot(env) == before


async def test_someone_else_cannot_answer_a_prompt_after_a_restart(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player))
    prompt = await d.slash("party reset", user=d.gm)
    await env.restart()
    before = await snapshot(env)
    other = await d.click(prompt, "Reset everyone", user=d.player)
    assert other.ephemeral and "Only the GM who asked" in other.text
    assert await snapshot(env) == before


async def click_unchanged(env: Any, custom_id: str, plant: bool = True) -> Reply:
    """Click `custom_id` on a player's `/fatigue show` reply (planted there unless told not to):
    whatever the answer, nothing in the channel may change."""
    d = env.discord
    await seed(env, hero("Aria", d.player))
    shown = await d.slash("fatigue show", user=d.player)
    if plant:
        forge.plant_button(d, shown, custom_id)
    before = await snapshot(env)
    reply = await forge.click_id(d, custom_id, shown, user=d.player)
    assert await snapshot(env) == before
    return reply


@pytest.mark.parametrize(
    "custom_id",
    [
        "tk:save:wsr:x",
        "tk:character:remove:y:zz",
        "tk:fp:spend2:Aria",
        "tk:" + "x" * 97,
        # prompts posted before they were named after their commands (each expired in a minute)
        "tk:rm:y:zzzzzzzzzzzzz:zzzzzzzzzz:Aria",
        "tk:mrm:y:zzzzzzzzzzzzz:zzzzzzzzzz:Orc",
        "tk:reset:y:0:0",
    ],
)
async def test_a_button_we_do_not_know_gets_a_polite_answer(env: Any, custom_id: str) -> None:
    reply = await click_unchanged(env, custom_id)
    assert reply.ephemeral and "no longer does anything" in reply.content


@pytest.mark.parametrize(
    "custom_id",
    [
        "tk:save:tsr:v9999:-999:9999:zzzzzzzzzzzzz:999:-999:-999:",
        "tk:save:wsr:s-9999:999::1:0:::Nobody",
        "tk:psave:wsr:d0:0:",
        "tk:fp:spend1:" + "A" * 87,
        "tk:hit:999999:NE:Troll",
        "tk:party:page:999",
        "tk:history:" + "9" * 40 + ":" + "9" * 40,
        "tk:character:remove:y:zzzzzzzzzzzzz:zzzzzzzzzz:" + "A" * 40,
        "tk:monster:remove:y:zzzzzzzzzzzzz:zzzzzzzzzz:" + "A" * 40,
        "tk:party:reset:y:0:0",
    ],
)
async def test_a_button_with_extreme_values_is_answered(env: Any, custom_id: str) -> None:
    """Ids that fit a button's template with values no message of ours ever carried."""
    reply = await click_unchanged(env, custom_id)
    assert reply.callback_type in (4, 5, 6, 7)
    assert "no longer does anything" not in reply.text  # the button's own code answered


async def test_a_click_on_a_button_the_message_does_not_carry_is_answered(env: Any) -> None:
    """discord.py ignores a click whose custom_id its message doesn't carry, even one that fits
    a template: the bot answers it itself."""
    reply = await click_unchanged(env, "tk:party:page:2", plant=False)
    assert reply.ephemeral and "no longer does anything" in reply.content


async def test_a_monster_remove_prompt_works_after_a_restart_and_expires(env: Any) -> None:
    d = env.discord
    for name in ("Goblin", "Ogre"):
        await d.slash("monster create", user=d.gm, name=name, rank=1, armor="light")
    prompt = await d.slash("monster remove", user=d.gm, name="Goblin")
    await env.restart()
    gone = await d.click(prompt, "Remove", user=d.gm)
    assert gone.embed["title"] == "Removed Goblin"
    assert [m.name for m in (await env.table()).monsters] == ["Ogre"]

    env.bot.get_cog("Monsters").confirm_seconds = 0.3
    late_prompt = await d.slash("monster remove", user=d.gm, name="Ogre")
    await env.restart()
    await asyncio.sleep(0.4)
    before = await snapshot(env)
    late = await d.click(late_prompt, "Remove", user=d.gm)
    assert "No answer within a minute" in late.text
    assert "run `/monster remove` again" in late.text
    assert await snapshot(env) == before


async def test_a_secret_roll_from_a_dm_is_refused_with_nothing_written(env: Any) -> None:
    d = env.discord
    before = sqlite_rows(env.database_url)  # every table: a secret is kept apart from a table
    data = forge.command_data(d, "roll", [forge.option("secret", 5, True)])
    reply = await forge.send(d, data, user=d.player, channel=forge.IN_DM)
    assert reply.ephemeral and "server channel" in reply.content
    assert sqlite_rows(env.database_url) == before
