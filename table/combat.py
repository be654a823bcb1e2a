"""The turn order of a fight (`/init`): who is in it, by score, and whose turn it is.

A pure value like the rest of the table; the changes `/init` makes are in `table.initiative`.
Highest score acts first; between equal scores, the higher initiative bonus; between equal
bonuses too, the higher roll-off, rolled when the tie arose and kept with the order (so `/undo`
and `/redo` bring the same order back), never the order they were added in.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from lang import N_, _
from rules.errors import RulesError
from rules.text import plain

from table.checks import check_int
from table.names import NAME_MAX, name_key

SCORE_LIMIT = 1000  # scores within ±1,000
COMBATANTS_MAX = 25  # not a rule: the order fits one list and one autocomplete page
INIT_BONUS_MAX = 100  # not a rule: an initiative bonus within ±100 (`/init add` adds it)
ROLLOFF_DIE = 100  # a tie at score and bonus is broken by a d100 each, rolled until they differ
Kind = Literal["character", "monster", "other"]
KINDS: tuple[str, ...] = ("character", "monster", "other")


def check_score(score: object) -> int:
    if isinstance(score, bool) or not isinstance(score, int):
        raise RulesError(_("An initiative score must be a whole number"))
    if not -SCORE_LIMIT <= score <= SCORE_LIMIT:
        raise RulesError(
            _(
                "An initiative score must be between {low} and {high}",
                low=plain(-SCORE_LIMIT),
                high=plain(SCORE_LIMIT),
            )
        )
    return score


@dataclass(frozen=True)
class Combatant:
    name: str
    score: int
    added: int  # the order it was added in: ties keep it
    kind: Kind = "other"  # a stored character, a monster of the bestiary, or just a name
    owner_id: int | None = None  # a character's player
    bonus: int = 0  # its initiative bonus: breaks a tie of scores
    rolloff: int = 0  # its roll-off against those tied with it at score and bonus (0: none)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not 1 <= len(self.name) <= NAME_MAX:
            raise RulesError(
                _("A name in the initiative must be 1 to {most} characters", most=NAME_MAX)
            )
        check_score(self.score)
        check_int(self.bonus, N_("Initiative bonus"), -INIT_BONUS_MAX, INIT_BONUS_MAX)
        check_int(self.rolloff, N_("Roll-off"), 0, ROLLOFF_DIE)
        if self.kind not in KINDS:
            raise RulesError(_("A combatant is a character, a monster or another name"))

    @property
    def key(self) -> str:
        return name_key(self.name)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "score": self.score,
            "added": self.added,
            "kind": self.kind,
            "owner_id": self.owner_id,
            "bonus": self.bonus,
            "rolloff": self.rolloff,
        }

    @property
    def tie(self) -> tuple[int, int]:
        """What two combatants must share to tie: their score and their bonus."""
        return self.score, self.bonus


def turn_order(combatant: Combatant) -> tuple[int, int, int, int]:
    """Highest score first, then the higher bonus, then the higher roll-off (the order added
    only between two that never tied: a roll-off is rolled whenever a tie arises)."""
    return -combatant.score, -combatant.bonus, -combatant.rolloff, combatant.added


@dataclass(frozen=True)
class Initiative:
    """Combatants in turn order; `round` 0 until `/init start`, then whose `turn` it is (an
    index into `combatants`). `reached`: the furthest round the fight has come to, whose step of
    the clock was taken (`/init prev` steps back without taking it back, so going forward
    again does not take it twice)."""

    combatants: tuple[Combatant, ...] = ()
    round: int = 0
    turn: int = 0
    reached: int = 0

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.combatants, key=turn_order))
        keys = [c.key for c in ordered]
        if len(set(keys)) != len(keys):
            raise RulesError(_("A name can be in the initiative only once"))
        object.__setattr__(self, "combatants", ordered)
        if self.round < 0 or not (0 <= self.turn < max(1, len(ordered))):
            raise RulesError(_("The initiative's round and turn are out of range"))
        if self.round and not ordered:
            raise RulesError(_("An initiative with nobody in it can't run"))
        object.__setattr__(self, "reached", max(self.reached, self.round))

    @property
    def running(self) -> bool:
        return self.round > 0

    @property
    def current(self) -> Combatant | None:
        return self.combatants[self.turn] if self.running else None

    def find(self, name: str) -> Combatant | None:
        key = name_key(name)
        return next((c for c in self.combatants if c.key == key), None)

    def follow(self, old: str, name: str, owner_id: int | None) -> Initiative:
        """A character renamed or given to another player keeps its place (score, tie order,
        turn) under its new name: the order holds names, not characters."""
        there = self.find(old)
        if there is None or there.kind != "character":
            return self
        taken = self.find(name)
        if taken is not None and taken.key != there.key:
            raise RulesError(
                _(
                    "{name} is already in the initiative: pick another name, or"
                    " `/init remove` it first",
                    name=taken.name,
                )
            )
        moved = replace(there, name=name, owner_id=owner_id)
        return replace(self, combatants=tuple(moved if c is there else c for c in self.combatants))

    def to_dict(self) -> dict[str, Any]:
        return {
            "combatants": [c.to_dict() for c in self.combatants],
            "round": self.round,
            "turn": self.turn,
            "reached": self.reached,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Initiative:
        if not data:
            return cls()
        combatants = tuple(Combatant(**c) for c in data["combatants"])
        return cls(combatants, data["round"], data["turn"], data.get("reached", 0))
