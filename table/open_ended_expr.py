"""How `/roll dice:` names the open-ended d100 (docs/rules.md#14-other-dice).

`d100oe` is the open-ended d100, `d100oe+25` with a modifier, and a plain number (`25`) is that
modifier alone. A bare `d100` (`1d100`, `d100+25`) stays an ordinary die, rolled by d20 as
typed; the reply only points to the open-ended roll the rules use, since that is what a player
typing it usually meant.
"""

from __future__ import annotations

import re

from table.dice_expr import bare_modifier

MOD_MAX = 1000  # the open-ended d100's modifier on `/roll`, either way it is given
_OPEN_ENDED = re.compile(r"1?d100oe([+-][0-9]{1,7})?")
_PLAIN_D100 = re.compile(r"1?d100([+-][0-9]{1,7})?")


def _squeezed(expression: str) -> str:
    """Lower case, no spaces, a phone's minus sign as `-`: `D100OE + 5` → `d100oe+5`."""
    return "".join(expression.split()).lower().replace("\u2212", "-")


def open_ended_modifier(expression: str, most: int) -> int | None:
    """The open-ended d100's modifier that `expression` asks for (`d100oe` → 0, `d100oe-10` →
    −10, `25` → 25), or None when it is other dice. A RulesError past ±`most`."""
    number = bare_modifier(expression, most)
    if number is not None:
        return number
    match = _OPEN_ENDED.fullmatch(_squeezed(expression))
    if match is None:
        return None
    return bare_modifier(match[1] or "0", most)


def is_plain_d100(expression: str) -> bool:
    """`d100`, `1d100` or `d100+25`: one ordinary d100, which never rolls again."""
    return _PLAIN_D100.fullmatch(_squeezed(expression)) is not None
