"""Several characters named in one `character:` (`Aria, Bórin`), as `/fatigue spend` and `/rest`
take them: the same change to each, made as one change to the table, so one transaction, one
`/undo` and one `/history` line cover all of them."""

from __future__ import annotations

from collections.abc import Callable

from lang import _
from rules.errors import RulesError

from table.model import Character, Table
from table.partyops import CharacterChange, PartyReport

OneChange = Callable[[Table, str], tuple[Table, CharacterChange]]


def named_characters(table: Table, text: str) -> tuple[Character, ...]:
    """The characters `text` names: one, or several separated by commas, in the order given.

    A name may hold a comma itself (`Bob, the Brave`): text that names a character whole is that
    one character. An unknown name is refused, naming it; so is a character named twice."""
    whole = table.find(text)
    if whole is not None or "," not in text:
        return (whole or table.get(text),)
    pieces = [piece.strip() for piece in text.split(",") if piece.strip()]
    found = tuple(table.get(piece) for piece in pieces)
    seen: set[str] = set()
    for character in found:
        if character.key in seen:
            raise RulesError(
                _("{name} is named twice: name each character once", name=character.name)
            )
        seen.add(character.key)
    return found


def change_each(
    table: Table, names: tuple[str, ...], change: OneChange
) -> tuple[Table, PartyReport]:
    """`change` made to each named character in turn, on one table: what each went through, as
    a report of the party's changes (the clock stays: these are one character's changes each)."""
    changes: list[CharacterChange] = []
    new = table
    for name in names:
        new, done = change(new, name)
        changes.append(done)
    return new, PartyReport(tuple(changes), (), table.clock, new.clock, new.round_number)
