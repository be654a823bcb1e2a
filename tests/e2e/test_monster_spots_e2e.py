"""Hidden unarmored spots, `/monster reveal`, and the replies the rules texts ask for (Impervious
with extra armor, plain balance notes), through the real client and a local Discord."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import fields, refused, whispered
from tests.localdiscord.commands import CommandLineError

HARD_TO_HIT = "Hard to Hit: −2 to hit"


async def make_troll(env: Any, **options: Any) -> None:
    d = env.discord
    # Rank 3 Heavy: Defense 13; its back (square S while it faces N) meets only 6.
    await d.slash(
        "monster create",
        user=d.gm,
        name="Troll",
        rank=3,
        armor="heavy",
        hp=40,
        spots="back, left",
        **options,
    )
    await d.slash("monster appear", user=d.gm, name="Troll")  # the players see it


async def test_hidden_spots_show_only_as_a_count_until_the_gm_reveals_one(env: Any) -> None:
    d = env.discord
    await make_troll(env, easy_spots="left")
    table_before = await env.table()
    made = (await env.store.history(d.table.id, limit=2))[1]
    assert made.action == "monster create"

    # Every public display, and a player's own look, shows a count only.
    for reply in (
        await d.slash("monster show", user=d.player, name="Troll"),
        await d.slash("monster show", user=d.gm, name="Troll", public=True),
        await d.slash("monster face", user=d.gm, name="Troll", facing="N"),
    ):
        spots = fields(reply)["Partial armor"]
        assert spots.splitlines()[0] == "2 hidden unarmored spots", spots
        assert "back" not in spots and "left" not in spots
    # The GM's private look shows where they are and which are Hard to Hit.
    private = fields(await d.slash("monster show", user=d.gm, name="Troll"))
    lines = private["Partial armor: unarmored spots"].splitlines()
    assert lines[:2] == [
        f"back (square S) — {HARD_TO_HIT} — hidden from the players",
        "left (square W) — hidden from the players",
    ]
    # A player's autocomplete gives nothing away; the GM's offers the hidden spots.
    assert await d.autocomplete("monster reveal", "spot", "", user=d.player, name="Troll") == []
    offered = await d.autocomplete("monster reveal", "spot", "", user=d.gm, name="Troll")
    assert [c["value"] for c in offered] == ["back", "left"]

    # The GM may hit a hidden spot: half Defense all the same. The channel sees what it took;
    # which spot, only the GM, privately.
    hit = await d.slash("monster hit", user=d.gm, name="Troll", damage=20, **{"from": "S"})
    assert hit.embed["title"] == "Troll is hit"
    assert "back" not in hit.text and "unarmored" not in hit.text
    gm_copy = (await whispered(d, hit)).text
    assert "**14 taken**" in gm_copy  # 20 − ⌊13/2⌋
    assert f"its back, a hidden unarmored spot (half Defense; {HARD_TO_HIT})" in gm_copy
    easy = await whispered(
        d, await d.slash("monster hit", user=d.gm, name="Troll", damage=20, **{"from": "W"})
    )
    assert "its left, a hidden unarmored spot (half Defense)" in easy.text
    assert HARD_TO_HIT not in easy.text  # left was made easy to hit

    # Only the GM reveals, and then everyone sees that spot (the other stays a count).
    assert "Only the GM" in await refused(
        env, "monster reveal", d.player, name="Troll", spot="back"
    )
    shown = await d.slash("monster reveal", user=d.gm, name="troll", spot="Back")
    assert not shown.ephemeral and shown.embed["title"] == "Troll: its back spot is revealed"
    revealed = fields(shown)["Partial armor: unarmored spots"].splitlines()
    assert revealed[:2] == [f"back (square S) — {HARD_TO_HIT}", "1 more, hidden"]
    looked = await d.slash("monster show", user=d.player2, name="Troll")
    assert fields(looked)["Partial armor: unarmored spots"] == "\n".join(revealed)
    assert (await env.table()).get_monster("troll").block.spot("back").revealed
    assert (await env.table()).get_monster("troll").hp == 40 - 14 - 14

    # Mistakes change nothing and say why.
    text = await refused(env, "monster reveal", d.gm, name="Troll", spot="back")
    assert "already revealed" in text
    text = await refused(env, "monster reveal", d.gm, name="Troll", spot="front")
    assert "Troll has no unarmored spot at its front (its unarmored spots: back, left)" in text
    assert "Unknown spot 'tail'" in await refused(
        env, "monster reveal", d.gm, name="Troll", spot="tail"
    )
    with pytest.raises(CommandLineError, match="20"):
        await d.slash("monster reveal", user=d.gm, name="Troll", spot="x" * 21)

    # History says what happened, and /undo hides the spot again.
    history = (await d.slash("history", user=d.player)).embed["description"]
    assert "monster reveal · monster Troll back spot revealed" in history
    undone = await d.slash("undo", user=d.gm)
    assert undone.embed["title"] == "↩️ Undone: monster reveal"
    assert "monster Troll back spot hidden again" in undone.text
    troll = (await env.table()).get_monster("troll")
    assert troll.block.hidden_spots == 2 and troll.hp == 12
    assert troll.build == table_before.get_monster("troll").build


async def test_spot_options_are_checked_against_the_spots(env: Any) -> None:
    d = env.discord
    text = await refused(
        env,
        "monster create",
        d.gm,
        name="Imp",
        rank=1,
        armor="light",
        spots="back",
        revealed_spots="front",
    )
    assert "'front' is given as revealed but isn't one of the unarmored spots (back)" in text
    text = await refused(env, "monster-build", d.player, rank=1, armor="light", easy_spots="back")
    assert (
        text == "'back' is given as not Hard to Hit, but no unarmored spots are given: add `spots:`"
    )


async def test_impervious_with_extra_armor_keeps_the_armors_full_evasion_penalty(env: Any) -> None:
    d = env.discord
    await d.slash(
        "monster create",
        user=d.gm,
        name="Colossus",
        rank=4,
        armor="impervious",
        agility=5,
        extra_defense=6,
        extra_evasion=-2,
    )
    shown = fields(await d.slash("monster show", user=d.gm, name="Colossus"))
    # Impervious Rank 4: Defense 42, + half of 6; Evasion set to 0, then the full −2 applies.
    assert shown["Defense"] == "45"
    assert shown["Evasion"] == "−2 (set to 0 by Impervious, extra armor −2)"
    # One note says it (the Evasion field already shows the sum): "−2" isn't repeated there.
    assert shown["Notes"].count("−2") == 1, shown["Notes"]
    assert "Evasion penalty −2 (in full, even on Impervious)" in shown["Notes"]


@pytest.mark.parametrize(
    ("armor", "meaning"),
    [
        ("extreme", "attacks that deal twice their Trait in damage (2 × Trait)"),
        ("impervious", "attacks that deal three times their Trait in damage (3 × Trait)"),
    ],
)
async def test_balance_notes_say_what_2_x_trait_means(env: Any, armor: str, meaning: str) -> None:
    reply = await env.discord.slash("monster-build", user=env.discord.player, rank=2, armor=armor)
    assert f"Balance: to harm it, foes will likely need {meaning}" in fields(reply)["Notes"]


async def test_the_readme_build_example_does_what_it_says(env: Any) -> None:
    line = (
        "/monster-build rank:3 armor:heavy trade:2 agility:2 spots:back, left easy_spots:left "
        "armor_enchantments:1 2 weapon_enchantments:3 order:boss"
    )
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert f"`{line}`" in readme
    shown = fields(await env.discord.type(line, user=env.discord.player))
    # Heavy Rank 3: Defense 13, modifier −4; trade +2 → 15, −6; Evasion 10 + 2 − 6 = 6.
    assert (shown["Defense"], shown["Evasion"]) == ("15", "6 (Agility 2, modifier −6)")
    assert shown["Partial armor: unarmored spots"].splitlines()[:2] == [
        f"back — {HARD_TO_HIT} — hidden from the players",
        "left — hidden from the players",
    ]
    assert shown["Enchantments"] == "Armor: Rank 1, Rank 2 · Weapons: Rank 3"
    assert shown["Material drop"] == "13 Materials (Boss 10, +3 for enchantments)"


async def test_a_public_block_names_unarmored_spots_once(env: Any) -> None:
    """A phone shows the field's name over its value: 'unarmored spots' must not read twice."""
    d = env.discord
    await make_troll(env)
    for reply in (
        await d.slash("monster show", user=d.player, name="Troll"),
        await d.slash(
            "monster-build", user=d.player, rank=3, armor="heavy", spots="back", public=True
        ),
    ):
        spots = [f for f in reply.embed["fields"] if f["name"].startswith("Partial armor")]
        assert len(spots) == 1
        name, value = spots[0]["name"], spots[0]["value"]
        assert f"{name}\n{value}".count("unarmored spot") == 1, (name, value)
        assert value.splitlines()[0] in ("1 hidden unarmored spot", "2 hidden unarmored spots")
    # With one spot revealed, the other is counted without repeating the field's name.
    await d.slash("monster reveal", user=d.gm, name="Troll", spot="back")
    shown = await d.slash("monster show", user=d.player, name="Troll")
    lines = fields(shown)["Partial armor: unarmored spots"].splitlines()
    assert lines[:2] == [f"back (square S) — {HARD_TO_HIT}", "1 more, hidden"]


async def test_revealing_a_spot_a_monster_lacks_names_the_monster(env: Any) -> None:
    d = env.discord
    await d.slash("monster create", user=d.gm, name="Slime", rank=1, armor="unarmored")
    text = await refused(env, "monster reveal", d.gm, name="Slime", spot="back")
    assert text == "Slime has no unarmored spots"
