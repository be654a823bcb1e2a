"""Building a monster's defenses: trade, extra armor, Evasion, spots, enchantments, drops."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rules._defense_enchant import check_enchantments, enchantment_warning
from rules._defense_spots import UnarmoredSpot, check_spots, find_spot
from rules._defense_table import (
    check_int,
    check_rank,
    format_modifier,
    monster_defense,
)
from rules.errors import RulesError
from rules.text import plain

# Material drop base by order of monster (source: Reclaim the Wild orders of monsters).
ORDERS: dict[str, int] = {"normal": 2, "heavy": 3, "miniboss": 5, "boss": 10}
# Not a rule: a bound that keeps typos (Agility 1000) out of a stat block.
AGILITY_RANGE = range(-10, 41)
# Not rules either: bounds on a trade and on extra armor, past which a number is surely a typo.
TRADE_LIMIT = 50
EXTRA_DEFENSE_MAX = 100
EXTRA_EVASION_MIN = -50
# The text: "Extreme armor will likely require their foes to use attacks that deal (2 x Trait)
# damage to harm them": an attack whose damage is twice the attacker's Trait.
BALANCE_NOTES: dict[str, str] = {
    "extreme": (
        "Balance: to harm it, foes will likely need attacks that deal twice their Trait "
        "in damage (2 × Trait)"
    ),
    "impervious": (
        "Balance: to harm it, foes will likely need attacks that deal three times their Trait "
        "in damage (3 × Trait)"
    ),
}
_INPUTS = (
    "rank",
    "armor",
    "trade",
    "agility",
    "extra_defense",
    "extra_evasion",
    "spots",
    "armor_enchantments",
    "weapon_enchantments",
    "order",
)
# Before armor and weapon enchantments were told apart there was one list, capped at 3 as
# Armor Enchantments are: stored monsters and logged events read it as armor enchantments.
_LEGACY_ENCHANTMENTS = "enchantments"


@dataclass(frozen=True)
class MonsterBlock:
    """A monster's finished defenses. Every field is a plain JSON-friendly value.

    `evasion_modifier` is None on Impervious (Evasion set to 0). `evasion` is 10 + Agility +
    modifier when an Agility was given; on Impervious 0 plus any extra armor's penalty (that
    penalty still applies); otherwise None (show the modifier).
    """

    rank: int
    armor: str
    defense: int
    evasion_modifier: int | None
    evasion: int | None
    agility: int | None
    trade: int
    extra_defense: int
    extra_evasion: int
    extra_defense_applied: int
    spots: tuple[UnarmoredSpot, ...]
    armor_enchantments: tuple[int, ...]
    weapon_enchantments: tuple[int, ...]
    order: str
    material_drop: int
    warnings: tuple[str, ...]
    notes: tuple[str, ...]

    @property
    def enchantments(self) -> tuple[int, ...]:
        """Every enchantment's Rank, armor first: each adds one Material to the drop."""
        return self.armor_enchantments + self.weapon_enchantments

    @property
    def spot_names(self) -> tuple[str, ...]:
        return tuple(spot.name for spot in self.spots)

    @property
    def hidden_spots(self) -> int:
        """How many unarmored spots are still to be revealed."""
        return sum(1 for spot in self.spots if spot.hidden)

    def spot(self, name: object, whose: str = "It") -> UnarmoredSpot:
        """The unarmored spot of this name, or an error naming `whose` spots and the ones it has."""
        return find_spot(self.spots, name, whose)

    def revealing(self, name: object, whose: str = "It") -> MonsterBlock:
        """This block with the named spot revealed; an error if it is already revealed."""
        spot = self.spot(name, whose)
        if spot.revealed:
            raise RulesError(f"The {spot.name} spot is already revealed")
        data = self.to_dict()
        data["spots"] = [
            {**s.to_dict(), "revealed": True} if s.name == spot.name else s.to_dict()
            for s in self.spots
        ]
        return MonsterBlock.from_dict(data)

    @property
    def evasion_text(self) -> str:
        """'Evasion 12 (−2)', 'Evasion modifier −2', 'Evasion set to 0', or on Impervious with
        extra armor 'Evasion −2 (set to 0, extra armor −2)'."""
        if self.evasion_modifier is None:
            if self.extra_evasion:
                extra = format_modifier(self.extra_evasion)
                return f"Evasion {plain(self.evasion or 0)} (set to 0, extra armor {extra})"
            return format_modifier(None)
        modifier = format_modifier(self.evasion_modifier)
        if self.evasion is None:
            return f"Evasion modifier {modifier}"
        return f"Evasion {self.evasion} ({modifier})"

    @property
    def spot_lines(self) -> tuple[str, ...]:
        """One line per unarmored spot, with its Hard to Hit reminder where it has one."""
        return tuple(spot.line for spot in self.spots)

    def to_dict(self) -> dict[str, object]:
        """The build inputs as JSON-friendly values; `from_dict` rebuilds the same block."""
        data = {name: getattr(self, name) for name in _INPUTS}
        data["spots"] = [spot.to_dict() for spot in self.spots]
        data["armor_enchantments"] = list(self.armor_enchantments)
        data["weapon_enchantments"] = list(self.weapon_enchantments)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> MonsterBlock:
        """Rebuild (and re-check) a block from `to_dict` output; missing keys take defaults."""
        if not isinstance(data, Mapping):
            raise RulesError("A stored monster must be a mapping of its build inputs")
        if _LEGACY_ENCHANTMENTS in data:
            data = dict(data)
            if "armor_enchantments" in data:
                raise RulesError("A stored monster has both old and new enchantment lists")
            data["armor_enchantments"] = data.pop(_LEGACY_ENCHANTMENTS)
        unknown = sorted(set(data) - set(_INPUTS))
        if unknown:
            raise RulesError(f"Unknown monster field '{unknown[0]}': use {', '.join(_INPUTS)}")
        if "rank" not in data or "armor" not in data:
            raise RulesError("A stored monster needs at least its rank and armor")
        kwargs = {name: value for name, value in data.items() if name not in ("rank", "armor")}
        return build_monster(data["rank"], data["armor"], **kwargs)  # type: ignore[arg-type]


