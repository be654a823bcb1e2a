"""`/monster create|show|list|remove|face|hit` and `/monster-build` through the real client
and a local Discord."""

from __future__ import annotations

from typing import Any

import pytest

from table.snapshot import restore
from tests.e2e.helpers import refused, whispered
from tests.localdiscord.commands import CommandLineError
from tests.localdiscord.reply import Reply

# docs/rules.md#41-defense-table, typed in: Defense by Rank (rows) and armor level (columns),
# then each level's Evasion modifier (None: Impervious sets Evasion to 0).
ARMORS = ("unarmored", "civilian", "light", "medium", "heavy", "extreme", "impervious")
DEFENSE = {
    0: (0, 0, 2, 4, 6, 8, 10),
    1: (0, 2, 4, 6, 8, 12, 18),
    2: (0, 3, 6, 8, 10, 16, 26),
    3: (0, 4, 8, 10, 13, 20, 34),
    4: (0, 5, 10, 12, 16, 24, 42),
    5: (0, 6, 12, 14, 20, 32, 50),
}
EVASION = (0, 0, 0, -2, -4, -6, None)
HARD_TO_HIT = "Hard to Hit: −2 to hit"
# Where a monster's back-left spot lies for each facing (turn the compass with it):
# facing N, its back is S and its left W, so back-left is SW.
BACK_LEFT_SQUARE = {
    "N": "SW",
    "NE": "W",
    "E": "NW",
    "SE": "N",
    "S": "NE",
    "SW": "E",
    "W": "SE",
    "NW": "S",
}
SQUARES = tuple(BACK_LEFT_SQUARE)


def minus(n: int) -> str:
    return f"−{-n}" if n < 0 else str(n)


def maybe_field(reply: Reply, name: str) -> str | None:
    found = [f["value"] for f in reply.embed.get("fields") or [] if f["name"].startswith(name)]
    return found[0] if found else None


def field(reply: Reply, name: str) -> str:
    value = maybe_field(reply, name)
    assert value is not None, f"no {name!r} field in {reply.text!r}"
    return value


async def build(env: Any, **options: Any) -> Reply:
    reply = await env.discord.slash("monster-build", user=env.discord.player, **options)
    assert reply.embeds, reply.text
    return reply


# --- /monster-build ------------------------------------------------------------------------


async def test_build_gives_the_table_for_every_rank_and_armor(env: Any) -> None:
    for rank, row in DEFENSE.items():
        for armor, defense, modifier in zip(ARMORS, row, EVASION, strict=True):
            reply = await build(env, rank=rank, armor=armor)
            assert reply.ephemeral  # a private answer unless asked otherwise
            assert reply.embed["title"] == f"Rank {rank} {armor.title()} monster"
            assert field(reply, "Defense") == str(defense), (rank, armor)
            evasion = "Set to 0 (Impervious)" if modifier is None else f"modifier {minus(modifier)}"
            assert field(reply, "Evasion") == evasion, (rank, armor)
            assert field(reply, "Material drop") == "2 Materials (Normal 2)"
            assert (
                maybe_field(reply, "Warnings") is None
                and maybe_field(reply, "Partial armor") is None
            )
            notes = maybe_field(reply, "Notes") or ""
            assert ("(2 × Trait)" in notes) == (armor == "extreme")
            assert ("(3 × Trait)" in notes) == (armor == "impervious")
    assert await env.store.history(env.discord.table.id) == []  # nothing is stored


async def test_build_can_be_public_and_shows_evasion_from_agility(env: Any) -> None:
    reply = await build(env, rank=2, armor="medium", agility=3, public=True)
    assert not reply.ephemeral
    assert field(reply, "Evasion") == "11 (Agility 3, modifier −2)"  # 10 + 3 − 2
    reply = await build(env, rank=2, armor="light", agility=-4)
    assert field(reply, "Evasion") == "6 (Agility −4, modifier 0)"
    reply = await build(env, rank=2, armor="impervious", agility=3)
    assert field(reply, "Evasion") == "Set to 0 (Impervious)"


