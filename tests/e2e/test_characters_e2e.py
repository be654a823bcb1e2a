"""`/character create|set|show|list|remove` through the real client and a local Discord."""

from __future__ import annotations

import asyncio
from fractions import Fraction
from typing import Any

import pytest

from tests.e2e.helpers import fatigue_of, fits, hero, refused, seed, snapshot
from tests.localdiscord.commands import CommandLineError

# docs/rules.md#31-fatigue-level's worked example, as a player types it: FL 8 + 3 + 5.5 + 4 = 20.5.
OGRE = {
    "classes": "d10/5 d6/6",
    "combine": "multi",
    "constitution": 17,
    "base_hd": "4+1",
    "kin_hd": 8,
}


async def test_create_the_worked_example_and_show_its_sheet(env: Any) -> None:
    d = env.discord
    reply = await d.slash("character create", user=d.player, name="Grok", level=6, **OGRE)
    assert fits(reply, 4) == [
        "Created Grok",
        f"Level 6 · played by <@{d.player.id}>",
        "FL 20.5 · FP 0/100 Fresh · TSR +30 · WSR +30",
    ]
    sheet = await d.click(reply, "Sheet", user=d.player2)  # the whole sheet, a tap away
    assert sheet.ephemeral and "Fatigue inputs" in sheet.text and "**20.5**" in sheet.text
    grok = (await env.table()).get("grok")
    assert (grok.owner_id, grok.level, grok.toughness) == (d.player.id, 6, 3)
    assert grok.classes == ((10, 5), (6, 6)) and grok.fl == Fraction(41, 2)

    shown = await d.slash("character show", user=d.player2, name="GROK")
    assert shown.ephemeral
    assert "Fresh 0–20 · Fatigued 21–40 · Tired 41–60 · Exhausted 61–80" in shown.text
    assert "FP **0** / 100 — **Fresh**" in shown.text
    assert "**+30**" in shown.text  # level 6: SR Bonus 5·6 = 30, no stat or kin

    history = await env.store.history(d.table.id)
    assert [(e.action, e.actor_id) for e in history] == [("character create", d.player.id)]


async def test_show_defaults_to_your_own_and_can_be_public(env: Any) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Bree", fatigue_level=12.5)
    reply = await d.slash("character show", user=d.player, public=True)
    assert not reply.ephemeral and "Bree" in reply.text and "**12.5**" in reply.text


async def test_a_gm_creates_for_a_player_who_then_owns_it(env: Any) -> None:
    d = env.discord
    await d.slash("character create", user=d.gm, name="Odo", owner=d.player2, level=2)
    assert (await env.table()).get("Odo").owner_id == d.player2.id
    reply = await d.slash("character set", user=d.player2, name="Odo", wisdom=5)
    assert "Changed Odo" in reply.text
    assert (await env.table()).get("Odo").wisdom == 5


async def test_a_player_cannot_create_for_someone_else(env: Any) -> None:
    d = env.discord
    text = await refused(env, "character create", d.player, name="Sneak", owner=d.player2)
    assert "GM" in text


async def test_set_changes_only_what_is_given(env: Any) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Grok", level=6, wisdom=4, **OGRE)
    before = (await env.table()).get("Grok")
    await d.slash("character set", user=d.player, name="grok", fortitude=10, toughness=1)
    after = (await env.table()).get("Grok")
    assert (after.fortitude, after.toughness) == (10, 1)
    assert before.fl is not None and after.fl == before.fl - 2  # Toughness 3 → 1
    unchanged = ("level", "wisdom", "classes", "combine", "base_hd", "kin_hd_size", "owner_id")
    assert all(getattr(after, f) == getattr(before, f) for f in unchanged)


async def test_set_to_what_it_already_is_says_nothing_changed_and_writes_nothing(
    env: Any,
) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Grok", level=6, wisdom=4, **OGRE)
    before = await snapshot(env)
    same = {"level": 6, "wisdom": 4, "classes": "10:5 6:6", "base_hd": " 4+1", "owner": d.player}
    reply = await d.slash("character set", user=d.player, name="grok", **same)
    assert not reply.ephemeral
    assert reply.embed["title"] == "Nothing changed: Grok was already so"
    assert await snapshot(env) == before  # no write, no event
    changed = await d.slash("character set", user=d.player, name="grok", level=6, wisdom=5)
    assert changed.embed["title"] == "Changed Grok"


async def test_set_with_nothing_to_change_opens_the_form(env: Any) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Grok")
    form = await d.slash("character set", user=d.player, name="Grok")
    assert form.modal is not None and form.modal["title"] == "Change Grok"


