"""A monster from above, for its picture: its square, its facing and the eight squares around
it, each with the spot a hit from there meets and whether that spot is unarmored (half Defense).
Pure: `pictures.monster` draws it.

What is in the view follows the reader's `Sight`, as the reply's text does: a hidden spot only
in the GM's private copy (for the channel it is drawn as armor, and counted, until the GM
reveals it), and the numbers (Defense, HP) only where the channel shows them, else how hurt it
looks.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.defense import FACINGS, damage_taken
from rules.defense import relative_spot as _relative_spot

from table.model import Monster
from table.sight import Sight


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
    defense: int | None  # None: the numbers are the GM's
    half: int | None  # the Defense a hit on an unarmored spot meets
    squares: tuple[Square, ...]  # N, NE, … NW, clockwise from the north
    hidden_left_out: int  # hidden unarmored spots not drawn (the channel's copy)
    hp: int | None = None
    hp_max: int | None = None
    wounds: str | None = None  # how hurt it looks, when its HP is tracked but not shown


def half_defense(defense: int) -> int:
    """The Defense an unarmored spot meets, by the same rule as a hit: the damage that would
    just get through whole, less one."""
    # damage_taken(d, x, unarmored) = max(1, x − half): find `half` from the rule itself.
    probe = defense + 1
    return probe - damage_taken(defense, probe, unarmored_spot=True)


def monster_view(monster: Monster, sight: Sight) -> MonsterView:
    """The monster's eight squares as this reader may see them."""
    block, show_hidden = monster.block, sight.hidden_spots
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
    if not sight.numbers:
        return MonsterView(
            monster.name,
            monster.facing,
            None,
            None,
            tuple(squares),
            left_out,
            wounds=monster.wounds,
        )
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
