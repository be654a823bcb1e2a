"""A character's own TSR and WSR special modifiers: set with `/character create|set`, shown on
the sheet, part of every save it makes alone or in a party save, in history and undo."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import Scripted, fields, refused
from tests.localdiscord.commands import CommandLineError


def script(env: Any, *faces: int) -> None:
    env.bot.get_cog("Saves").rng = Scripted(faces)


async def test_special_modifiers_are_kept_shown_and_used_by_every_save(env: Any) -> None:
    d = env.discord
    made = await d.type(
        "/character create name:Aria level:5 fortitude:3 wisdom:10 kin_wsr:5 "
        "special_tsr:7 special_wsr:-12",
        user=d.player,
    )
    sheet = fields(await d.click(made, "Sheet", user=d.player))  # the sheet behind its button
    assert sheet["Stats"].endswith("Special TSR +7 · Special WSR −12")
    # TSR: Level 5 +25, Fortitude +3, kin 0, special +7 = +35; WSR: 25 + 10 + 5 − 12 = +28.
    assert sheet["TSR bonus"] == "**+35** (Level 5 +25 · stat +3 · kin +0 · special +7)"
    assert sheet["WSR bonus"] == "**+28** (Level 5 +25 · stat +10 · kin +5 · special −12)"
    await d.type("/character create name:Bo level:2 wisdom:1", user=d.player2)

    script(env, 50)
    alone = await d.slash("save tsr", user=d.player, dc=80)
    assert fields(alone)["Bonus"] == "Level 5 +25 · Fortitude +3 · Special +7 = +35"
    assert fields(alone)["Total"] == "**85**"
    script(env, 50)  # typed stat and kin still keep the character's own special modifier
    typed = await d.slash("save wsr", user=d.player, dc=80, stat=0, kin=0)
    assert fields(typed)["Bonus"] == "Level 5 +25 · Special −12 = +13"
    script(env, 50)
    again = await d.click(typed, "Roll again", user=d.player)
    assert fields(again)["Bonus"] == "Level 5 +25 · Special −12 = +13"

    script(env, 40, 40)  # Aria then Bo, in name order
    party = await d.slash("save party", user=d.gm, kind="wsr", dc=60)
    lines = party.embed["description"].splitlines()
    # Two lines each: the outcome, then the working.
    assert lines[2].startswith("╰ 40 +28 = 68 vs 60")
    assert lines[4].startswith("╰ 40 +11 = 51 vs 60")  # no special: 10 + 1


async def test_set_changes_a_special_modifier_with_history_and_undo(env: Any) -> None:
    d = env.discord
    await d.type("/character create name:Aria level:5", user=d.player)
    changed = await d.type("/character set name:Aria special_wsr:15", user=d.player)
    assert fields(changed)["WSR bonus"].startswith("**+40**")  # 25 + 15
    history = (await d.slash("history", user=d.player)).embed["description"]
    assert "Aria WSR special modifier 0 → 15" in history
    undone = await d.slash("undo", user=d.player)
    assert "Aria WSR special modifier 15 → 0" in undone.text
    assert (await env.table()).get("aria").special_wsr == 0


@pytest.mark.parametrize("value", [101, -101, 1000])
async def test_discord_refuses_a_special_modifier_outside_100(env: Any, value: int) -> None:
    d = env.discord
    await d.type("/character create name:Aria level:5", user=d.player)
    with pytest.raises(CommandLineError, match="between -100 and 100"):
        await d.slash("character set", user=d.player, name="Aria", special_tsr=value)
    with pytest.raises(CommandLineError, match="between -100 and 100"):
        await d.slash("character create", user=d.player, name="Bo", special_wsr=value)


async def test_a_player_cannot_set_another_players_special_modifier(env: Any) -> None:
    d = env.discord
    await d.type("/character create name:Aria level:5", user=d.player)
    text = await refused(env, "character set", d.player2, name="Aria", special_tsr=50)
    assert "only change your own characters" in text
