"""Secret rolls (`secret:True` on `/roll` and `/save`) through the real client and a local
Discord: the channel learns who rolled what and no number of it, the roller sees the result
privately, the GM peeks and reveals it (editing the same channel message through the channel,
not the interaction token), everyone else is refused politely, and all of it after a restart."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import pytest

from cogs._secret import ELSEWHERE, ONLY_GM_AND_ROLLER, ONLY_GM_REVEALS, PEEK
from table.model import Character
from tests.e2e.helpers import Scripted, fields, seed, snapshot
from tests.e2e.test_ack_e2e import store_held
from tests.localdiscord.reply import Reply

pytestmark = pytest.mark.asyncio


def dice(env: Any, cog: str, *faces: int) -> None:
    env.bot.get_cog(cog).rng = Scripted(faces)


def labels(reply: Reply) -> list[str]:
    return [b.get("label", "") for b in reply.buttons()]


def numbers(text: str) -> list[str]:
    """The numbers a text shows, besides the name of the die ("d100")."""
    return re.findall(r"\d+", text.replace("d100", "d"))


async def kept_roll(d: Any, reply: Reply) -> Reply:
    """A secret roll's channel notice once the roller's private result has followed it: the bot
    sends that only after keeping the roll, so a click from then on finds it. (`settle` alone
    stops after 50 ms without a request, which a slow sync of the disk can outlast.)"""
    deadline = time.monotonic() + d.timeout
    while not d.latest(reply).followups:
        assert time.monotonic() < deadline, "the roller's private result never came"
        await asyncio.sleep(0.01)
    settled: Reply = await d.settle(reply)
    return settled


def assert_refused(reply: Reply, says: str) -> None:
    assert reply.ephemeral, reply
    assert says in reply.content, reply.content
    assert not reply.embeds and not reply.components


def reveal_label(reply: Reply) -> str:
    found = [label for label in labels(reply) if "Reveal" in label]
    assert len(found) == 1, labels(reply)
    return found[0]


async def test_a_secret_d100_is_announced_without_numbers_and_revealed_by_the_gm(
    env: Any,
) -> None:
    d = env.discord
    dice(env, "Roll", 97, 43)
    rolled = await kept_roll(
        d, await d.slash("roll", user=d.player, secret=True, mod=5, label="Sneak attack")
    )
    # The channel: who and what kind, in words; not one digit of the result.
    assert not rolled.ephemeral
    assert "Pippa" in rolled.text and "d100 roll" in rolled.text and "Sneak attack" in rolled.text
    assert numbers(rolled.text) == [], rolled.text
    assert labels(rolled) == [PEEK]
    # The roller: the full result, privately.
    (mine,) = rolled.followups
    assert mine.ephemeral
    assert mine.embed["title"] == "d100 (open-ended high): 145"
    assert "97 → +43 = 140" in mine.text and "Sneak attack" in mine.text

    before = await snapshot(env)
    stranger = await d.click(rolled, PEEK, user=d.player2)
    assert_refused(stranger, ONLY_GM_AND_ROLLER)
    own = await d.click(rolled, PEEK, user=d.player)
    assert own.ephemeral and "145" in own.text and not any("Reveal" in x for x in labels(own))

    peek = await d.click(rolled, PEEK, user=d.gm)
    assert peek.ephemeral and "145" in peek.text
    assert "Pippa" in peek.content
    forged = await d.click(peek, reveal_label(peek), user=d.player)  # not the GM: no reveal
    assert_refused(forged, ONLY_GM_REVEALS)
    assert numbers(d.latest(rolled).text) == []

    revealed = await d.click(peek, reveal_label(peek), user=d.gm)
    assert revealed.ephemeral and "revealed" in revealed.content and not revealed.components
    channel = d.latest(rolled)  # the same channel message, edited
    assert channel.message_id == rolled.message_id and not channel.ephemeral
    assert "revealed" in channel.text and "145" in channel.text and "Sneak attack" in channel.text
    assert not channel.components
    assert f"PATCH /channels/{d.table.id}/messages/{rolled.message_id}" in d.requests
    assert await snapshot(env) == before  # a roll changes nothing at the table


async def test_peek_and_reveal_work_after_a_restart(env: Any) -> None:
    d = env.discord
    await seed(env, Character("Aria", d.player.id, level=5, wisdom=10, kin_wsr=5))
    dice(env, "Saves", 30)
    rolled = await kept_roll(
        d, await d.slash("save wsr", user=d.player, vs=7, secret=True, label="Fear")
    )
    assert "WSR" in rolled.text and "Willpower save" in rolled.text and "Aria" in rolled.text
    assert numbers(rolled.text) == [], rolled.text
    assert rolled.followups[0].embed["title"] == "Aria — Willpower Save Roll: ❌ Failure"
    await env.restart()
    peek = await d.click(rolled, PEEK, user=d.gm)
    assert fields(peek)["Total"] == "**70**"
    await env.restart()  # the peek's Reveal too
    # The roll's 15-minute token has long expired: only the channel route can edit it now.
    d.server.interactions[rolled.interaction_id].token = "expired"
    await d.click(peek, reveal_label(peek), user=d.gm)
    channel = d.latest(rolled)
    assert "**70**" in channel.text and "Fear" in channel.text
    kept = await env.store.find_secret(rolled.message_id or 0)
    assert kept is not None and kept.revealed_by == d.gm.id


async def test_a_gm_rolls_behind_the_screen_the_same_way(env: Any) -> None:
    d = env.discord
    await seed(env, Character("Aria", d.player.id, level=5, wisdom=10, kin_wsr=5))
    dice(env, "Saves", 12)
    party = await kept_roll(
        d, await d.slash("save party", user=d.gm, kind="tsr", dc=60, secret=True)
    )
    assert "Gandra" in party.text and "party TSR (Toughness save)" in party.text
    assert numbers(party.text) == [], party.text
    assert "Aria" in party.followups[0].text
    # The GM's own roll is the GM's alone: nobody else "and the GM" to tell of.
    assert party.followups[0].content == (
        "🔒 Your secret party TSR (Toughness save): only you can see this (you are the GM)."
    )
    refused = await d.click(party, PEEK, user=d.player)  # Aria's player didn't roll it
    assert_refused(refused, ONLY_GM_AND_ROLLER)
    peek = await d.click(party, PEEK, user=d.gm)
    await d.click(peek, reveal_label(peek), user=d.gm)
    assert "Aria" in d.latest(party).text and "revealed" in d.latest(party).text

    dice(env, "Saves", 50)
    own = await kept_roll(d, await d.slash("save tsr", user=d.gm, level=3, dc=70, secret=True))
    assert "Gandra made a secret TSR (Toughness save)" in own.text
    gm_peek = await d.click(own, PEEK, user=d.gm)
    assert "Your secret" in gm_peek.content and reveal_label(gm_peek)
    assert "only you can see this (you are the GM)" in gm_peek.content


async def test_clicks_from_another_channel_or_server_are_refused(env: Any) -> None:
    d = env.discord
    dice(env, "Roll", 50)
    rolled = await kept_roll(d, await d.slash("roll", user=d.player, secret=True))
    other_channel = await d.click(rolled, PEEK, user=d.gm, channel=d.ooc)
    assert_refused(other_channel, ELSEWHERE)
    other_guild = await d.click(rolled, PEEK, user=d.outsider, channel=d.other_table)
    assert_refused(other_guild, ELSEWHERE)
    peek = await d.click(rolled, PEEK, user=d.gm)
    moved = await d.click(peek, reveal_label(peek), user=d.gm, channel=d.ooc)
    assert_refused(moved, ELSEWHERE)
    assert numbers(d.latest(rolled).text) == []  # still secret
    kept = await env.store.find_secret(rolled.message_id or 0)
    assert kept is not None and kept.revealed_by is None


async def test_a_slow_secret_save_is_deferred_and_still_secret(env: Any) -> None:
    d = env.discord
    dice(env, "Saves", 61)
    async with store_held(env, 1.6):  # the watchdog defers it: "thinking…" in the channel
        rolled = await d.slash("save tsr", user=d.player, level=2, dc=70, secret=True)
    rolled = await kept_roll(d, rolled)
    assert rolled.callback_type == 5 and not rolled.ephemeral
    assert "TSR (Toughness save)" in rolled.text and numbers(rolled.text) == []
    (mine,) = rolled.followups
    assert mine.ephemeral and "**71**" in mine.text
    peek = await d.click(rolled, PEEK, user=d.gm)  # kept by the message the deferral became
    assert "**71**" in peek.text
