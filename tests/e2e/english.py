"""Finding English left in a reply meant for a Spanish reader.

`english_words(text, names)` lists the common English words in `text` (lower case, in order),
so a test can say `assert not english_words(reply_text(reply), {"Aria"})`.

What it does not count, because a Spanish reply keeps it on purpose:
- the game's own terms (TSR, WSR, FP, VP, HD, SR, Rank, d100, HP, FL: never in the list);
- user-chosen names, given as `names` (a character "Fresh Bob" must not count as English);
- Discord markup: mentions `<@1>`, `<@&2>`, `<#3>`, timestamps `<t:…:f>`, links;
- an admin's environment names (`SOURCE_URL`);
- the compass points SO and NO in capitals (Spanish for SW and NW);
- command and option names, which stay English: anything in backticks, and `/command` with
  its subcommand (`/settings set`, `/undo`).
The list holds only words that are not also Spanish ("no", "a", "total", "base", "material",
"normal", "general", "has" are left out), so a correct Spanish reply gives none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

WORDS = frozenset(
    """
    the and you your yours of to is are was were be been have had with not only yet
    it its this that these those there here who what which when where why how for from by
    at on in into or an if then than but so all any some each every both more most less
    can cannot will would should must may might do does did done
    roll rolls rolled save saves level levels difficulty bonus rest rests rested round rounds
    party character characters monster monsters fatigue spend spends spent hit hits
    success failure succeed succeeds fail fails failed margin chance chances points point
    attack spell cast vs per modifier special kin fortitude wisdom toughness stats
    fresh fatigued tired exhausted shattered cap caps band bands maximum temporary
    damage fading alone ahead until since over now nothing changed change changes
    clock game day time minute minutes break short long page pages player players turn turns
    begins ends started stopped joins leaves ended initiative nobody already
    defense evasion armor armour spot spots hidden revealed facing front back side left right
    square taken takes defeated tracked partial unarmored trade heavy light medium extreme
    impervious civilian enchantments weapons materials drop notes warnings miniboss boss
    settings setting server channel channels ties tie length rate threads thread history
    kept latest newest older first struck undo undone reverts shows both
    about version uptime database shard links source support rules reference published
    secret made see result revealed gm gms role members manage default none own shared
    table tables keeps play set show list remove removed create created kept cancelled
    answer within again yet one two three name names classes class single multiclass
    dualclass inputs directly sheet apply vitality clears tally nothing left alone
    """.split()  # noqa: SIM905 - a block of words reads and edits better than a list
)

SUBCOMMANDS = frozenset(
    """
    set server show create remove list spend recover temp clear_vp reset break short long
    minutes round pass build face reveal hit add start next end tsr wsr party
    """.split()  # noqa: SIM905
)

_MARKUP = re.compile(
    r"<(?:@[!&]?|#|t:)[^>]*>"  # mentions, channels, timestamps
    r"|https?://\S+"  # links
    r"|`[^`]*`"  # code: command names and option syntax
    r"|/help command:[a-z-]+(?: [a-z_]+)?"  # a footer (no markdown there) naming a command
    r"|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b"  # settings' environment names (SOURCE_URL)
    r"|\b(?:SO|NO)\b"  # compass points in capitals: Spanish for south-west and north-west
)
_COMMAND = re.compile(r"/[a-z][a-z_-]*(?: ([a-z_]+))?")
_WORD = re.compile(r"[^\W\d_]+")


def _command(match: re.Match[str]) -> str:
    sub = match.group(1)
    return "" if sub is None or sub in SUBCOMMANDS else f" {sub}"


def english_words(text: str, names: Iterable[str] = ()) -> list[str]:
    """The common English words in `text`, lower case, in the order they appear; words of
    `names` (user-chosen names) are not counted."""
    kept = {word.casefold() for name in names for word in _WORD.findall(name)}
    plain = _COMMAND.sub(_command, _MARKUP.sub(" ", text))
    words = (word.casefold() for word in _WORD.findall(plain))
    return [word for word in words if word in WORDS and word not in kept]


def reply_text(reply: Any) -> str:
    """Everything a user reads in a local-Discord `Reply` and its follow-ups: content, each
    embed's author, title, description, fields and footer, and the button labels."""
    parts = [reply.text]
    parts += [str(button.get("label") or "") for button in reply.buttons()]
    parts += [reply_text(followup) for followup in reply.followups]
    return "\n".join(part for part in parts if part)
