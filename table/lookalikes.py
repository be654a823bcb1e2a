"""Names that look alike: "Aria" and "Аria" (its first letter Cyrillic) are two names, and
should never be two characters, monsters or turn-order names of one channel.

Two names look alike when their skeletons are equal (Unicode's UTS #39, section 4): each
character replaced by one that stands for every character it can be confused with. Which
characters those are is Unicode's confusables data, as the `confusable_homoglyphs` library
ships it (a character and the ones confusable with it, each way): here, the classes those pairs
join, each standing for itself by its lowest code point (Latin `l`, `I`, `1` and `|` are one;
so are Cyrillic `а` and Latin `a`). Only single characters are compared (UTS #39 also maps `m`
to `rn`: "Morn" and "Mom" would be refused together, which a table would find odd).
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable, Sequence

from confusable_homoglyphs import confusables
from lang import _
from rules.errors import RulesError

from table.model import Table
from table.names import name_key

_DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")  # the data wraps right-to-left ones


@functools.lru_cache(maxsize=1)
def _standing_for() -> dict[str, str]:
    """Each confusable character → the one that stands for its class: built once from the
    library's data (about 9,600 entries, a few tens of milliseconds), on the first new name,
    and kept (1 kept: it takes no arguments)."""
    parent: dict[str, str] = {}

    def root(char: str) -> str:
        while parent.get(char, char) != char:
            char = parent[char]
        return char

    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    for key, homoglyphs in data.items():
        key = key.translate(_DIRECTION_MARKS)
        for homoglyph in homoglyphs:
            other = homoglyph["c"].translate(_DIRECTION_MARKS)
            if len(key) == 1 and len(other) == 1:
                low, high = sorted((root(key), root(other)))
                if low != high:
                    parent[high] = low
    return {char: root(char) for char in parent}


def skeleton(text: str) -> str:
    """What `text` looks like: equal for names a reader can't tell apart. Decomposed, each
    character replaced, decomposed again (UTS #39's steps), until nothing changes: the data
    gives some characters composed (`ƫ` looks like `ţ`, which is `t` and a cedilla, which
    looks like another hook)."""
    standing = _standing_for()
    looks = unicodedata.normalize("NFD", text)
    for _step in range(4):  # each step only lowers code points: it ends, in two or three
        again = unicodedata.normalize("NFD", "".join(standing.get(c, c) for c in looks))
        if again == looks:
            break
        looks = again
    return looks


def _looks(name: str) -> tuple[str, str]:
    """A name's skeleton as written, and as compared (casefolded: `Аria` is also `аria`)."""
    return skeleton(name), skeleton(name_key(name))


def _refusal(name: str, other: str) -> RulesError:
    return RulesError(
        _(
            "'{name}' looks just like '{other}', already here: pick a name that reads differently",
            name=name,
            other=other,
        )
    )


def channel_names(table: Table, *, but: str | None = None) -> list[str]:
    """Every name in the channel (its characters, monsters and turn order), but those named
    like `but` (a name being changed is its own)."""
    names = [
        *(c.name for c in table.characters),
        *(m.name for m in table.monsters),
        *(c.name for c in table.initiative.combatants),
    ]
    skipped = None if but is None else name_key(but)
    return [name for name in names if name_key(name) != skipped]


def check_unlike(name: str, others: Iterable[str]) -> None:
    """Refuse a new `name` that looks like one of `others` (the names already in the channel)
    without being it: the same name, once case is folded, is another check's (taken)."""
    key, looks = name_key(name), _looks(name)
    for other in others:
        theirs = _looks(other)
        if name_key(other) != key and (looks[0] == theirs[0] or looks[1] == theirs[1]):
            raise _refusal(name, other)


def first_alike(names: Sequence[str]) -> tuple[int, RulesError] | None:
    """The first of `names` (new, in order) that looks like an earlier one without being it,
    with its refusal; None if none does. Each name's skeletons made once: linear."""
    seen: list[dict[str, tuple[str, str]]] = [{}, {}]  # skeleton → (key, name), per kind
    for i, name in enumerate(names):
        key = name_key(name)
        looks = _looks(name)
        for kind, look in enumerate(looks):
            found = seen[kind].get(look)
            if found is not None and found[0] != key:
                return i, _refusal(name, found[1])
        for kind, look in enumerate(looks):
            seen[kind].setdefault(look, (key, name))
    return None
