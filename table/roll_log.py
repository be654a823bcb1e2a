"""The roll log: every `/save` and `/roll` a server channel made, as it was rolled, for the
dice's own report (`table.dice_report`). A roll changes nothing at the table: the log is no
change, has no undo, and is kept apart from the history, up to a bound per channel.

A `Rolled` is what a reply showed: the kind of roll, for which character, the dice (a save's or
a d100's open-ended chain; a dice expression's faces), the total and, for a save, its
difficulty, the exact chance it had before the roll and the outcome. A `LoggedRoll` adds who
rolled it, when (real and game time), whether it was secret, and the interaction it answered
with its place in it (a party save rolls once per character): that pair is kept once.

`roll_to_dict` and `roll_from_dict` are the roll in an export; `roll_from_dict` checks it as the
rules make a roll (a chain that rolls as the dice do, the chance the save had exactly), so a
hand-made file can't put a roll in the log that no command could have made.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from lang import _
from rules.dice import OpenEndedRoll
from rules.errors import RulesError
from rules.saves import (
    LEVEL_LIMIT,
    MODIFIER_LIMIT,
    SaveResult,
    sr_bonus,
    sr_difficulty,
    success_probability,
)

from table.dice_expr import DICE_MAX, EXPRESSION_MAX, DiceRoll
from table.open_ended_expr import MOD_MAX, is_plain_d100

TSR, WSR, D100, DICE = "tsr", "wsr", "d100", "dice"
KINDS = (TSR, WSR, D100, DICE)
SAVES = (TSR, WSR)
# A dice expression can roll numbers of any size (`1d1000000000000000000000`): past this, its
# faces and total are not kept (only the expression), so every number kept fits any database
# column and a JSON reader's double exactly.
NUMBER_MAX = 10**15
# How many rolls a channel keeps (ROLL_LOG_KEEP): a table that meets every week for four hours
# and rolls through the bot twice a minute all evening makes 52 × 4 × 60 × 2 = 24,960 in a year.
# About 250 bytes a roll in the database, and 300 in an export (one line each): 25,000 rolls
# are some 7.5 MB, within the 10 MiB Discord lets a bot upload and /import reads, though not
# beside the longest history a channel may keep (some 10 MiB by itself).
KEEP_DEFAULT = 25_000
KEEP_MIN, KEEP_MAX = 100, 1_000_000
PLACES_MAX = 100_000  # a roll's place among its interaction's (a party save: per character)
# What a save's bonus can be: the SR Bonus of levels 1 to LEVEL_LIMIT, and four modifiers
# (stat, kin, special, situational) of ±MODIFIER_LIMIT.
BONUS_MIN = sr_bonus(1) - 4 * MODIFIER_LIMIT
BONUS_MAX = sr_bonus(LEVEL_LIMIT) + 4 * MODIFIER_LIMIT
DIFFICULTY_MAX = sr_difficulty(LEVEL_LIMIT)  # the highest an Attack Level sets, above any DC


@dataclass(frozen=True)
class Rolled:
    kind: str  # one of KINDS
    character: str | None  # whose save, by name as it was then; None: numbers given, a /roll
    dice: tuple[int, ...]  # a save's or d100's chain, a dice expression's faces
    total: int | None  # None: a dice expression's total past NUMBER_MAX
    expression: str | None = None  # a dice roll's, as typed
    difficulty: int | None = None  # a save's
    chance: Fraction | None = None  # a save's exact chance to succeed, before the roll
    success: bool | None = None  # a save's outcome

    @property
    def is_save(self) -> bool:
        return self.kind in SAVES

    @property
    def first_d100(self) -> int | None:
        """The first d100 of the roll: an open-ended roll's first die, a plain `d100`'s die."""
        if self.kind == DICE:
            plain = self.expression is not None and is_plain_d100(self.expression)
            return self.dice[0] if plain and self.dice else None
        return self.dice[0]


@dataclass(frozen=True)
class LoggedRoll:
    interaction_id: int  # with `place`, kept once: a second delivery adds nothing
    place: int
    at: datetime  # real time, UTC
    clock: int  # the channel's game clock then
    actor_id: int  # who rolled
    secret: bool
    rolled: Rolled
    # Brought by an import that replaced a table: the event number of the channel where the
    # history that came with it starts (its /undo takes the roll away); in an export, that
    # change's number in the file's history (from 1), as an import change's own start is.
    came_with: int | None = None


def save_rolled(result: SaveResult, character: str | None) -> Rolled:
    """A Save Roll as resolved: its chance is the exact one its reply showed rounded."""
    difficulty = result.difficulty.value
    return Rolled(
        result.kind.value,
        character,
        result.roll.dice,
        result.total,
        difficulty=difficulty,
        chance=success_probability(result.bonus, difficulty, result.ties_succeed),
        success=result.success,
    )


def d100_rolled(roll: OpenEndedRoll, mod: int = 0) -> Rolled:
    """`/roll`'s open-ended d100, plus its modifier."""
    return Rolled(D100, None, roll.dice, roll.total + mod)