@pytest.mark.parametrize(
    ("rank", "armor", "trade", "defense", "modifier"),
    [
        (3, "heavy", 2, 15, -6),  # +2 Defense, −2 more Evasion
        (3, "heavy", -4, 9, 0),  # all the penalty traded back
        (0, "unarmored", 3, 3, -3),  # a trade can start from nothing
        (5, "extreme", -6, 26, 0),
        (1, "light", 1, 5, -1),
    ],
)
async def test_build_trades_defense_for_evasion(
    env: Any, rank: int, armor: str, trade: int, defense: int, modifier: int
) -> None:
    reply = await build(env, rank=rank, armor=armor, trade=trade)
    assert field(reply, "Defense") == str(defense)
    assert field(reply, "Evasion") == f"modifier {minus(modifier)}"
    assert f"trade {'+' if trade > 0 else ''}{minus(trade)} Defense" in field(reply, "Armor")


async def test_build_refuses_impossible_trades(env: Any) -> None:
    text = await refused(env, "monster-build", env.discord.gm, rank=3, armor="heavy", trade=-5)
    assert "down to −4 at most" in text
    text = await refused(env, "monster-build", env.discord.gm, rank=2, armor="light", trade=-1)
    assert "Trade must be 0 or more" in text  # modifier 0 already: nothing to trade back
    text = await refused(env, "monster-build", env.discord.gm, rank=4, armor="impervious", trade=1)
    assert "Impervious" in text and "already set to 0" in text
    with pytest.raises(CommandLineError, match="between -50 and 50"):
        await env.discord.slash(
            "monster-build", user=env.discord.gm, rank=1, armor="light", trade=99
        )


@pytest.mark.parametrize(
    ("rank", "armor", "options", "defense", "evasion"),
    [
        # non-Unarmored: half the extra Defense (rounded down), its full Evasion penalty
        (2, "light", {"extra_defense": 5, "extra_evasion": -2}, "8", "modifier −2"),
        (3, "medium", {"extra_defense": 4, "extra_evasion": -1}, "12", "modifier −3"),
        (1, "civilian", {"extra_defense": 1}, "2", "modifier 0"),  # half of 1 is 0
        # Unarmored: the extra armor counts in full
        (2, "unarmored", {"extra_defense": 5, "extra_evasion": -2}, "5", "modifier −2"),
        # a trade, then the extra armor on top
        (3, "medium", {"trade": 1, "extra_defense": 3, "extra_evasion": -1}, "12", "modifier −4"),
        # Impervious: Evasion set to 0, and the extra armor's full penalty still applies
        (
            2,
            "impervious",
            {"extra_defense": 4, "extra_evasion": -3},
            "28",
            "−3 (set to 0 by Impervious, extra armor −3)",
        ),
        (5, "impervious", {"extra_defense": 9}, "54", "Set to 0 (Impervious)"),
    ],
)
async def test_build_with_extra_armor(
    env: Any, rank: int, armor: str, options: dict[str, int], defense: str, evasion: str
) -> None:
    reply = await build(env, rank=rank, armor=armor, **options)
    assert (field(reply, "Defense"), field(reply, "Evasion")) == (defense, evasion)
    assert "Extra armor" in field(reply, "Notes")


async def test_build_names_each_unarmored_spot_with_hard_to_hit(env: Any) -> None:
    reply = await build(env, rank=2, armor="heavy", spots="Back Left, back")
    lines = field(reply, "Partial armor").splitlines()
    # clockwise from the front, each with its reminder; a private draft shows hidden ones
    hidden = " — hidden from the players"
    assert lines[:2] == [f"back — {HARD_TO_HIT}{hidden}", f"back-left — {HARD_TO_HIT}{hidden}"]
    assert "half Defense" in lines[2]
    reply = await build(env, rank=2, armor="heavy", spots="front right left")
    assert field(reply, "Partial armor").count(HARD_TO_HIT) == 2  # front-right, left
    reply = await build(
        env, rank=2, armor="heavy", spots="back, left", easy_spots="left", revealed_spots="left"
    )
    assert field(reply, "Partial armor").splitlines()[:2] == [
        f"back — {HARD_TO_HIT}{hidden}",
        "left",
    ]
    public = await build(env, rank=2, armor="heavy", spots="back, left", public=True)
    assert field(public, "Partial armor").splitlines()[0] == "2 hidden unarmored spots"
    assert "back" not in field(public, "Partial armor")
    text = await refused(env, "monster-build", env.discord.gm, rank=2, armor="heavy", spots="tail")
    assert "Unknown spot 'tail'" in text and "back-left" in text
    text = await refused(
        env, "monster-build", env.discord.gm, rank=2, armor="heavy", spots="back, back"
    )
    assert "listed twice" in text


