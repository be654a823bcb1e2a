"""What one logged change did, as `/history` and `/undo` say it: a short text per thing it
touched (the channel's fields, each character, each monster, the turn order), before → after."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import Any

from discord.utils import escape_markdown

from lang import N_, _
from render.common import fl_text
from render.initiative import initiative_change
from render.links import link_change
from render.settings import language_text, monster_stats_text
from rules.defense import facing_text
from rules.errors import RulesError
from rules.fatigue import band_name
from rules.gametime import game_time
from rules.text import plain
from table.actions import action_text, renames_in, restores
from table.event import Event
from table.monster import looks
from table.sheet import format_classes
from table.snapshot import WEB, Change, Snapshot, fatigue_at

# Stored words (settings' values, a character's way of combining classes), marked likewise.
WORDS = frozenset(
    (
        N_("fail"),
        N_("succeed"),
        N_("shared"),
        N_("own"),
        N_("allowed"),
        N_("gm"),
        N_("single"),
        N_("multi"),
        N_("dual"),
    )
)


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
    "player_rests": (N_("player rests"), _word),
    "init_dice": (N_("initiative dice"), str),
    "monster_stats": (N_("monster numbers"), monster_stats_text),
    "language": (N_("language"), language_text),
}


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
    "active": (N_("active"), _on),
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
    "init_bonus": (N_("initiative bonus"), plain),
    "in_party": (N_("in the party"), _on),
}
_FATIGUE: dict[str, tuple[str, Callable[[Any], str]]] = {
    "temp": (N_("Temporary FP"), str),
    "exhausted_cap": (N_("Exhausted cap"), _on),
    "shattered_cap": (N_("Shattered cap"), _on),
    "vp_damage": (N_("VP damage"), str),
    # A character settled past the clock rested alone ahead of it (as the cards say it); None
    # is back with the clock.
    "settled": (N_("rested alone"), _ahead),
}
_MONSTER: dict[str, tuple[str, Callable[[Any], str]]] = {
    "hp_max": (N_("max HP"), str),
    "hp": ("HP", plain),
    "facing": (N_("facing"), facing_text),
}
# What the players may read of a monster when its numbers are hidden from them (`table.sight`).
_MONSTER_SEEN = {"facing": _MONSTER["facing"]}


def _name(data: dict[str, Any]) -> str:
    return escape_markdown(str(data.get("name", "?")))


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


def _band(record: dict[str, Any]) -> str | None:
    """The band the character's FP falls in, if they have a Fatigue Level (and the snapshot
    still reads as one)."""
    fatigue = fatigue_at(record)
    if fatigue is None or fatigue.fl is None or fatigue.fl <= 0:
        return None
    try:
        return band_name(fatigue.fp, fatigue.fl)
    except RulesError:  # FP logged as no count of points: no band to show
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


def _looks(record: dict[str, Any]) -> str | None:
    hp, hp_max = record.get("hp"), record.get("hp_max")
    if not isinstance(hp, int) or not isinstance(hp_max, int):  # untracked, or logged oddly
        return None
    return looks(hp, hp_max)


def monster_change(
    old: dict[str, Any] | None,
    new: dict[str, Any] | None,
    undo: bool = False,
    numbers: bool = True,
) -> str:
    """`monster Orc HP 30 → 22`, `monster Orc created`; without its `numbers` (hidden from
    whoever reads it), `monster Orc looks unhurt → hurt`."""
    if old is None or new is None:
        appeared = _appeared(undo) if old is None else _("removed")
        return _("monster {name} {what}", name=_name(new or old or {}), what=appeared)
    if numbers:
        parts = _fields(old, new, _MONSTER)
    else:
        parts = _fields(old, new, _MONSTER_SEEN)
        was, now = _looks(old), _looks(new)
        if was != now:
            parts.append(_arrow(N_("looks"), _, was, now))
        elif now is not None and old.get("hp") != new.get("hp"):  # a hit the table saw
            hit = _("hit") if new["hp"] < old["hp"] else _("hit taken back")
            parts.append(_("{hit}, still looks {looks}", hit=hit, looks=_(now)))
    if bool(old.get("hidden")) != bool(new.get("hidden")):
        parts.insert(0, _("back behind the GM's screen") if new.get("hidden") else _("appears"))
    if old.get("init_bonus", 0) != new.get("init_bonus", 0):
        parts.append(
            _arrow(N_("initiative bonus"), plain, old.get("init_bonus"), new.get("init_bonus"))
        )
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


BEHIND_SCREEN = N_("behind the GM's screen")  # what the players read of the GM's preparation


def change_parts(
    before: Snapshot,
    after: Snapshot,
    undo: bool = False,
    *,
    numbers: bool,
    renames: bool = True,
    prepared: bool = False,
) -> list[str]:
    """One text per thing a change touched: the channel's fields, each character, each monster;
    `undo` when the change is an undo (what it puts back was "brought back", not created);
    `numbers` whether its readers may see the monsters' numbers, `prepared` the monsters still
    behind the GM's screen (`table.sight`: else those read as one "behind the GM's screen",
    unnamed); `renames` whether one gone and one come read as a rename
    (`table.actions.renames`)."""
    change = Change(before, after)
    masked = frozenset() if prepared else change.behind_screen()
    parts = channel_changes(*change.channel())
    server = _fields(*change.server_settings(), _SETTINGS)
    if server:  # a value the server doesn't set reads "none": its channels' own, else default
        parts.append(_("server settings: {changes}", changes=", ".join(server)))
    renamed_character: tuple[dict[str, Any], dict[str, Any]] | None = None
    monster = partial(monster_change, numbers=numbers)
    for part, show in (("characters", character_change), ("monsters", monster)):
        old, new = change.records(part)
        hidden = masked if part == "monsters" else frozenset()
        keys = sorted((old.keys() | new.keys()) - hidden)
        renamed = change.renamed(part) if renames and not hidden else None
        if renamed is not None:  # one name gone and one come: a rename, shown as one
            was, now = renamed
            keys = [k for k in keys if k not in renamed]
            parts.append(show(old[was], new[now], undo))
            if part == "characters":
                renamed_character = (old[was] or {}, new[now] or {})
        parts += [show(old.get(key), new.get(key), undo) for key in keys]
    if masked:
        parts.append(_(BEHIND_SCREEN))
    orders = change.orders()
    if orders is not None:
        was_order, now_order = orders
        if renamed_character is not None:  # its place follows a rename: that is no change
            was_order = _follow(was_order, *renamed_character)
        if was_order != now_order:
            parts.append(initiative_change(was_order, now_order))
    if WEB in after:  # the channel's web page link (`/table link`, `/table revoke`)
        parts.append(link_change(before.get(WEB), after.get(WEB), undo))
    return parts


def event_parts(event: Event, *, numbers: bool, prepared: bool = False) -> list[str]:
    """`change_parts` of a logged change, as `/history` and the web page both say it: an undo or
    a redo brings back what it makes appear (`table.actions.restores`), and one gone and one
    come read as a rename unless the change put a whole table in place (`renames_in`)."""
    return change_parts(
        event.before,
        event.after,
        restores(event),
        numbers=numbers,
        renames=renames_in(event),
        prepared=prepared,
    )


def event_action(event: Event, *, prepared: bool = False) -> str:
    """What kind of change it was, in the reader's language (`fatigue spend`); for a change
    that touched nothing but the GM's preparation, to a reader who may not see it, not even
    that (`BEHIND_SCREEN`)."""
    if not prepared and Change.of(event).only_behind_screen():
        return _(BEHIND_SCREEN)
    return action_text(event.action)


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
