"""Buttons on replies ("Roll again", "Hit again", "Spend 1 FP", party pages) through the real
client and a local Discord: each works, refuses a stranger privately with the database
unchanged, and still works on a message sent before the bot restarted."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import pytest

from bot.tree import UNEXPECTED
from table.model import Character
from tests.e2e.helpers import Scripted, fields, hero, seed, snapshot, whispered
from tests.localdiscord.reply import Reply

pytestmark = pytest.mark.asyncio

CUSTOM_ID_MAX = 100  # Discord's limit


class Broken:
    """Dice that fail: a bug inside a click."""

    def randint(self, a: int, b: int) -> int:
        raise ZeroDivisionError("a bug")


def script(env: Any, *faces: int) -> Scripted:
    """Script the Saves cog's dice (after a restart: the new cog's)."""
    dice = Scripted(faces)
    env.bot.get_cog("Saves").rng = dice
    return dice


def labels(reply: Reply) -> list[str]:
    return [b.get("label", "") for b in reply.buttons()]


def custom_ids(reply: Reply) -> list[str]:
    return [b["custom_id"] for b in reply.buttons()]


def aria(env: Any, level: int = 5) -> Character:
    # WSR bonus at level 5: Level +25, Wisdom +10, Kin +5 = +40.
    return Character("Aria", env.discord.player.id, level=level, wisdom=10, kin_wsr=5)


def borin(env: Any) -> Character:
    # WSR bonus: Level 2 +10, Wisdom +1 = +11.
    return Character("Borin", env.discord.player2.id, level=2, wisdom=1)


def assert_refused(reply: Reply, says: str) -> None:
    assert reply.ephemeral, reply
    assert says in reply.content
    assert not reply.embeds and not reply.components


# --- /save tsr|wsr: Roll again --------------------------------------------------------------


async def test_roll_again_is_a_new_roll_of_the_stored_character(env: Any) -> None:
    d = env.discord
    await seed(env, aria(env))
    script(env, 30)
    first = await d.type("/save wsr vs:7 mod:-5", user=d.player)
    assert labels(first) == ["Roll again", "Odds"]
    assert all(len(i) <= CUSTOM_ID_MAX for i in custom_ids(first))
    await seed(env, aria(env, level=6))  # levels up between the rolls: read again
    script(env, 55)
    again = await d.click(first, "Roll again", user=d.player)
    assert not again.ephemeral
    assert again.message_id != first.message_id  # a new message: the old roll stays visible
    assert fields(d.latest(first)) == fields(first)
    shown = fields(again)
    assert shown["Roll"] == "55"
    assert shown["Bonus"] == "Level 6 +30 · Wisdom +10 · Kin +5 · Modifier −5 = +40"
    assert (shown["Total"], shown["Difficulty"]) == ("**95**", "Attack Level 7 → 85")
    assert again.embed["title"] == "Aria — Willpower Save Roll: ✅ Success"
    assert labels(again) == ["Roll again", "Odds"]  # and again, and again


async def test_the_gm_may_roll_a_players_save_again_but_nobody_else(env: Any) -> None:
    d = env.discord
    await seed(env, aria(env), borin(env))
    script(env, 10)
    first = await d.slash("save wsr", user=d.player, dc=50)
    before = await snapshot(env)
    script(env)  # no dice for a refusal
    refused = await d.click(first, "Roll again", user=d.player2)
    assert_refused(refused, "Only the player who rolled this save, or the GM")
    assert await snapshot(env) == before
    script(env, 70)
    by_gm = await d.click(first, "Roll again", user=d.gm)
    assert by_gm.embed["title"] == "Aria — Willpower Save Roll: ✅ Success"  # 70 + 40 > 50
    # The roll stays the player's: on the GM's new message too, they may roll again.
    script(env, 50)
    by_player = await d.click(by_gm, "Roll again", user=d.player)
    assert fields(by_player)["Roll"] == "50"


async def test_a_plain_roll_keeps_all_its_numbers(env: Any) -> None:
    d = env.discord
    script(env, 42)
    first = await d.type("/save tsr level:3 dc:70 stat:5 kin:-2 mod:-10 per:4", user=d.gm)
    await seed(env, Character("Gm's own", d.gm.id, level=9))  # not used: the roll was plain
    script(env, 64)
    again = await d.click(first, "Roll again", user=d.gm)
    shown = fields(again)
    assert again.embed["title"] == "Toughness Save Roll: ✅ Success"  # 64 + 8 = 72 beats 70
    assert shown["Bonus"] == "Level 3 +15 · Fortitude +5 · Kin −2 · Modifier −10 = +8"
    assert (shown["Total"], shown["Difficulty"]) == ("**72**", "DC 70")
    assert shown["Points of failure"] == "0 (per 4)"


async def test_a_long_name_with_colons_fits_and_comes_back(env: Any) -> None:
    d = env.discord
    name = "Sir: Lancelot of the Lake, Knight: 1st:x"  # 40 characters, colons inside
    await seed(env, Character(name, d.player.id, level=100, wisdom=-100, kin_wsr=-100))
    script(env, 50)
    first = await d.slash(
        "save wsr", user=d.player, vs=1000, level=100, stat=-100, kin=-100, mod=-100, per=1000
    )
    assert max(len(i) for i in custom_ids(first)) <= CUSTOM_ID_MAX
    script(env, 60)
    again = await d.click(first, "Roll again", user=d.player)
    assert again.embed["title"].startswith(f"{name} — ")
    assert fields(again)["Bonus"] == fields(first)["Bonus"]
    assert fields(again)["Difficulty"] == fields(first)["Difficulty"]


async def test_roll_again_for_a_removed_character_is_a_polite_error(env: Any) -> None:
    d = env.discord
    await seed(env, aria(env))
    script(env, 30)
    first = await d.slash("save wsr", user=d.player, vs=3)
    channel = d.table
    await env.store.apply(
        channel.id, channel.guild_id, d.gm.id, "test: remove", lambda t: (t.without("Aria"), None)
    )
    before = await snapshot(env)
    refused = await d.click(first, "Roll again", user=d.player)
    assert_refused(refused, "No character named 'Aria'")
    assert await snapshot(env) == before


async def test_roll_again_works_after_a_restart(env: Any) -> None:
    d = env.discord
    await seed(env, aria(env))
    script(env, 30, 40)
    first = await d.slash("save wsr", user=d.player, vs=3, per=5)
    party = await d.slash("save party", user=d.gm, kind="wsr", dc=60)  # one die: Aria only
    await env.restart()
    script(env, 99, 12, 17)
    again = await d.click(first, "Roll again", user=d.player)
    assert fields(again)["Roll"] == "99 → +12 = 111"
    assert fields(again)["Points of failure"] == "0 (per 5)"
    again_party = await d.click(party, "Roll again", user=d.gm)
    assert again_party.embed["description"].splitlines()[2].startswith("╰ 17 +40 = 57 vs 60")


async def test_a_bug_in_a_click_is_answered_and_logged(
    env: Any, caplog: pytest.LogCaptureFixture
) -> None:
    d = env.discord
    await seed(env, aria(env))
    script(env, 30)
    first = await d.slash("save wsr", user=d.player, vs=3)
    env.bot.get_cog("Saves").rng = Broken()
    with caplog.at_level(logging.ERROR, logger="bot.tree"):
        answered = await d.click(first, "Roll again", user=d.player)
    assert_refused(answered, UNEXPECTED)
    assert any(r.exc_info and r.exc_info[0] is ZeroDivisionError for r in caplog.records)


# --- /save party: Roll again ----------------------------------------------------------------


async def test_party_roll_again_is_for_the_gm(env: Any) -> None:
    d = env.discord
    await seed(env, aria(env), borin(env))
    script(env, 50, 30)
    first = await d.type("/save party kind:wsr vs:3 mod:5 per:5", user=d.gm)
    assert labels(first) == ["Roll again", "Odds"]
    before = await snapshot(env)
    script(env)
    refused = await d.click(first, "Roll again", user=d.player)
    assert_refused(refused, "Only the GM")
    assert await snapshot(env) == before
    await seed(env, Character("Cato", d.player.id, level=1))  # joins: rolls with the party
    script(env, 20, 21, 22)
    again = await d.click(first, "Roll again", user=d.gm)
    assert again.message_id != first.message_id
    lines = again.embed["description"].splitlines()
    assert lines[0] == "vs **Attack Level 3 → 65** · Modifier +5 · PoF per 5"
    # Aria 20 + 40 + 5; Borin 21 + 11 + 5; Cato 22 + 5 + 5.
    assert [line.split(" vs ")[0] for line in lines[1:]] == [
        "❌ **Aria** fails · margin **+0**",
        "╰ 20 +45 = 65",
        "❌ **Borin** fails · margin **−28** · PoF **6**",
        "╰ 21 +16 = 37",
        "❌ **Cato** fails · margin **−33** · PoF **7**",
        "╰ 22 +10 = 32",
    ]


# --- /monster hit: Hit again ----------------------------------------------------------------


async def troll_hp(env: Any) -> int | None:
    return (await env.table()).get_monster("Cave Troll").hp


async def test_hit_again_hits_the_same_monster_from_the_same_square(env: Any) -> None:
    d = env.discord
    # Rank 3 Heavy: Defense 13; a back-left unarmored spot meets half (6).
    await d.slash(
        "monster create",
        user=d.gm,
        name="Cave Troll",
        rank=3,
        armor="heavy",
        hp=60,
        spots="back-left",
    )
    first = await d.slash("monster hit", user=d.gm, name="cave troll", damage=20, **{"from": "SW"})
    assert labels(first) == ["Hit again"]
    assert first.embed["title"] == "Cave Troll is hit"  # its numbers are the GM's
    again = await d.click(first, "Hit again", user=d.gm)
    assert again.message_id != first.message_id
    assert again.embed["title"] == "🔁 Hit again: Cave Troll is hit"  # it says it repeats
    assert "From square SW" in again.text and not again.ephemeral
    # The channel sees the square and how hurt it looks; the GM alone, the hidden spot and HP.
    gm_copy = await whispered(d, again)
    assert gm_copy.embed["title"] == "🔁 Hit again: Cave Troll takes 14"
    assert "HP 46 → 32 / 60" in gm_copy.text and "its back-left" in gm_copy.text
    assert await troll_hp(env) == 32
    events = await env.store.history(d.table.id, limit=100)
    assert [e.action for e in events[:2]] == ["monster hit again", "monster hit"]
    assert labels(again) == ["Hit again"]


async def test_no_hit_again_once_the_monster_is_defeated(env: Any) -> None:
    d = env.discord
    await d.slash("monster create", user=d.gm, name="Cave Troll", rank=3, armor="heavy", hp=10)
    down = await d.slash("monster hit", user=d.gm, name="Cave Troll", damage=30)
    assert "Now defeated" in down.text and labels(down) == []
    again = await d.slash("monster hit", user=d.gm, name="Cave Troll", damage=30)
    assert again.embed["title"] == "Cave Troll is already defeated" and labels(again) == []


async def test_only_the_gm_may_hit_again(env: Any) -> None:
    d = env.discord
    await d.slash("monster create", user=d.gm, name="Cave Troll", rank=3, armor="heavy", hp=60)
    first = await d.slash("monster hit", user=d.gm, name="Cave Troll", damage=20)
    before = await snapshot(env)
    refused = await d.click(first, "Hit again", user=d.player)
    assert_refused(refused, "Only the GM can change this channel's monsters")
    assert await snapshot(env) == before
    prompt = await d.slash("monster remove", user=d.gm, name="Cave Troll")
    await d.click(prompt, "Remove", user=d.gm)
    before = await snapshot(env)
    gone = await d.click(first, "Hit again", user=d.gm)
    assert_refused(gone, "No monster named 'Cave Troll'")
    assert await snapshot(env) == before


async def test_hit_again_works_after_a_restart(env: Any) -> None:
    d = env.discord
    await d.slash("monster create", user=d.gm, name="Cave Troll", rank=3, armor="heavy", hp=60)
    first = await d.slash("monster hit", user=d.gm, name="Cave Troll", damage=20)
    await env.restart()
    again = await d.click(first, "Hit again", user=d.gm)
    assert "HP 53 → 46 / 60" in (await whispered(d, again)).text  # 20 − Defense 13 = 7, twice
    assert await troll_hp(env) == 46


# --- /fatigue show|spend: Spend 1 FP, Spend 1 more ------------------------------------------


async def fp_of(env: Any, name: str) -> int:
    return (await env.table()).get(name).fatigue.fp


async def test_spend_buttons_spend_one_fp_each_click(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=4))
    shown = await d.slash("fatigue show", user=d.player)
    assert labels(shown) == ["Spend 1 FP"]
    spent = await d.click(shown, "Spend 1 FP", user=d.player)
    assert not spent.ephemeral and spent.message_id != shown.message_id
    assert spent.embed["title"].endswith("Bree spends 1 FP")
    assert "FP 4 → 5 (+1)" in spent.text
    assert labels(spent) == ["Spend 1 more"]
    more = await d.click(spent, "Spend 1 more", user=d.gm)  # the GM may spend anyone's
    assert "FP 5 → 6 (+1)" in more.text
    from_command = await d.slash("fatigue spend", user=d.player, amount=3)
    assert labels(from_command) == ["Spend 1 more"]
    await d.click(from_command, "Spend 1 more", user=d.player)
    assert await fp_of(env, "Bree") == 10
    events = await env.store.history(d.table.id, limit=100)
    assert [e.action for e in events[:4]] == ["fatigue spend"] * 4


async def test_a_stranger_cannot_spend_someone_elses_fp(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=4), hero("Odo", d.player2))
    shown = await d.slash("fatigue show", user=d.player2, character="Bree")  # looking is open
    spent = await d.slash("fatigue spend", user=d.player)
    before = await snapshot(env)
    for reply, label in ((shown, "Spend 1 FP"), (spent, "Spend 1 more")):
        refused = await d.click(reply, label, user=d.player2)
        assert_refused(refused, "You can only change your own characters")
    assert await snapshot(env) == before


async def test_spend_buttons_work_after_a_restart(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=4))
    shown = await d.slash("fatigue show", user=d.player)
    spent = await d.slash("fatigue spend", user=d.player)
    await env.restart()
    await d.click(shown, "Spend 1 FP", user=d.player)
    await d.click(spent, "Spend 1 more", user=d.gm)
    assert await fp_of(env, "Bree") == 7


# --- /party show: Previous, Next ------------------------------------------------------------


def names_on(reply: Reply) -> list[str]:
    return [f["name"].split(" ", 1)[1].split(" — ")[0] for f in reply.embed["fields"]]


async def test_party_pages_forward_and_back(env: Any) -> None:
    d = env.discord
    await seed(env, *(hero(f"Hero {n:02}", d.player) for n in range(1, 24)))  # 3 pages
    first = await d.slash("party show", user=d.player2)  # anyone may look and page
    assert [(b["label"], b.get("disabled", False)) for b in first.buttons()] == [
        ("Previous", True),
        ("Next", False),
        ("Chart", False),
    ]
    second = await d.click(first, "Next", user=d.player2)
    assert second.message_id == first.message_id  # the board pages in place
    assert names_on(second) == [f"Hero {n:02}" for n in range(11, 21)]
    assert second.embed["footer"]["text"].startswith("Page 2/3")
    third = await d.click(second, "Next", user=d.gm)
    assert names_on(third) == ["Hero 21", "Hero 22", "Hero 23"]
    assert [b.get("disabled", False) for b in third.buttons()] == [False, True, False]
    back = await d.click(third, "Previous", user=d.player)
    assert names_on(back) == names_on(second)


async def test_one_page_has_only_its_chart_and_a_shrunk_party_pages_to_its_end(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Solo", d.player))
    assert labels(await d.slash("party show", user=d.player)) == ["Chart"]
    await seed(env, *(hero(f"Hero {n:02}", d.player) for n in range(1, 12)))  # 12: 2 pages
    first = await d.slash("party show", user=d.player)
    channel = d.table
    await env.store.apply(
        channel.id,
        channel.guild_id,
        d.gm.id,
        "test: shrink",
        lambda t: (replace(t, characters=t.characters[:3]), None),
    )
    shrunk = await d.click(first, "Next", user=d.player)
    assert names_on(shrunk) == ["Hero 01", "Hero 02", "Hero 03"]
    assert labels(shrunk) == ["Chart"]  # one page left: no paging


async def test_party_pages_work_after_a_restart(env: Any) -> None:
    d = env.discord
    await seed(env, *(hero(f"Hero {n:02}", d.player) for n in range(1, 14)))  # 2 pages
    first = await d.slash("party show", user=d.player, page=2)
    await env.restart()
    back = await d.click(first, "Previous", user=d.player2)
    assert names_on(back) == [f"Hero {n:02}" for n in range(1, 11)]
