"""Fewer surprises, through the real client and a local Discord: the GM names several characters
wherever they may act on several (`/fatigue temp`, `recover`, `clear_vp` too); a player's
command without `character:` takes the character their commands use (`/rest` and `/init add`
too); a character kept out of the party (`/character set party:False`, a familiar or an NPC) is
left out of party-wide commands while it stays trackable."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from table import partyops
from table.model import Table
from tests.e2e.helpers import fatigue_of, hero, refused, seed


async def test_the_gm_grants_recovers_and_clears_for_several_at_once(env: Any) -> None:
    d = env.discord
    await seed(
        env,
        hero("Aria", d.player, fp=30, vp_damage=2),
        hero("Bórin", d.player2, fp=30, vp_damage=1),
        hero("Cole", d.player2, fp=30),
    )
    temp = await d.slash("fatigue temp", user=d.gm, amount=4, character="Aria, Bórin")
    assert temp.embed["title"] == "Aria and Bórin gain 4 Temporary FP each"
    assert [(await fatigue_of(env, n)).fp for n in ("Aria", "Bórin", "Cole")] == [26, 26, 30]
    recovered = await d.slash("fatigue recover", user=d.gm, amount=6, character="aria, Cole")
    assert recovered.embed["title"] == "Aria and Cole recover up to 6 FP"
    cleared = await d.slash("fatigue clear_vp", user=d.gm, character="Bórin, Aria")
    assert cleared.embed["title"] == "VP damage tallies cleared: Bórin and Aria"
    assert [(await fatigue_of(env, n)).vp_damage for n in ("Aria", "Bórin")] == [0, 0]
    offered = await d.autocomplete("fatigue temp", "character", "Aria, ", user=d.gm, amount=1)
    assert [c["value"] for c in offered] == ["Aria, Bórin", "Aria, Cole"]
    # One change each: one /undo takes the clearing back for both.
    await d.slash("undo", user=d.gm)
    assert [(await fatigue_of(env, n)).vp_damage for n in ("Aria", "Bórin")] == [2, 1]
    text = await refused(env, "fatigue temp", d.player, amount=1, character="Aria, Bórin")
    assert "Only the GM can grant Temporary FP" in text
    assert "named twice" in await refused(
        env, "fatigue temp", d.gm, amount=1, character="Aria, aria"
    )


async def test_a_players_rest_without_a_name_is_of_their_own_character(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player, fp=30, exhausted_cap=False), hero("Bórin", d.player2))
    clock = (await env.table()).clock
    rested = await d.slash("rest short", user=d.player)  # their only character
    assert not rested.ephemeral and rested.embed["title"].endswith(" Aria takes a Short Rest")
    assert (await fatigue_of(env, "Aria")).fp < 30
    assert (await fatigue_of(env, "Bórin")).settled == 0  # only hers
    assert (await env.table()).clock == clock  # one character resting alone: the clock stays
    # With two, the one they use; with none chosen, they are asked to choose.
    await seed(env, hero("Cato", d.player, fp=12))
    asked = await refused(env, "rest break", d.player)
    assert "several characters here (Aria, Cato)" in asked and "/character use" in asked
    await d.slash("character use", user=d.player, name="Cato")
    assert (
        (await d.slash("rest break", user=d.player)).embed["title"].endswith("Cato takes a Break")
    )
    # Nobody of their own: the party is the GM's to rest.
    outsider = await refused(env, "rest long", d.named_gm)
    assert "Only the GM can rest the whole party" in outsider
    party = await d.slash("rest long", user=d.gm)
    assert party.embed["title"] == "The party takes a Long Rest"
    # As everywhere a character may be named: /init add too.
    joined = await d.slash("init add", user=d.player2, score="7")
    assert "Bórin joins the initiative at 7" in joined.text


async def test_a_familiar_out_of_the_party_is_left_out_of_party_wide_commands(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player, fp=20), hero("Whiskers", d.player, fp=20))
    await d.slash("character use", user=d.player, name="Aria")
    assert (
        "Only the GM"
        not in (await d.slash("character set", user=d.player, name="Whiskers", party=False)).text
    )  # a player's own familiar: theirs to set
    sheet = await d.slash("character show", user=d.player, name="Whiskers")
    assert "Not in the party: party-wide commands leave it out" in sheet.text

    saves = await d.slash("save party", user=d.gm, kind="wsr", vs=3)
    assert "Aria" in saves.text and "Whiskers" not in saves.text
    spent = await d.slash("party spend", user=d.gm, amount=5)
    assert "Whiskers" not in spent.text
    assert [(await fatigue_of(env, n)).fp for n in ("Aria", "Whiskers")] == [25, 20]
    board = await d.slash("party show", user=d.player)
    names = [f["name"] for f in board.embed["fields"]]
    assert (
        names[0] == "🟡 Aria — Fatigued" and names[-1] == "🟢 Whiskers — Fresh · not in the party"
    )
    rested = await d.slash("rest long", user=d.gm)
    assert "Whiskers" not in rested.text
    assert [(await fatigue_of(env, n)).fp for n in ("Aria", "Whiskers")] == [0, 20]
    # Still trackable on its own.
    await d.slash("fatigue spend", user=d.player, character="Whiskers", amount=2)
    assert (await fatigue_of(env, "Whiskers")).fp == 22
    history = (await d.slash("history", user=d.player)).embed["description"]
    assert "character set · Whiskers in the party on → off" in history
    # Back in the party, it is in the party's commands again.
    await d.slash("character set", user=d.gm, name="Whiskers", party=True)
    assert "Whiskers" in (await d.slash("party spend", user=d.gm, amount=1)).text
    # Nobody in the party at all: said plainly.
    for name in ("Aria", "Whiskers"):
        await d.slash("character set", user=d.gm, name=name, party=False)
    assert "Nobody here is in the party" in await refused(env, "party spend", d.gm, amount=1)
    assert "Nobody here is in the party" in await refused(env, "save party", d.gm, kind="tsr", vs=2)


async def test_a_familiars_time_passes_while_the_party_rests(env: Any) -> None:
    """Out of the party, it doesn't rest; but the rest's minutes pass for it: Temporary FP
    that expired fades by them, as a clock pass would."""
    d = env.discord
    familiar = replace(hero("Whiskers", d.player, fp=10, temp=5, temp_expires=0), in_party=False)
    await seed(env, hero("Aria", d.player, fp=20), familiar)
    passed, __ = partyops.pass_minutes(Table(1, None, characters=(familiar,)), 3)
    await d.slash("rest minutes", user=d.gm, minutes=3)
    whiskers = await fatigue_of(env, "Whiskers")
    assert whiskers == passed.get("Whiskers").fatigue != familiar.fatigue  # time passed alone
