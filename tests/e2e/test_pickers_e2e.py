"""Menus that ask which character, through the real client and the local Discord: a player
with several characters and none in use chooses in a menu and the command does what was asked
(`/fatigue spend`, `/rest`, `/save`, `/character show`, `/init add`, `/fatigue show`; a save
chosen so is kept in the roll log); `/character use` without a name; a GM's menu of everyone's
characters takes several at once, and `/monster remove`'s of the monsters. Only whoever asked
can choose, and a menu after a restart answers politely."""

from __future__ import annotations

from typing import Any

import pytest

from bot.unclaimed import MENU_GONE
from tests.e2e.helpers import fatigue_of, handled, hero, seed, snapshot, two_of_one_player
from tests.e2e.test_dice_report_e2e import kept
from tests.localdiscord.reply import Reply, walk

pytestmark = pytest.mark.asyncio

QUESTION = (
    "You have several characters here: which one? (`/character use` picks one for every command)"
)


def menu(reply: Reply) -> dict[str, Any]:
    (select,) = [c for c in walk(list(reply.components)) if c.get("type") == 3]
    return select


def offered(reply: Reply) -> list[str]:
    return [o["label"] for o in menu(reply)["options"]]


async def choose(env: Any, reply: Reply, *names: str, user: Any = None) -> Reply:
    """Choose `names` in the reply's menu; the answer with what follows it."""
    d = env.discord
    chosen = await d.click(reply, menu(reply)["custom_id"], user=user or d.player, values=[*names])
    await handled(env)  # what the choice goes on to do, answered after the menu's update
    return d.latest(chosen)


async def test_a_player_with_two_characters_spends_through_the_menu(env: Any) -> None:
    d = env.discord
    await two_of_one_player(env)
    before = await snapshot(env)
    asked = await d.slash("fatigue spend", user=d.player, amount=2)
    assert asked.ephemeral and asked.content == QUESTION
    assert offered(asked) == ["Aria", "Grusk"] and menu(asked)["max_values"] == 1
    assert menu(asked)["custom_id"].startswith("tk:")
    assert await snapshot(env) == before  # asking changed nothing
    done = await choose(env, asked, "Grusk")
    assert done.content == "Chosen: Grusk" and not done.components  # the menu is spent
    (spent,) = done.followups
    assert not spent.ephemeral and spent.embed["title"].endswith("Grusk spends 2 FP")
    assert [b["label"] for b in spent.buttons()] == ["Spend 1 more", "Details"]
    assert (await fatigue_of(env, "Grusk")).fp == 2 and (await fatigue_of(env, "Aria")).fp == 0


async def test_someone_else_cannot_choose_in_anothers_menu(env: Any) -> None:
    d = env.discord
    await two_of_one_player(env)
    asked = await d.slash("fatigue spend", user=d.player, amount=2)
    before = await snapshot(env)
    theirs = await choose(env, asked, "Aria", user=d.player2)  # a forged or stale click
    (word,) = theirs.followups or (theirs,)
    assert word.ephemeral and word.content == f"Only <@{d.player.id}> can answer this."
    assert await snapshot(env) == before
    mine = await choose(env, asked, "Aria")  # the menu still works for its asker
    assert (await fatigue_of(env, "Aria")).fp == 2 and mine.content == "Chosen: Aria"


async def test_a_menu_after_a_restart_answers_politely(env: Any) -> None:
    d = env.discord
    await two_of_one_player(env)
    asked = await d.slash("fatigue spend", user=d.player)
    await env.restart()
    before = await snapshot(env)
    stale = await choose(env, asked, "Aria")
    assert stale.ephemeral and stale.content == MENU_GONE
    assert await snapshot(env) == before


async def test_rest_save_and_show_ask_the_same_way(env: Any) -> None:
    d = env.discord
    await two_of_one_player(env)
    await seed(env, hero("Grusk", d.player, fp=30))
    rested = await choose(env, await d.slash("rest short", user=d.player), "Grusk")
    assert rested.followups[0].embed["title"].endswith("Grusk takes a Short Rest")
    assert (await fatigue_of(env, "Grusk")).fp < 30
    saved = await choose(env, await d.type("/save wsr vs:3", user=d.player), "Aria")
    assert saved.followups[0].embed["title"].startswith("Aria")
    shown = await choose(env, await d.slash("character show", user=d.player), "Grusk")
    (sheet,) = shown.followups
    assert sheet.ephemeral and sheet.embed["title"] == "Grusk"  # private, as the command is


async def test_init_add_and_fatigue_show_ask_too_and_a_chosen_save_is_kept(env: Any) -> None:
    d = env.discord
    await two_of_one_player(env)
    joined = await choose(env, await d.slash("init add", user=d.player, score="12"), "Grusk")
    assert joined.followups[0].embed["title"] == "Grusk joins the initiative at 12"
    assert [c.name for c in (await env.table()).initiative.combatants] == ["Grusk"]
    shown = await choose(env, await d.slash("fatigue show", user=d.player), "Aria")
    assert "Aria" in shown.followups[0].texts()[0] and "Fresh" in shown.followups[0].text
    await choose(env, await d.type("/save tsr vs:3", user=d.player), "Grusk")
    (roll,) = await kept(env, 1)  # the roll log has it as the command's own
    assert (roll.actor_id, roll.rolled.character) == (d.player.id, "Grusk")