async def test_spots_autocomplete_completes_the_last_spot(env: Any) -> None:
    d = env.discord
    choices = await d.autocomplete(
        "monster-build", "spots", "back, fr", user=d.player, rank=1, armor="light"
    )
    assert [c["value"] for c in choices] == [
        "back, front",
        "back, front-right",
        "back, front-left",
    ]
    choices = await d.autocomplete("monster-build", "spots", "", user=d.player, rank=1)
    assert len(choices) == 8


async def test_build_enchantments_and_material_drop(env: Any) -> None:
    reply = await build(
        env,
        rank=2,
        armor="light",
        armor_enchantments="1 2",
        weapon_enchantments="2",
        order="heavy",
    )
    assert field(reply, "Enchantments") == "Armor: Rank 1, Rank 2 · Weapons: Rank 2"
    assert field(reply, "Material drop") == "6 Materials (Heavy 3, +3 for enchantments)"
    assert "3 enchantments on a Rank 2 monster" in field(reply, "Warnings")  # allowed, warned
    assert reply.embed["color"] != (await build(env, rank=2, armor="light")).embed["color"]
    # Weapon enchantments have no cap of their own: three on the armor and four on weapons.
    reply = await build(
        env, rank=5, armor="heavy", armor_enchantments="5 5 5", weapon_enchantments="1 2 3 4"
    )
    assert field(reply, "Material drop") == "9 Materials (Normal 2, +7 for enchantments)"
    assert "7 enchantments on a Rank 5 monster: the rules recommend at most 5" in field(
        reply, "Warnings"
    )
    reply = await build(env, rank=0, armor="light", weapon_enchantments="0")
    assert "1 enchantment on a Rank 0 monster: the rules recommend none" in field(reply, "Warnings")
    reply = await build(env, rank=1, armor="light", armor_enchantments="1", order="boss")
    assert field(reply, "Material drop") == "11 Materials (Boss 10, +1 for enchantments)"
    assert maybe_field(reply, "Warnings") is None  # one enchantment on Rank 1 is within guidance
    for order, drop in (("normal", 2), ("miniboss", 5)):
        reply = await build(env, rank=0, armor="light", order=order)
        assert field(reply, "Material drop").startswith(f"{drop} Materials")


@pytest.mark.parametrize(
    ("rank", "where", "enchantments", "message"),
    [
        (2, "armor", "3", "above the monster's Rank 2: its enchantments may be Rank 0 to 2"),
        (2, "weapon", "1 3", "Enchantment Rank 3 is above the monster's Rank 2"),
        (5, "armor", "1 1 1 1", "at most 3 armor enchantments (4 given)"),
        (2, "armor", "1 x", "'x' isn't an enchantment Rank"),
        (2, "weapon", "-1", "Enchantment Rank must be 0 or more"),
        (0, "weapon", "1", "a Rank 0 monster's enchantments can only be Rank 0"),
    ],
)
async def test_bad_enchantments_are_refused_privately(
    env: Any, rank: int, where: str, enchantments: str, message: str
) -> None:
    text = await refused(
        env,
        "monster-build",
        env.discord.player,
        rank=rank,
        armor="light",
        **{f"{where}_enchantments": enchantments},
    )
    assert message in text and "0 to 0" not in text


async def test_discord_itself_bounds_the_armor_enchantments_text(env: Any) -> None:
    with pytest.raises(CommandLineError, match="24"):
        await env.discord.slash(
            "monster-build",
            user=env.discord.gm,
            rank=5,
            armor="light",
            armor_enchantments="1 " * 13,
        )


# --- the bestiary --------------------------------------------------------------------------


