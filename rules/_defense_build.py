"""Building a monster's defenses: trade, extra armor, Evasion, spots, enchantments, drops."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from lang import N_, _

from rules._defense_enchant import check_enchantments, enchantment_warning
from rules._defense_spots import IT, UnarmoredSpot, check_spots, find_spot
from rules._defense_table import (
    ARMOR_NAMES,
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
# Marked messages in English: a block's `notes` hold them translated.
BALANCE_NOTES: dict[str, str] = {
    "extreme": N_(
        "Balance: to harm it, foes will likely need attacks that deal twice their Trait "
        "in damage (2 × Trait)"
    ),
    "impervious": N_(
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
    """A monster's finished defenses. Every field is a plain JSON-friendly value; `warnings`
    and `notes` are in the language of the interaction the block was built for.

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

    def spot(self, name: object, whose: str = IT) -> UnarmoredSpot:
        """The unarmored spot of this name, or an error naming `whose` spots and the ones it has."""
        return find_spot(self.spots, name, whose)

    def revealing(self, name: object, whose: str = IT) -> MonsterBlock:
        """This block with the named spot revealed; an error if it is already revealed."""
        spot = self.spot(name, whose)
        if spot.revealed:
            raise RulesError(_("The {spot} spot is already revealed", spot=spot.name))
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
                return _(
                    "Evasion {evasion} (set to 0, extra armor {extra})",
                    evasion=plain(self.evasion or 0),
                    extra=extra,
                )
            return format_modifier(None)
        modifier = format_modifier(self.evasion_modifier)
        if self.evasion is None:
            return _("Evasion modifier {modifier}", modifier=modifier)
        return _("Evasion {evasion} ({modifier})", evasion=self.evasion, modifier=modifier)

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
            raise RulesError(_("A stored monster must be a mapping of its build inputs"))
        if _LEGACY_ENCHANTMENTS in data:
            data = dict(data)
            if "armor_enchantments" in data:
                raise RulesError(_("A stored monster has both old and new enchantment lists"))
            data["armor_enchantments"] = data.pop(_LEGACY_ENCHANTMENTS)
        unknown = sorted(set(data) - set(_INPUTS))
        if unknown:
            raise RulesError(
                _(
                    "Unknown monster field '{field}': use {fields}",
                    field=unknown[0],
                    fields=", ".join(_INPUTS),
                )
            )
        if "rank" not in data or "armor" not in data:
            raise RulesError(_("A stored monster needs at least its rank and armor"))
        kwargs = {name: value for name, value in data.items() if name not in ("rank", "armor")}
        return build_monster(data["rank"], data["armor"], **kwargs)  # type: ignore[arg-type]


def _check_trade(trade: int, defense: int, modifier: int | None, armor: str) -> None:
    """+k Defense for −k modifier or the reverse; Defense stays ≥ 0 and the modifier ≤ 0."""
    if trade == 0:
        return
    if modifier is None:
        raise RulesError(
            _(
                "Impervious armor can't trade Defense and Evasion (trade {trade}): its Evasion "
                "is already set to 0",
                trade=format_modifier(trade),
            )
        )
    if trade > 0:
        return  # more Defense, a deeper penalty: no bound in the rules
    allowed = min(defense, -modifier)
    where = _(
        "{armor} has Defense {defense}, Evasion modifier {modifier}",
        armor=_(ARMOR_NAMES[armor]),
        defense=defense,
        modifier=format_modifier(modifier),
    )
    if allowed == 0:
        raise RulesError(
            _(
                "Can't trade Defense for Evasion (trade {trade}): {where}, and Defense can't go "
                "below 0 nor the modifier above 0. Trade must be 0 or more",
                trade=format_modifier(trade),
                where=where,
            )
        )
    if -trade > allowed:
        raise RulesError(
            _(
                "Trade {trade} goes too far: {where}, so trade can go down to {lowest} at most "
                "(Defense can't go below 0 nor the modifier above 0)",
                trade=format_modifier(trade),
                where=where,
                lowest=plain(-allowed),
            )
        )


def _check_order(order: object) -> str:
    name = order.strip().lower().replace("-", "").replace(" ", "") if isinstance(order, str) else ""
    if name not in ORDERS:
        raise RulesError(
            _("Unknown order '{order}': choose {choices}", order=order, choices=", ".join(ORDERS))
        )
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
    trade = check_int(trade, N_("Trade"))
    if not -TRADE_LIMIT <= trade <= TRADE_LIMIT:
        raise RulesError(
            _(
                "A trade must be between {low} and {high}",
                low=plain(-TRADE_LIMIT),
                high=TRADE_LIMIT,
            )
        )
    _check_trade(trade, base.defense, base.evasion_modifier, armor)
    extra_defense = check_int(extra_defense, N_("Extra armor's Defense"))
    extra_evasion = check_int(extra_evasion, N_("Extra armor's Evasion penalty"))
    if not 0 <= extra_defense <= EXTRA_DEFENSE_MAX:
        raise RulesError(
            _(
                "Extra armor's Defense must be 0 to {most} (got {got})",
                most=EXTRA_DEFENSE_MAX,
                got=plain(extra_defense),
            )
        )
    if not EXTRA_EVASION_MIN <= extra_evasion <= 0:
        raise RulesError(
            _(
                "Extra armor's Evasion penalty must be {least} to 0, e.g. -2 (got {got})",
                least=plain(EXTRA_EVASION_MIN),
                got=plain(extra_evasion),
            )
        )
    if agility is not None:
        agility = check_int(agility, N_("Agility"))
        if agility not in AGILITY_RANGE:
            raise RulesError(
                _(
                    "Agility must be {low} to {high}",
                    low=AGILITY_RANGE.start,
                    high=AGILITY_RANGE.stop - 1,
                )
            )
    checked_spots = check_spots(spots)
    on_armor = check_enchantments(armor_enchantments, rank, "armor")
    on_weapons = check_enchantments(weapon_enchantments, rank, "weapon")
    order = _check_order(order)

    notes: list[str] = []
    warnings: list[str] = []
    # Extra armor counts in full only on an Unarmored monster.
    applied = extra_defense if armor == "unarmored" else extra_defense // 2
    if extra_defense or extra_evasion:
        if armor == "unarmored":
            how = _("in full on an Unarmored monster")
        else:
            how = _("half, rounded down")
        penalty = ""
        if extra_evasion:
            penalty = _(", Evasion penalty {penalty}", penalty=format_modifier(extra_evasion))
        if extra_evasion and base.evasion_modifier is None:
            penalty += _(" (in full, even on Impervious)")  # the text: "full Evasion penalty"
        notes.append(
            _(
                "Extra armor: +{applied} Defense of its {extra} ({how}){penalty}",
                applied=applied,
                extra=extra_defense,
                how=how,
                penalty=penalty,
            )
        )
    defense = base.defense + trade + applied
    if base.evasion_modifier is None:
        # "Set to 0" replaces the table's modifier only: the extra armor's full penalty applies.
        modifier: int | None = None
        evasion: int | None = extra_evasion
    else:
        modifier = base.evasion_modifier - trade + extra_evasion
        evasion = None if agility is None else 10 + agility + modifier
    if armor in BALANCE_NOTES:
        notes.append(_(BALANCE_NOTES[armor]))
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
