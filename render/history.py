"""`/history`, `/undo` and `/redo` replies: each logged change as one short line, who did what,
before → after. Pure functions from `store` events to text and embeds; `now` is passed in."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import discord

from lang import N_, _, words
from render.changes import change_parts, event_action, event_parts
from render.common import NEUTRAL, TITLE_MAX, fit_lines
from table.actions import action_text, actor_text, renames_in, restores
from table.event import Event
from table.snapshot import Change, Snapshot
from table.undo import REDO_ACTION, AskFirst, Redone, Undone

TITLE = N_("📜 This channel's history")
EMPTY = N_("Nothing has changed in this channel yet.")
NO_MORE = N_("No older changes.")
FOOTER = N_(
    "Newest first · struck-through changes were undone (an undo, redone) · /undo reverts the "
    "latest, /redo puts it back"
)
UNDO_FOOTER = N_("/redo puts it back · /history shows both")
REDO_FOOTER = N_("/undo takes it back again · /history shows both")
UNDONE = discord.Colour(0x95A5A6)  # grey: taken back
ASKING = discord.Colour(0xE67E22)  # orange: waits for a yes
LINE_MAX = 380  # ten lines and their markup stay well inside a description's 4096
RECENT = timedelta(hours=12)  # older than this, a line shows the date too
CHANGE_ICON, UNDO_ICON, REDO_ICON = "🕒", "↩️", "↪️"


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def when(moment: datetime, now: datetime) -> str:
    """A Discord timestamp, shown in each reader's own time zone: the time, or the date and the
    time for changes more than half a day old."""
    stamp = int(moment.timestamp())
    if abs(now - moment) < RECENT:
        return f"<t:{stamp}:t>"
    return f"<t:{stamp}:d> <t:{stamp}:t>"


# What each logged change did, as its line says it, kept by the event and the language: a page
# is read again after every change to the channel, and all but its newest line are the same
# events, read anew (other objects) but equal. A kept text is used only for the same snapshots
# (compared, which costs far less than saying them again). Bounded: emptied when full.
_WHAT: dict[tuple[int, int, bool, bool, bool, bool, object], tuple[Snapshot, Snapshot, str]] = {}
WHAT_KEPT = 1024


def _what(event: Event, numbers: bool, prepared: bool = False) -> str:
    """`Aria FP 18 → 21 (Fatigued); monster Orc HP 30 → 22`: every part the change touched.
    Kept for at most 1,024 events and languages (WHAT_KEPT), emptied when full."""
    key = (
        event.channel_id,
        event.id,
        restores(event),
        numbers,
        prepared,
        renames_in(event),
        words(),
    )
    kept = _WHAT.get(key)
    if kept is not None and kept[0] == event.before and kept[1] == event.after:
        return kept[2]
    parts = event_parts(event, numbers=numbers, prepared=prepared)
    what = "; ".join(parts) or _("no visible change")
    if len(_WHAT) >= WHAT_KEPT:
        _WHAT.clear()
    _WHAT[key] = (event.before, event.after, what)
    return what


def event_line(event: Event, now: datetime, *, numbers: bool, prepared: bool = False) -> str:
    """`🕒 <t:…:t> · <@1> · fatigue spend · Aria FP 18 → 21 (Fatigued)`, struck through when
    the change was undone (an undo: when it was redone); an undo starts with ↩️, a redo ↪️.
    `numbers`: whether its readers may see the monsters' numbers; `prepared`, the monsters
    still behind the GM's screen (`table.sight`): a change to nothing else reads as only that."""
    icon = CHANGE_ICON
    if event.undoes is not None:
        icon = UNDO_ICON
    elif event.action == REDO_ACTION:
        icon = REDO_ICON
    action = event_action(event, prepared=prepared)
    head = f"{icon} {when(event.created_at, now)} · {actor_text(event.actor_id)} · {action}"
    if action != action_text(event.action):  # behind the screen: nothing more to say
        line = head
    else:
        line = _clip(f"{head} · {_what(event, numbers, prepared)}", LINE_MAX)
    if event.undone_by is None:
        return line
    if event.undoes is not None:
        return _("~~{line}~~ (redone)", line=line)
    return _("~~{line}~~ (undone)", line=line)


