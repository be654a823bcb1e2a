"""What a reply about the channel's monsters may tell the people who read it.

The GM reading alone (a private reply) sees everything: the monsters still behind the screen
(made, not yet appeared: `Monster.hidden`), the numbers (HP, Defense, Evasion and the rest of
the stat block) and where the hidden unarmored spots are. Everyone else, the players or the
whole channel reading a public reply (the GM's own public replies included), sees no monster
still behind the screen at all (not even its name: `players_view`), hidden spots only as a
count, and the numbers only when the channel's `monster_stats` setting shows them; otherwise
the name, the facing, the spots the GM revealed and how hurt it looks (`Monster.wounds`).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.defense import HitResult

from table.model import Table
from table.settings import ChannelSettings


@dataclass(frozen=True)
class Sight:
    numbers: bool  # HP, Defense, Evasion, armor, enchantments, drop: the stat block's figures
    hidden_spots: bool  # where the spots still hidden from the players are
    prepared: bool = False  # the monsters still behind the GM's screen (`Monster.hidden`)

    def hides_hit(self, result: HitResult) -> bool:
        """Whether a hit's reply at this sight leaves out what the GM sees: the numbers, or
        that the hit met a spot still hidden from the players."""
        return not self.numbers or (result.hidden_spot and not self.hidden_spots)


GM_ALONE = Sight(numbers=True, hidden_spots=True, prepared=True)


def channel_sight(settings: ChannelSettings) -> Sight:
    """What the players, or anyone reading a public reply, may see of the monsters."""
    return Sight(numbers=settings.monster_stats == "shown", hidden_spots=False)


def sight(settings: ChannelSettings, *, gm_alone: bool) -> Sight:
    """A reply's sight: everything for the GM reading alone, else the channel's."""
    return GM_ALONE if gm_alone else channel_sight(settings)


def players_view(table: Table) -> Table:
    """The table as the players may know it: without the monsters still behind the GM's
    screen, so nothing read from it (a list, a look, a suggestion, "did you mean") names one."""
    if not any(m.hidden for m in table.monsters):
        return table
    return table.with_parts(monsters=tuple(m for m in table.monsters if not m.hidden))


def in_sight(table: Table, sight: Sight) -> Table:
    """The table as a reader at `sight` may know it (`players_view` unless it is the GM's)."""
    return table if sight.prepared else players_view(table)
