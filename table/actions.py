"""The changes the log names, by the command that made them (`fatigue spend`): logged as the
command's name in English, never translated in the database, and said in the reader's language.
"""

from __future__ import annotations

from lang import N_, _

from table.event import Event

IMPORT_ACTION = N_("import")  # an export put into the channel in place of its table

# The actions as logged (command names, never translated in the database), marked to be shown
# in the reader's language.
ACTIONS = frozenset(
    (
        N_("character create"),
        N_("character set"),
        N_("character use"),
        N_("character remove"),
        N_("fatigue spend"),
        N_("fatigue recover"),
        N_("fatigue temp"),
        N_("fatigue clear_vp"),
        N_("party spend"),
        N_("party reset"),
        N_("rest break"),
        N_("rest short"),
        N_("rest long"),
        N_("rest minutes"),
        N_("clock round"),
        N_("clock pass"),
        N_("monster create"),
        N_("monster face"),
        N_("monster reveal"),
        N_("monster hit"),
        N_("monster remove"),
        N_("init add"),
        N_("init remove"),
        N_("init start"),
        N_("init next"),
        N_("init end"),
        N_("settings set"),
        N_("settings server"),
        N_("undo"),
        N_("redo"),
        N_("table link"),
        N_("table revoke"),
        IMPORT_ACTION,
    )
)


def action_text(action: str) -> str:
    """A logged action (`fatigue spend`) in the reader's language; one this version doesn't
    know reads as logged."""
    return _(action) if action in ACTIONS else action


REPLACES_TABLE = frozenset((IMPORT_ACTION,))  # a whole table put in place of another


def renames(action: str) -> bool:
    """Whether one character (or monster) gone and one come in a change of `action` read as a
    rename: not when the change put a whole other table in place (an import)."""
    return action not in REPLACES_TABLE


def renames_in(event: Event) -> bool:
    """`renames` for a logged change; an undo or a redo reads as the change it took back or
    put back: the undo of an import brings one character back and takes another away."""
    return renames(event.undid or event.action)
