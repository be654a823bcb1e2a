"""/save tsr, /save wsr and /save party through the real client and the local Discord."""

from __future__ import annotations

from typing import Any

import pytest

from table.model import Character
from tests.e2e.helpers import Scripted, fields, seed, snapshot

pytestmark = pytest.mark.asyncio


def script(env: Any, *faces: int) -> Scripted:
    dice = Scripted(faces)
    env.bot.get_cog("Saves").rng = dice
    return dice


def aria(env: Any) -> Character:
    # WSR bonus: Level 5 +25, Wisdom +10, Kin +5 = +40; TSR: +25, Fortitude +3, Kin −2 = +26.
    return Character(
        "Aria", env.discord.player.id, level=5, fortitude=3, wisdom=10, kin_tsr=-2, kin_wsr=5
    )


def borin(env: Any) -> Character:
    # WSR bonus: Level 2 +10, Wisdom +1 = +11.
    return Character("Borin", env.discord.player2.id, level=2, wisdom=1, fortitude=8)


async def test_wsr_fills_in_from_the_callers_character(env: Any) -> None:
    await seed(env, aria(env), borin(env))
    script(env, 97, 99, 43)
    reply = await env.discord.type("/save wsr vs:7", user=env.discord.player)
    assert not reply.ephemeral
    assert reply.embed["title"] == "Aria — Willpower Save Roll: ✅ Success"
    shown = fields(reply)
    assert shown["Roll"] == "97 → +99 → +43 = 239"
    assert shown["Bonus"] == "Level 5 +25 · Wisdom +10 · Kin +5 = +40"
    assert shown["Total"] == "**279**"
    assert shown["Difficulty"] == "Attack Level 7 → 85"
    assert shown["Margin"] == "+194"
    assert shown["Chance before the roll"].endswith("% to succeed")


async def test_tsr_uses_fortitude_and_options_override(env: Any) -> None:
    await seed(env, aria(env))
    script(env, 30)
    reply = await env.discord.slash(
        "save tsr", user=env.discord.player, dc=70, level=10, mod=-5, per=4
    )
    # Level 10 +50, Fortitude +3, Kin −2, Modifier −5: 30 + 46 = 76 against DC 70.
    assert reply.embed["title"] == "Aria — Toughness Save Roll: ✅ Success"
    shown = fields(reply)
    assert shown["Bonus"] == "Level 10 +50 · Fortitude +3 · Kin −2 · Modifier −5 = +46"
    assert (shown["Total"], shown["Margin"]) == ("**76**", "+6")
    assert shown["Points of failure"] == "0 (per 4)"


async def test_without_a_character_the_numbers_given_are_used(env: Any) -> None:
    script(env, 42)
    reply = await env.discord.type("/save tsr level:3 dc:70 stat:5", user=env.discord.player)
    # 42 + 15 + 5 = 62 against 70: fails by 8.
    assert reply.embed["title"] == "Toughness Save Roll: ❌ Failure"
    shown = fields(reply)
    assert (shown["Total"], shown["Margin"], shown["Difficulty"]) == ("**62**", "−8", "DC 70")


async def test_a_spell_sets_the_difficulty(env: Any) -> None:
    script(env, 10)
    reply = await env.discord.slash("save wsr", user=env.discord.gm, level=1, spell=120)
    assert fields(reply)["Difficulty"] == "Spell cast 120 → 75"
    assert fields(reply)["Total"] == "**15**"


async def test_a_named_character_can_be_rolled_by_anyone(env: Any) -> None:
    await seed(env, aria(env), borin(env))
    script(env, 60)
    reply = await env.discord.slash("save wsr", user=env.discord.player, vs=1, character="borin")
    assert reply.embed["title"] == "Borin — Willpower Save Roll: ✅ Success"
    assert fields(reply)["Total"] == "**71**"  # 60 + 11 against 55


async def test_character_autocomplete_lists_the_channel(env: Any) -> None:
    await seed(env, aria(env), borin(env))
    choices = await env.discord.autocomplete("save wsr", "character", "", user=env.discord.player2)
    assert [c["name"] for c in choices] == ["Borin", "Aria"]  # the caller's own first


