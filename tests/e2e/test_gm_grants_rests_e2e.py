"""Lowering FP is the GM's to grant: `/fatigue temp` is the GM's alone, and a player's own
`/rest` is refused mid-fight (an initiative running) or where `player_rests:gm` is set."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import fatigue_of, hero, refused, seed
from tests.localdiscord.world import speaking

pytestmark = pytest.mark.asyncio

KINDS = [
    ("rest break", {}),
    ("rest short", {}),
    ("rest long", {}),
    ("rest minutes", {"minutes": 5}),
]


async def test_fatigue_temp_is_the_gms(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player, fp=30))
    text = await refused(env, "fatigue temp", d.player, amount=4)
    assert "Only the GM can grant Temporary FP" in text
    granted = await d.slash("fatigue temp", user=d.gm, amount=4, character="Aria")
    assert not granted.ephemeral
    assert (await fatigue_of(env, "Aria")).fp == 26


async def test_a_player_rests_by_default(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player, fp=60))
    rested = await d.slash("rest long", user=d.player, character="Aria")
    assert not rested.ephemeral and "Aria takes a Long Rest" in rested.text
    assert (await fatigue_of(env, "Aria")).fp == 0


@pytest.mark.parametrize(("command", "options"), KINDS)
async def test_no_players_own_rest_mid_fight(
    env: Any, command: str, options: dict[str, Any]
) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player, fp=60))
    await d.slash("init add", user=d.player, name="Aria", score="12")
    await d.slash("init add", user=d.gm, name="Goblin", score="9")
    await d.slash("init start", user=d.gm)
    text = await refused(env, command, d.player, character="Aria", **options)
    assert "A fight is running here" in text and "`/init end`" in text
    assert (await fatigue_of(env, "Aria")).fp == 60
    # The GM may rest anyone, fight or not; after the fight, the player may again.
    await d.slash("rest break", user=d.gm, character="Aria")
    await d.slash("init end", user=d.gm)
    rested = await d.slash(command, user=d.player, character="Aria", **options)
    assert not rested.ephemeral


async def test_an_initiative_not_yet_started_is_no_fight(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player, fp=60))
    await d.slash("init add", user=d.player, name="Aria", score="12")
    rested = await d.slash("rest short", user=d.player, character="Aria")
    assert not rested.ephemeral


async def test_player_rests_gm_leaves_every_rest_to_the_gm(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player, fp=60))
    changed = await d.type("/settings set player_rests:gm", user=d.gm)
    assert "**Player rests**: **the GM grants every rest**" in changed.text  # what changed
    assert (await env.table()).settings.player_rests == "gm"
    text = await refused(env, "rest long", d.player, character="Aria")
    assert "the GM grants rests" in text
    granted = await d.slash("rest long", user=d.gm, character="Aria")
    assert not granted.ephemeral and (await fatigue_of(env, "Aria")).fp == 0
    shown = await d.slash("settings show", user=d.player)
    assert "**Player rests**: the GM grants every rest · *set here*" in shown.text
    await d.slash("undo", user=d.gm)  # the GM's rest
    await d.slash("undo", user=d.gm)  # the setting
    assert (await env.table()).settings.player_rests == "allowed"


async def test_a_server_sets_player_rests_for_its_channels(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player, fp=60))
    await d.type("/settings server player_rests:gm", user=d.owner)
    text = await refused(env, "rest minutes", d.player, character="Aria", minutes=5)
    assert "the GM grants rests" in text
    await d.type("/settings set player_rests:allowed", user=d.gm)  # the channel's own wins
    rested = await d.slash("rest minutes", user=d.player, character="Aria", minutes=5)
    assert not rested.ephemeral


async def test_player_rests_in_spanish(env: Any) -> None:
    d = env.discord
    changed = await d.type("/settings set player_rests:DJ", user=speaking(d.gm, "es-ES"))
    assert "el DJ otorga cada descanso" in changed.text
    assert (await env.table()).settings.player_rests == "gm"


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_help_shows_every_settings_option_whole(env: Any, locale: str) -> None:
    d = env.discord
    page = await d.slash(
        "help", user=speaking(d.player, locale), options={"command": "settings set"}
    )
    options = [f["value"] for f in page.embed["fields"][:-2]]  # then the example and where
    lines = "\n".join(options).splitlines()
    wanted = ["player_rests", "init_dice", "monster_stats", "language", "reset"]
    assert [line.split("`")[1] for line in lines][-5:] == wanted
    assert not any(line.endswith("…") for line in lines)
