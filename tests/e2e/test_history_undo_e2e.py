"""`/history` and `/undo` through the real client and a local Discord."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from rules.fatigue import FatigueState
from table.model import Character, Table
from tests.e2e.helpers import FL, seed, snapshot
from tests.localdiscord.reply import Reply


def aria(env: Any, fp: int = 18) -> Character:
    return Character("Aria", env.discord.player.id, fl_override=FL, fatigue=FatigueState(fp=fp))


def bo(env: Any) -> Character:
    return Character("Bo", env.discord.player2.id, fl_override=FL)


async def refused(env: Any, user: Any) -> str:
    """`/undo` that must fail: an ephemeral error, nothing written, logged or marked."""
    before = await snapshot(env)
    reply = await env.discord.slash("undo", user=user)
    assert reply.ephemeral and not reply.embeds, reply.text
    assert await snapshot(env) == before
    return reply.content


def lines(reply: Reply) -> list[str]:
    return (reply.embed.get("description") or "").splitlines()


def button(reply: Reply, label: str) -> dict[str, Any]:
    return next(b for b in reply.buttons() if b.get("label") == label)


# --- /history -----------------------------------------------------------------------------


async def test_history_says_who_did_what_newest_first(env: Any) -> None:
    d = env.discord
    await seed(env, aria(env), bo(env))
    await d.slash("fatigue spend", user=d.player, amount=3)
    await d.slash("settings set", user=d.gm, ties="succeed")
    reply = await d.slash("history", user=d.player2)  # anyone may look
    assert not reply.ephemeral
    first, second, third = lines(reply)
    assert re.fullmatch(
        rf"🕒 <t:\d+:t> · <@{d.gm.id}> · settings set · settings: ties fail → succeed", first
    )
    assert second.endswith(f" · <@{d.player.id}> · fatigue spend · Aria FP 18 → 21 (Fatigued)")
    assert third.endswith("test seed · Aria created; Bo created")
    assert [b["disabled"] for b in reply.buttons()] == [True, True]  # one page: nowhere to go
    private = await d.slash("history", user=d.player, private=True)
    assert private.ephemeral and lines(private) == lines(reply)


async def test_an_empty_channel_has_no_history_and_no_buttons(env: Any) -> None:
    reply = await env.discord.slash("history", user=env.discord.player)
    assert lines(reply) == ["Nothing has changed in this channel yet."]
    assert reply.buttons() == []


async def test_pages_of_ten_and_next_still_works_after_a_restart(env: Any) -> None:
    d = env.discord
    channel = d.table
    for n in range(1, 26):  # 25 changes: pages of 10, 10 and 5
        await env.store.apply(
            channel.id,
            channel.guild_id,
            d.gm.id,
            f"step {n}",
            lambda t, n=n: (dataclasses.replace(t, clock=60 * n), None),
        )
    first = await d.slash("history", user=d.player)

    def steps(reply: Reply) -> list[int]:
        return [int(re.search(r"step (\d+)", line)[1]) for line in lines(reply)]  # type: ignore[index]

    assert steps(first) == list(range(25, 15, -1))
    assert button(first, "Previous")["disabled"] and not button(first, "Next")["disabled"]
    assert re.fullmatch(rf"tk:history:{channel.id}:\d+", button(first, "Next")["custom_id"])

    await env.restart()  # a new bot: the page buttons must still answer
    second = await d.click(first, "Next", user=d.player2)
    assert steps(second) == list(range(15, 5, -1))
    assert not button(second, "Previous")["disabled"]
    third = await d.click(second, "Next", user=d.player)
    assert steps(third) == [5, 4, 3, 2, 1]
    assert button(third, "Next")["disabled"]
    back = await d.click(third, "Previous", user=d.player)
    assert steps(back) == list(range(15, 5, -1))
    newest = await d.click(back, "Previous", user=d.player)
    assert steps(newest) == list(range(25, 15, -1))
    assert button(newest, "Previous")["disabled"]


async def test_page_buttons_answer_only_in_their_own_channel(env: Any) -> None:
    d = env.discord
    await seed(env, aria(env))
    for _ in range(11):
        await d.slash("fatigue spend", user=d.player)
    reply = await d.slash("history", user=d.player)
    message = d.server.messages[reply.message_id]
    data = {"custom_id": button(reply, "Next")["custom_id"], "component_type": 2}
    # The same button pressed from another channel (a forwarded or crafted message).
    record = await d._send(3, data, d.player, d.ooc, message.payload())
    answer = await d._final(record)
    assert answer.ephemeral and "another channel's history" in answer.content
    assert d.latest(reply).embeds == reply.embeds  # the page did not move


# --- /undo ---------------------------------------------------------------------------------


async def test_the_gm_undoes_the_last_change_and_history_shows_it(env: Any) -> None:
    d = env.discord
    await seed(env, aria(env), bo(env))
    start = await env.table()
    await d.slash("fatigue spend", user=d.player, amount=3)
    reply = await d.slash("undo", user=d.gm)
    assert not reply.ephemeral
    assert reply.embed["title"] == "↩️ Undone: fatigue spend"
    assert f"fatigue spend by <@{d.player.id}>" in reply.text
    assert "• Aria FP 21 → 18 (Fresh)" in reply.text
    assert await env.table() == start

    history = lines(await d.slash("history", user=d.player))
    assert history[0].startswith("↩️ ") and f"<@{d.gm.id}> · undo · Aria FP 21 → 18" in history[0]
    assert history[1].startswith("~~🕒 ") and history[1].endswith("~~ (undone)")


async def test_two_undos_undo_two_changes_and_the_third_asks_before_removing(env: Any) -> None:
    d = env.discord
    await seed(env, aria(env))
    seeded = await env.table()
    await d.slash("fatigue spend", user=d.player, amount=3)
    spent = await env.table()
    await d.slash("clock pass", user=d.gm, minutes=10)
    await d.slash("undo", user=d.gm)
    assert await env.table() == spent
    second = await d.slash("undo", user=d.gm)
    assert second.embed["title"] == "↩️ Undone: fatigue spend"
    assert await env.table() == seeded
    prompt = await d.slash("undo", user=d.gm)  # the seed itself: it would take Aria away
    assert prompt.embed["title"] == "↩️ Undo test seed?" and "• Aria removed" in prompt.text
    assert await env.table() == seeded
    await d.click(prompt, "Undo", user=d.gm)
    assert await env.table() == Table(d.table.id, d.table.guild_id)
    text = await refused(env, d.gm)
    assert "Nothing left to undo" in text and "/redo puts back" in text


async def test_a_player_undoes_their_own_last_change_only(env: Any) -> None:
    d = env.discord
    await seed(env, aria(env), bo(env))
    await d.slash("fatigue spend", user=d.player2, character="Bo", amount=5)
    text = await refused(env, d.player)
    assert "only undo your own changes" in text and f"<@{d.player2.id}>" in text

    await d.slash("fatigue spend", user=d.player, amount=3)
    await d.slash("fatigue spend", user=d.player2, character="Bo", amount=1)
    reply = await d.slash("undo", user=d.player)  # hers, though Perrin's is later
    assert f"fatigue spend by <@{d.player.id}>" in reply.text
    table = await env.table()
    assert (table.get("Aria").fatigue.fp, table.get("Bo").fatigue.fp) == (18, 6)


async def test_a_later_change_to_the_same_character_blocks_the_undo(env: Any) -> None:
    d = env.discord
    await seed(env, aria(env))
    await d.slash("fatigue spend", user=d.player, amount=3)
    await d.slash("fatigue spend", user=d.gm, character="Aria", amount=4)
    text = await refused(env, d.player)
    assert "a later change, fatigue spend by" in text and "Aria" in text
    assert "a GM's /undo takes the latest change" in text


async def test_a_player_cannot_undo_the_gms_clock(env: Any) -> None:
    d = env.discord
    await seed(env, aria(env))
    await d.slash("clock round", user=d.gm)
    text = await refused(env, d.player)
    assert "only undo your own changes" in text
