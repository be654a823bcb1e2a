"""`/history` and `/undo` replies: each logged change as one short line, who did what, before
→ after. Pure functions from `store` events to text and embeds; `now` is passed in."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from fractions import Fraction
from functools import lru_cache
from typing import Any

import discord
from discord.utils import escape_markdown

from lang import N_, _, words
from render.characters import fl_text
from render.common import NEUTRAL, plain
from render.fatigue import fit_lines
from render.initiative import initiative_change
from render.links import WEB, link_change
from rules.errors import RulesError
from rules.fatigue import band_name
from rules.gametime import game_time
from table.event import Event
from table.model import fatigue_level
from table.sheet import format_classes
from table.snapshot import Snapshot
from table.undo import Undone

TITLE = N_("📜 This channel's history")
EMPTY = N_("Nothing has changed in this channel yet.")
NO_MORE = N_("No older changes.")
FOOTER = N_("Newest first · struck-through changes were undone · /undo reverts the latest")
UNDO_FOOTER = N_("An undo can't itself be undone · /history shows both")
UNDONE = discord.Colour(0x95A5A6)  # grey: taken back
LINE_MAX = 380  # ten lines and their markup stay well inside a description's 4096
RECENT = timedelta(hours=12)  # older than this, a line shows the date too
CHANGE_ICON, UNDO_ICON = "🕒", "↩️"

# The actions as logged (command names, never translated in the database), marked to be shown
# in the reader's language.
ACTIONS = frozenset(
    (
        N_("character create"),
        N_("character set"),
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
        N_("table link"),
        N_("table revoke"),
    )
)
# Stored words (settings' values, a character's way of combining classes), marked likewise.
WORDS = frozenset(
    (
        N_("fail"),
        N_("succeed"),
        N_("shared"),
        N_("own"),
        N_("single"),
        N_("multi"),
        N_("dual"),
    )
)


def action_text(action: str) -> str:
    """A logged action (`fatigue spend`) in the reader's language; one this version doesn't
    know reads as logged."""
    return _(action) if action in ACTIONS else action


def _word(value: Any) -> str:
    text = str(value)
    return _(text) if text in WORDS else text


_SETTINGS: dict[str, tuple[str, Callable[[Any], str]]] = {
    "ties": (N_("ties"), _word),
    "round_seconds": (N_("round length"), lambda v: f"{v} s"),
    "rest_rate": (N_("rest rate"), lambda v: f"{v} FP/min"),
    "break_minutes": (N_("Break"), lambda v: f"{v} min"),
    "short_minutes": (N_("Short Rest"), lambda v: f"{v} min"),
    "long_minutes": (N_("Long Rest"), lambda v: f"{v} min"),
    "gm_role_id": (N_("GM role"), lambda v: f"<@&{v}>"),
    "history_keep": (N_("history kept"), lambda v: _("{count:,} changes", count=v)),
    "threads": (N_("threads"), _word),
}


@lru_cache(maxsize=1024)
def _fraction(text: str) -> Fraction:
    """A logged Fatigue Level ("41/2"), read once per text: every line showing a band reads
    one, and parsing a Fraction from text is slow. (A str key, an immutable Fraction.)"""
    return Fraction(text)


def _fl(value: str) -> str:
    return fl_text(Fraction(value))


def _classes(value: list[list[int]]) -> str:
    return format_classes(tuple((size, level) for size, level in value)) or _("none")


def _on(value: Any) -> str:
    return _("on") if value else _("off")


def _ahead(value: Any) -> str:
    return _("until {time}", time=game_time(value)) if value else _("no")


_CHARACTER: dict[str, tuple[str, Callable[[Any], str]]] = {
    "owner_id": (N_("player"), lambda v: f"<@{v}>"),
    "level": (N_("level"), str),
    "fortitude": (N_("Fortitude"), plain),
    "wisdom": (N_("Wisdom"), plain),
    "kin_tsr": (N_("kin TSR"), plain),
    "kin_wsr": (N_("kin WSR"), plain),
    "special_tsr": (N_("TSR special modifier"), plain),
    "special_wsr": (N_("WSR special modifier"), plain),
    "classes": (N_("classes"), _classes),
    "combine": (N_("classes combine"), _word),
    "toughness": (N_("Toughness"), plain),
    "base_hd": (N_("Base HD"), str),
    "kin_hd_size": (N_("kin HD"), lambda v: f"d{v}"),
    "fl_override": ("FL", _fl),
}
_FATIGUE: dict[str, tuple[str, Callable[[Any], str]]] = {
    "temp": (N_("Temporary FP"), str),
    "exhausted_cap": (N_("Exhausted cap"), _on),
    "shattered_cap": (N_("Shattered cap"), _on),
    "vp_damage": (N_("VP damage"), str),
    # A character settled past the clock rested alone ahead of it; None is back with the clock.
    "settled": (N_("ahead of the clock"), _ahead),
}
_MONSTER: dict[str, tuple[str, Callable[[Any], str]]] = {
    "hp_max": (N_("max HP"), str),
    "hp": ("HP", plain),
    "facing": (N_("facing"), str),
}


# A name escaped once, not on every line naming it (a regex pass each time): str in, str out.
_escaped = lru_cache(maxsize=1024)(escape_markdown)


def _name(data: dict[str, Any]) -> str:
    return _escaped(str(data.get("name", "?")))


def _arrow(label: str, show: Callable[[Any], str], old: Any, new: Any) -> str:
    """`level 3 → 4`; a missing value (cleared, or not logged by an older version) is none."""

    def text(value: Any) -> str:
        return _("none") if value is None else show(value)

    return f"{_(label)} {text(old)} → {text(new)}"


def _fields(
    old: dict[str, Any], new: dict[str, Any], labels: dict[str, tuple[str, Callable[[Any], str]]]
) -> list[str]:
    if old == new:  # most parts of most changes: one comparison instead of a look per label
        return []
    return [
        _arrow(label, show, old.get(name), new.get(name))
        for name, (label, show) in labels.items()
        if old.get(name) != new.get(name)
    ]


def _band(data: dict[str, Any]) -> str | None:
    """The band the character's FP falls in, if they have a Fatigue Level (and the snapshot
    still reads as one: an old event must never break /history). Only the Fatigue Level's
    inputs are read, through the table's cached Fatigue Level: every line of every page would
    otherwise rebuild and check a whole character with Fractions."""
    try:
        override = data["fl_override"]
        if override is not None:
            fl: Fraction | None = (
                _fraction(override) if type(override) is str else Fraction(override)
            )
        else:
            classes = tuple((size, level) for size, level in data["classes"])
            fl = None
            if classes:
                fl = fatigue_level(
                    classes,
                    data.get("combine", "single"),
                    data.get("toughness", 0),
                    data.get("base_hd"),
                    data.get("kin_hd_size"),
                )
        return None if fl is None or fl <= 0 else band_name(data["fatigue"]["fp"], fl)
    except (KeyError, TypeError, ValueError, ZeroDivisionError, RulesError):
        return None


def _appeared(undo: bool) -> str:
    # An undo that puts a removed record back didn't create anything new.
    return _("brought back") if undo else _("created")


def character_change(
    old: dict[str, Any] | None, new: dict[str, Any] | None, undo: bool = False
) -> str:
    """`Aria FP 18 → 21 (Fatigued)`, `Aria created`, `Bo removed`, `Aria level 3 → 4`."""
    if old is None or new is None:
        return f"{_name(new or old or {})} {_appeared(undo) if old is None else _('removed')}"
    parts = []
    if old.get("name") != new.get("name"):
        parts.append(_("renamed from {name}", name=_name(old)))
    was, now = old.get("fatigue") or {}, new.get("fatigue") or {}
    if was.get("fp") != now.get("fp"):
        band = _band(new)
        parts.append(f"FP {was.get('fp')} → {now.get('fp')}" + (f" ({_(band)})" if band else ""))
    parts += _fields(was, now, _FATIGUE)
    if was.get("temp") == now.get("temp") and was.get("temp_expires") != now.get("temp_expires"):
        until = game_time
        parts.append(
            _arrow(
                N_("Temporary FP until"), until, was.get("temp_expires"), now.get("temp_expires")
            )
        )
    parts += _fields(old, new, _CHARACTER)
    return f"{_name(new)} {', '.join(parts) or _('changed')}"


def _revealed(build: dict[str, Any]) -> dict[str, bool]:
    """Spot name → revealed, from a logged build (older builds list bare names: hidden)."""
    spots = build.get("spots") or []
    return {
        s["spot"] if isinstance(s, dict) else str(s): bool(
            isinstance(s, dict) and s.get("revealed")
        )
        for s in spots
    }


def _spot_changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """`back spot revealed` (or `hidden again`, as an undo shows it); any other change to the
    build is `stat block rebuilt`."""
    was, now = _revealed(old), _revealed(new)
    rest_old = {k: v for k, v in old.items() if k != "spots"}
    rest_new = {k: v for k, v in new.items() if k != "spots"}
    if was.keys() != now.keys() or rest_old != rest_new:
        return [_("stat block rebuilt")]
    parts = [
        _("{spot} spot revealed", spot=_(name))
        if now[name]
        else _("{spot} spot hidden again", spot=_(name))
        for name in now
        if now[name] != was[name]
    ]
    return parts or [_("stat block rebuilt")]


def monster_change(
    old: dict[str, Any] | None, new: dict[str, Any] | None, undo: bool = False
) -> str:
    """`monster Orc HP 30 → 22`, `monster Orc created`."""
    if old is None or new is None:
        appeared = _appeared(undo) if old is None else _("removed")
        return _("monster {name} {what}", name=_name(new or old or {}), what=appeared)
    parts = _fields(old, new, _MONSTER)
    if old.get("build") != new.get("build"):
        parts += _spot_changes(old.get("build") or {}, new.get("build") or {})
    if old.get("name") != new.get("name"):
        parts.append(_("renamed from {name}", name=_name(old)))
    what = ", ".join(parts) or _("changed")
    return _("monster {name} {what}", name=_name(new), what=what)


def channel_changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """`clock Day 1, 00:00 → Day 1, 00:10`, `settings: ties fail → succeed, round 60 s → 6 s`."""
    parts: list[str] = []
    if old == new:  # a change to characters or monsters only (both empty)
        return parts
    if old.get("clock") != new.get("clock"):
        parts.append(_arrow(N_("clock"), game_time, old.get("clock"), new.get("clock")))
    settings = _fields(old.get("settings") or {}, new.get("settings") or {}, _SETTINGS)
    if settings:
        parts.append(_("settings: {changes}", changes=", ".join(settings)))
    return parts


def _rename(old: dict[str, Any], new: dict[str, Any], keys: list[str]) -> tuple[str, str] | None:
    """(old key, new key) when a change took away exactly one name and brought exactly one:
    a name is the key, so a rename logs as a removal and a creation."""
    gone = [k for k in keys if old.get(k) is not None and new.get(k) is None]
    came = [k for k in keys if old.get(k) is None and new.get(k) is not None]
    return (gone[0], came[0]) if len(gone) == len(came) == 1 else None


def change_parts(before: Snapshot, after: Snapshot, undo: bool = False) -> list[str]:
    """One text per thing a change touched: the channel's fields, each character, each monster;
    `undo` when the change is an undo (what it puts back was "brought back", not created)."""
    parts = channel_changes(before.get("channel") or {}, after.get("channel") or {})
    server = _fields(
        (before.get("server") or {}).get("settings") or {},
        (after.get("server") or {}).get("settings") or {},
        _SETTINGS,
    )
    if server:  # a value the server doesn't set reads "none": its channels' own, else default
        parts.append(_("server settings: {changes}", changes=", ".join(server)))
    hero: tuple[dict[str, Any], dict[str, Any]] | None = None  # a character renamed
    for part, show in (("characters", character_change), ("monsters", monster_change)):
        old, new = before.get(part) or {}, after.get(part) or {}
        keys = sorted(old.keys() | new.keys())
        renamed = _rename(old, new, keys)
        if renamed is not None:  # one name gone and one come: a rename, shown as one
            was, now = renamed
            keys = [k for k in keys if k not in renamed]
            parts.append(show(old[was], new[now], undo))
            hero = (old[was], new[now]) if part == "characters" else hero
        parts += [show(old.get(key), new.get(key), undo) for key in keys]
    if "initiative" in before or "initiative" in after:
        was_order = (before.get("initiative") or {}).get("order")
        now_order = (after.get("initiative") or {}).get("order")
        if hero is not None:  # its place in the order follows a rename: that is no change
            was_order = _follow(was_order, *hero)
        if was_order != now_order:
            parts.append(initiative_change(was_order, now_order))
    if WEB in after:  # the channel's web page link (`/table link`, `/table revoke`)
        parts.append(link_change(before.get(WEB), after.get(WEB), undo))
    return parts


def _follow(order: dict[str, Any] | None, old: dict[str, Any], new: dict[str, Any]) -> Any:
    """The order as it would be had the character always had its new name and player."""
    if not order:
        return order
    was = str(old.get("name", "")).casefold()
    combatants = [
        {**c, "name": new.get("name"), "owner_id": new.get("owner_id")}
        if c.get("kind") == "character" and str(c.get("name", "")).casefold() == was
        else c
        for c in order.get("combatants") or []
    ]
    return {**order, "combatants": combatants}


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
_WHAT: dict[tuple[int, int, bool, object], tuple[Snapshot, Snapshot, str]] = {}
WHAT_KEPT = 1024


def _what(event: Event) -> str:
    """`Aria FP 18 → 21 (Fatigued); monster Orc HP 30 → 22`: every part the change touched."""
    undo = event.undoes is not None
    key = (event.channel_id, event.id, undo, words())
    kept = _WHAT.get(key)
    if kept is not None and kept[0] == event.before and kept[1] == event.after:
        return kept[2]
    what = "; ".join(change_parts(event.before, event.after, undo)) or _("no visible change")
    if len(_WHAT) >= WHAT_KEPT:
        _WHAT.clear()
    _WHAT[key] = (event.before, event.after, what)
    return what


def event_line(event: Event, now: datetime) -> str:
    """`🕒 <t:…:t> · <@1> · fatigue spend · Aria FP 18 → 21 (Fatigued)`, struck through when
    the change was undone; an undo starts with ↩️."""
    icon = UNDO_ICON if event.undoes is not None else CHANGE_ICON
    action = action_text(event.action)
    head = f"{icon} {when(event.created_at, now)} · <@{event.actor_id}> · {action}"
    line = _clip(f"{head} · {_what(event)}", LINE_MAX)
    return _("~~{line}~~ (undone)", line=line) if event.undone_by is not None else line


def history_embed(events: Sequence[Event], now: datetime, *, newest: bool = True) -> discord.Embed:
    """One page of the log; `newest` says whether it is the first page (for the empty text)."""
    if events:
        description = fit_lines([event_line(e, now) for e in events])
    else:
        description = _(EMPTY) if newest else _(NO_MORE)
    embed = discord.Embed(title=_(TITLE), description=description, colour=NEUTRAL)
    return embed.set_footer(text=_(FOOTER))


def undone_embed(undone: Undone, now: datetime) -> discord.Embed:
    """`/undo`: which change was reverted, and what that put back, one line per thing."""
    target = undone.target
    action = action_text(target.action)
    lines = [
        _(
            "{action} by <@{actor}> at {when} is undone:",
            action=action,
            actor=target.actor_id,
            when=when(target.created_at, now),
        ),
        *(f"• {part}" for part in change_parts(undone.undo.before, undone.undo.after, undo=True)),
    ]
    embed = discord.Embed(
        title=_clip(_("{icon} Undone: {action}", icon=UNDO_ICON, action=action), 256),
        description=fit_lines([_clip(line, LINE_MAX) for line in lines]),
        colour=UNDONE,
    )
    return embed.set_footer(text=_(UNDO_FOOTER))