async def test_bestiary_create_show_list_face_hit_remove(env: Any) -> None:
    d = env.discord
    # A table that shows its monsters' numbers (tests/e2e/test_monster_secrets_e2e.py: hidden).
    await d.slash("settings set", user=d.gm, monster_stats="shown")
    made = await d.slash(
        "monster create",
        user=d.gm,
        name="Cave Troll",
        rank=3,
        armor="heavy",
        hp=30,
        spots="back",
        revealed_spots="back",
        weapon_enchantments="2",
        order="miniboss",
    )
    # The GM alone reads it: a monster made is behind the GM's screen until it appears.
    assert made.ephemeral and made.embed["title"] == "Created Cave Troll"
    assert "Behind your screen" in made.embed["description"]
    assert field(made, "Defense") == "13" and field(made, "HP") == "30 / 30"
    assert field(made, "Facing") == "N"
    assert f"back (square S) — {HARD_TO_HIT}" in field(made, "Partial armor")
    assert field(made, "Material drop").startswith("6 Materials")
    troll = (await env.table()).get_monster("cave troll")
    assert (troll.hp, troll.hp_max, troll.facing) == (30, 30, "N")
    assert troll.build["rank"] == 3
    assert troll.build["spots"] == [{"spot": "back", "hard_to_hit": True, "revealed": True}]

    await d.slash("monster create", user=d.gm, name="Goblin", rank=0, armor="light")
    assert "No monster named" in await refused(env, "monster show", d.player, name="CAVE TROLL")
    for name in ("Cave Troll", "Goblin"):
        appeared = await d.slash("monster appear", user=d.gm, name=name)
        assert not appeared.ephemeral and appeared.embed["title"] == f"👁️ {name} appears"
    shown = await d.slash("monster show", user=d.player, name="CAVE TROLL")
    assert shown.ephemeral and shown.embed["title"] == "Cave Troll"
    assert field(shown, "Defense") == "13" and field(shown, "Enchantments") == "Weapons: Rank 2"
    listed = await d.slash("monster list", user=d.player2, public=True)
    assert not listed.ephemeral
    lines = listed.embed["description"].splitlines()
    assert lines[0].startswith("**Cave Troll** · Heavy, Rank 3 · Defense 13 · facing N")
    assert lines[0].endswith("HP 30 / 30")
    assert lines[1] == "**Goblin** · Light, Rank 0 · Defense 2 · facing N"

    turned = await d.slash("monster face", user=d.gm, name="cave troll", facing="E")
    assert turned.embed["title"] == "Cave Troll now faces E"
    assert "back (square W)" in field(turned, "Partial armor")

    armored = await d.slash("monster hit", user=d.gm, name="Cave Troll", damage=20, **{"from": "E"})
    assert armored.embed["title"] == "Cave Troll takes 7"  # 20 − 13
    # The channel is told only of spots it knows: not an armored one (nor a hidden one).
    assert "From square E\n" in armored.text and "its front" not in armored.text
    assert "Damage 20 − Defense 13" in armored.text and "HP 30 → 23 / 30" in armored.text
    soft = await d.slash("monster hit", user=d.gm, name="Cave Troll", damage=20, **{"from": "W"})
    assert soft.embed["title"] == "Cave Troll takes 14"  # 20 − ⌊13/2⌋
    assert "its back, an unarmored spot" in soft.text and HARD_TO_HIT in soft.text
    assert "HP 23 → 9 / 30" in soft.text
    down = await d.slash("monster hit", user=d.gm, name="Cave Troll", damage=25)
    assert down.embed["title"] == "Cave Troll takes 12"
    assert "HP 9 → −3 / 30 — **defeated**" in down.text  # the killing blow's overkill shows
    for _ in range(2):  # a further hit says so, and counts nothing down
        again = await d.slash("monster hit", user=d.gm, name="Cave Troll", damage=3)
        assert again.embed["title"] == "Cave Troll is already defeated"
        assert "HP −3 / 30 — **defeated**: a further hit changes nothing" in again.text
    assert (await env.table()).get_monster("Cave Troll").hp == -3
    shown = await d.slash("monster show", user=d.player, name="Cave Troll")
    assert field(shown, "HP") == "−3 / 30 — **defeated**"

    prompt = await d.slash("monster remove", user=d.gm, name="goblin")
    assert prompt.ephemeral and prompt.embed["title"] == "Remove Goblin?"
    gone = await d.click(prompt, "Remove", user=d.gm)
    assert gone.embed["title"] == "Removed Goblin"
    assert [m.name for m in (await env.table()).monsters] == ["Cave Troll"]
    history = await env.store.history(d.table.id, limit=100)
    assert [e.action for e in reversed(history)] == [
        "settings set",
        "monster create",
        "monster create",
        "monster appear",
        "monster appear",
        "monster face",
        *["monster hit"] * 3,  # hits on a monster already defeated change and log nothing
        "monster remove",
    ]
    assert all(e.actor_id == d.gm.id for e in history)
    empty = await d.slash("monster list", user=d.player)
    assert "Cave Troll" in empty.embed["description"]