async def test_a_player_cannot_touch_someone_elses_character(env: Any) -> None:
    d = env.discord
    await d.slash("character create", user=d.player2, name="Odo", level=3)
    text = await refused(env, "character set", d.player, name="Odo", level=9)
    assert "your own" in text
    await refused(env, "character set", d.player2, name="Odo", owner=d.player)
    await refused(env, "character remove", d.player, name="Odo")


@pytest.mark.parametrize("again", ["Grok", "gROK"])
async def test_duplicate_names_are_refused(env: Any, again: str) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Grok")
    text = await refused(env, "character create", d.gm, name=again, owner=d.player2)
    assert "already a character named 'Grok'" in text


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"classes": "fighter 5"}, "`10:5`"),
        ({"classes": "d10"}, "needs a level"),
        ({"classes": "d7/5"}, "d4, d6, d8"),
        ({"classes": "10:5 6:6"}, "combine"),
        ({"classes": "10:5", "constitution": 12, "toughness": 1}, "not both"),
        ({"base_hd": "lots"}, "4+1"),
        ({"name": "@everyone"}, "can't contain '@'"),
        ({"name": "`code`"}, "can't contain '`'"),
        ({"name": "Z" + "\u0336" * 31}, "accents on one letter"),
    ],
)
async def test_bad_input_gets_a_clear_private_error(
    env: Any, options: dict[str, Any], words: str
) -> None:
    d = env.discord
    options = {"name": "Grok", **options}
    assert words in await refused(env, "character create", d.player, **options)


async def test_an_over_long_name_is_stopped_by_discord(env: Any) -> None:
    d = env.discord
    with pytest.raises(CommandLineError):
        await d.slash("character create", user=d.player, name="x" * 33)


async def test_list_shows_everyone_with_owner_and_level(env: Any) -> None:
    d = env.discord
    empty = await d.slash("character list", user=d.player)
    assert empty.ephemeral and "None yet" in empty.text
    await d.slash("character create", user=d.player, name="Bree", level=3)
    await d.slash("character create", user=d.player2, name="Odo", level=7)
    reply = await d.slash("character list", user=d.gm)
    assert f"**Bree** — level 3 · <@{d.player.id}>" in reply.text
    assert f"**Odo** — level 7 · <@{d.player2.id}>" in reply.text


async def test_name_autocomplete_offers_own_characters_first(env: Any) -> None:
    d = env.discord
    await d.slash("character create", user=d.player2, name="Aaron")
    await d.slash("character create", user=d.player, name="Zed")
    choices = await d.autocomplete("character show", "name", "", user=d.player)
    assert [c["value"] for c in choices] == ["Zed", "Aaron"]


async def test_remove_asks_then_removes(env: Any) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Bree")
    prompt = await d.slash("character remove", user=d.player, name="bree")
    assert prompt.ephemeral and "Remove Bree?" in prompt.text
    assert (await env.table()).find("Bree") is not None  # nothing yet
    done = await d.click(prompt, "Remove", user=d.player)
    assert "Removed Bree" in done.text and not done.buttons()
    assert (await env.table()).find("Bree") is None
    assert (await env.store.history(d.table.id))[0].action == "character remove"


async def test_the_remove_prompt_tells_the_truth_about_undo(env: Any) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Bree")
    prompt = await d.slash("character remove", user=d.player, name="Bree")
    assert "`/undo` brings it back" in prompt.text and "can't be undone" not in prompt.text
    await d.click(prompt, "Remove", user=d.player)
    await d.slash("undo", user=d.player)
    assert (await env.table()).find("Bree") is not None


async def test_the_gm_removes_anyones_and_cancel_keeps_it(env: Any) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Bree")
    prompt = await d.slash("character remove", user=d.gm, name="Bree")
    before = await snapshot(env)
    kept = await d.click(prompt, "Cancel", user=d.gm)
    assert "Kept Bree" in kept.text and await snapshot(env) == before
    prompt = await d.slash("character remove", user=d.gm, name="Bree")
    await d.click(prompt, "Remove", user=d.gm)
    assert (await env.table()).find("Bree") is None


async def test_only_the_invoker_may_press_remove(env: Any) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Bree")
    prompt = await d.slash("character remove", user=d.gm, name="Bree")
    before = await snapshot(env)
    other = await d.click(prompt, "Remove", user=d.player)
    assert other.ephemeral and "Only" in other.text
    assert await snapshot(env) == before