def history_embed(
    events: Sequence[Event],
    now: datetime,
    *,
    numbers: bool,
    newest: bool = True,
    prepared: bool = False,
) -> discord.Embed:
    """One page of the log; `newest` says whether it is the first page (for the empty text)."""
    if events:
        lines = [event_line(e, now, numbers=numbers, prepared=prepared) for e in events]
        description = fit_lines(lines)
    else:
        description = _(EMPTY) if newest else _(NO_MORE)
    embed = discord.Embed(title=_(TITLE), description=description, colour=NEUTRAL)
    return embed.set_footer(text=_(FOOTER))


@dataclass(frozen=True)
class _Words:
    """A reply about taking a change back: its title (`{icon}`, `{action}` in it) and first
    line (`{action}`, `{actor}`, `{when}`: the change's), its icon and colour."""

    title: str
    head: str
    icon: str
    colour: discord.Colour


_UNDONE = _Words(
    N_("{icon} Undone: {action}"),
    N_("{action} by {actor} at {when} is undone:"),
    UNDO_ICON,
    UNDONE,
)
_REDONE = _Words(
    N_("{icon} Redone: {action}"),
    N_("{action} by {actor} at {when} is back:"),
    REDO_ICON,
    NEUTRAL,
)
_ASK_UNDO = _Words(
    N_("{icon} Undo {action}?"),
    N_("Undoing {action} by {actor} at {when} would:"),
    UNDO_ICON,
    ASKING,
)
_ASK_REDO = _Words(
    N_("{icon} Redo {action}?"),
    N_("Redoing {action} by {actor} at {when} would:"),
    REDO_ICON,
    ASKING,
)


def _took_back(
    words: _Words,
    change: Event,
    did: tuple[Snapshot, Snapshot],
    now: datetime,
    numbers: bool,
    *more: str,
    prepared: bool = False,
) -> discord.Embed:
    """Which change, then one line per thing `did` changed (or would), then `more` lines
    (`numbers` and `prepared` as for `event_line`)."""
    action = event_action(change, prepared=prepared)
    actor = actor_text(change.actor_id)
    first = _(words.head, action=action, actor=actor, when=when(change.created_at, now))
    parts = change_parts(
        *did, undo=True, numbers=numbers, renames=renames_in(change), prepared=prepared
    )
    lines = [first, *(f"• {part}" for part in parts), *more]
    return discord.Embed(
        title=_clip(_(words.title, icon=words.icon, action=action), TITLE_MAX),
        description=fit_lines([_clip(line, LINE_MAX) for line in lines]),
        colour=words.colour,
    )


def undone_embed(
    undone: Undone, now: datetime, *, numbers: bool, prepared: bool = False
) -> discord.Embed:
    """`/undo`: which change was reverted, and what that put back, one line per thing."""
    did = (undone.undo.before, undone.undo.after)
    embed = _took_back(_UNDONE, undone.target, did, now, numbers, prepared=prepared)
    return embed.set_footer(text=_(UNDO_FOOTER))


def redone_embed(
    redone: Redone, now: datetime, *, numbers: bool, prepared: bool = False
) -> discord.Embed:
    """`/redo`: which change is back, and what that changed again, one line per thing."""
    did = (redone.redo.before, redone.redo.after)
    embed = _took_back(_REDONE, redone.change, did, now, numbers, prepared=prepared)
    return embed.set_footer(text=_(REDO_FOOTER))


def ask_embed(
    asked: AskFirst, asker_id: int, now: datetime, *, numbers: bool, prepared: bool = False
) -> discord.Embed:
    """The question before an undo (or redo) that takes a character or monster away: which
    change, everything it would do, and who answers."""
    words = _ASK_REDO if asked.redo else _ASK_UNDO
    answer = _("Only <@{asker}> can answer, within a minute.", asker=asker_id)
    did = (asked.before, asked.after)
    return _took_back(words, asked.change, did, now, numbers, answer, prepared=prepared)


def hides_preparation(change: Event, did: tuple[Snapshot, Snapshot]) -> bool:
    """Whether a public reply about taking `change` back (which did `did`) left out something
    behind the GM's screen: then the GM gets the whole of it privately."""
    return bool(Change.of(change).behind_screen() or Change(*did).behind_screen())


def only_preparation(change: Event, did: tuple[Snapshot, Snapshot]) -> bool:
    """Whether taking `change` back (which does `did`) touches nothing but the GM's
    preparation: the players may not even read that it happened, so it is said to the GM
    alone (a question about it asked of the GM alone)."""
    return Change.of(change).only_behind_screen() and Change(*did).only_behind_screen()
