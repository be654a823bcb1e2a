"""Building a monster's defenses: trade, extra armor, Evasion, spots, enchantments, drops."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rules._defense_facing import HARD_TO_HIT, SPOTS, spot_name
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
MAX_ENCHANTMENTS = 3
# Not a rule: a bound that keeps typos (Agility 1000) out of a stat block.
AGILITY_RANGE = range(-10, 41)
BALANCE_NOTES: dict[str, str] = {
    "extreme": "Balance: foes will likely need (2 × Trait) attacks to harm it",
    "impervious": "Balance: foes will likely need (3 × Trait) attacks to harm it",
}
_INPUTS = (
    "rank",
    "armor",
    "trade",
    "agility",
    "extra_defense",
    "extra_evasion",
    "spots",
    "enchantments",
    "order",
)


@dataclass(frozen=True)
class MonsterBlock:
    """A monster's finished defenses. Every field is a plain JSON-friendly value.

    `evasion_modifier` is None on Impervious (Evasion set to 0). `evasion` is 10 + Agility +
    modifier when an Agility was given, 0 on Impervious, otherwise None (show the modifier).
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
    spots: tuple[str, ...]
    enchantments: tuple[int, ...]
    order: str
    material_drop: int
    warnings: tuple[str, ...]
    notes: tuple[str, ...]

    @property
    def evasion_text(self) -> str:
        """'Evasion 12 (−2)', 'Evasion modifier −2', or 'Evasion set to 0'."""
        if self.evasion_modifier is None:
            return format_modifier(None)
        modifier = format_modifier(self.evasion_modifier)
        if self.evasion is None:
            return f"Evasion modifier {modifier}"
        return f"Evasion {self.evasion} ({modifier})"

    @property
    def spot_lines(self) -> tuple[str, ...]:
        """One line per unarmored spot, with its Hard to Hit reminder."""
        return tuple(f"{spot} ({HARD_TO_HIT})" for spot in self.spots)

    def to_dict(self) -> dict[str, object]:
        """The build inputs as JSON-friendly values; `from_dict` rebuilds the same block."""
        data = {name: getattr(self, name) for name in _INPUTS}
        data["spots"] = list(self.spots)
        data["enchantments"] = list(self.enchantments)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> MonsterBlock:
        """Rebuild (and re-check) a block from `to_dict` output; missing keys take defaults."""
        if not isinstance(data, Mapping):
            raise RulesError("A stored monster must be a mapping of its build inputs")
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


def _as_tuple(values: object, what: str) -> tuple[object, ...]:
    """A tuple from a list/tuple; a lone string counts as one item."""
    if isinstance(values, str):
        return (values,)
    if isinstance(values, Iterable):
        return tuple(values)
    raise RulesError(f"{what} must be a list")


def _check_spots(spots: object) -> tuple[str, ...]:
    names = [spot_name(spot) for spot in _as_tuple(spots, "Spots")]
    for name in names:
        if names.count(name) > 1:
            raise RulesError(f"Spot '{name}' is listed twice: each spot counts once")
    return tuple(sorted(names, key=SPOTS.index))  # clockwise from the front


def _check_enchantments(enchantments: object, rank: int) -> tuple[int, ...]:
    ranks = tuple(
        check_int(e, "An enchantment's Rank") for e in _as_tuple(enchantments, "Enchantments")
    )
    if len(ranks) > MAX_ENCHANTMENTS:
        raise RulesError(
            f"A monster may have at most {MAX_ENCHANTMENTS} enchantments ({len(ranks)} given)"
        )
    for enchantment in ranks:
        if enchantment < 0:
            raise RulesError(f"Enchantment Rank must be 0 or more (got {plain(enchantment)})")
        if enchantment > rank:
            raise RulesError(
                f"Enchantment Rank {enchantment} is above the monster's Rank {rank}: "
                f"enchantments may be Rank 0 to {rank}"
            )
    return ranks


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
    spots: Iterable[str] = (),
    enchantments: Iterable[int] = (),
    order: str = "normal",
) -> MonsterBlock:
    """A monster's defenses (docs/rules.md#4-monster-defense-and-armor) from Rank, armor, tweaks.

    The trade is checked against the table values; extra armor is added after it.
    """
    rank = check_rank(rank)
    base = monster_defense(rank, armor)
    armor = armor.strip().lower()
    trade = check_int(trade, "Trade")
    _check_trade(trade, base.defense, base.evasion_modifier, armor)
    extra_defense = check_int(extra_defense, "Extra armor's Defense")
    extra_evasion = check_int(extra_evasion, "Extra armor's Evasion penalty")
    if extra_defense < 0:
        raise RulesError(f"Extra armor's Defense must be 0 or more (got {plain(extra_defense)})")
    if extra_evasion > 0:
        raise RulesError(
            f"Extra armor's Evasion penalty must be 0 or less, e.g. -2 (got {extra_evasion})"
        )
    if agility is not None:
        agility = check_int(agility, "Agility")
        if agility not in AGILITY_RANGE:
            raise RulesError(f"Agility must be {AGILITY_RANGE.start} to {AGILITY_RANGE.stop - 1}")
    spot_names = _check_spots(spots)
    enchantment_ranks = _check_enchantments(enchantments, rank)
    order = _check_order(order)

    notes: list[str] = []
    warnings: list[str] = []
    # Extra armor counts in full only on an Unarmored monster.
    applied = extra_defense if armor == "unarmored" else extra_defense // 2
    if extra_defense or extra_evasion:
        how = "in full on an Unarmored monster" if armor == "unarmored" else "half, rounded down"
        penalty = (
            ""
            if base.evasion_modifier is None
            else f", Evasion penalty {format_modifier(extra_evasion)}"
        )
        notes.append(f"Extra armor: +{applied} Defense of its {extra_defense} ({how}){penalty}")
    defense = base.defense + trade + applied
    if base.evasion_modifier is None:
        modifier: int | None = None
        evasion: int | None = 0
        if extra_evasion:
            notes.append("Evasion stays 0 on Impervious: the extra armor's penalty doesn't apply")
    else:
        modifier = base.evasion_modifier - trade + extra_evasion
        evasion = None if agility is None else 10 + agility + modifier
    if armor in BALANCE_NOTES:
        notes.append(BALANCE_NOTES[armor])
    if len(enchantment_ranks) > rank:
        warnings.append(
            f"{len(enchantment_ranks)} enchantments on a Rank {rank} monster: "
            f"recommended at most {rank}"
        )
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
        spots=spot_names,
        enchantments=enchantment_ranks,
        order=order,
        material_drop=ORDERS[order] + len(enchantment_ranks),
        warnings=tuple(warnings),
        notes=tuple(notes),
    )
