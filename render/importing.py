"""/import's words: the question before a table is replaced, and what an import did."""

from __future__ import annotations

import discord

from lang import _, n_
from table.model import Table


def _parts(table: Table, changes: int) -> str:
    return _(
        "{characters}, {monsters}, settings, clock and {changes}",
        characters=n_("{n} character", "{n} characters", len(table.characters)),
        monsters=n_("{n} monster", "{n} monsters", len(table.monsters)),
        changes=n_("{n} change", "{n} changes", changes),
    )


def replace_embed(current: Table, changes: int, coming: Table, imported: int) -> discord.Embed:
    """Asked before an import replaces the channel's table: what goes, and what comes."""
    return discord.Embed(
        title=_("Replace this channel's table?"),
        description=_(
            "This channel's table ({now}) would be replaced by the file's ({coming}). The "
            "replacement is one change: /undo puts this table back.",
            now=_parts(current, changes),
            coming=_parts(coming, imported),
        ),
        colour=discord.Colour.red(),
    )


def imported_text(
    table: Table,
    changes: int,
    replaced: bool,
    left_out: int = 0,
    rolls: int = 0,
    rolls_left_out: int = 0,
) -> str:
    text = _(
        "Imported into this channel: {parts}. /history shows them and /undo goes on from there.",
        parts=_parts(table, changes),
    )
    if left_out:
        text += " " + n_(
            "The file's {n} older change was left out: this channel keeps {keep}.",
            "The file's {n} older changes were left out: this channel keeps {keep}.",
            left_out,
            keep=table.settings.history_keep,
        )
    if rolls:
        text += " " + n_("And {n} roll of its dice.", "And {n} rolls of its dice.", rolls)
    if rolls_left_out:
        text += " " + n_(
            "The file's {n} older roll was left out: the roll log keeps {keep} a channel.",
            "The file's {n} older rolls were left out: the roll log keeps {keep} a channel.",
            rolls_left_out,
            keep=rolls,  # with some left out, as many as it keeps came
        )
    if replaced:
        text += " " + _("It replaced the table this channel had: /undo puts that back.")
    return text


def import_cancelled_embed(timed_out: bool = False) -> discord.Embed:
    text = _("Nothing was changed.")
    if timed_out:
        text = _("No answer within a minute: nothing was changed. To import, run `/import` again.")
    return discord.Embed(title=_("Import cancelled"), description=text)


def import_forgotten_embed() -> discord.Embed:
    """A confirmation whose file the bot no longer holds (it restarted, or it was answered)."""
    return discord.Embed(
        title=_("Import cancelled"),
        description=_(
            "Nothing was changed: the file is no longer held (the bot restarted since, or this "
            "was answered already). Run `/import` again."
        ),
    )
