"""`/fatigue spend|recover|temp|show` through the real client and a local Discord."""

from __future__ import annotations

from typing import Any

import pytest

from render.common import band_colour
from tests.e2e.helpers import accent, beside, card_ok, fatigue_of, fits, hero, seed, snapshot
from tests.localdiscord.commands import CommandLineError


async def test_spend_defaults_to_one_fp_on_the_callers_character(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Pippa's Bree", d.player, fp=4), hero("Odo", d.player2, fp=4))
    reply = await d.slash("fatigue spend", user=d.player)
    assert fits(reply, 2) == ["🟢 Pippa's Bree spends 1 FP", "FP 4 → **5** / 100 · Fresh"]
    assert (await fatigue_of(env, "Pippa's Bree")).fp == 5
    assert (await fatigue_of(env, "Odo")).fp == 4


async def test_crossing_into_exhausted_sets_the_cap_in_the_reply(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=55))
    reply = await d.slash("fatigue spend", user=d.player, amount=10)
    assert fits(reply, 3) == [
        "🔴 Bree spends 10 FP",
        "FP 55 → **65** / 100 · Tired → Exhausted",
        "Exhausted cap: FP ≥ 61 until a Break",
    ]
    assert reply.embed["color"] == band_colour("Exhausted").value
    assert (await fatigue_of(env, "Bree")).exhausted_cap


async def test_above_maximum_costs_vp(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=99, exhausted_cap=True, shattered_cap=True))
    reply = await d.slash("fatigue spend", user=d.player, amount=2)
    assert fits(reply, 3)[1:] == [
        "FP 99 → **101** / 100 · Shattered",
        "+1 VP damage (1 to apply on the sheet)",
    ]
    state = await fatigue_of(env, "Bree")
    assert (state.fp, state.vp_damage) == (101, 1)


async def test_temporary_fp_lowers_fp_then_pools_and_absorbs_a_later_cost(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=2), clock=120)
    reply = await d.slash("fatigue temp", user=d.gm, amount=5, minutes=3, character="bree")
    assert fits(reply, 2)[1] == "FP 2 → **0** / 100 · Fresh · Temporary FP 0 → 3"
    state = await fatigue_of(env, "Bree")
    assert (state.fp, state.temp, state.temp_expires) == (0, 3, 120 + 180)

    reply = await d.slash("fatigue spend", user=d.player, amount=4)
    assert fits(reply, 2)[1] == "FP 0 → **1** / 100 · Fresh · Temporary FP 3 → 0"
    state = await fatigue_of(env, "Bree")
    assert (state.fp, state.temp, state.temp_expires) == (1, 0, None)


async def test_temp_default_duration_is_ten_game_minutes(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player), clock=60)
    await d.slash("fatigue temp", user=d.gm, amount=2, character="Bree")
    assert (await fatigue_of(env, "Bree")).temp_expires == 60 + 600


async def test_show_is_open_to_everyone(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=45, temp=2, temp_expires=600, vp_damage=1))
    before = await snapshot(env)
    reply = await d.slash("fatigue show", user=d.player2, character="Bree")
    card_ok(reply)
    assert reply.texts()[0].startswith("### 🟠 Bree — Tired")
    assert accent(reply) == band_colour("Tired").value
    (spend,) = beside(reply).values()
    assert (spend["label"], spend["custom_id"]) == ("Spend 1", "tk:card:spend:f:Bree")
    assert "45/100 FP" in reply.text
    assert "2 Temporary FP (until Day 1, 00:10)" in reply.text
    assert "1 VP damage" in reply.text
    assert "Tired 41–60" in reply.text
    assert await snapshot(env) == before


async def test_the_gm_recovers_fp_but_the_cap_holds(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=70, exhausted_cap=True))
    reply = await d.slash("fatigue recover", user=d.gm, amount=20, character="Bree")
    assert fits(reply, 3)[1:] == [
        "FP 70 → **61** / 100 · Exhausted",
        "Exhausted cap: FP ≥ 61 until a Break",
    ]
    assert (await fatigue_of(env, "Bree")).fp == 61


