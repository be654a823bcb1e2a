"""A monster of the channel's bestiary, as the table keeps it (its operations: `table.bestiary`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from lang import N_, _
from rules.defense import FACINGS, MonsterBlock
from rules.errors import RulesError

from table.checks import check_int
from table.combat import INIT_BONUS_MAX
from table.names import NAME_MAX, name_key

HP_MAX = 100_000  # not a rule: a bound that keeps typos out of a monster's HP
# How hurt a monster looks, the words the players get instead of its HP (`Monster.wounds`):
# marked here, translated where shown (the turn order, /monster show, a hit, its picture).
UNHURT, HURT, BADLY_HURT, DEFEATED = N_("unhurt"), N_("hurt"), N_("badly hurt"), N_("defeated")


@dataclass(frozen=True)
class Monster:
    """A monster of the channel's bestiary: its build inputs (`MonsterBlock.to_dict()`), its HP
    when the GM tracks it (it may fall to 0 or below: down), its facing (a compass point),
    whether it is still the GM's preparation (`hidden`: made, not yet appeared; nothing the
    players read names it, `table.sight`), and the bonus `/init add` adds to its roll."""

    name: str
    build: dict[str, Any]
    hp_max: int | None = None
    hp: int | None = None  # None with an hp_max: starts at full HP
    facing: str = "N"
    hidden: bool = False
    init_bonus: int = 0

    def __post_init__(self) -> None:
        name = " ".join(self.name.split()) if isinstance(self.name, str) else ""
        if not name:
            raise RulesError(_("A monster needs a name"))
        if len(name) > NAME_MAX:
            raise RulesError(
                _("A monster's name must be {most} characters or fewer", most=NAME_MAX)
            )
        object.__setattr__(self, "name", name)
        if not isinstance(self.build, Mapping):
            raise RulesError(_("A monster's build must be a mapping of its build inputs"))
        # Stored canonical (every input, armor in lower case, spots in order) so equal monsters
        # compare equal; a bad build fails here, not when it is shown. The block is kept (not a
        # field: compared via the build): a hit, the roster and the reply read it, not rebuild it.
        block = MonsterBlock.from_dict(self.build)
        object.__setattr__(self, "build", block.to_dict())
        object.__setattr__(self, "_block", block)
        if self.hp_max is None:
            if self.hp is not None:
                raise RulesError(_("A monster's HP can only be tracked with its maximum HP"))
        else:
            check_int(self.hp_max, N_("Maximum HP"), 1, HP_MAX)
            hp = self.hp_max if self.hp is None else self.hp
            check_int(hp, N_("HP"), -(2**62), self.hp_max)
            object.__setattr__(self, "hp", hp)
        if self.facing not in FACINGS:
            raise RulesError(_("Facing must be one of {choices}", choices=", ".join(FACINGS)))
        if self.hidden not in (0, 1):  # also takes SQLite's 0/1, kept as a real bool
            raise RulesError(_("A monster is hidden or not"))
        object.__setattr__(self, "hidden", bool(self.hidden))
        check_int(self.init_bonus, N_("Initiative bonus"), -INIT_BONUS_MAX, INIT_BONUS_MAX)

    @property
    def key(self) -> str:
        return name_key(self.name)

    @property
    def block(self) -> MonsterBlock:
        """The stat block the rules built from the inputs."""
        block: MonsterBlock = self._block  # type: ignore[attr-defined]  # set in __post_init__
        return block

    def hurt(self, taken: int) -> Monster:
        """The same monster with `taken` off its tracked HP."""
        if self.hp is None or self.hp_max is None:  # a bug: the hit checks it first
            raise ValueError(f"{self.name}'s HP is not tracked")
        hp = check_int(self.hp - taken, N_("HP"), -(2**62), self.hp_max)
        return replace(self, hp=hp)

    @property
    def down(self) -> bool:
        return self.hp is not None and self.hp <= 0

    @property
    def wounds(self) -> str | None:
        """How hurt it looks, never its numbers (`looks`)."""
        return looks(self.hp, self.hp_max)


def looks(hp: int | None, hp_max: int | None) -> str | None:
    """How hurt a monster at `hp` of `hp_max` looks: unhurt at full HP, hurt, badly hurt at half
    its HP or less, defeated at 0 or below; None when its HP is not tracked."""
    if hp is None or hp_max is None:
        return None
    if hp <= 0:
        return DEFEATED
    if hp >= hp_max:
        return UNHURT
    return HURT if 2 * hp > hp_max else BADLY_HURT
