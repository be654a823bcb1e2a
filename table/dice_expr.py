"""Ordinary dice expressions (`2d6+3`, `4d6kh3`, `1d6e6`) rolled by avrae's d20 library.

Pure (no Discord): the randomness is injected, the size of a roll is capped so nobody can make
the bot roll forever, and every d20 error becomes a RulesError a player can read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import d20
from lang import N_, _
from rules.dice import DieSource
from rules.errors import RulesError

EXPRESSION_MAX = 100  # characters
DICE_MAX = 1000  # dice per expression, rerolls and explosions included
WORKING_MAX = 1000  # characters of working shown; more is a wall of numbers on a phone
_ANNOTATION_OR_DICE = re.compile(r"\[[^\]]*\]|[^\[]+")  # `[fire]`, or the dice between
# What Discord would read as formatting or a mention in a player's `[annotation]`.
_MARKUP = re.compile(r"[\\*_~`|<>@#]")
EXAMPLES = N_("`2d6+3`, `4d6kh3` or `1d6e6`")  # the joining word is translated
# d20's own refusals, in its words (English), and how each reads translated.
_BARE_NUMBER = re.compile(r"[+-]? *[0-9]{1,7}")
_D20_FIXED = {"Cannot divide by zero.": N_("Cannot divide by zero.")}
_D20_SELECTOR = re.compile(r"(.{1,40}) is not a valid selector for (minimums|maximums)\.")


# d20 rolls with the module-level generator; these subclasses make it roll with ours, carried
# by the roll context d20 already hands to every die (and teach its stringifier the new types).
class _Context(d20.RollContext):
    def __init__(self, rng: DieSource, max_rolls: int) -> None:
        super().__init__(max_rolls)
        self.rng = rng
        self.faces: list[int] = []  # every die as it came up, in order: the roll log keeps them


class _Die(d20.Die):
    __slots__ = ()

    def _add_roll(self) -> None:
        if self.size != "%" and self.size < 1:
            raise d20.RollValueError(_("Cannot roll a 0-sided die"))
        context: _Context = self._context
        context.count_roll()
        # d% is a tens die (00–90), as d20 rolls it.
        value = (
            context.rng.randint(0, 9) * 10
            if self.size == "%"
            else context.rng.randint(1, self.size)
        )
        context.faces.append(value)
        self.values.append(d20.Literal(value))


class _Dice(d20.Dice):
    __slots__ = ()

    @classmethod
    def new(cls, num: int, size: int | str, context: d20.RollContext | None = None) -> _Dice:
        return cls(
            num, size, [_Die.new(size, context=context) for _ in range(num)], context=context
        )

    def roll_another(self) -> None:
        self.values.append(_Die.new(self.size, context=self._context))


class _Markdown(d20.MarkdownStringifier):
    def __init__(self) -> None:
        super().__init__()
        self._nodes: Mapping[type, Callable[[Any], str]] = {
            **self._nodes,
            _Dice: self._str_dice,
            _Die: self._str_die,
        }

    def _stringify(self, node: d20.Number) -> str:
        # An annotation is the player's own text: shown as typed, never as markdown (a stray
        # backtick would swallow the total) nor as a mention pill.
        annotation = node.annotation
        if not annotation:
            return str(super()._stringify(node))
        node.annotation = None
        try:
            inside = str(super()._stringify(node))
        finally:
            node.annotation = annotation
        return f"{inside} {_plain_text(annotation)}"


class _Roller(d20.Roller):
    def __init__(self, rng: DieSource) -> None:
        super().__init__(_Context(rng, DICE_MAX))
        self._nodes: Mapping[type, Callable[[Any], d20.Number]] = {
            **self._nodes,
            d20.ast.Dice: self._eval_our_dice,
        }

    def _eval_our_dice(self, node: d20.ast.Dice) -> _Dice:
        return _Dice.new(node.num, node.size, context=self.context)


@dataclass(frozen=True)
class DiceRoll:
    expression: str  # as typed, trimmed
    working: str  # d20's markdown: `2d6 (2, **6**) + 3 = `11``
    total: int
    faces: tuple[int, ...] = ()  # every die rolled, in order, rerolls and explosions included


def bare_modifier(expression: str, most: int) -> int | None:
    """A plain number (`25`, `+25`, `-10`) typed where dice go: the open-ended d100's modifier,
    not dice. None for anything else; a RulesError past ±`most`."""
    text = expression.strip().replace("\u2212", "-")  # a phone's minus sign reads as one
    if _BARE_NUMBER.fullmatch(text) is None:
        return None
    number = int(text.replace(" ", ""))
    if abs(number) > most:
        raise RulesError(_("The d100's modifier is between −{most} and +{most}", most=most))
    return number


def roll_expression(expression: str, rng: DieSource) -> DiceRoll:
    """Roll `expression` with `rng`, or a RulesError naming what is wrong with it."""
    expression = expression.strip()
    if not 1 <= len(expression) <= EXPRESSION_MAX:
        raise RulesError(_("Dice expressions are 1 to {most} characters long", most=EXPRESSION_MAX))
    try:
        roller = _Roller(rng)
        result = roller.roll(_dice_case(expression), stringifier=_Markdown())
        # d20 works totals out lazily, so errors such as 1/0 surface here, inside the try.
        working = result.result
        if len(working) > WORKING_MAX:
            working = _summary(result.expr, roller.context.rolls)
        return DiceRoll(expression, working, result.total, tuple(roller.context.faces))
    except d20.TooManyRolls:
        raise RulesError(
            _(
                "`{expression}` rolls too many dice: at most {most}, rerolls and explosions "
                "included",
                expression=expression,
                most=DICE_MAX,
            )
        ) from None
    except d20.RollSyntaxError as error:
        got = str(error.got)
        if got:
            problem = _(
                "{got} at character {column} doesn't fit", got=repr(got[:20]), column=error.col
            )
        else:
            problem = _("it stops too soon")
        raise RulesError(
            _(
                "I can't read `{expression}` as dice: {problem}. Try something like {examples}",
                expression=expression,
                problem=problem,
                examples=_(EXAMPLES),
            )
        ) from None
    except d20.RollError as error:
        raise RulesError(
            _("I can't roll `{expression}`: {error}", expression=expression, error=_reason(error))
        ) from None


class _Lowest:
    """Every die shows 1: a roll made only to check that an expression can be rolled."""

    def randint(self, a: int, b: int) -> int:
        return a


INIT_DICE_MAX = 30  # characters: a setting's dice, shown in /settings show


def check_dice(expression: object) -> str:
    """`expression` if it is dice that can be rolled (a setting's: `1d10`, `1d20+2`)."""
    if not isinstance(expression, str) or not 1 <= len(expression.strip()) <= INIT_DICE_MAX:
        raise RulesError(_("Initiative dice are 1 to {most} characters", most=INIT_DICE_MAX))
    roll_expression(expression, _Lowest())
    return expression


def _reason(error: d20.RollError) -> str:
    """d20's refusal in the reader's language where its words are known (the 0-sided die is
    ours, raised translated); anything else as d20 wrote it."""
    text = str(error)
    if text in _D20_FIXED:
        return _(_D20_FIXED[text])
    selector = _D20_SELECTOR.fullmatch(text)
    if selector is None:
        return text
    if selector[2] == "minimums":
        return _("{selector} is not a valid selector for minimums.", selector=selector[1])
    return _("{selector} is not a valid selector for maximums.", selector=selector[1])


def _dice_case(expression: str) -> str:
    """`2D6+1D4 [Fire]` → `2d6+1d4 [Fire]`: d20 reads only lower case, and a phone capitalises
    the first letter (`D20`); annotations stay as typed."""
    return _ANNOTATION_OR_DICE.sub(
        lambda m: m[0] if m[0].startswith("[") else m[0].lower(), expression
    )


def _plain_text(text: str) -> str:
    return _MARKUP.sub(lambda match: "\\" + match.group(), text)


class _Totals(_Markdown):
    """The working with each dice term as its total: `1000d6kh1 (total 6) + 5 = `11``."""

    def _str_dice(self, node: d20.Dice) -> str:
        dice = f"{node.num}d{node.size}{self._str_ops(node.operations)}"
        return _("{dice} (total {total})", dice=dice, total=int(node.number))


def _summary(expr: d20.Expression, dice: int) -> str:
    too_many = _("{count} dice: too many to show each one", count=dice)
    return f"{_Totals().stringify(expr)}\n*{too_many}*"