async def test_a_gm_who_lost_the_gm_role_cannot_confirm_removing_anothers(env: Any) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Bree")
    await d.slash("settings set", user=d.gm, gm_role=d.guild.role("GM"))
    prompt = await d.slash("character remove", user=d.named_gm, name="Bree")
    await d.slash("settings set", user=d.gm, clear_gm_role=True)
    before = await snapshot(env)
    late = await d.click(prompt, "Remove", user=d.named_gm)
    assert late.ephemeral and "your own" in late.text
    assert await snapshot(env) == before


async def test_removing_twice_says_it_is_gone(env: Any) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Bree")
    first = await d.slash("character remove", user=d.player, name="Bree")
    second = await d.slash("character remove", user=d.player, name="Bree")
    await d.click(first, "Remove", user=d.player)
    before = await snapshot(env)
    late = await d.click(second, "Remove", user=d.player)
    assert late.ephemeral and "No character named 'Bree'" in late.text
    assert await snapshot(env) == before


async def test_an_unanswered_prompt_disables_its_buttons(
    env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = env.discord
    monkeypatch.setattr(env.bot.get_cog("Characters"), "confirm_seconds", 0.2)
    await d.slash("character create", user=d.player, name="Bree")
    prompt = await d.slash("character remove", user=d.player, name="Bree")
    for _ in range(50):  # the timeout edits the prompt a moment later
        latest = d.latest(prompt)
        if latest.buttons() and all(b.get("disabled") for b in latest.buttons()):
            break
        await asyncio.sleep(0.05)
    assert latest.buttons() and all(b.get("disabled") for b in latest.buttons())
    assert "No answer within a minute" in latest.text
    with pytest.raises(CommandLineError, match="disabled"):
        await d.click(latest, "Remove", user=d.player)
    assert (await env.table()).find("Bree") is not None


async def test_characters_survive_a_restart(env: Any) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Grok", level=6, **OGRE)
    await env.restart()
    reply = await d.slash("character show", user=d.player, name="Grok")
    assert "**20.5**" in reply.text
    assert (await env.table()).get("Grok").fl == Fraction(41, 2)


@pytest.mark.parametrize(
    ("options", "caps"),
    [
        # FL 7 → 1000: FP 30 is Fresh now, so neither cap's floor (3001, 4001) can hold it.
        ({"fatigue_level": 1000}, (False, False)),
        # FL 7 → 8: FP 30 is Exhausted (25–32): that cap stays, Shattered's floor 33 goes.
        ({"fatigue_level": 8}, (True, False)),
        # FL 7 → 1: floors 4 and 5 are below FP 30: both caps hold.
        ({"fatigue_level": 1}, (True, True)),
        # The Fatigue Level doesn't change: the caps are left alone.
        ({"level": 9}, (True, True)),
    ],
)
async def test_a_new_fatigue_level_drops_caps_above_fp(
    env: Any, options: dict[str, Any], caps: tuple[bool, bool]
) -> None:
    d = env.discord
    await seed(
        env, hero("Aria", d.player, Fraction(7), fp=30, exhausted_cap=True, shattered_cap=True)
    )
    await d.slash("character set", user=d.player, name="Aria", **options)
    fatigue = await fatigue_of(env, "Aria")
    assert (fatigue.fp, fatigue.exhausted_cap, fatigue.shattered_cap) == (30, *caps)


async def test_after_a_bigger_fatigue_level_a_rest_recovers_again(env: Any) -> None:
    d = env.discord
    await seed(
        env, hero("Aria", d.player, Fraction(7), fp=30, exhausted_cap=True, shattered_cap=True)
    )
    await d.slash("character set", user=d.player, name="Aria", fatigue_level=1000)
    reply = await d.slash("rest minutes", user=d.player, minutes=5, character="Aria")
    assert "FP 30 → **25**" in reply.text and "4001" not in reply.text
    assert (await fatigue_of(env, "Aria")).fp == 25


async def test_bands_of_one_point_read_as_one_number(env: Any) -> None:
    """FL 1: bands of width 1 show 'Fatigued 2', not 'Fatigued 2–2'."""
    d = env.discord
    made = await d.slash("character create", user=d.player, name="Wisp", fatigue_level=1)
    bands = "Fresh 0–1 · Fatigued 2 · Tired 3 · Exhausted 4 · Shattered 5"
    assert bands in (await d.click(made, "Sheet", user=d.player)).text
    shown = await d.slash("fatigue show", user=d.player)
    assert "🟡 Fatigued 2 · 🟠 Tired 3" in shown.text
