"""A player's active character: the one their commands take when they name none. Their only
character in the channel, else the one they made active with `/character use`
(`Character.active`, one per player here)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from lang import N_, _
from rules.errors import RulesError

from table.model import Character, Forbidden, Table

MENU_MAX = 25  # how many a menu offers to choose among (Discord's limit on a select menu)
WHICH_OF_YOURS = N_(
    "You have several characters here: which one? (`/character use` picks one for every command)"
)


class ChooseCharacter(RulesError):
    """The caller must say which character they mean: `names` (at most MENU_MAX) to choose
    among, one or (`several`) any number of them, and `question`, the menu's words. Where no
    menu is offered (`cogs._pickers` offers one), its text is the refusal."""

    def __init__(self, text: str, question: str, names: Sequence[str], several: bool) -> None:
        super().__init__(text)
        self.question, self.names, self.several = question, tuple(names[:MENU_MAX]), several
        self.left_out = len(names) - len(self.names)  # past the menu's room: named by hand


def own_characters(table: Table, user_id: int) -> list[Character]:
    return [c for c in table.characters if c.owner_id == user_id]


def active_character(table: Table, user_id: int) -> Character | None:
    """The user's active character here: their only one, else the one they made active; None
    when they have none, or several and none of them is active."""
    own = own_characters(table, user_id)
    if len(own) == 1:
        return own[0]
    return next((c for c in own if c.active), None)


def make_active(table: Table, actor_id: int, name: str) -> tuple[Table, Character]:
    """`/character use`: this character of the actor's becomes their active one (and the one
    active before no longer is)."""
    chosen = table.get(name)
    if chosen.owner_id != actor_id:
        raise Forbidden(
            _("You can only use a character you play; {name} is another's", name=chosen.name)
        )
    for character in own_characters(table, actor_id):
        if character.active != (character.key == chosen.key):
            table = table.with_character(replace(character, active=not character.active))
    return table, table.get(chosen.name)
