"""Whether a character's level and its class levels agree (docs/rules.md#31-fatigue-level).

Saves take the character's Level; the Fatigue Level takes the class levels. The texts make the
character's Level the level its classes have: a single class's, or for several the highest
("only use the highest level the character has"), which is also the level a new character
gets when `level:` is left out. Anything else is allowed (a GM may mean it) but said, so that a
level typed for one and not the other never goes unnoticed.
"""

from __future__ import annotations

from lang import _
from rules.errors import RulesError

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


def class_to_raise(before: Character, after: Character, classes_given: bool) -> int | None:
    """When a change raised the level alone (no classes given) above every class level: the HD
    size of the class to raise with it (the highest, so the Fatigue Level follows); else None."""
    if classes_given or after.level <= before.level or not after.classes:
        return None
    if after.fl_override is not None or level_disagreement(after) is None:
        return None
    highest = max(after.classes, key=lambda pair: pair[1])
    return highest[0] if highest[1] < after.level else None


def raised_class(character: Character, size: int) -> tuple[tuple[int, int], ...]:
    """The character's classes with its highest class of HD size `size` at its level."""
    chosen = max(
        (i for i, (hd, _level) in enumerate(character.classes) if hd == size),
        key=lambda i: character.classes[i][1],
        default=None,
    )
    if chosen is None:
        raise RulesError(_("{name} has no d{size} class any more", name=character.name, size=size))
    classes = list(character.classes)
    classes[chosen] = (size, character.level)
    return tuple(classes)
