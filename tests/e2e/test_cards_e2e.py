"""Cards through the real client and the local Discord: `/party show`, `/fatigue show`, `/init
show` and `/monster show` as Components V2 messages (the local Discord refuses any body past
Discord's limits: 40 components, 4,000 characters, one accessory a section), paged at the
largest party and fight a channel holds, Spend 1 beside each character working after a restart,
a picture drawn into the card's gallery, and only the buttons its readers may use."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from typing import Any

import pytest

from table.bestiary import MONSTERS_MAX
from table.combat import COMBATANTS_MAX, Combatant, Initiative
from table.model import Table
from table.sheet import CHARACTERS_MAX
from tests.e2e.helpers import beside, card_ok, entries, gallery, hero, seed, snapshot
from tests.localdiscord.render_text import render_reply
from tests.localdiscord.reply import Reply

pytestmark = pytest.mark.asyncio

NAME = "Bartholomew Quillfeather of Marsh"  # 33 characters: past what a new name may be
PAGING = {"Previous", "Next", "Refresh"}


def long_hero(n: int, owner: Any) -> Any:
    """A character whose entry is as long as one gets: a long name, over its Maximum, every
    note (Temporary FP with its time, a cap, VP damage, rested ahead of the clock)."""
    name = f"{n:03} {NAME}"
    return hero(name, owner, fp=140, temp=99, temp_expires=10**7, shattered_cap=True,
                exhausted_cap=True, vp_damage=99, settled=10**7)  # fmt: skip


ARIA = {"character": "Aria"}


async def followed(d: Any, reply: Reply) -> Reply:
    """The message that follows a card's answer (what the channel reads of a click on it)."""
    deadline = time.monotonic() + d.timeout
    while not d.latest(reply).followups:
        assert time.monotonic() < deadline, "nothing followed"
        await asyncio.sleep(0.01)
    (told,) = d.latest(reply).followups
    return told


def labels(reply: Reply) -> set[str]:
    return {b.get("label", "") for b in reply.buttons()}


async def test_the_largest_party_pages_within_discords_limits(env: Any) -> None:
    d = env.discord
    d.timeout = 60.0  # a wait for each answer (the largest chart, on a busy machine), no measure
    await seed(env, *(long_hero(n, d.player) for n in range(CHARACTERS_MAX)))
    card = await d.slash("party show", user=d.player2)
    pages = CHARACTERS_MAX // 10
    assert f"-# Page 1/{pages}" in card.texts()[0]
    seen: list[str] = []
    for page in range(1, pages + 1):
        card_ok(card)
        assert len(entries(card)) == 10 and all(
            b["label"] == "Spend 1" for b in beside(card).values()
        )
        seen += [text.split("**")[1] for text in entries(card)]
        if page < pages:
            card = await d.click(card, "Next", user=d.player2)
    assert len(set(seen)) == CHARACTERS_MAX  # every character once, in order
    with_chart = await d.click(card, "Chart", user=d.player2)  # a picture too: still within
    card_ok(with_chart)
    assert gallery(with_chart) == ["attachment://fatigue.png"]
    last = await d.settle(await d.click(with_chart, "Spend 1", user=d.player))
    card_ok(last)
    assert "Page 20/20" in last.texts()[0] and not gallery(last)  # the card now, on its page


async def test_the_largest_fight_pages_within_discords_limits(env: Any) -> None:
    d = env.discord
    heroes = [long_hero(n, d.player) for n in range(COMBATANTS_MAX)]
    await seed(env, *heroes)

    def fighting(table: Table) -> tuple[Table, None]:
        order = tuple(
            Combatant(c.name, 100 - n, n, "character", c.owner_id) for n, c in enumerate(heroes)
        )
        return replace(table, initiative=Initiative(order, round=3, turn=12, reached=3)), None

    channel = d.table
    await env.store.apply(channel.id, channel.guild_id, d.gm.id, "test: a fight", fighting)
    card = await d.slash("init show", user=d.player2)
    card_ok(card)
    assert "Round 3 · 012 Bartholomew" in card.texts()[0] and "-# Page 1/3" in card.texts()[0]
    pages = [card]
    for _ in range(2):
        pages.append(await d.click(pages[-1], "Next", user=d.player2))
        card_ok(pages[-1])
    shown = [text for page in pages for text in entries(page)]
    assert len(shown) == COMBATANTS_MAX
    assert [line for line in shown if line.startswith("▶️")] == [
        "▶️ 🧑 **012 Bartholomew Quillfeather of Marsh** · 88 · 🟣 140/100 FP"
    ]
    assert labels(pages[-1]) == {"Spend 1", "Previous", "Next", "Refresh"}


