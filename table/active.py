"""The character a player's commands use when they name none: their only one in the channel,
else the one they chose with `/character use` (`Character.active`, one per player here)."""

from __future__ import annotations

from dataclasses import replace

from lang import _

from table.model import Character, Forbidden, Table


def own_characters(table: Table, user_id: int) -> list[Character]:
    return [c for c in table.characters if c.owner_id == user_id]


def in_use(table: Table, user_id: int) -> Character | None:
    """The user's character here when they name none: their only one, else the one they use;
    None when they have none, or several and use none of them."""
    own = own_characters(table, user_id)
    if len(own) == 1:
        return own[0]
    return next((c for c in own if c.active), None)


def use(table: Table, actor_id: int, name: str) -> tuple[Table, Character]:
    """`/character use`: the actor's commands without `character:` use this character of theirs
    (and no longer the one they used before)."""
    chosen = table.get(name)
    if chosen.owner_id != actor_id:
        raise Forbidden(
            _("You can only use a character you play; {name} is another's", name=chosen.name)
        )
    for character in own_characters(table, actor_id):
        if character.active != (character.key == chosen.key):
            table = table.with_character(replace(character, active=not character.active))
    return table, table.get(chosen.name)