async def test_facing_and_attack_square_find_the_spot(env: Any) -> None:
    d = env.discord
    await d.slash("settings set", user=d.gm, monster_stats="shown")  # the numbers, told
    # Rank 3 Heavy: Defense 13, so a 20-damage hit takes 7, or 14 on the unarmored spot.
    await d.slash(
        "monster create",
        user=d.gm,
        name="Wyrm",
        rank=3,
        armor="heavy",
        spots="back-left",
        revealed_spots="back-left",
    )
    for facing, spot_square in BACK_LEFT_SQUARE.items():
        turned = await d.slash("monster face", user=d.gm, name="Wyrm", facing=facing)
        assert f"back-left (square {spot_square})" in field(turned, "Partial armor")
        for square in SQUARES:
            hit = await d.slash(
                "monster hit", user=d.gm, name="Wyrm", damage=20, **{"from": square}
            )
            expected = 14 if square == spot_square else 7
            assert hit.embed["title"] == f"Wyrm takes {expected}", (facing, square)
            assert ("an unarmored spot" in hit.text) == (square == spot_square)
            assert "HP not tracked" in hit.text
    assert (await env.table()).get_monster("wyrm").facing == "NW"


async def test_damage_is_at_least_one_and_half_defense_on_a_spot(env: Any) -> None:
    d = env.discord
    await d.slash("settings set", user=d.gm, monster_stats="shown")  # the numbers, told
    await d.slash("monster create", user=d.gm, name="Golem", rank=5, armor="heavy", spots="front")
    # Defense 20; the front (square N while it faces N) meets only 10.
    cases = [(5, None, 1), (21, None, 1), (25, None, 5), (5, "N", 1), (13, "N", 3), (13, "S", 1)]
    for damage, square, taken in cases:
        options = {} if square is None else {"from": square}
        hit = await d.slash("monster hit", user=d.gm, name="Golem", damage=damage, **options)
        assert hit.embed["title"] == f"Golem takes {taken}", (damage, square)
        assert ("From square" in hit.text) == (square is not None)
    await d.slash("settings set", user=d.gm, monster_stats="hidden")  # the numbers, the GM's
    await d.slash("monster create", user=d.gm, name="Rat", rank=0, armor="unarmored", hp=3)
    hit = await d.slash("monster hit", user=d.gm, name="Rat", damage=2, **{"from": "S"})
    assert hit.embed["title"] == "Rat is hit" and "Now badly hurt" in hit.text
    assert "2" not in hit.text
    copy = await whispered(d, hit)  # the GM's copy
    assert copy.embed["title"] == "Rat takes 2" and "HP 3 → 1 / 3" in copy.text


async def test_players_can_look_but_not_change(env: Any) -> None:
    d = env.discord
    await d.slash("monster create", user=d.gm, name="Ogre", rank=2, armor="medium", hp=12)
    for command, options in (
        ("monster create", {"name": "Imp", "rank": 1, "armor": "light"}),
        ("monster remove", {"name": "Ogre"}),
        ("monster face", {"name": "Ogre", "facing": "S"}),
        ("monster hit", {"name": "Ogre", "damage": 30}),
    ):
        text = await refused(env, command, d.player, **options)
        assert "Only the GM" in text
    assert "No monster named 'ogre'" in await refused(env, "monster show", d.player, name="ogre")
    await d.slash("monster appear", user=d.gm, name="Ogre")
    assert (await d.slash("monster show", user=d.player, name="ogre")).embeds
    assert (await env.table()).get_monster("Ogre").hp == 12


