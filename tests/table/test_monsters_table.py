"""Monsters in the Table, the bestiary steps, their codec, and their renders (no Discord)."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from render.monsters import block_embed, created_embed, hit_embed, monster_embed, roster_embed
from rules.defense import FACINGS
from rules.errors import RulesError
from store.codec import monster_row
from table import bestiary
from table.bestiary import BuildOptions, MonsterHit
from table.model import Forbidden, Monster, Table
from table.names import clean_name
from table.settings import DEFAULT_SETTINGS, ChannelSettings
from table.sight import GM_ALONE, Sight, channel_sight, sight
from table.snapshot import diff, monster_from_dict, monster_to_dict, restore

# Rank 3 Heavy (docs/rules.md#41-defense-table): Defense 13, Evasion modifier −4.
HEAVY3 = {"rank": 3, "armor": "heavy"}
SQUARES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def troll(**changes: object) -> Monster:
    fields: dict[str, object] = {"name": "Cave Troll", "build": dict(HEAVY3), "hp_max": 30}
    return Monster(**{**fields, **changes})  # type: ignore[arg-type]


# --- Monster and Table ---------------------------------------------------------------------


def test_a_monster_keeps_its_build_canonical_and_rebuilds_its_block() -> None:
    monster = Monster(
        "  Cave   Troll ", {"rank": 3, "armor": " Heavy", "spots": ["back", "Front"]}, hp_max=30
    )
    assert monster.name == "Cave Troll" and monster.key == "cave troll"
    assert monster.build["armor"] == "heavy"
    # clockwise from the front; Hard to Hit and hidden unless the GM says otherwise
    assert monster.build["spots"] == [
        {"spot": "front", "hard_to_hit": True, "revealed": False},
        {"spot": "back", "hard_to_hit": True, "revealed": False},
    ]
    assert monster.build["order"] == "normal" and monster.build["trade"] == 0
    assert monster.hp == 30 and monster.facing == "N" and not monster.down
    assert (monster.block.defense, monster.block.evasion_modifier) == (13, -4)
    same = Monster("cave troll", monster.build, hp_max=30, hp=30)
    assert dataclasses.replace(same, name="Cave Troll") == monster


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": "  "}, "A monster needs a name"),
        ({"name": "x" * 41}, "40 characters or fewer"),
        ({"build": {"rank": 9, "armor": "heavy"}}, "Rank must be 0 to 5"),
        ({"build": {"armor": "heavy"}}, "at least its rank and armor"),
        ({"build": {**HEAVY3, "wings": 2}}, "Unknown monster field 'wings'"),
        ({"build": "heavy"}, "mapping"),
        ({"hp_max": 0}, "Maximum HP must be between 1"),
        ({"hp": 31}, "HP must be between"),
        ({"hp_max": None, "hp": 5}, "only be tracked with its maximum HP"),
        ({"facing": "north"}, "Facing must be one of N, NE"),
    ],
)
def test_a_bad_monster_is_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        troll(**changes)


def test_hp_may_fall_to_zero_and_below() -> None:
    assert troll(hp=0).down and troll(hp=-12).down
    assert not troll(hp=1).down
    untracked = troll(hp_max=None)
    assert untracked.hp is None and not untracked.down


def test_table_finds_adds_replaces_and_removes_monsters() -> None:
    table = Table(1, None).with_monster(troll()).with_monster(Monster("Ant", {**HEAVY3}))
    assert [m.name for m in table.monsters] == ["Ant", "Cave Troll"]  # kept in name order
    assert table.get_monster(" CAVE troll").hp == 30
    assert table.find_monster("orc") is None
    table = table.with_monster(troll(name="cave TROLL", hp=4))  # same key: replaced
    assert [(m.name, m.hp) for m in table.monsters] == [("Ant", None), ("cave TROLL", 4)]
    assert [m.name for m in table.without_monster("ant").monsters] == ["cave TROLL"]
    with pytest.raises(RulesError, match="No monster named 'Orc' in this channel; here: Ant"):
        table.get_monster("Orc")
    with pytest.raises(RulesError, match="there are none yet"):
        Table(1, None).without_monster("Orc")
    with pytest.raises(RulesError, match="already a monster named 'cave troll'"):
        Table(1, None, monsters=(troll(), troll(name="cave troll")))
    # A character and a monster may share a name: they are different lists.
    assert Table(1, None, monsters=(troll(),)).find("Cave Troll") is None


# --- parsing the options -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "spots"),
    [
        ("back, back-left", ("back", "back-left")),
        ("Back Left; front_right", ("back-left", "front-right")),
        ("back left front", ("back-left", "front")),
        ("left back", ("left", "back")),  # not a spot together: two spots
        ("none", ()),
        (None, ()),
    ],
)
def test_parse_spots(text: str | None, spots: tuple[str, ...]) -> None:
    assert bestiary.parse_spots(text) == spots


@pytest.mark.parametrize(
    ("text", "ranks"),
    [
        ("1 2 2", (1, 2, 2)),
        ("1,2", (1, 2)),
        (" 0 ", (0,)),
        ("none", ()),
        ("1, 2,", (1, 2)),  # a trailing comma, as spots: allow it
        (", 1", (1,)),
        (", ,", ()),
    ],
)
def test_parse_enchantments(text: str, ranks: tuple[int, ...]) -> None:
    assert bestiary.parse_enchantments(text) == ranks


@pytest.mark.parametrize("text", ["1 two", "1.5", "r2", "9999999"])
def test_parse_enchantments_refuses_what_is_not_a_rank(text: str) -> None:
    with pytest.raises(RulesError, match="isn't an enchantment Rank"):
        bestiary.parse_enchantments(text)


def test_spot_suggestions_complete_the_last_spot_and_skip_named_ones() -> None:
    assert bestiary.spot_suggestions("") == [
        "front",
        "front-right",
        "right",
        "back-right",
        "back",
        "back-left",
        "left",
        "front-left",
    ]
    assert bestiary.spot_suggestions("back, left,bac") == [
        "back, left, back-right",
        "back, left, back-left",
    ]
    assert bestiary.spot_suggestions("tail, fro")[0] == "tail, front"  # the rules refuse later
    assert bestiary.spot_suggestions("x" * 95 + ", back") == []  # a choice is 100 chars at most


def test_spot_squares_turn_with_the_facing() -> None:
    block = Monster("M", {**HEAVY3, "spots": ["front", "back-left"]}).block
    assert bestiary.spot_squares(block, "N") == {"front": "N", "back-left": "SW"}
    assert bestiary.spot_squares(block, "E") == {"front": "E", "back-left": "NW"}


def test_names_are_cleaned_like_characters() -> None:
    assert clean_name("  Grey   Wolf ", "monster") == "Grey Wolf"
    for bad, message in (
        ("", "needs a name"),
        ("w" * 33, "32 characters"),
        ("**Wolf**", "can't contain '\\*'"),
        ("-Wolf", "start with a letter"),
        ("Grey\nWolf", "one line"),  # as for characters: one rule for every name
    ):
        with pytest.raises(RulesError, match=message):
            clean_name(bad, "monster")


# --- the steps -----------------------------------------------------------------------------


def test_create_face_hit_remove() -> None:
    options = BuildOptions(
        3, "heavy", spots="back", armor_enchantments="1", weapon_enchantments="2", order="boss"
    )
    table, (made,) = bestiary.create(Table(1, None), is_gm=True, name="Troll", options=options)
    assert made.hp is None and made.block.material_drop == 12  # Boss 10 + 2 enchantments
    assert made.hidden  # the GM's preparation until it appears
    table, turned = bestiary.face(table, is_gm=True, name="troll", facing="E")
    assert turned.facing == "E" and table.get_monster("Troll") == turned and turned.hidden
    table, hit = bestiary.hit(table, is_gm=True, name="TROLL", damage=20, from_square="W")
    assert (hit.result.spot, hit.result.unarmored_spot, hit.result.taken) == ("back", True, 14)
    # No HP to lose; but the hit is seen: it appears.
    assert hit.hp_before is None and hit.appeared
    assert table.get_monster("troll") == dataclasses.replace(turned, hidden=False)
    table, again = bestiary.hit(table, is_gm=True, name="TROLL", damage=20, from_square="W")
    assert not again.appeared and table.get_monster("troll").hp is None
    table, gone = bestiary.remove(table, is_gm=True, name="troll")
    assert gone.name == "Troll" and table.monsters == ()


def test_hp_goes_down_by_what_gets_through() -> None:
    table = Table(1, None, monsters=(troll(),))
    table, hit = bestiary.hit(table, is_gm=True, name="cave troll", damage=20)
    assert (hit.hp_before, hit.monster.hp, hit.result.taken) == (30, 23, 7)
    table, hit = bestiary.hit(table, is_gm=True, name="cave troll", damage=40)
    assert hit.monster.hp == -4 and hit.monster.down and not hit.already_defeated
    assert table.get_monster("cave troll").hp == -4


def test_a_hit_on_a_defeated_monster_changes_nothing_and_says_so() -> None:
    table = Table(1, None, monsters=(troll(hp=-4),))
    after, hit = bestiary.hit(table, is_gm=True, name="cave troll", damage=40)
    assert after == table  # the store writes and logs nothing
    assert hit.already_defeated and hit.monster.hp == -4 and hit.result.taken == 27
    embed = hit_embed(hit, GM_ALONE)
    assert embed.title == "Cave Troll is already defeated"
    assert "HP −4 / 30 — **defeated**: a further hit changes nothing" in (embed.description or "")
    public = hit_embed(hit, channel_sight(DEFAULT_SETTINGS)).description or ""
    assert "a further hit changes nothing" in public.lower() and "HP" not in public


def test_reveal_shows_one_spot_and_only_the_gm_may() -> None:
    monster = troll(build={**HEAVY3, "spots": ["back", "front"]})
    table = Table(1, None, monsters=(monster,))
    with pytest.raises(Forbidden, match="Only the GM"):
        bestiary.reveal(table, is_gm=False, name="cave troll", spot="back")
    table, shown = bestiary.reveal(table, is_gm=True, name="cave troll", spot="Back")
    assert shown.block.spot("back").revealed and shown.block.spot("front").hidden
    assert table.get_monster("cave troll") == shown and shown.hp == monster.hp
    with pytest.raises(RulesError, match="already revealed"):
        bestiary.reveal(table, is_gm=True, name="cave troll", spot="back")
    with pytest.raises(RulesError, match="no unarmored spot at its left"):
        bestiary.reveal(table, is_gm=True, name="cave troll", spot="left")
    with pytest.raises(RulesError, match="Unknown spot 'tail'"):
        bestiary.reveal(table, is_gm=True, name="cave troll", spot="tail")


def test_build_options_mark_spots_easy_or_revealed() -> None:
    block = bestiary.build(
        BuildOptions(
            2, "heavy", spots="back, left, front", easy_spots="left", revealed_spots="front"
        )
    )
    assert [(s.name, s.hard_to_hit, s.revealed) for s in block.spots] == [
        ("front", True, True),
        ("back", True, False),
        ("left", False, False),
    ]
    with pytest.raises(RulesError, match="'right' is given as revealed but isn't one of"):
        bestiary.build(BuildOptions(2, "heavy", spots="back", revealed_spots="right"))
    with pytest.raises(
        RulesError, match="not Hard to Hit, but no unarmored spots are given: add `spots:`"
    ):
        bestiary.build(BuildOptions(2, "heavy", easy_spots="back"))


@pytest.mark.parametrize(
    "step",
    [
        lambda t, gm: bestiary.create(t, is_gm=gm, name="Imp", options=BuildOptions(1, "light")),
        lambda t, gm: bestiary.remove(t, is_gm=gm, name="Cave Troll"),
        lambda t, gm: bestiary.face(t, is_gm=gm, name="Cave Troll", facing="S"),
        lambda t, gm: bestiary.hit(t, is_gm=gm, name="Cave Troll", damage=5),
        lambda t, gm: bestiary.reveal(t, is_gm=gm, name="Cave Troll", spot="back"),
    ],
)
def test_only_the_gm_changes_monsters(step: object) -> None:
    table = Table(1, None, monsters=(troll(build={**HEAVY3, "spots": ["back"]}),))
    with pytest.raises(Forbidden, match="Only the GM"):
        step(table, False)  # type: ignore[operator]
    changed, _ = step(table, True)  # type: ignore[operator]
    assert changed != table


def test_create_refuses_duplicates_and_a_full_bestiary() -> None:
    table = Table(1, None, monsters=(troll(),))
    # Named as it was made, however the new one was typed (as for characters).
    with pytest.raises(RulesError, match="already a monster named 'Cave Troll' in this channel"):
        bestiary.create(table, is_gm=True, name="cave troll", options=BuildOptions(1, "light"))
    full = Table(1, None, monsters=tuple(Monster(f"M{i}", HEAVY3) for i in range(25)))
    with pytest.raises(RulesError, match="already has 25 monsters"):
        bestiary.create(full, is_gm=True, name="One More", options=BuildOptions(1, "light"))
    room = Table(1, None, monsters=full.monsters[:23])
    with pytest.raises(RulesError, match="room for 2 more"):
        bestiary.create(room, is_gm=True, name="Imp", options=BuildOptions(1, "light"), count=3)


def test_a_group_is_numbered_on_each_with_its_own_hp_and_facing() -> None:
    options = BuildOptions(1, "light", spots="back")
    table, made = bestiary.create(
        Table(1, None), is_gm=True, name="Goblin", options=options, hp_max=7, count=3
    )
    assert [m.name for m in made] == ["Goblin 1", "Goblin 2", "Goblin 3"]
    assert len({m.build == made[0].build for m in made}) == 1
    table, hit = bestiary.hit(table, is_gm=True, name="goblin 2", damage=5)
    table, _ = bestiary.face(table, is_gm=True, name="Goblin 3", facing="S")
    hps = [(m.hp, m.facing) for m in bestiary.group(table, "GOBLIN")]
    assert hps == [(7, "N"), (7 - hit.result.taken, "N"), (7, "S")]
    table, more = bestiary.create(table, is_gm=True, name="goblin", options=options, count=2)
    assert [m.name for m in more] == ["goblin 4", "goblin 5"]  # numbered on
    assert bestiary.group_number("Goblin", "Goblin boss") is None


@settings(max_examples=200)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_hit_takes_damage_after_defense_at_least_one(seed: int) -> None:
    rng = random.Random(seed)
    rank, armor = rng.randint(0, 5), rng.choice(["unarmored", "light", "heavy", "impervious"])
    spots = rng.sample(["front", "right", "back", "back-left"], rng.randint(0, 2))
    facing, square = rng.choice(SQUARES), rng.choice([None, *SQUARES])
    hp_max = rng.choice([None, rng.randint(1, 100)])
    monster = Monster("M", {"rank": rank, "armor": armor, "spots": spots}, hp_max, facing=facing)
    damage = rng.randint(1, 120)
    table, hit = bestiary.hit(
        Table(1, None, monsters=(monster,)), is_gm=True, name="m", damage=damage, from_square=square
    )
    defense = monster.block.defense
    applied = defense // 2 if hit.result.unarmored_spot else defense
    assert hit.result.taken == max(1, damage - applied)
    assert hit.result.unarmored_spot == (hit.result.spot in spots and square is not None)
    if hp_max is None or monster.down:
        assert table.get_monster("m") == monster
    else:
        assert table.get_monster("m").hp == hp_max - hit.result.taken


@given(
    rank=st.integers(0, 5),
    armor=st.sampled_from(["unarmored", "light", "heavy", "impervious"]),
    hp_max=st.integers(1, 1000),
    hp=st.integers(-1000, 1000),
    taken=st.integers(1, 2000),
)
def test_a_hurt_monster_is_the_one_its_checked_constructor_makes(
    rank: int, armor: str, hp_max: int, hp: int, taken: int
) -> None:
    """`hurt` skips rebuilding the block: the result must equal a full construction, block
    included."""
    monster = Monster("M", {"rank": rank, "armor": armor}, hp_max, min(hp, hp_max))
    hurt = monster.hurt(taken)
    again = dataclasses.replace(monster, hp=monster.hp - taken)  # type: ignore[operator]
    assert hurt == again and hurt.hp == again.hp
    assert hurt.block == again.block == monster.block
    assert hurt.hp_max == hp_max and hurt.build == monster.build


def test_an_untracked_monster_cannot_be_hurt() -> None:
    with pytest.raises(ValueError, match="HP is not tracked"):
        troll(hp_max=None).hurt(3)


# --- codec ---------------------------------------------------------------------------------


def test_monster_dicts_and_rows_round_trip() -> None:
    monster = troll(
        build={
            **HEAVY3,
            "trade": 1,
            "spots": ["back"],
            "armor_enchantments": [1, 3],
            "weapon_enchantments": [2],
            "agility": 2,
        },
        hp=-3,
        facing="SW",
    )
    data = monster_to_dict(monster)
    assert data["build"] is not monster.build  # a snapshot must not share the monster's dict
    assert monster_from_dict(data) == monster
    row = monster_row(7, monster)
    assert row[:3] == (7, "cave troll", "Cave Troll") and row[-5:] == (30, -3, "SW", 0, 0)
    assert '"armor_enchantments":[1,3]' in row[3] and '"weapon_enchantments":[2]' in row[3]


def test_an_old_stored_build_still_reads() -> None:
    """Before V4-era builds: one 'enchantments' list (armor) and spots as plain names."""
    old = {**HEAVY3, "spots": ["back"], "enchantments": [1, 2]}
    monster = monster_from_dict({"name": "Old", "build": old, "hp_max": 9, "hp": 9, "facing": "N"})
    assert monster.block.armor_enchantments == (1, 2) and monster.block.weapon_enchantments == ()
    assert monster.block.spots[0].hidden and monster.block.spots[0].hard_to_hit


def test_diff_mentions_monsters_only_when_one_changed() -> None:
    table = Table(1, None, monsters=(troll(),))
    old, new = diff(table, dataclasses.replace(table, clock=5))
    assert "monsters" not in old and "monsters" not in new
    hurt = table.with_monster(troll(hp=10))
    old, new = diff(table, hurt)
    assert old["monsters"]["cave troll"]["hp"] == 30 and new["monsters"]["cave troll"]["hp"] == 10
    assert restore(hurt, old) == table
    gone = table.without_monster("cave troll")
    old, new = diff(table, gone)
    assert new == {"characters": {}, "monsters": {"cave troll": None}}
    assert restore(gone, old) == table
    assert restore(table, {"characters": {}}) == table  # an older event without monsters


# --- renders -------------------------------------------------------------------------------


def test_block_embed_lists_everything_a_gm_needs() -> None:
    block = bestiary.build(
        BuildOptions(
            2,
            "extreme",
            agility=1,
            spots="back",
            armor_enchantments="1 2",
            weapon_enchantments="2",
            order="heavy",
        )
    )
    embed = block_embed(block, title="Rank 2 Extreme monster", show_hidden=True)
    fields = {str(f.name): str(f.value) for f in embed.fields}
    assert fields["Defense"] == "16" and fields["Evasion"] == "5 (Agility 1, modifier −6)"
    assert fields["Partial armor: unarmored spots"].startswith(
        "back — Hard to Hit: −2 to hit — hidden from the players"
    )
    assert fields["Enchantments"] == "Armor: Rank 1, Rank 2 · Weapons: Rank 2"
    assert fields["Material drop"] == "6 Materials (Heavy 3, +3 for enchantments)"
    assert "(2 × Trait)" in fields["Notes"] and "recommend at most 2" in fields["Warnings"]
    assert embed.footer.text and "Not saved" in embed.footer.text
    assert "HP" not in fields and "Facing" not in fields


def test_monster_and_roster_embeds() -> None:
    monster = troll(hp=-2, facing="E", build={**HEAVY3, "spots": ["back"]})
    fields = {str(f.name): str(f.value) for f in monster_embed(monster, sight=GM_ALONE).fields}
    assert fields["HP"] == "−2 / 30 — **defeated**" and fields["Facing"] == "E"
    assert "back (square W)" in fields["Partial armor: unarmored spots"]
    shown = Sight(numbers=True, hidden_spots=False)  # the channel's, with monster_stats:shown
    public = {str(f.name): str(f.value) for f in monster_embed(monster, sight=shown).fields}
    assert public["Partial armor"].splitlines()[0] == "1 hidden unarmored spot"
    assert "back" not in public["Partial armor"] and public["Defense"] == "13"
    roster = roster_embed([monster, Monster("Ant", {"rank": 0, "armor": "light"})], GM_ALONE)
    assert roster.description is not None and len(roster.description.splitlines()) == 2
    assert "None yet" in (roster_embed([], GM_ALONE).description or "")


def test_the_channel_sees_no_numbers_while_monster_stats_are_hidden() -> None:
    monster = troll(hp=9, facing="E", build={**HEAVY3, "spots": ["back", "left"]})
    monster = bestiary.reveal(
        Table(1, None, monsters=(monster,)), is_gm=True, name="cave troll", spot="left"
    )[1]
    hidden = channel_sight(DEFAULT_SETTINGS)
    assert hidden == Sight(numbers=False, hidden_spots=False)
    embed = monster_embed(monster, sight=hidden)
    fields = {str(f.name): str(f.value) for f in embed.fields}
    assert set(fields) == {"Condition", "Facing", "Partial armor: unarmored spots"}
    assert fields["Condition"] == "badly hurt" and fields["Facing"] == "E"
    assert fields["Partial armor: unarmored spots"].splitlines()[:2] == [
        "left (square N) — Hard to Hit: −2 to hit",
        "1 more, hidden",
    ]
    assert embed.footer.text and "hidden" in embed.footer.text
    line = roster_embed([monster], hidden).description or ""
    assert line == "**Cave Troll** · facing E · badly hurt"
    # The GM reading alone sees everything, whatever the setting; the channel, by the setting.
    settings = ChannelSettings(monster_stats="shown")
    assert sight(DEFAULT_SETTINGS, gm_alone=True) == sight(settings, gm_alone=True) == GM_ALONE
    assert sight(settings, gm_alone=False) == Sight(numbers=True, hidden_spots=False)
    with pytest.raises(RulesError, match="shown to the players or hidden"):
        ChannelSettings(monster_stats="secret")  # type: ignore[arg-type]


def test_a_creation_names_the_monsters_to_a_channel_that_may_not_see_numbers() -> None:
    made = [troll(name="Goblin 1"), troll(name="Goblin 2")]
    public = created_embed(made, channel_sight(DEFAULT_SETTINGS))
    assert public.title == "Created Goblin 1, Goblin 2" and not public.fields
    private = {str(f.name): str(f.value) for f in created_embed(made, GM_ALONE).fields}
    assert private["Defense"] == "13" and private["HP"] == "30 / 30"


@pytest.mark.parametrize(
    ("hp", "wounds"),
    [
        (30, "unhurt"),
        (29, "hurt"),
        (16, "hurt"),
        (15, "badly hurt"),
        (1, "badly hurt"),
        (0, "defeated"),
        (-7, "defeated"),
    ],
)
def test_wounds_are_words_for_hp(hp: int, wounds: str) -> None:
    assert troll(hp=hp).wounds == wounds
    assert Monster("Ant", {"rank": 0, "armor": "light"}).wounds is None  # HP not tracked


def test_the_largest_bestiary_fits_one_embed() -> None:
    long = {**HEAVY3, "trade": -4}
    monsters = [Monster(f"{'W' * 30}{i:02}", long, hp_max=100_000, hp=-99_999) for i in range(25)]
    roster = roster_embed(monsters, GM_ALONE)
    assert roster.description is not None and len(roster.description) <= 4096
    assert roster.description.count("\n") == 24  # nobody cut off


def test_hit_embed_says_what_got_through() -> None:
    table = Table(1, None, monsters=(troll(build={**HEAVY3, "spots": ["back"]}),))
    _, hit = bestiary.hit(table, is_gm=True, name="cave troll", damage=5, from_square="S")
    assert isinstance(hit, MonsterHit)
    embed = hit_embed(hit, GM_ALONE)
    assert embed.title == "Cave Troll takes 1"
    assert embed.description is not None
    assert "its back, a hidden unarmored spot (half Defense; Hard to Hit" in embed.description
    assert "Damage 5 − Defense 6 → **1 taken** (at least 1)" in embed.description
    assert "HP 30 → 29 / 30" in embed.description


@pytest.mark.parametrize("numbers", [True, False])
def test_a_hit_tells_the_channel_what_it_took_and_no_spot_it_may_not_know(numbers: bool) -> None:
    table = Table(1, None, monsters=(troll(build={**HEAVY3, "spots": ["back"]}),))
    channel = Sight(numbers=numbers, hidden_spots=False)
    # Into the hidden back (half Defense), then into its armored front: the same words.
    table, back = bestiary.hit(table, is_gm=True, name="cave troll", damage=20, from_square="S")
    table, front = bestiary.hit(table, is_gm=True, name="cave troll", damage=5, from_square="N")
    secret = hit_embed(back, channel).description or ""
    # What the table can see: the square, and (numbers hidden) how hurt it now looks.
    second = "Damage 20 → **14 taken**" if numbers else "Now hurt"
    assert secret.splitlines()[:2] == ["From square S", second]
    assert "back" not in secret and "unarmored" not in secret and "Defense" not in secret
    assert (hit_embed(back, channel).title == "Cave Troll is hit") != numbers
    assert channel.hides_hit(back.result) and not GM_ALONE.hides_hit(back.result)
    armored = hit_embed(front, channel).description or ""
    assert armored.splitlines()[0] == "From square N" and "front" not in armored
    assert ("Damage 5 − Defense 13" in armored) == numbers
    assert ("HP 30 → 16 / 30" in secret) == numbers
    assert ("Now badly hurt" in armored) != numbers  # 16 → 15 of 30: half or less
    # Once revealed, the channel is told where the hit went, as the GM is.
    table, _ = bestiary.reveal(table, is_gm=True, name="cave troll", spot="back")
    table, again = bestiary.hit(table, is_gm=True, name="cave troll", damage=20, from_square="S")
    known = hit_embed(again, channel).description or ""
    assert "From square S: its back, an unarmored spot (half Defense" in known
    assert channel.hides_hit(again.result) != numbers


@given(st.integers(1, 60), st.integers(1, 60), st.sampled_from(FACINGS), st.sampled_from(FACINGS))
def test_with_the_numbers_hidden_a_hit_says_only_what_the_table_can_see(
    first: int, second: int, one: str, other: str
) -> None:
    """Two hits that leave the monster looking the same read the same to the channel: no
    damage, HP or Defense, whatever got through (Defense absorbing most, or a hidden spot
    half of it); only the square differs, as the players saw it."""
    table = Table(1, None, monsters=(troll(build={**HEAVY3, "spots": ["back"]}, hp_max=200),))
    channel = channel_sight(DEFAULT_SETTINGS)
    __, a = bestiary.hit(table, is_gm=True, name="cave troll", damage=first, from_square=one)
    __, b = bestiary.hit(table, is_gm=True, name="cave troll", damage=second, from_square=other)
    said = [hit_embed(h, channel) for h in (a, b)]
    texts = [f"{e.title}\n{e.description}" for e in said]
    assert all(not re.search(r"\d", t.replace("Cave Troll", "")) for t in texts), texts
    if a.monster.wounds == b.monster.wounds:
        assert texts[0].replace(f"square {one}", "square ?") == texts[1].replace(
            f"square {other}", "square ?"
        )