@pytest.mark.parametrize(("ties", "outcome"), [("fail", "❌ Failure"), ("succeed", "✅ Success")])
async def test_ties_follow_the_channel_setting(env: Any, ties: str, outcome: str) -> None:
    await seed(env, aria(env), ties=ties)
    script(env, 45)  # 45 + 40 = 85 against Attack Level 7's 85
    reply = await env.discord.type("/save wsr vs:7", user=env.discord.player)
    assert reply.embed["title"].endswith(outcome)
    assert fields(reply)["Margin"] == "+0"


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("/save wsr level:3", "Say what the save is against"),
        ("/save wsr level:3 vs:2 dc:60", "only one of `vs:`, `dc:` or `spell:`"),
        ("/save tsr level:3 dc:60 spell:100", "(you gave `dc:` and `spell:`)"),
        ("/save wsr level:3 spell:50", "partial success"),
        ("/save wsr level:3 spell:20", "spell failure"),
        ("/save wsr vs:3", "Give the defender's `level:`"),
        ("/save wsr vs:3 character:Nobody", "No character named 'Nobody'"),
    ],
)
async def test_bad_saves_are_private_errors_and_change_nothing(
    env: Any, line: str, says: str
) -> None:
    await seed(env, borin(env))  # the player (pippa) has no character here
    before = await snapshot(env)
    script(env)  # no dice: an error must come before any roll
    reply = await env.discord.type(line, user=env.discord.player)
    assert reply.ephemeral
    assert says in reply.content
    assert not reply.embeds
    assert await snapshot(env) == before


async def test_party_rolls_for_everyone(env: Any) -> None:
    await seed(env, aria(env), borin(env))
    script(env, 50, 30)  # Aria first (names sorted), then Borin
    reply = await env.discord.type("/save party kind:wsr vs:3 per:5", user=env.discord.gm)
    assert not reply.ephemeral
    assert reply.embed["title"] == "Party Willpower Save Roll: 1 of 2 succeed"
    lines = reply.embed["description"].splitlines()
    assert lines[0] == "vs **Attack Level 3 → 65** · PoF per 5"
    # Aria 50 + 40 = 90 > 65; Borin 30 + 11 = 41, short by 24 → 5 points of failure.
    assert lines[1:3] == ["✅ **Aria** succeeds · margin **+25**", lines[2]]
    assert lines[2].startswith("╰ 50 +40 = 90 vs 65 · ")
    assert lines[3] == "❌ **Borin** fails · margin **−24** · PoF **5**"
    assert lines[4].startswith("╰ 30 +11 = 41 vs 65 · ")


async def test_party_is_for_the_gm_only(env: Any) -> None:
    await seed(env, aria(env))
    before = await snapshot(env)
    script(env)
    reply = await env.discord.slash("save party", user=env.discord.player, kind="tsr", dc=50)
    assert reply.ephemeral
    assert "Only the GM" in reply.content
    assert await snapshot(env) == before


async def test_party_needs_characters(env: Any) -> None:
    script(env)
    reply = await env.discord.slash("save party", user=env.discord.gm, kind="tsr", vs=2)
    assert reply.ephemeral
    assert "no characters in this channel" in reply.content


async def test_party_needs_one_difficulty(env: Any) -> None:
    await seed(env, aria(env))
    script(env)
    reply = await env.discord.slash("save party", user=env.discord.gm, kind="wsr")
    assert reply.ephemeral
    assert "Say what the save is against" in reply.content


async def test_a_gm_without_a_character_is_pointed_to_character(env: Any) -> None:
    await seed(env, borin(env))
    before = await snapshot(env)
    script(env)
    reply = await env.discord.type("/save wsr vs:3", user=env.discord.gm)
    assert reply.ephemeral and "say whose save it is with `character:`" in reply.content
    assert "/character create" not in reply.content  # the GM has no need to make one
    assert await snapshot(env) == before


async def test_in_an_empty_channel_the_hint_is_to_make_a_character(env: Any) -> None:
    script(env)
    reply = await env.discord.type("/save wsr vs:3", user=env.discord.player)
    assert reply.ephemeral and "`/character create`" in reply.content
