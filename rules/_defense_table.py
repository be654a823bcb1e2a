"""The Defense & Armor table: Defense by Rank and armor level, and each level's Evasion modifier."""

from __future__ import annotations

from typing import NamedTuple

from lang import N_, _

from rules.errors import RulesError
from rules.text import signed

ARMOR_LEVELS: tuple[str, ...] = (
    "unarmored",
    "civilian",
    "light",
    "medium",
    "heavy",
    "extreme",
    "impervious",
)
# Each level's name as a reply shows it ("Heavy armor"), marked: show it through `_()`.
ARMOR_NAMES: dict[str, str] = {
    "unarmored": N_("Unarmored armor"),
    "civilian": N_("Civilian armor"),
    "light": N_("Light armor"),
    "medium": N_("Medium armor"),
    "heavy": N_("Heavy armor"),
    "extreme": N_("Extreme armor"),
    "impervious": N_("Impervious armor"),
}
RANKS = range(0, 6)
IMPERVIOUS_EVASION_TEXT = N_("Evasion set to 0")  # English: `format_modifier` translates it

# Rows are Ranks 0-5, columns follow ARMOR_LEVELS (docs/rules.md#41-defense-table).
_DEFENSE: tuple[tuple[int, ...], ...] = (
    (0, 0, 2, 4, 6, 8, 10),
    (0, 2, 4, 6, 8, 12, 18),
    (0, 3, 6, 8, 10, 16, 26),
    (0, 4, 8, 10, 13, 20, 34),
    (0, 5, 10, 12, 16, 24, 42),
    (0, 6, 12, 14, 20, 32, 50),
)
# None: Impervious replaces Evasion with 0 rather than modifying it.
_EVASION_MODIFIER: tuple[int | None, ...] = (0, 0, 0, -2, -4, -6, None)


def format_modifier(modifier: int | None) -> str:
    """'−2', '0', '+1' (with a real minus sign), or 'Evasion set to 0' for None (Impervious)."""
    if modifier is None:
        return _(IMPERVIOUS_EVASION_TEXT)
    return signed(modifier) if modifier else "0"


class ArmorStats(NamedTuple):
    """One cell of the table: Defense, and the Evasion modifier (None: Evasion set to 0)."""

    defense: int
    evasion_modifier: int | None

    @property
    def evasion_text(self) -> str:
        """'Evasion set to 0' for Impervious, else the modifier such as '−2'."""
        return format_modifier(self.evasion_modifier)


def check_int(value: object, what: str) -> int:
    """The value as an int, or a RulesError naming it (bools are not numbers here); `what` is a
    marked message, translated here."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(_("{what} must be a whole number", what=_(what)))
    return value


def check_rank(rank: object) -> int:
    """A Rank of 0 to 5, or a RulesError."""
    if isinstance(rank, bool) or not isinstance(rank, int) or rank not in RANKS:
        raise RulesError(_("Rank must be {low} to {high}", low=RANKS.start, high=RANKS.stop - 1))
    return rank


def armor_level(armor: object) -> str:
    """The armor level's canonical name (case-insensitive), or a RulesError listing the choices."""
    name = armor.strip().lower() if isinstance(armor, str) else ""
    if name not in ARMOR_LEVELS:
        raise RulesError(
            _(
                "Unknown armor '{armor}': choose {choices}",
                armor=armor,
                choices=", ".join(ARMOR_LEVELS),
            )
        )
    return name


def monster_defense(rank: int, armor: str) -> ArmorStats:
    """Defense and Evasion modifier for a monster of this Rank in this level of armor."""
    row = check_rank(rank)
    column = ARMOR_LEVELS.index(armor_level(armor))
    return ArmorStats(_DEFENSE[row][column], _EVASION_MODIFIER[column])