async def test_players_may_not_recover_fp_directly(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=30))
    before = await snapshot(env)
    reply = await d.slash("fatigue recover", user=d.player, amount=5)
    assert reply.ephemeral
    assert "Only the GM can remove FP directly" in reply.content
    assert await snapshot(env) == before


async def test_players_change_only_their_own_characters(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=30), hero("Odo", d.player2, fp=30))
    before = await snapshot(env)
    reply = await d.slash("fatigue spend", user=d.player, character="Odo", amount=3)
    assert reply.ephemeral
    assert "only change your own characters" in reply.content
    assert await snapshot(env) == before
    # ... while the GM may change anyone's.
    await d.slash("fatigue spend", user=d.gm, character="Odo", amount=3)
    assert (await fatigue_of(env, "Odo")).fp == 33


async def test_a_character_without_a_fatigue_level_points_at_character_set(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Nobody", d.player, fl=None))
    before = await snapshot(env)
    for command in ("fatigue spend", "fatigue show"):
        reply = await d.slash(command, user=d.player)
        assert reply.ephemeral
        assert "Nobody has no Fatigue Level" in reply.content
        assert "/character set" in reply.content
    assert await snapshot(env) == before


async def test_unknown_and_missing_characters_are_errors(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player))
    before = await snapshot(env)
    reply = await d.slash("fatigue spend", user=d.player2)
    assert reply.ephemeral and "no character in this channel" in reply.content
    reply = await d.slash("fatigue spend", user=d.gm, character="Bilbo")
    assert reply.ephemeral and "No character named 'Bilbo'" in reply.content
    assert await snapshot(env) == before


async def test_discord_refuses_amounts_below_one(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player))
    with pytest.raises(CommandLineError, match="between 1 and"):
        await d.slash("fatigue spend", user=d.player, amount=0)


async def test_character_autocomplete_offers_the_callers_own_first(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aldo", d.player2), hero("Bree", d.player), hero("Brand", d.player2))
    choices = await d.autocomplete("fatigue spend", "character", "", user=d.player)
    assert [c["name"] for c in choices] == ["Bree", "Aldo", "Brand"]
    choices = await d.autocomplete("fatigue show", "character", "br", user=d.player2)
    assert [c["name"] for c in choices] == ["Brand", "Bree"]


async def test_fatigue_survives_a_restart(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=58))
    await d.slash("fatigue spend", user=d.player, amount=5)
    await d.slash("fatigue temp", user=d.gm, amount=4, minutes=7, character="Bree")
    await env.restart()
    reply = await d.slash("fatigue show", user=d.player)
    # 63 FP entered Exhausted; the grant lowers FP only to the cap's floor, 61, and pools 2.
    assert "61/100 FP" in reply.text
    assert "2 Temporary FP (until Day 1, 00:07)" in reply.text
    assert "Exhausted cap: FP ≥ 61" in reply.text
    state = await fatigue_of(env, "Bree")
    assert (state.fp, state.temp, state.exhausted_cap) == (61, 2, True)


async def test_a_phone_without_accents_still_finds_the_character(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bórin", d.player), hero("Odo", d.player2))
    reply = await d.type("/fatigue spend character:borin amount:2", user=d.player)
    assert not reply.ephemeral and "Bórin spends 2 FP" in reply.text
    assert (await fatigue_of(env, "Bórin")).fp == 2


async def test_a_typo_is_refused_with_a_suggestion_and_changes_nothing(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bórin", d.player), hero("Odo", d.player2))
    before = await snapshot(env)
    reply = await d.type("/fatigue spend character:Bron", user=d.player)
    assert reply.ephemeral and "did you mean Bórin?" in reply.content
    assert await snapshot(env) == before