def _check_trade(trade: int, defense: int, modifier: int | None, armor: str) -> None:
    """+k Defense for −k modifier or the reverse; Defense stays ≥ 0 and the modifier ≤ 0."""
    if trade == 0:
        return
    if modifier is None:
        raise RulesError(
            f"Impervious armor can't trade Defense and Evasion (trade {format_modifier(trade)}): "
            "its Evasion is already set to 0"
        )
    if trade > 0:
        return  # more Defense, a deeper penalty: no bound in the rules
    allowed = min(defense, -modifier)
    where = (
        f"{armor.title()} armor has Defense {defense}, Evasion modifier {format_modifier(modifier)}"
    )
    if allowed == 0:
        raise RulesError(
            f"Can't trade Defense for Evasion (trade {format_modifier(trade)}): {where}, "
            "and Defense can't go below 0 nor the modifier above 0. Trade must be 0 or more"
        )
    if -trade > allowed:
        raise RulesError(
            f"Trade {format_modifier(trade)} goes too far: {where}, so trade can go down to "
            f"{plain(-allowed)} at most "
            "(Defense can't go below 0 nor the modifier above 0)"
        )


def _check_order(order: object) -> str:
    name = order.strip().lower().replace("-", "").replace(" ", "") if isinstance(order, str) else ""
    if name not in ORDERS:
        raise RulesError(f"Unknown order '{order}': choose {', '.join(ORDERS)}")
    return name