async def test_spend_1_beside_a_character_works_after_a_restart(env: Any) -> None:
    d = env.discord
    await seed(env, *(hero(f"Hero {n:02}", d.player, fp=4) for n in range(1, 13)))
    card = await d.slash("party show", user=d.player, page=2)
    assert "┃ **🟢 Hero 11 — Fresh**  [Spend 1]" in render_reply(card)  # the sandbox shows it
    await env.restart()
    after = await d.settle(await d.click(card, "tk:card:spend:p2:Hero 11", user=d.player))
    assert after.message_id == card.message_id and "-# Page 2/2" in after.texts()[0]
    assert "5/100 FP" in entries(after)[0] and "4/100 FP" in entries(after)[1]
    (spent,) = after.followups  # the channel reads the spend, in three lines at most
    assert not spent.ephemeral and spent.embed["title"] == "🟢 Hero 11 spends 1 FP"
    stranger = await d.click(after, "tk:card:spend:p2:Hero 12", user=d.player2)
    assert stranger.ephemeral and "only change your own" in stranger.content


async def test_a_chart_shows_in_the_cards_gallery_and_goes_with_the_next_page(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player, fp=4))
    await d.slash("fatigue spend", user=d.player, amount=30)
    card = await d.slash("party show", user=d.player2)
    assert not gallery(card) and not card.attachments
    charted = await d.click(card, "Chart", user=d.player2)
    assert charted.message_id == card.message_id and gallery(charted) == [
        "attachment://fatigue.png"
    ]
    (attached,) = charted.attachments
    assert attached["filename"] == "fatigue.png" and "Aria" in attached["description"]
    assert dict(charted.files)["fatigue.png"].startswith(b"\x89PNG")
    assert any(text.startswith("-# 📈") for text in charted.texts())  # its span, under it
    refreshed = await d.click(charted, "Refresh", user=d.player)
    assert not gallery(refreshed) and not refreshed.attachments
    own = await d.slash("fatigue show", user=d.player)  # a character's own card charts it
    drawn = await d.click(own, "Chart", user=d.player)
    assert gallery(drawn) == ["attachment://fatigue.png"] and "Aria" in drawn.texts()[0]


async def test_a_monster_card_shows_each_reader_what_they_may_see(env: Any) -> None:
    d = env.discord
    made = await d.slash("monster create", user=d.gm, name="Troll", rank=3, armor="heavy", hp=30)
    assert made.ephemeral
    gms = await d.slash("monster show", user=d.gm, name="Troll")
    card_ok(gms)
    assert gms.ephemeral and "**HP**: 30 / 30" in gms.text
    assert labels(gms) == {"Picture", "Appear"}  # the GM's own: Appear, for one still hidden
    before = await snapshot(env)
    hidden = await d.slash("monster show", user=d.player, name="Troll")
    assert hidden.ephemeral and "No monster" in hidden.content  # behind the screen: no card
    forged = await d.click(gms, "Appear", user=d.player)
    assert forged.ephemeral and "Only the GM" in forged.content
    assert await snapshot(env) == before
    pictured = await d.click(gms, "Picture", user=d.gm)
    assert gallery(pictured) == ["attachment://monster.png"] and pictured.ephemeral
    appeared = await d.click(pictured, "Appear", user=d.gm)
    assert labels(appeared) == {"Picture"}  # in sight now: nothing left to show
    told = await followed(d, appeared)
    assert not told.ephemeral and "Troll appears" in told.text
    players = await d.slash("monster show", user=d.player, name="Troll")
    assert labels(players) == {"Picture"} and "HP" not in players.text  # no numbers, no GM's
    assert "unhurt" in players.text


async def test_public_cards_carry_no_gm_button(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player), hero("Odo", d.player2))
    for _ in range(MONSTERS_MAX // 5):
        await d.slash("monster create", user=d.gm, name="Orc", rank=1, armor="light", hp=8)
    await d.slash("init add", user=d.gm, name="Orc 1", score="12")
    await d.slash("init add", user=d.player, name="Aria", score="10")
    await d.slash("init start", user=d.gm)
    for command, options in (("party show", {}), ("init show", {}), ("fatigue show", ARIA)):
        card = await d.slash(command, user=d.gm, **options)  # the GM's look: the channel's too
        assert not card.ephemeral
        assert labels(card) <= {"Spend 1", "Chart", *PAGING}, command
    fight = await d.slash("init show", user=d.player)
    assert "Orc 2" not in fight.text  # hidden monsters never show, in the fight or out of it
    assert list(beside(fight)) == ["▶️ 🧑 **Aria** · 10 · 🟢 0/100 FP"]  # Spend 1: characters


async def test_a_public_card_never_draws_a_monster_back_behind_the_screen(env: Any) -> None:
    d = env.discord
    await d.slash("monster create", user=d.gm, name="Wraith", rank=2, armor="light", hp=12)
    shown = await d.slash("monster show", user=d.gm, name="Wraith", public=True)  # it appears
    assert not shown.ephemeral and labels(shown) == {"Picture"}
    undone = await d.slash("undo", user=d.gm)  # back behind the GM's screen
    assert "back behind the GM's screen" in undone.text
    before = await snapshot(env)
    for user in (d.gm, d.player):
        drawn = await d.click(shown, "Picture", user=user)
        assert drawn.ephemeral and "No monster" in drawn.text and not drawn.files
    assert not gallery(d.latest(shown)) and await snapshot(env) == before