async def test_character_use_without_a_name_offers_the_menu(env: Any) -> None:
    d = env.discord
    await two_of_one_player(env)
    asked = await d.slash("character use", user=d.player)
    assert asked.ephemeral and offered(asked) == ["Aria", "Grusk"]
    chosen = await choose(env, asked, "Grusk")
    assert chosen.embed["title"] == "You now play Grusk here" and not chosen.content
    assert [c.name for c in (await env.table()).characters if c.active] == ["Grusk"]
    again = await d.slash("character use", user=d.player)  # the one in use, already picked
    assert [o["value"] for o in menu(again)["options"] if o.get("default")] == ["Grusk"]
    spent = await d.slash("fatigue spend", user=d.player)
    assert spent.embed["title"].endswith("Grusk spends 1 FP")


async def test_a_player_with_one_character_uses_it_and_one_with_none_is_told(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bo", d.player2))
    used = await d.slash("character use", user=d.player2)
    assert used.embed["title"] == "You now play Bo here"
    none = await d.slash("character use", user=d.player)
    assert none.ephemeral and "no character in this channel yet" in none.content


async def test_the_gm_chooses_several_targets_in_one_change(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player, fp=10), hero("Bo", d.player2, fp=10))
    asked = await d.slash("fatigue recover", user=d.gm, amount=3)
    assert asked.content == "Which characters? Choose one or several."
    assert offered(asked) == ["Aria", "Bo"] and menu(asked)["max_values"] == 2
    done = await choose(env, asked, "Aria", "Bo", user=d.gm)
    assert done.content == "Chosen: Aria and Bo"
    assert done.followups[0].embed["title"] == "Aria and Bo recover up to 3 FP"
    assert (await fatigue_of(env, "Aria")).fp == 7 and (await fatigue_of(env, "Bo")).fp == 7
    history = await d.slash("history", user=d.gm)
    assert history.embed["description"].count("fatigue recover") == 1  # one change, one undo
    typed = await d.slash("fatigue recover", user=d.gm, amount=1, character="Aria, Bo")
    assert typed.embed["title"] == "Aria and Bo recover up to 1 FP"  # a typed list still works


async def test_a_gms_menu_holds_the_first_25_and_says_so(env: Any) -> None:
    d = env.discord
    await seed(env, *(hero(f"Hero {n:02}", d.player2) for n in range(30)))
    asked = await d.slash("fatigue spend", user=d.gm)
    assert asked.content == (
        "Which characters? Choose one or several.\n"
        "The menu holds the first 25: name any other with `character:`."
    )
    assert offered(asked) == [f"Hero {n:02}" for n in range(25)]
    assert menu(asked)["max_values"] == 25  # Discord's most for a select menu
    done = await choose(env, asked, "Hero 00", "Hero 24", user=d.gm)
    assert done.followups[0].embed["title"] == "Hero 00 and Hero 24 spend 1 FP"
    sheet = await d.slash("character show", user=d.gm)  # its option is `name:`
    assert sheet.content.endswith("name any other with `name:`.") and len(offered(sheet)) == 25


async def test_the_gm_chooses_monsters_to_remove(env: Any) -> None:
    d = env.discord
    for name in ("Troll", "Goblin", "Orc"):
        await d.slash("monster create", user=d.gm, name=name, rank=1, armor="light")
    asked = await d.slash("monster remove", user=d.gm)
    assert asked.ephemeral and offered(asked) == ["🔒 Goblin", "🔒 Orc", "🔒 Troll"]
    assert asked.content == "Which monsters? Choose one or several, then Remove."  # none down
    remove = next(b for b in asked.buttons() if b["label"] == "Remove")
    assert remove["disabled"]  # nothing chosen yet
    chosen = await choose(env, asked, "Orc", "Troll", user=d.gm)
    assert chosen.embed["title"] == "Remove Orc, Troll?"
    stranger = await d.click(chosen, "Remove", user=d.player)
    (word,) = stranger.followups or (stranger,)
    assert word.ephemeral and "can answer this" in word.content
    gone = await d.click(chosen, "Remove", user=d.gm)
    assert gone.embed["title"] == "Removed Orc, Troll" and not gone.components
    assert [m.name for m in (await env.table()).monsters] == ["Goblin"]
    await d.slash("undo", user=d.gm)
    assert len((await env.table()).monsters) == 3  # one change: one undo brings both back


async def test_a_player_is_refused_the_monster_menu(env: Any) -> None:
    d = env.discord
    await d.slash("monster create", user=d.gm, name="Troll", rank=1, armor="light")
    refusal = await d.slash("monster remove", user=d.player)
    assert (
        refusal.ephemeral and refusal.content.startswith("Only the GM") and not refusal.components
    )


async def test_set_alone_with_two_characters_asks_which_form_to_open(env: Any) -> None:
    d = env.discord
    await two_of_one_player(env)
    asked = await d.slash("character set", user=d.player)
    assert asked.content == QUESTION
    form = await choose(env, asked, "Grusk")  # the choice opens its form at once
    assert form.callback_type == 9 and form.modal is not None
    assert form.modal["title"] == "Change Grusk"
