"""Whether a character's level and its class levels agree (docs/rules.md#31-fatigue-level).

Saves take the character's Level; the Fatigue Level takes the class levels. The texts make the
character's Level the level its classes have: a single class's, or for several the highest
("only use the highest level the character has"), which is also the level a new character
gets when `level:` is left out. Anything else is allowed (a GM may mean it) but said, so that a
level typed for one and not the other never goes unnoticed.
"""

from __future__ import annotations

from lang import _

from table.model import Character
from table.sheet import format_classes


def level_disagreement(character: Character) -> str | None:
    """A warning when the character's level is not its highest class level, else None.

    A Fatigue Level given directly takes nothing from the classes: then nothing disagrees."""
    if not character.classes or character.fl_override is not None:
        return None
    highest = max(level for _size, level in character.classes)
    if highest == character.level:
        return None
    return _(
        "Level {level}, but the highest class level is {highest} ({classes}): saves use level "
        "{level}, the Fatigue Level uses the class levels. A character's level is its highest "
        "class level: make them agree with `/character set`.",
        level=character.level,
        highest=highest,
        classes=format_classes(character.classes),
    )


def new_disagreement(before: Character | None, after: Character) -> str | None:
    """The warning for `after`, unless `before` already had the very same one: a change to
    something else doesn't repeat it."""
    warning = level_disagreement(after)
    if before is not None and level_disagreement(before) == warning:
        return None
    return warning
