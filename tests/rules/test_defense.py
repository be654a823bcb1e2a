"""Monster Defense & Armor: the table, trades, extra armor, Evasion, spots, enchantments, hits.

Expected numbers are typed here from docs/rules.md#4-monster-defense-and-armor, never
read back from the module under test.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.defense import (
    ARMOR_LEVELS,
    FACINGS,
    ORDERS,
    RANKS,
    SPOTS,
    ArmorStats,
    HitResult,
    MonsterBlock,
    UnarmoredSpot,
    build_monster,
    damage_taken,
    hit,
    monster_defense,
    relative_spot,
)
from rules.errors import RulesError

LEVELS = ("unarmored", "civilian", "light", "medium", "heavy", "extreme", "impervious")
# The table as printed: one row per Rank, columns in LEVELS order.
TABLE = {
    0: (0, 0, 2, 4, 6, 8, 10),
    1: (0, 2, 4, 6, 8, 12, 18),
    2: (0, 3, 6, 8, 10, 16, 26),
    3: (0, 4, 8, 10, 13, 20, 34),
    4: (0, 5, 10, 12, 16, 24, 42),
    5: (0, 6, 12, 14, 20, 32, 50),
}
EVASION_ROW = {
    "unarmored": 0,
    "civilian": 0,
    "light": 0,
    "medium": -2,
    "heavy": -4,
    "extreme": -6,
    "impervious": None,  # "Set to 0"
}
ARMORED = [level for level in LEVELS if level != "unarmored"]
TRADEABLE = [level for level in LEVELS if level != "impervious"]
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def table_defense(rank: int, armor: str) -> int:
    return TABLE[rank][LEVELS.index(armor)]


# --- The table -------------------------------------------------------------------------------


def test_public_constants_match_the_text() -> None:
    assert ARMOR_LEVELS == LEVELS
    assert list(RANKS) == [0, 1, 2, 3, 4, 5]
    assert ORDERS == {"normal": 2, "heavy": 3, "miniboss": 5, "boss": 10}


@pytest.mark.parametrize("rank", sorted(TABLE))
@pytest.mark.parametrize("armor", LEVELS)
def test_every_cell_of_the_defense_table(rank: int, armor: str) -> None:
    stats = monster_defense(rank, armor)
    assert isinstance(stats, ArmorStats)
    assert stats.defense == table_defense(rank, armor)
    assert stats.evasion_modifier == EVASION_ROW[armor]


@pytest.mark.parametrize(
    ("armor", "text"),
    [
        ("unarmored", "0"),
        ("civilian", "0"),
        ("light", "0"),
        ("medium", "−2"),
        ("heavy", "−4"),
        ("extreme", "−6"),
        ("impervious", "Evasion set to 0"),
    ],
)
def test_evasion_modifier_row_as_text(armor: str, text: str) -> None:
    assert monster_defense(3, armor).evasion_text == text


def test_armor_names_are_case_insensitive() -> None:
    assert monster_defense(4, "HEAVY") == monster_defense(4, "heavy") == (16, -4)
    assert monster_defense(1, " Impervious ") == (18, None)


@pytest.mark.parametrize("rank", [-1, 6, 10, True, "2", 2.0, None])
def test_rank_outside_0_to_5_is_refused(rank: object) -> None:
    with pytest.raises(RulesError, match="Rank must be 0 to 5"):
        monster_defense(rank, "light")  # type: ignore[arg-type]


def test_unknown_armor_lists_the_choices() -> None:
    with pytest.raises(RulesError) as error:
        monster_defense(2, "plate")
    assert "Unknown armor 'plate'" in str(error.value)
    for level in LEVELS:
        assert level in str(error.value)


# --- Trade ---------------------------------------------------------------------------------


def test_trade_defense_for_a_deeper_evasion_penalty() -> None:
    block = build_monster(2, "medium", trade=3)
    assert (block.defense, block.evasion_modifier) == (8 + 3, -2 - 3)
    assert block.trade == 3


def test_trade_evasion_back_for_less_defense() -> None:
    block = build_monster(3, "heavy", trade=-4)
    assert (block.defense, block.evasion_modifier) == (13 - 4, 0)


def test_trade_past_a_zero_modifier_says_how_far_is_allowed() -> None:
    with pytest.raises(RulesError, match="−4"):
        build_monster(3, "heavy", trade=-5)


@pytest.mark.parametrize("armor", ["unarmored", "civilian", "light"])
def test_no_trade_toward_evasion_when_the_modifier_is_already_0(armor: str) -> None:
    with pytest.raises(RulesError, match="Trade must be 0 or more"):
        build_monster(2, armor, trade=-1)


def test_trade_on_unarmored_adds_defense() -> None:
    block = build_monster(0, "unarmored", trade=2)
    assert (block.defense, block.evasion_modifier) == (2, -2)


@pytest.mark.parametrize("trade", [-3, -1, 1, 5])
def test_impervious_refuses_any_trade(trade: int) -> None:
    with pytest.raises(RulesError, match="already set to 0"):
        build_monster(4, "impervious", trade=trade)


def test_impervious_with_no_trade_is_fine() -> None:
    block = build_monster(4, "impervious", trade=0)
    assert (block.defense, block.evasion_modifier, block.evasion) == (42, None, 0)


@given(seed=seeds)
def test_trade_keeps_the_sum_and_the_limits(seed: int) -> None:
    rng = random.Random(seed)
    rank, armor = rng.choice(list(TABLE)), rng.choice(TRADEABLE)
    defense, modifier = table_defense(rank, armor), EVASION_ROW[armor]
    assert modifier is not None
    allowed = min(defense, -modifier)  # how far toward Evasion the text permits
    trade = rng.randint(-allowed - 3, 20)
    if trade < -allowed:
        with pytest.raises(RulesError):
            build_monster(rank, armor, trade=trade)
        return
    block = build_monster(rank, armor, trade=trade)
    assert block.defense == defense + trade
    assert block.evasion_modifier == modifier - trade
    assert block.defense >= 0
    assert block.evasion_modifier <= 0


# --- Extra armor -------------------------------------------------------------------------------


def test_extra_armor_on_an_armored_monster_gives_half_its_defense_and_its_full_penalty() -> None:
    block = build_monster(2, "medium", extra_defense=5, extra_evasion=-2)
    assert block.extra_defense_applied == 2
    assert (block.defense, block.evasion_modifier) == (8 + 2, -2 - 2)


def test_extra_armor_on_an_unarmored_monster_counts_in_full() -> None:
    block = build_monster(1, "unarmored", extra_defense=5, extra_evasion=-2)
    assert block.extra_defense_applied == 5
    assert (block.defense, block.evasion_modifier) == (5, -2)


def test_extra_armor_on_impervious_keeps_its_full_evasion_penalty() -> None:
    # "The Armor's full Evasion penalty still applies": set to 0, then the extra armor's −3.
    block = build_monster(1, "impervious", extra_defense=7, extra_evasion=-3, agility=4)
    assert block.defense == 18 + 3
    assert (block.evasion_modifier, block.evasion) == (None, -3)
    assert block.evasion_text == "Evasion −3 (set to 0, extra armor −3)"
    assert any("Evasion penalty −3 (in full, even on Impervious)" in note for note in block.notes)


@given(
    rank=st.integers(0, 5),
    extra=st.integers(0, 40),
    penalty=st.integers(-20, 0),
    agility=st.one_of(st.none(), st.integers(-10, 40)),
)
def test_impervious_evasion_is_0_plus_the_extra_armors_penalty_whatever_the_agility(
    rank: int, extra: int, penalty: int, agility: int | None
) -> None:
    block = build_monster(
        rank, "impervious", extra_defense=extra, extra_evasion=penalty, agility=agility
    )
    assert block.evasion == 0 + penalty
    assert block.defense == TABLE[rank][6] + extra // 2


def test_extra_armor_stacks_with_a_trade() -> None:
    block = build_monster(5, "heavy", trade=2, extra_defense=9, extra_evasion=-1, agility=3)
    assert (block.defense, block.evasion_modifier) == (20 + 2 + 4, -4 - 2 - 1)
    assert block.evasion == 10 + 3 - 7


@given(seed=seeds)
def test_extra_armor_halves_rounding_down_on_every_armored_level(seed: int) -> None:
    rng = random.Random(seed)
    rank, armor = rng.choice(list(TABLE)), rng.choice(ARMORED)
    extra, penalty = rng.randint(0, 30), -rng.randint(0, 6)
    block = build_monster(rank, armor, extra_defense=extra, extra_evasion=penalty)
    assert block.extra_defense_applied == extra // 2
    assert block.defense == table_defense(rank, armor) + extra // 2
    base = EVASION_ROW[armor]
    assert block.evasion_modifier == (None if base is None else base + penalty)


def test_extra_armor_inputs_are_checked() -> None:
    with pytest.raises(RulesError, match="Defense must be 0 to 100"):
        build_monster(2, "light", extra_defense=-1)
    with pytest.raises(RulesError, match="Defense must be 0 to 100"):
        build_monster(2, "light", extra_defense=2**63)
    with pytest.raises(RulesError, match="penalty must be −50 to 0"):
        build_monster(2, "light", extra_evasion=2)
    with pytest.raises(RulesError, match="penalty must be −50 to 0"):
        build_monster(2, "light", extra_evasion=-(2**63))
    with pytest.raises(RulesError, match="trade must be between"):
        build_monster(2, "light", trade=2**63)


# --- Agility and Evasion -------------------------------------------------------------------------


def test_agility_gives_evasion_10_plus_agility_plus_modifier() -> None:
    block = build_monster(2, "heavy", agility=3)
    assert block.evasion == 10 + 3 - 4
    assert block.evasion_text == "Evasion 9 (−4)"


def test_without_agility_the_modifier_is_shown_alone() -> None:
    block = build_monster(2, "extreme")
    assert block.evasion is None
    assert block.evasion_text == "Evasion modifier −6"


def test_impervious_evasion_is_0_whatever_the_agility() -> None:
    for agility in (None, 0, 7):
        block = build_monster(3, "impervious", agility=agility)
        assert block.evasion == 0
        assert block.evasion_text == "Evasion set to 0"


@pytest.mark.parametrize("agility", [-11, 41, 1000, True, "3"])
def test_agility_outside_a_sane_range_is_refused(agility: object) -> None:
    with pytest.raises(RulesError, match="Agility"):
        build_monster(1, "light", agility=agility)  # type: ignore[arg-type]


# --- Spots ---------------------------------------------------------------------------------


def test_spots_are_normalised_ordered_and_hard_to_hit_and_hidden_by_default() -> None:
    block = build_monster(2, "heavy", spots=("Back Left", "front", "back_right"))
    assert block.spot_names == ("front", "back-right", "back-left")
    assert all(spot.hard_to_hit and spot.hidden for spot in block.spots)
    assert block.hidden_spots == 3
    assert block.spot_lines == tuple(
        f"{spot} (Hard to Hit: −2 to hit)" for spot in ("front", "back-right", "back-left")
    )


def test_a_spot_may_be_easy_to_hit_or_already_revealed() -> None:
    block = build_monster(
        2,
        "heavy",
        spots=(
            UnarmoredSpot("back", hard_to_hit=False),
            {"spot": "front", "revealed": True},
            "left",
        ),
    )
    assert block.spots == (
        UnarmoredSpot("front", hard_to_hit=True, revealed=True),
        UnarmoredSpot("back", hard_to_hit=False, revealed=False),
        UnarmoredSpot("left", hard_to_hit=True, revealed=False),
    )
    assert block.spot_lines == (
        "front (Hard to Hit: −2 to hit)",
        "back",
        "left (Hard to Hit: −2 to hit)",
    )
    assert block.hidden_spots == 2


def test_revealing_a_spot_changes_only_that_spot() -> None:
    block = build_monster(2, "heavy", spots=("back", "front"))
    shown = block.revealing("Back")
    assert shown.spot("back").revealed and shown.spot("front").hidden
    assert shown.hidden_spots == 1 and block.hidden_spots == 2  # the old block is untouched
    assert (shown.defense, shown.evasion_modifier) == (block.defense, block.evasion_modifier)
    with pytest.raises(RulesError, match="already revealed"):
        shown.revealing("back")
    with pytest.raises(
        RulesError, match=r"no unarmored spot at its left \(its unarmored spots: front, back\)"
    ):
        block.revealing("left")


def test_a_hit_into_a_hidden_spot_still_meets_half_defense_and_says_it_was_hidden() -> None:
    block = build_monster(2, "heavy", spots=("back", UnarmoredSpot("front", False, True)))
    hidden = hit(block, 12, facing="N", from_square="S")
    assert (hidden.taken, hidden.hidden_spot, hidden.hard_to_hit) == (12 - 5, True, True)
    shown = hit(block, 12, facing="N", from_square="N")
    assert (shown.taken, shown.hidden_spot, shown.hard_to_hit) == (12 - 5, False, False)


def test_bad_spot_flags_are_refused() -> None:
    with pytest.raises(RulesError, match="true or false"):
        build_monster(2, "heavy", spots=({"spot": "back", "revealed": "yes"},))
    with pytest.raises(RulesError, match="nothing unknown"):
        build_monster(2, "heavy", spots=({"spot": "back", "glowing": True},))


def test_an_unknown_spot_lists_the_choices() -> None:
    with pytest.raises(RulesError) as error:
        build_monster(2, "heavy", spots=("belly",))
    assert "Unknown spot 'belly'" in str(error.value)
    for spot in SPOTS:
        assert spot in str(error.value)


def test_a_spot_listed_twice_is_refused() -> None:
    with pytest.raises(RulesError, match="twice"):
        build_monster(2, "heavy", spots=("back", "Back"))


# --- Enchantments, drops and notes -------------------------------------------------------------


def test_a_fourth_armor_enchantment_is_refused() -> None:
    with pytest.raises(RulesError, match="at most 3 armor enchantments \\(4 given\\)"):
        build_monster(5, "heavy", armor_enchantments=(1, 1, 1, 1))


def test_weapon_enchantments_have_no_cap_of_their_own() -> None:
    block = build_monster(5, "heavy", armor_enchantments=(1, 1, 1), weapon_enchantments=(5,) * 6)
    assert (block.armor_enchantments, block.weapon_enchantments) == ((1, 1, 1), (5,) * 6)
    assert block.enchantments == (1, 1, 1, *(5,) * 6)
    assert block.warnings == (
        "9 enchantments on a Rank 5 monster: the rules recommend at most 5 "
        "(armor and weapon enchantments together)",
    )


@pytest.mark.parametrize("where", ["armor_enchantments", "weapon_enchantments"])
def test_an_enchantment_above_the_monsters_rank_is_refused(where: str) -> None:
    with pytest.raises(
        RulesError, match="above the monster's Rank 2: its enchantments may be Rank 0 to 2"
    ):
        build_monster(2, "heavy", **{where: (1, 3)})  # type: ignore[arg-type]


def test_a_rank_0_monsters_limit_reads_plainly() -> None:
    with pytest.raises(RulesError) as error:
        build_monster(0, "heavy", weapon_enchantments=(1,))
    assert "a Rank 0 monster's enchantments can only be Rank 0" in str(error.value)
    assert "0 to 0" not in str(error.value)


@pytest.mark.parametrize("where", ["armor_enchantments", "weapon_enchantments"])
def test_a_negative_enchantment_rank_is_refused(where: str) -> None:
    with pytest.raises(RulesError, match="0 or more"):
        build_monster(2, "heavy", **{where: (-1,)})  # type: ignore[arg-type]


def test_more_enchantments_than_rank_are_allowed_with_a_warning() -> None:
    block = build_monster(1, "light", armor_enchantments=(1, 0), weapon_enchantments=(1,))
    assert block.enchantments == (1, 0, 1)
    assert block.warnings == (
        "3 enchantments on a Rank 1 monster: the rules recommend at most 1 "
        "(armor and weapon enchantments together)",
    )


def test_rank_many_enchantments_carry_no_warning() -> None:
    assert (
        build_monster(3, "light", armor_enchantments=(3, 2), weapon_enchantments=(1,)).warnings
        == ()
    )


@pytest.mark.parametrize("where", ["armor_enchantments", "weapon_enchantments"])
def test_a_rank_0_monster_is_warned_with_its_first_enchantment(where: str) -> None:
    block = build_monster(0, "light", **{where: (0,)})  # type: ignore[arg-type]
    assert block.enchantments == (0,)
    assert block.warnings == (
        "1 enchantment on a Rank 0 monster: the rules recommend none "
        "(armor and weapon enchantments together)",
    )


@given(
    rank=st.integers(0, 5),
    armor=st.lists(st.integers(-2, 7), max_size=5),
    weapon=st.lists(st.integers(-2, 7), max_size=8),
)
def test_enchantment_limits_for_any_lists(rank: int, armor: list[int], weapon: list[int]) -> None:
    """Refused exactly when a Rank is outside 0..Rank or the armor has more than 3; otherwise
    one Material each, and a warning exactly when there are more in all than the Rank."""
    bad = len(armor) > 3 or any(not 0 <= r <= rank for r in armor + weapon)
    if bad:
        with pytest.raises(RulesError):
            build_monster(rank, "light", armor_enchantments=armor, weapon_enchantments=weapon)
        return
    block = build_monster(rank, "light", armor_enchantments=armor, weapon_enchantments=weapon)
    assert block.material_drop == 2 + len(armor) + len(weapon)
    assert bool(block.warnings) == (len(armor) + len(weapon) > rank)


def test_an_old_single_enchantment_list_reads_as_armor_enchantments() -> None:
    block = MonsterBlock.from_dict(
        {"rank": 2, "armor": "light", "enchantments": [1, 2], "spots": ["back"]}
    )
    assert (block.armor_enchantments, block.weapon_enchantments) == ((1, 2), ())
    assert block.spots == (UnarmoredSpot("back", hard_to_hit=True, revealed=False),)
    assert "enchantments" not in block.to_dict()


@pytest.mark.parametrize(
    ("order", "base"), [("normal", 2), ("heavy", 3), ("miniboss", 5), ("boss", 10), ("Boss", 10)]
)
@pytest.mark.parametrize("count", [0, 1, 2, 3])
def test_material_drop_is_the_order_base_plus_one_per_enchantment(
    order: str, base: int, count: int
) -> None:
    block = build_monster(3, "medium", armor_enchantments=(2,) * count, order=order)
    assert block.material_drop == base + count
    assert block.order == order.lower()


def test_an_unknown_order_lists_the_choices() -> None:
    with pytest.raises(RulesError, match="normal, heavy, miniboss, boss"):
        build_monster(3, "medium", order="legendary")


@pytest.mark.parametrize(
    ("armor", "needle"),
    [
        ("extreme", "attacks that deal twice their Trait in damage (2 × Trait)"),
        ("impervious", "attacks that deal three times their Trait in damage (3 × Trait)"),
    ],
)
def test_balance_notes(armor: str, needle: str) -> None:
    assert any(needle in note for note in build_monster(2, armor).notes)


@pytest.mark.parametrize("armor", ["unarmored", "civilian", "light", "medium", "heavy"])
def test_no_balance_note_below_extreme(armor: str) -> None:
    assert not any("Trait" in note for note in build_monster(2, armor).notes)


# --- Storage -----------------------------------------------------------------------------------


def random_build_inputs(rng: random.Random) -> dict[str, object]:
    rank, armor = rng.choice(list(TABLE)), rng.choice(LEVELS)
    modifier = EVASION_ROW[armor]
    allowed = 0 if modifier is None else min(table_defense(rank, armor), -modifier)
    return {
        "rank": rank,
        "armor": armor,
        "trade": 0 if modifier is None else rng.randint(-allowed, 5),
        "agility": rng.choice([None, rng.randint(-10, 40)]),
        "extra_defense": rng.randint(0, 10),
        "extra_evasion": -rng.randint(0, 4),
        "spots": [
            {"spot": spot, "hard_to_hit": rng.random() < 0.5, "revealed": rng.random() < 0.5}
            for spot in rng.sample(SPOTS, rng.randint(0, 3))
        ],
        "armor_enchantments": [rng.randint(0, rank) for _ in range(rng.randint(0, 3))],
        "weapon_enchantments": [rng.randint(0, rank) for _ in range(rng.randint(0, 4))],
        "order": rng.choice(["normal", "heavy", "miniboss", "boss"]),
    }


@given(seed=seeds)
def test_a_block_survives_a_json_round_trip(seed: int) -> None:
    inputs = random_build_inputs(random.Random(seed))
    block = build_monster(**inputs)  # type: ignore[arg-type]
    stored = json.loads(json.dumps(block.to_dict()))
    assert MonsterBlock.from_dict(stored) == block
    assert sorted(stored) == sorted(inputs)
    json.dumps(dataclasses.asdict(block))  # every field is JSON-friendly


def test_from_dict_refuses_unknown_fields_and_checks_the_rules() -> None:
    with pytest.raises(RulesError, match="Unknown monster field 'colour'"):
        MonsterBlock.from_dict({"rank": 1, "armor": "light", "colour": "red"})
    with pytest.raises(RulesError, match="rank and armor"):
        MonsterBlock.from_dict({"armor": "light"})
    with pytest.raises(RulesError, match="Rank must be 0 to 5"):
        MonsterBlock.from_dict({"rank": 9, "armor": "light"})


def test_blocks_and_hits_are_frozen() -> None:
    block = build_monster(1, "light")
    with pytest.raises(dataclasses.FrozenInstanceError):
        block.defense = 99  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        hit(block, 5).taken = 0  # type: ignore[misc]


# --- Facing --------------------------------------------------------------------------------

# Independent oracle: compass bearings in degrees, and the spot at each clockwise angle.
BEARING = {"N": 0, "NE": 45, "E": 90, "SE": 135, "S": 180, "SW": 225, "W": 270, "NW": 315}
SPOT_AT = {
    0: "front",
    45: "front-right",
    90: "right",
    135: "back-right",
    180: "back",
    225: "back-left",
    270: "left",
    315: "front-left",
}


def test_facings_and_spots_are_the_published_names() -> None:
    assert tuple(BEARING) == FACINGS
    assert tuple(SPOT_AT.values()) == SPOTS


@pytest.mark.parametrize("facing", list(BEARING))
@pytest.mark.parametrize("square", list(BEARING))
def test_every_facing_and_square(facing: str, square: str) -> None:
    angle = (BEARING[square] - BEARING[facing]) % 360
    assert relative_spot(facing, square) == SPOT_AT[angle]


@pytest.mark.parametrize(
    ("facing", "square", "spot"),
    [
        ("E", "E", "front"),
        ("E", "W", "back"),
        ("E", "NE", "front-left"),
        ("E", "SE", "front-right"),
        ("N", "E", "right"),
        ("S", "E", "left"),
        ("S", "W", "right"),
        ("W", "N", "right"),
        ("SE", "S", "front-right"),
        ("NW", "SE", "back"),
        ("NW", "N", "front-right"),
    ],
)
def test_worked_facings(facing: str, square: str, spot: str) -> None:
    assert relative_spot(facing, square) == spot


def test_compass_names_are_forgiving() -> None:
    assert relative_spot("east", "ne") == relative_spot("E", "NE")
    assert relative_spot("North-West", "south east") == "back"


def test_an_unknown_facing_or_square_lists_the_choices() -> None:
    with pytest.raises(RulesError, match="Unknown facing 'up': choose N, NE, E"):
        relative_spot("up", "N")
    with pytest.raises(RulesError, match="Unknown square 'X'"):
        relative_spot("N", "X")


@given(seed=seeds)
def test_turning_facing_and_square_together_keeps_the_spot(seed: int) -> None:
    rng = random.Random(seed)
    facing, square, turn = rng.randrange(8), rng.randrange(8), rng.randrange(1, 8)
    before = relative_spot(FACINGS[facing], FACINGS[square])
    after = relative_spot(FACINGS[(facing + turn) % 8], FACINGS[(square + turn) % 8])
    assert after == before


# --- Damage --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("defense", "damage", "spot", "taken"),
    [
        (6, 10, False, 4),
        (6, 7, False, 1),
        (6, 6, False, 1),  # the minimum of 1
        (6, 1, False, 1),
        (0, 5, False, 5),
        (7, 10, True, 10 - 3),  # half of 7, rounded down
        (10, 4, True, 1),
        (13, 20, True, 14),
    ],
)
def test_damage_taken(defense: int, damage: int, spot: bool, taken: int) -> None:
    assert damage_taken(defense, damage, unarmored_spot=spot) == taken


@pytest.mark.parametrize("damage", [0, -3, 100_001, 2**63])
def test_damage_must_be_1_to_its_bound(damage: int) -> None:
    with pytest.raises(RulesError, match="Damage must be 1 to 100,000"):
        damage_taken(5, damage)


def test_negative_defense_is_refused() -> None:
    with pytest.raises(RulesError, match="Defense must be 0 or more"):
        damage_taken(-1, 5)


def test_a_hit_into_an_unarmored_spot_meets_half_defense() -> None:
    block = build_monster(2, "heavy", spots=("back",))  # Defense 10
    assert hit(block, 12, facing="N", from_square="S") == HitResult(
        damage=12,
        defense_applied=5,
        spot="back",
        unarmored_spot=True,
        taken=7,
        hidden_spot=True,
        hard_to_hit=True,
    )


def test_a_hit_on_armor_meets_full_defense() -> None:
    block = build_monster(2, "heavy", spots=("back",))
    assert hit(block, 12, facing="N", from_square="N") == HitResult(
        damage=12, defense_applied=10, spot="front", unarmored_spot=False, taken=2
    )


def test_a_spot_follows_the_monsters_facing() -> None:
    block = build_monster(2, "heavy", spots=("back",))
    assert hit(block, 12, facing="E", from_square="W").unarmored_spot
    assert not hit(block, 12, facing="E", from_square="S").unarmored_spot


def test_a_hit_without_a_square_names_no_spot() -> None:
    result = hit(build_monster(3, "medium", spots=SPOTS), 15)
    assert (result.spot, result.unarmored_spot, result.defense_applied, result.taken) == (
        None,
        False,
        10,
        5,
    )


def test_a_hit_checks_its_facing_and_damage() -> None:
    block = build_monster(1, "light")
    with pytest.raises(RulesError, match="Unknown facing"):
        hit(block, 5, facing="Q")
    with pytest.raises(RulesError, match="Damage must be 1 to 100,000"):
        hit(block, 0, from_square="N")


@given(seed=seeds)
def test_damage_is_at_least_1_and_a_spot_never_hurts_less(seed: int) -> None:
    rng = random.Random(seed)
    defense, damage = rng.randint(0, 80), rng.randint(1, 120)
    armored = damage_taken(defense, damage)
    spot = damage_taken(defense, damage, unarmored_spot=True)
    assert armored >= 1
    assert spot >= armored
    assert armored == max(1, damage - defense)
    assert spot == max(1, damage - defense // 2)


@given(seed=seeds)
def test_a_hit_matches_damage_taken_for_any_monster(seed: int) -> None:
    rng = random.Random(seed)
    block = build_monster(**random_build_inputs(rng))  # type: ignore[arg-type]
    facing, square, damage = rng.choice(FACINGS), rng.choice(FACINGS), rng.randint(1, 80)
    result = hit(block, damage, facing=facing, from_square=square)
    assert result.unarmored_spot == (result.spot in block.spot_names)
    assert result.taken == damage_taken(block.defense, damage, unarmored_spot=result.unarmored_spot)
    assert result.taken >= 1


@given(
    spots=st.lists(
        st.tuples(st.sampled_from(SPOTS), st.booleans(), st.booleans()),
        max_size=8,
        unique_by=lambda spot: spot[0],
    ),
    facing=st.sampled_from(FACINGS),
    damage=st.integers(1, 80),
)
def test_revealing_spots_one_by_one_never_changes_a_hit(
    spots: list[tuple[str, bool, bool]], facing: str, damage: int
) -> None:
    """Hidden or revealed, a spot meets half Defense; each reveal takes one from the count."""
    block = build_monster(
        3, "heavy", spots=[UnarmoredSpot(n, hard, shown) for n, hard, shown in spots]
    )
    assert block.hidden_spots == sum(1 for _, _, shown in spots if not shown)
    before = {square: hit(block, damage, facing, square) for square in FACINGS}
    for spot in [s for s in block.spots if s.hidden]:
        count = block.hidden_spots
        block = block.revealing(spot.name)
        assert block.hidden_spots == count - 1
        for square, result in before.items():
            after = hit(block, damage, facing, square)
            assert (after.taken, after.unarmored_spot, after.hard_to_hit) == (
                result.taken,
                result.unarmored_spot,
                result.hard_to_hit,
            )
    assert block.hidden_spots == 0