def dice_rolled(roll: DiceRoll) -> Rolled:
    """A dice expression's roll; its numbers only if they fit (`NUMBER_MAX`)."""
    numbers = (*roll.faces, roll.total)
    if any(abs(number) > NUMBER_MAX for number in numbers):
        return Rolled(DICE, None, (), None, expression=roll.expression)
    return Rolled(DICE, None, roll.faces, roll.total, expression=roll.expression)


# --- in an export ------------------------------------------------------------------------------


def roll_to_dict(roll: LoggedRoll) -> dict[str, Any]:
    """The roll as an export holds it: ids as text, the chance as an exact fraction in text."""
    rolled = roll.rolled
    return {
        "interaction_id": str(roll.interaction_id),
        "place": roll.place,
        "at": roll.at.isoformat(),
        "clock": roll.clock,
        "actor_id": str(roll.actor_id),
        "secret": roll.secret,
        "kind": rolled.kind,
        "character": rolled.character,
        "dice": list(rolled.dice),
        "total": rolled.total,
        "expression": rolled.expression,
        "difficulty": rolled.difficulty,
        "chance": None if rolled.chance is None else str(rolled.chance),
        "success": rolled.success,
        "came_with": roll.came_with,
    }


def roll_from_dict(data: dict[str, Any]) -> LoggedRoll:
    """A roll from an export (its shape checked by the schema), checked as the rules make one;
    a RulesError says what doesn't fit. Its character's name is checked with the rest of the
    file (`table.imported.rolls`)."""
    at = datetime.fromisoformat(data["at"])
    if at.tzinfo is None:
        raise RulesError(_("a time needs its UTC offset"))
    rolled = _rolled(data["kind"], tuple(data["dice"]), data["total"], data)
    return LoggedRoll(
        interaction_id=int(data["interaction_id"]),
        place=data["place"],
        at=at.astimezone(UTC),
        clock=data["clock"],
        actor_id=int(data["actor_id"]),
        secret=data["secret"],
        rolled=replace(rolled, character=data["character"]),
        came_with=data["came_with"],
    )


def _rolled(kind: str, dice: tuple[int, ...], total: Any, data: dict[str, Any]) -> Rolled:
    save = (data["difficulty"], data["chance"], data["success"])
    if kind == DICE:
        return _dice(data["expression"], dice, total, save)
    roll = OpenEndedRoll.from_dice(dice)  # refuses a chain no d100 rolls
    if data["expression"] is not None:
        raise RulesError(_("only a dice roll has an expression"))
    if kind == D100:
        return _d100(roll, total, save)
    return _save(kind, roll, total, *save)


def _dice(expression: Any, dice: tuple[int, ...], total: Any, save: tuple[Any, ...]) -> Rolled:
    if not isinstance(expression, str) or not 1 <= len(expression) <= EXPRESSION_MAX:
        raise RulesError(
            _("a dice roll's expression is 1 to {most} characters", most=EXPRESSION_MAX)
        )
    if len(dice) > DICE_MAX or any(not 0 <= face <= NUMBER_MAX for face in dice):
        raise RulesError(_("a dice roll holds at most {most} dice as rolled", most=DICE_MAX))
    if (total is None) != (not dice) or (total is not None and abs(total) > NUMBER_MAX):
        raise RulesError(_("a dice roll's total is kept with its dice, or neither"))
    _not_a_save(save)
    return Rolled(DICE, None, dice, total, expression=expression)


def _d100(roll: OpenEndedRoll, total: Any, save: tuple[Any, ...]) -> Rolled:
    if total is None or abs(total - roll.total) > MOD_MAX:
        raise RulesError(_("a d100's total is its dice plus at most ±{most}", most=f"{MOD_MAX:,}"))
    _not_a_save(save)
    return Rolled(D100, None, roll.dice, total)


def _not_a_save(save: tuple[Any, ...]) -> None:
    if any(value is not None for value in save):
        raise RulesError(_("only a save has a difficulty, a chance and an outcome"))


def _save(
    kind: str, roll: OpenEndedRoll, total: Any, difficulty: Any, chance: Any, success: Any
) -> Rolled:
    """A save as `rules.saves.resolve` makes one: a bonus (its total less its dice) a save can
    have, and the exact chance that bonus had against the difficulty, ties failing or not."""
    if total is None or difficulty is None or chance is None or success is None:
        raise RulesError(_("a save keeps its total, difficulty, chance and outcome"))
    bonus = total - roll.total
    if not BONUS_MIN <= bonus <= BONUS_MAX:
        raise RulesError(
            _(
                "a save's total is its dice plus a bonus of {least} to {most}",
                least=BONUS_MIN,
                most=f"{BONUS_MAX:,}",
            )
        )
    if not 1 <= difficulty <= DIFFICULTY_MAX:
        raise RulesError(_("a save's difficulty is 1 to {most}", most=f"{DIFFICULTY_MAX:,}"))
    exact = Fraction(chance)
    ties = [t for t in (False, True) if success_probability(bonus, difficulty, t) == exact]
    if not ties:
        raise RulesError(_("{chance} is not the chance this save had", chance=chance[:40]))
    if all(success != (total > difficulty or (tie and total == difficulty)) for tie in ties):
        raise RulesError(_("this save's outcome is not what its total makes it"))
    return Rolled(kind, None, roll.dice, total, None, difficulty, exact, success)