def build_monster(
    rank: int,
    armor: str,
    *,
    trade: int = 0,
    agility: int | None = None,
    extra_defense: int = 0,
    extra_evasion: int = 0,
    spots: Iterable[str | UnarmoredSpot | Mapping[str, object]] = (),
    armor_enchantments: Iterable[int] = (),
    weapon_enchantments: Iterable[int] = (),
    order: str = "normal",
) -> MonsterBlock:
    """A monster's defenses (docs/rules.md#4-monster-defense-and-armor) from Rank, armor, tweaks.

    The trade is checked against the table values; extra armor is added after it.
    """
    rank = check_rank(rank)
    base = monster_defense(rank, armor)
    armor = armor.strip().lower()
    trade = check_int(trade, "Trade")
    if not -TRADE_LIMIT <= trade <= TRADE_LIMIT:
        raise RulesError(f"A trade must be between {plain(-TRADE_LIMIT)} and {TRADE_LIMIT}")
    _check_trade(trade, base.defense, base.evasion_modifier, armor)
    extra_defense = check_int(extra_defense, "Extra armor's Defense")
    extra_evasion = check_int(extra_evasion, "Extra armor's Evasion penalty")
    if not 0 <= extra_defense <= EXTRA_DEFENSE_MAX:
        raise RulesError(
            f"Extra armor's Defense must be 0 to {EXTRA_DEFENSE_MAX} (got {plain(extra_defense)})"
        )
    if not EXTRA_EVASION_MIN <= extra_evasion <= 0:
        raise RulesError(
            f"Extra armor's Evasion penalty must be {plain(EXTRA_EVASION_MIN)} to 0, e.g. -2 "
            f"(got {plain(extra_evasion)})"
        )
    if agility is not None:
        agility = check_int(agility, "Agility")
        if agility not in AGILITY_RANGE:
            raise RulesError(f"Agility must be {AGILITY_RANGE.start} to {AGILITY_RANGE.stop - 1}")
    checked_spots = check_spots(spots)
    on_armor = check_enchantments(armor_enchantments, rank, "armor")
    on_weapons = check_enchantments(weapon_enchantments, rank, "weapon")
    order = _check_order(order)

    notes: list[str] = []
    warnings: list[str] = []
    # Extra armor counts in full only on an Unarmored monster.
    applied = extra_defense if armor == "unarmored" else extra_defense // 2
    if extra_defense or extra_evasion:
        how = "in full on an Unarmored monster" if armor == "unarmored" else "half, rounded down"
        penalty = f", Evasion penalty {format_modifier(extra_evasion)}" if extra_evasion else ""
        if extra_evasion and base.evasion_modifier is None:
            penalty += " (in full, even on Impervious)"  # the text: "full Evasion penalty"
        notes.append(f"Extra armor: +{applied} Defense of its {extra_defense} ({how}){penalty}")
    defense = base.defense + trade + applied
    if base.evasion_modifier is None:
        # "Set to 0" replaces the table's modifier only: the extra armor's full penalty applies.
        modifier: int | None = None
        evasion: int | None = extra_evasion
    else:
        modifier = base.evasion_modifier - trade + extra_evasion
        evasion = None if agility is None else 10 + agility + modifier
    if armor in BALANCE_NOTES:
        notes.append(BALANCE_NOTES[armor])
    warning = enchantment_warning(len(on_armor) + len(on_weapons), rank)
    if warning is not None:
        warnings.append(warning)
    return MonsterBlock(
        rank=rank,
        armor=armor,
        defense=defense,
        evasion_modifier=modifier,
        evasion=evasion,
        agility=agility,
        trade=trade,
        extra_defense=extra_defense,
        extra_evasion=extra_evasion,
        extra_defense_applied=applied,
        spots=checked_spots,
        armor_enchantments=on_armor,
        weapon_enchantments=on_weapons,
        order=order,
        material_drop=ORDERS[order] + len(on_armor) + len(on_weapons),
        warnings=tuple(warnings),
        notes=tuple(notes),
    )
