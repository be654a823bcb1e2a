"""`/history` and `/undo` replies: each logged change as one short line, who did what, before
→ after. Pure functions from `bot.store` events to text and embeds; `now` is passed in."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

import discord
from discord.utils import escape_markdown

from bot.render.characters import fl_text
from bot.render.common import NEUTRAL, plain
from bot.render.fatigue import fit_lines
from bot.render.initiative import initiative_change
from bot.store import Event
from bot.store.codec import Snapshot
from bot.store.undo import Undone
from rules.errors import RulesError
from rules.fatigue import band_name
from rules.gametime import game_time
from table.model import fatigue_level
from table.sheet import format_classes

TITLE = "📜 This channel's history"
EMPTY = "Nothing has changed in this channel yet."
NO_MORE = "No older changes."
FOOTER = "Newest first · struck-through changes were undone · /undo reverts the latest"
UNDO_FOOTER = "An undo can't itself be undone · /history shows both"
UNDONE = discord.Colour(0x95A5A6)  # grey: taken back
LINE_MAX = 380  # ten lines and their markup stay well inside a description's 4096
RECENT = timedelta(hours=12)  # older than this, a line shows the date too
CHANGE_ICON, UNDO_ICON = "🕒", "↩️"

_SETTINGS: dict[str, tuple[str, Callable[[Any], str]]] = {
    "ties": ("ties", str),
    "round_seconds": ("round length", lambda v: f"{v} s"),
    "rest_rate": ("rest rate", lambda v: f"{v} FP/min"),
    "break_minutes": ("Break", lambda v: f"{v} min"),
    "short_minutes": ("Short Rest", lambda v: f"{v} min"),
    "long_minutes": ("Long Rest", lambda v: f"{v} min"),
    "gm_role_id": ("GM role", lambda v: f"<@&{v}>"),
    "history_keep": ("history kept", lambda v: f"{v:,} changes"),
    "threads": ("threads", str),
}


def _fl(value: str) -> str:
    return fl_text(Fraction(value))


def _classes(value: list[list[int]]) -> str:
    return format_classes(tuple((size, level) for size, level in value)) or "none"


_CHARACTER: dict[str, tuple[str, Callable[[Any], str]]] = {
    "owner_id": ("player", lambda v: f"<@{v}>"),
    "level": ("level", str),
    "fortitude": ("Fortitude", plain),
    "wisdom": ("Wisdom", plain),
    "kin_tsr": ("kin TSR", plain),
    "kin_wsr": ("kin WSR", plain),
    "special_tsr": ("TSR special modifier", plain),
    "special_wsr": ("WSR special modifier", plain),
    "classes": ("classes", _classes),
    "combine": ("classes combine", str),
    "toughness": ("Toughness", plain),
    "base_hd": ("Base HD", str),
    "kin_hd_size": ("kin HD", lambda v: f"d{v}"),
    "fl_override": ("FL", _fl),
}
_FATIGUE: dict[str, tuple[str, Callable[[Any], str]]] = {
    "temp": ("Temporary FP", str),
    "exhausted_cap": ("Exhausted cap", lambda v: "on" if v else "off"),
    "shattered_cap": ("Shattered cap", lambda v: "on" if v else "off"),
    "vp_damage": ("VP damage", str),
    # A character settled past the clock rested alone ahead of it; None is back with the clock.
    "settled": ("ahead of the clock", lambda v: f"until {game_time(v)}" if v else "no"),
}
_MONSTER: dict[str, tuple[str, Callable[[Any], str]]] = {
    "hp_max": ("max HP", str),
    "hp": ("HP", plain),
    "facing": ("facing", str),
}


def _name(data: dict[str, Any]) -> str:
    return escape_markdown(str(data.get("name", "?")))


def _arrow(label: str, show: Callable[[Any], str], old: Any, new: Any) -> str:
    """`level 3 → 4`; a missing value (cleared, or not logged by an older version) is none."""

    def text(value: Any) -> str:
        return "none" if value is None else show(value)

    return f"{label} {text(old)} → {text(new)}"


def _fields(
    old: dict[str, Any], new: dict[str, Any], labels: dict[str, tuple[str, Callable[[Any], str]]]
) -> list[str]:
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
            fl: Fraction | None = Fraction(override)
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
    return "brought back" if undo else "created"


def character_change(
    old: dict[str, Any] | None, new: dict[str, Any] | None, undo: bool = False
) -> str:
    """`Aria FP 18 → 21 (Fatigued)`, `Aria created`, `Bo removed`, `Aria level 3 → 4`."""
    if old is None or new is None:
        return f"{_name(new or old or {})} {_appeared(undo) if old is None else 'removed'}"
    parts = []
    if old.get("name") != new.get("name"):
        parts.append(f"renamed from {_name(old)}")
    was, now = old.get("fatigue") or {}, new.get("fatigue") or {}
    if was.get("fp") != now.get("fp"):
        band = _band(new)
        parts.append(f"FP {was.get('fp')} → {now.get('fp')}" + (f" ({band})" if band else ""))
    parts += _fields(was, now, _FATIGUE)
    if was.get("temp") == now.get("temp") and was.get("temp_expires") != now.get("temp_expires"):
        until = game_time
        parts.append(
            _arrow("Temporary FP until", until, was.get("temp_expires"), now.get("temp_expires"))
        )
    parts += _fields(old, new, _CHARACTER)
    return f"{_name(new)} {', '.join(parts) or 'changed'}"


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
        return ["stat block rebuilt"]
    parts = [
        f"{name} spot {'revealed' if now[name] else 'hidden again'}"
        for name in now
        if now[name] != was[name]
    ]
    return parts or ["stat block rebuilt"]


def monster_change(
    old: dict[str, Any] | None, new: dict[str, Any] | None, undo: bool = False
) -> str:
    """`monster Orc HP 30 → 22`, `monster Orc created`."""
    if old is None or new is None:
        appeared = _appeared(undo) if old is None else "removed"
        return f"monster {_name(new or old or {})} {appeared}"
    parts = _fields(old, new, _MONSTER)
    if old.get("build") != new.get("build"):
        parts += _spot_changes(old.get("build") or {}, new.get("build") or {})
    if old.get("name") != new.get("name"):
        parts.append(f"renamed from {_name(old)}")
    return f"monster {_name(new)} {', '.join(parts) or 'changed'}"


def channel_changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """`clock Day 1, 00:00 → Day 1, 00:10`, `settings: ties fail → succeed, round 60 s → 6 s`."""
    parts = []
    if old.get("clock") != new.get("clock"):
        parts.append(_arrow("clock", game_time, old.get("clock"), new.get("clock")))
    settings = _fields(old.get("settings") or {}, new.get("settings") or {}, _SETTINGS)
    if settings:
        parts.append(f"settings: {', '.join(settings)}")
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
        parts.append(f"server settings: {', '.join(server)}")
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


def event_line(event: Event, now: datetime) -> str:
    """`🕒 <t:…:t> · <@1> · fatigue spend · Aria FP 18 → 21 (Fatigued)`, struck through when
    the change was undone; an undo starts with ↩️."""
    icon = UNDO_ICON if event.undoes is not None else CHANGE_ICON
    head = f"{icon} {when(event.created_at, now)} · <@{event.actor_id}> · {event.action}"
    undo = event.undoes is not None
    what = "; ".join(change_parts(event.before, event.after, undo)) or "no visible change"
    line = _clip(f"{head} · {what}", LINE_MAX)
    return f"~~{line}~~ (undone)" if event.undone_by is not None else line


def history_embed(events: Sequence[Event], now: datetime, *, newest: bool = True) -> discord.Embed:
    """One page of the log; `newest` says whether it is the first page (for the empty text)."""
    if events:
        description = fit_lines([event_line(e, now) for e in events])
    else:
        description = EMPTY if newest else NO_MORE
    embed = discord.Embed(title=TITLE, description=description, colour=NEUTRAL)
    return embed.set_footer(text=FOOTER)


def undone_embed(undone: Undone, now: datetime) -> discord.Embed:
    """`/undo`: which change was reverted, and what that put back, one line per thing."""
    target = undone.target
    lines = [
        f"{target.action} by <@{target.actor_id}> at {when(target.created_at, now)} is undone:",
        *(f"• {part}" for part in change_parts(undone.undo.before, undone.undo.after, undo=True)),
    ]
    embed = discord.Embed(
        title=_clip(f"{UNDO_ICON} Undone: {target.action}", 256),
        description=fit_lines([_clip(line, LINE_MAX) for line in lines]),
        colour=UNDONE,
    )
    return embed.set_footer(text=UNDO_FOOTER)
