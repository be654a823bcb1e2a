"""Partial armor (docs/rules.md#47-partial-armor): spots, Hard to Hit or not, hidden or revealed.

The text: "Unarmored spots are typically Hard to Hit, and/or must be revealed in some way", so a
spot is Hard to Hit and hidden unless the GM says otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from lang import N_, _

from rules._defense_facing import HARD_TO_HIT, SPOTS, spot_name, spot_text
from rules.errors import RulesError

_KEYS = frozenset({"spot", "hard_to_hit", "revealed"})
IT = N_("It")  # how an error names a monster whose name it wasn't given


@dataclass(frozen=True)
class UnarmoredSpot:
    """One unarmored spot: where it is relative to the monster's facing, and how it is found."""

    name: str
    hard_to_hit: bool = True
    revealed: bool = False

    @property
    def hidden(self) -> bool:
        return not self.revealed

    @property
    def line(self) -> str:
        """'back (Hard to Hit: −2 to hit)', or just 'back'."""
        name = spot_text(self.name)
        return f"{name} ({_(HARD_TO_HIT)})" if self.hard_to_hit else name

    def to_dict(self) -> dict[str, object]:
        return {"spot": self.name, "hard_to_hit": self.hard_to_hit, "revealed": self.revealed}


def _flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise RulesError(_("A spot's {what} must be true or false", what=_(what)))
    return value


def as_spot(value: object) -> UnarmoredSpot:
    """A spot from its name (Hard to Hit, hidden), a mapping as `to_dict` writes it, or itself."""
    if isinstance(value, UnarmoredSpot):
        return UnarmoredSpot(spot_name(value.name), value.hard_to_hit, value.revealed)
    if isinstance(value, Mapping):
        unknown = sorted(set(value) - _KEYS)
        if unknown or "spot" not in value:
            raise RulesError(_("A stored spot needs its name ('spot') and nothing unknown"))
        return UnarmoredSpot(
            spot_name(value["spot"]),
            _flag(value.get("hard_to_hit", True), N_("Hard to Hit")),
            _flag(value.get("revealed", False), N_("revealed")),
        )
    return UnarmoredSpot(spot_name(value))


def check_spots(spots: object) -> tuple[UnarmoredSpot, ...]:
    """Each spot once, clockwise from the front."""
    if isinstance(spots, str | Mapping | UnarmoredSpot):
        spots = (spots,)
    if not isinstance(spots, Iterable):
        raise RulesError(_("Spots must be a list"))
    checked = [as_spot(spot) for spot in spots]
    names = [spot.name for spot in checked]
    for name in names:
        if names.count(name) > 1:
            raise RulesError(
                _("Spot '{name}' is listed twice: each spot counts once", name=spot_text(name))
            )
    return tuple(sorted(checked, key=lambda spot: SPOTS.index(spot.name)))


def find_spot(spots: tuple[UnarmoredSpot, ...], name: object, whose: str = IT) -> UnarmoredSpot:
    """The monster's spot of this name, or an error naming the monster (`whose`) and its spots."""
    wanted = spot_name(name)
    for spot in spots:
        if spot.name == wanted:
            return spot
    who = _(IT) if whose == IT else whose  # a monster's own name is never translated
    if not spots:
        raise RulesError(_("{whose} has no unarmored spots", whose=who))
    have = ", ".join(spot_text(spot.name) for spot in spots)
    raise RulesError(
        _(
            "{whose} has no unarmored spot at its {wanted} (its unarmored spots: {have})",
            whose=who,
            wanted=spot_text(wanted),
            have=have,
        )
    )


def pick_spots(spots: tuple[UnarmoredSpot, ...], names: Iterable[object], what: str) -> set[str]:
    """The names of `spots` that `names` picks out (for `easy` and `revealed`), each one of them;
    `what` (a marked message) says what they are picked as."""
    picked: set[str] = set()
    have = {spot.name for spot in spots}
    for name in names:
        wanted = spot_name(name)
        if not have:
            raise RulesError(
                _(
                    "'{wanted}' is given as {what}, but no unarmored spots are given: add `spots:`",
                    wanted=spot_text(wanted),
                    what=_(what),
                )
            )
        if wanted not in have:
            listed = ", ".join(spot_text(s) for s in sorted(have, key=SPOTS.index))
            raise RulesError(
                _(
                    "'{wanted}' is given as {what} but isn't one of the unarmored spots ({listed})",
                    wanted=spot_text(wanted),
                    what=_(what),
                    listed=listed,
                )
            )
        picked.add(wanted)
    return picked
