"""Enchantments on a monster's armor or weapons (docs/rules.md#410-enchantments).

The text caps *Armor* Enchantments at 3 ("as if they were wearing Armor"); weapon enchantments
have no cap of their own. Every enchantment is of Rank 0 up to the monster's Rank. Having more
in all than the monster's Rank is only a guideline, so it is warned against, not refused.
"""

from __future__ import annotations

from collections.abc import Iterable

from lang import N_, _, n_

from rules._defense_table import check_int
from rules.errors import RulesError
from rules.text import plain

MAX_ARMOR_ENCHANTMENTS = 3


def allowed_ranks(rank: int) -> str:
    """'Rank 0 to 3', or 'Rank 0' for a Rank 0 monster (where 'Rank 0 to 0' reads as nonsense)."""
    return _("Rank 0") if rank == 0 else _("Rank 0 to {rank}", rank=rank)


def check_enchantments(values: object, rank: int, where: str) -> tuple[int, ...]:
    """The Ranks of the enchantments on `where` ('armor' or 'weapon'), each 0 to `rank`."""
    armor = where == "armor"
    if isinstance(values, str) or not isinstance(values, Iterable):
        if armor:
            raise RulesError(_("Armor enchantments must be a list of Ranks"))
        raise RulesError(_("Weapon enchantments must be a list of Ranks"))
    what = N_("An armor enchantment's Rank") if armor else N_("A weapon enchantment's Rank")
    ranks = tuple(check_int(value, what) for value in values)
    if armor and len(ranks) > MAX_ARMOR_ENCHANTMENTS:
        raise RulesError(
            _(
                "A monster may have at most {most} armor enchantments ({given} given); weapon "
                "enchantments are counted apart",
                most=MAX_ARMOR_ENCHANTMENTS,
                given=len(ranks),
            )
        )
    for enchantment in ranks:
        if enchantment < 0:
            raise RulesError(
                _("Enchantment Rank must be 0 or more (got {got})", got=plain(enchantment))
            )
        if enchantment > rank:
            if rank == 0:
                raise RulesError(
                    _(
                        "Enchantment Rank {enchantment} is above the monster's Rank 0: a Rank 0 "
                        "monster's enchantments can only be Rank 0",
                        enchantment=enchantment,
                    )
                )
            raise RulesError(
                _(
                    "Enchantment Rank {enchantment} is above the monster's Rank {rank}: its "
                    "enchantments may be {allowed}",
                    enchantment=enchantment,
                    rank=rank,
                    allowed=allowed_ranks(rank),
                )
            )
    return ranks


def enchantment_warning(count: int, rank: int) -> str | None:
    """The guideline: at most (Monster's Rank) many enchantments in all."""
    if count <= rank:
        return None
    advised = _("none") if rank == 0 else _("at most {rank}", rank=rank)
    return n_(
        "{n} enchantment on a Rank {rank} monster: the rules recommend {advised} "
        "(armor and weapon enchantments together)",
        "{n} enchantments on a Rank {rank} monster: the rules recommend {advised} "
        "(armor and weapon enchantments together)",
        count,
        rank=rank,
        advised=advised,
    )
