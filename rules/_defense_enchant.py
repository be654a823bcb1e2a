"""Enchantments on a monster's armor or weapons (docs/rules.md#410-enchantments).

The text caps *Armor* Enchantments at 3 ("as if they were wearing Armor"); weapon enchantments
have no cap of their own. Every enchantment is of Rank 0 up to the monster's Rank. Having more
in all than the monster's Rank is only a guideline, so it is warned against, not refused.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules._defense_table import check_int
from rules.errors import RulesError
from rules.text import plain

MAX_ARMOR_ENCHANTMENTS = 3


def allowed_ranks(rank: int) -> str:
    """'Rank 0 to 3', or 'Rank 0' for a Rank 0 monster (where 'Rank 0 to 0' reads as nonsense)."""
    return "Rank 0" if rank == 0 else f"Rank 0 to {rank}"


def check_enchantments(values: object, rank: int, where: str) -> tuple[int, ...]:
    """The Ranks of the enchantments on `where` ('armor' or 'weapon'), each 0 to `rank`."""
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise RulesError(f"{where.title()} enchantments must be a list of Ranks")
    ranks = tuple(check_int(value, f"An {where} enchantment's Rank") for value in values)
    if where == "armor" and len(ranks) > MAX_ARMOR_ENCHANTMENTS:
        raise RulesError(
            f"A monster may have at most {MAX_ARMOR_ENCHANTMENTS} armor enchantments "
            f"({len(ranks)} given); weapon enchantments are counted apart"
        )
    for enchantment in ranks:
        if enchantment < 0:
            raise RulesError(f"Enchantment Rank must be 0 or more (got {plain(enchantment)})")
        if enchantment > rank:
            if rank == 0:
                raise RulesError(
                    f"Enchantment Rank {enchantment} is above the monster's Rank 0: "
                    "a Rank 0 monster's enchantments can only be Rank 0"
                )
            raise RulesError(
                f"Enchantment Rank {enchantment} is above the monster's Rank {rank}: "
                f"its enchantments may be {allowed_ranks(rank)}"
            )
    return ranks


def enchantment_warning(count: int, rank: int) -> str | None:
    """The guideline: at most (Monster's Rank) many enchantments in all."""
    if count <= rank:
        return None
    noun = "enchantment" if count == 1 else "enchantments"
    advised = "none" if rank == 0 else f"at most {rank}"
    return (
        f"{count} {noun} on a Rank {rank} monster: the rules recommend {advised} "
        "(armor and weapon enchantments together)"
    )
