"""The changes the log names, by the command that made them (`fatigue spend`): logged as the
command's name in English, never translated in the database, and said in the reader's language.
"""

from __future__ import annotations

from lang import N_, _

from table.event import Event

IMPORT_ACTION = N_("import")  # an export put into the channel in place of its table
UNDO_ACTION = N_("undo")  # a change taken back (`/undo`)
REDO_ACTION = N_("redo")  # an undo taken back (`/redo`)

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
        N_("clock set"),
        N_("monster create"),
        N_("monster appear"),
        N_("monster bring"),
        N_("monster face"),
        N_("monster reveal"),
        N_("monster hit"),
        N_("monster hit again"),
        N_("monster remove"),
        N_("monster remove defeated"),
        N_("init add"),
        N_("init remove"),
        N_("init start"),
        N_("init next"),
        N_("init end"),
        N_("settings set"),
        N_("settings server"),
        UNDO_ACTION,
        REDO_ACTION,
        N_("table link"),
        N_("table revoke"),
        IMPORT_ACTION,
    )
)


def action_text(action: str) -> str:
    """A logged action (`fatigue spend`) in the reader's language; one this version doesn't
    know reads as logged."""
    return _(action) if action in ACTIONS else action


# An undo or a redo, named with the change it took back or put back.
_TAKEN_BACK = {UNDO_ACTION: N_("undo of {action}"), REDO_ACTION: N_("redo of {action}")}


def saved_text(action: str, of: str | None = None) -> str:
    """A saved change as a message names it, in the reader's language: its action (`fatigue
    spend`), or for an undo or a redo, with the action `of` the change it took back or put
    back (`undo of fatigue spend`)."""
    if of is None or action not in _TAKEN_BACK:
        return action_text(action)
    return _(_TAKEN_BACK[action], action=action_text(of))


# Who a change made from a shell is logged as (`python -m bot import` without `--actor`), and
# a change imported from a file this bot can't vouch was its own export from the same server
# (`table.imported`): no Discord user has either id. Their lines name them in words, never as
# a mention.
COMMAND_LINE = 0
IMPORTED = 1
FROM_COMMAND_LINE = N_("an admin (command line)")
FROM_IMPORT = N_("someone (imported)")
_IN_WORDS = {COMMAND_LINE: FROM_COMMAND_LINE, IMPORTED: FROM_IMPORT}


def actor_text(actor_id: int) -> str:
    """Who made a logged change, as replies name them: a mention (which never pings: replies
    allow none), or for a change made from the command line or imported, words in the reader's
    language."""
    words = _IN_WORDS.get(actor_id)
    return f"<@{actor_id}>" if words is None else _(words)


REPLACES_TABLE = frozenset((IMPORT_ACTION,))  # a whole table put in place of another


def renames(action: str) -> bool:
    """Whether one character (or monster) gone and one come in a change of `action` read as a
    rename: not when the change put a whole other table in place (an import)."""
    return action not in REPLACES_TABLE


def restores(event: Event) -> bool:
    """Whether `event` is an undo or a redo: what it makes appear was there before, so it reads
    as "brought back", never "created"."""
    return event.undoes is not None or event.action == REDO_ACTION


def renames_in(event: Event) -> bool:
    """`renames` for a logged change; an undo or a redo reads as the change it took back or
    put back: the undo of an import brings one character back and takes another away."""
    return renames(event.undid or event.action)
