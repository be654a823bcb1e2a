"""A monster from above, for its picture: its square, its facing and the eight squares around
it, each with the spot a hit from there meets and whether that spot is unarmored (half Defense).
Pure: `pictures.monster` draws it.

A hidden spot is in the view only for a reader who may see it (the GM's private copy); for the
channel it is drawn as armor, and counted, until the GM reveals it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.defense import FACINGS, damage_taken
from rules.defense import relative_spot as _relative_spot

from table.model import Monster


@dataclass(frozen=True)
class Square:
    compass: str  # N, NE, … NW: where the square lies from the monster
    spot: str  # the spot of the monster a hit from there meets: front, back-left, …
    unarmored: bool  # an unarmored spot the reader may see: half Defense
    hidden: bool = False  # that spot is still hidden from the players (GM's copy only)
    hard_to_hit: bool = False  # that spot is Hard to Hit (−2 to hit)


@dataclass(frozen=True)
class MonsterView:
    name: str
    facing: str
    defense: int
    half: int  # the Defense a hit on an unarmored spot meets
    squares: tuple[Square, ...]  # N, NE, … NW, clockwise from the north
    hidden_left_out: int  # hidden unarmored spots not drawn (the channel's copy)
    hp: int | None = None
    hp_max: int | None = None


def half_defense(defense: int) -> int:
    """The Defense an unarmored spot meets, by the same rule as a hit: the damage that would
    just get through whole, less one."""
    # damage_taken(d, x, unarmored) = max(1, x − half): find `half` from the rule itself.
    probe = defense + 1
    return probe - damage_taken(defense, probe, unarmored_spot=True)


def monster_view(monster: Monster, show_hidden: bool) -> MonsterView:
    """The monster's eight squares; hidden spots only when `show_hidden` (the GM's own copy)."""
    block = monster.block
    spots = {spot.name: spot for spot in block.spots}
    squares = []
    for compass in FACINGS:
        spot_name = _relative_spot(monster.facing, compass)
        spot = spots.get(spot_name)
        seen = spot is not None and (show_hidden or spot.revealed)
        squares.append(
            Square(
                compass,
                spot_name,
                unarmored=seen,
                hidden=seen and spot is not None and spot.hidden,
                hard_to_hit=seen and spot is not None and spot.hard_to_hit,
            )
        )
    left_out = 0 if show_hidden else block.hidden_spots
    return MonsterView(
        monster.name,
        monster.facing,
        block.defense,
        half_defense(block.defense),
        tuple(squares),
        left_out,
        monster.hp,
        monster.hp_max,
    )
