"""Monster defenses (docs/rules.md#4-monster-defense-and-armor): the table, builds and hits.

The table lives in `_defense_table`, facing in `_defense_facing`, building in `_defense_build`;
this module is the public face and adds damage.
"""

from __future__ import annotations

from dataclasses import dataclass

from lang import N_, _

from rules._defense_build import (
    AGILITY_RANGE,
    BALANCE_NOTES,
    EXTRA_DEFENSE_MAX,
    EXTRA_EVASION_MIN,
    ORDERS,
    TRADE_LIMIT,
    MonsterBlock,
    build_monster,
)
from rules._defense_enchant import MAX_ARMOR_ENCHANTMENTS, allowed_ranks
from rules._defense_facing import (
    FACINGS,
    HARD_TO_HIT,
    SPOTS,
    compass,
    facing_text,
    relative_spot,
    spot_key,
    spot_text,
)
from rules._defense_spots import UnarmoredSpot, check_spots, pick_spots
from rules._defense_table import (
    ARMOR_LEVELS,
    ARMOR_NAMES,
    IMPERVIOUS_EVASION_TEXT,
    RANKS,
    ArmorStats,
    check_int,
    format_modifier,
    monster_defense,
)
from rules.errors import RulesError

DAMAGE_MAX = 100_000  # not a rule: more damage in one hit is surely a typo

__all__ = [
    "AGILITY_RANGE",
    "ARMOR_LEVELS",
    "ARMOR_NAMES",
    "BALANCE_NOTES",
    "DAMAGE_MAX",
    "EXTRA_DEFENSE_MAX",
    "EXTRA_EVASION_MIN",
    "FACINGS",
    "HARD_TO_HIT",
    "IMPERVIOUS_EVASION_TEXT",
    "MAX_ARMOR_ENCHANTMENTS",
    "ORDERS",
    "RANKS",
    "SPOTS",
    "TRADE_LIMIT",
    "ArmorStats",
    "HitResult",
    "MonsterBlock",
    "UnarmoredSpot",
    "allowed_ranks",
    "build_monster",
    "check_spots",
    "damage_taken",
    "facing_text",
    "format_modifier",
    "hit",
    "monster_defense",
    "pick_spots",
    "relative_spot",
    "spot_key",
    "spot_text",
]


@dataclass(frozen=True)
class HitResult:
    """One hit on a monster: what the attack dealt, the Defense it met, and what got through.

    `hidden_spot` and `hard_to_hit` describe the unarmored spot it struck, if it struck one: a
    GM may hit a spot the players have not found yet."""

    damage: int
    defense_applied: int
    spot: str | None
    unarmored_spot: bool
    taken: int
    hidden_spot: bool = False
    hard_to_hit: bool = False


def _defense_against(defense: int, unarmored_spot: bool) -> int:
    return defense // 2 if unarmored_spot else defense


def damage_taken(defense: int, damage: int, *, unarmored_spot: bool = False) -> int:
    """max(1, damage − Defense); an unarmored spot applies only ⌊Defense/2⌋."""
    defense = check_int(defense, N_("Defense"))
    damage = check_int(damage, N_("Damage"))
    if defense < 0:
        raise RulesError(_("Defense must be 0 or more"))
    if not 1 <= damage <= DAMAGE_MAX:
        raise RulesError(_("Damage must be 1 to {most:,}", most=DAMAGE_MAX))
    return max(1, damage - _defense_against(defense, unarmored_spot))


def hit(
    block: MonsterBlock, damage: int, facing: str = "N", from_square: str | None = None
) -> HitResult:
    """A hit on `block`, facing `facing`, from (or passing through) the compass square given.

    Without a square the attack meets full Defense and no spot is named.
    """
    spot = None if from_square is None else relative_spot(facing, from_square)
    if from_square is None:
        compass(facing, N_("facing"))  # still reject a bad facing
    struck = next((s for s in block.spots if s.name == spot), None)
    unarmored = struck is not None
    taken = damage_taken(block.defense, damage, unarmored_spot=unarmored)
    return HitResult(
        damage=damage,
        defense_applied=_defense_against(block.defense, unarmored),
        spot=spot,
        unarmored_spot=unarmored,
        taken=taken,
        hidden_spot=struck is not None and struck.hidden,
        hard_to_hit=struck is not None and struck.hard_to_hit,
    )