async def test_bestiary_mistakes_change_nothing(env: Any) -> None:
    d = env.discord
    await d.slash("monster create", user=d.gm, name="Ogre", rank=2, armor="medium", hp=12)
    text = await refused(env, "monster create", d.gm, name=" ogre ", rank=1, armor="light")
    assert "already a monster named 'Ogre'" in text and "`/monster remove`" in text
    assert "No monster named 'Orc'" in await refused(env, "monster hit", d.gm, name="Orc", damage=3)
    assert "here: Ogre" in await refused(env, "monster face", d.gm, name="Orc", facing="N")
    assert "No monster" in await refused(env, "monster show", d.player, name="Orc")
    text = await refused(
        env, "monster create", d.gm, name="Bad", rank=1, armor="light", armor_enchantments="4"
    )
    assert "above the monster's Rank 1" in text
    text = await refused(
        env,
        "monster create",
        d.gm,
        name="Lich",
        rank=5,
        armor="light",
        armor_enchantments="1 2 3 4",
        weapon_enchantments="5",
    )
    assert "at most 3 armor enchantments (4 given)" in text
    assert (await env.table()).find_monster("Lich") is None
    text = await refused(env, "monster create", d.gm, name="@everyone", rank=1, armor="light")
    assert "can't contain '@'" in text


async def test_name_autocomplete_offers_the_channels_monsters(env: Any) -> None:
    d = env.discord
    for name in ("Goblin", "Goblin King", "Wolf"):
        await d.slash("monster create", user=d.gm, name=name, rank=1, armor="light")
    choices = await d.autocomplete("monster hit", "name", "gob", user=d.gm, damage=1)
    assert [c["value"] for c in choices] == ["Goblin", "Goblin King"]
    assert [c["name"] for c in choices] == ["🔒 Goblin", "🔒 Goblin King"]  # not yet seen
    assert await d.autocomplete("monster show", "name", "", user=d.player) == []
    await d.slash("monster appear", user=d.gm, name="Goblin King")
    await d.slash("monster show", user=d.gm, name="Wolf", public=True)  # shown: it appears
    choices = await d.autocomplete("monster show", "name", "", user=d.player)
    assert [c["name"] for c in choices] == ["Goblin King", "Wolf"]


async def test_monsters_survive_a_restart_and_can_be_restored(env: Any) -> None:
    d = env.discord
    await d.slash(
        "monster create",
        user=d.gm,
        name="Hydra",
        rank=4,
        armor="extreme",
        hp=50,
        trade=-2,
        agility=2,
        extra_defense=3,
        extra_evasion=-1,
        spots="back, back-right",
        armor_enchantments="1",
        weapon_enchantments="4",
        order="boss",
    )
    await d.slash("monster face", user=d.gm, name="Hydra", facing="SW")
    await d.slash("monster hit", user=d.gm, name="Hydra", damage=40, **{"from": "NE"})
    before = await env.table()
    hydra = before.get_monster("hydra")
    # Extreme Rank 4: Defense 24, modifier −6; trade −2 → 22, −4; extra armor +1, −1 → 23, −5.
    # Facing SW its back is NE: half Defense, 11; 40 − 11 = 29 taken.
    assert (hydra.block.defense, hydra.block.evasion, hydra.hp, hydra.facing) == (23, 7, 21, "SW")

    await env.restart()
    assert await env.table() == before
    shown = await d.slash("monster show", user=d.gm, name="Hydra")  # private to the GM
    assert field(shown, "Defense") == "23" and field(shown, "HP") == "21 / 50"
    assert field(shown, "Evasion") == "7 (Agility 2, modifier −5)"
    assert "back (square NE)" in field(shown, "Partial armor")

    # The event log holds the monster as it was, so an undo can put it back exactly.
    hit_event = (await env.store.history(d.table.id, limit=1))[0]
    assert hit_event.action == "monster hit"
    assert hit_event.before["monsters"]["hydra"]["hp"] == 50
    assert hit_event.after["monsters"]["hydra"]["hp"] == 21
    await env.store.apply(
        d.table.id,
        d.table.guild_id,
        d.gm.id,
        "undo",
        lambda t: (restore(t, hit_event.before), None),
    )
    assert (await env.table()).get_monster("Hydra").hp == 50
    await d.click(await d.slash("monster remove", user=d.gm, name="Hydra"), "Remove", user=d.gm)
    removal = (await env.store.history(d.table.id, limit=1))[0]
    await env.store.apply(
        d.table.id, d.table.guild_id, d.gm.id, "undo", lambda t: (restore(t, removal.before), None)
    )
    await env.restart()
    back = (await env.table()).get_monster("Hydra")
    assert (back.build, back.hp, back.facing) == (hydra.build, 50, "SW")
