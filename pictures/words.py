"""Each picture in words: the alt text Discord reads to screen-reader users (the attachment's
description). It says what the picture shows, most important first: who is in which band now,
the odds at the difficulty rolled, where a hit meets half Defense."""

from __future__ import annotations

from fractions import Fraction

from lang import N_, _
from rules.defense import facing_text
from rules.fatigue import band_name
from rules.gametime import game_time, span_text
from table.fatigue_series import SINCE_ALL, SINCE_WORDS, FatigueLine, FatigueSeries
from table.monster_view import MonsterView, Square
from table.odds_series import OddsSeries

REST_NAMES = {
    "break": N_("Break"),
    "short": N_("Short Rest"),
    "long": N_("Long Rest"),
    "minutes": N_("Rest"),
}
AXIS_WORDS = {
    "level": N_("Attack Level"),
    "spell": N_("Spell Casting total"),
    "dc": N_("Difficulty"),
}


def percent(chance: float) -> str:
    """`55%`, `62.5%`, `<1%`, `>99%`: short enough for a label on a phone."""
    if 0 < chance < 0.01:
        return "<1%"
    if 0.99 < chance < 1:
        return ">99%"
    shown = f"{chance * 100:.1f}".rstrip("0").rstrip(".")
    return f"{shown}%"


def _now(line: FatigueLine) -> str:
    step = line.now
    if step.width is None:
        return _("{name}: no Fatigue Level", name=line.name)
    band = _(band_name(step.fp, Fraction(step.width)))
    fp = _("{fp}/{top} FP", fp=step.fp, top=5 * step.width)
    if step.temp:
        fp = _("{fp}, {temp} Temporary FP", fp=fp, temp=step.temp)
    return _("{name} {band} ({fp})", name=line.name, band=band, fp=fp)


def fatigue_alt(series: FatigueSeries) -> str:
    head = _(
        "Fatigue in bands {span}, {since}.",
        span=span_text(series.start, series.end),
        since=since_words(series.since),
    )
    parts = [head, _("Now: {who}.", who="; ".join(_now(line) for line in series.lines))]
    if series.rests:
        rests = ", ".join(
            _("{rest} at {when}", rest=rest_name(r.kind), when=game_time(r.end))
            + (f" ({r.name})" if r.name else "")
            for r in series.rests[-5:]
        )
        parts.append(_("Rests: {rests}.", rests=rests))
    hurt = [
        _("{name} at {when}", name=line.name, when=game_time(step.clock))
        for line in series.lines
        for step in line.steps
        if step.vp_taken
    ]
    if hurt:
        parts.append(_("VP damage taken: {who}.", who=", ".join(hurt[-5:])))
    return " ".join(parts)


def since_words(since: str) -> str:
    return _(SINCE_WORDS.get(since, SINCE_WORDS[SINCE_ALL]))


def rest_name(kind: str) -> str:
    return _(REST_NAMES.get(kind, REST_NAMES["minutes"]))


def odds_alt(series: OddsSeries) -> str:
    axis = _(AXIS_WORDS[series.axis])
    first, last = series.xs[0], series.xs[-1]
    parts = [
        _(
            "Chance to succeed against each {axis} from {first} to {last}.",
            axis=axis,
            first=first,
            last=last,
        )
    ]
    for curve in series.curves:
        who = curve.name or _("This save")
        parts.append(
            _(
                "{who}: {high} at {first}, {low} at {last}; {marked} at {axis} {rolled}, "
                "the difficulty rolled ({difficulty}).",
                who=who,
                high=percent(curve.chances[0]),
                first=first,
                low=percent(curve.chances[-1]),
                last=last,
                marked=percent(curve.marked),
                axis=axis,
                rolled=series.rolled,
                difficulty=series.difficulty,
            )
        )
    return " ".join(parts)


def _spot(square: Square) -> str:
    """`left, Hard to Hit, hidden`: the spot a square meets, and how it is found."""
    words = [_(square.spot)]
    if square.hard_to_hit:
        words.append(_("Hard to Hit"))
    if square.hidden:
        words.append(_("hidden"))
    return ", ".join(words)


def monster_alt(view: MonsterView) -> str:
    facing = facing_text(view.facing)
    parts = [_("{name} from above, facing {facing}.", name=view.name, facing=facing)]
    open_ = [s for s in view.squares if s.unarmored]
    squares = ", ".join(
        _("{square} (its {spot})", square=facing_text(s.compass), spot=_spot(s)) for s in open_
    )
    if open_ and view.defense is None:  # the numbers are the GM's
        parts.append(_("A hit from {squares} meets half Defense.", squares=squares))
    elif open_:
        parts.append(
            _(
                "A hit from {squares} meets half Defense, {half} instead of {defense}.",
                squares=squares,
                half=view.half,
                defense=view.defense,
            )
        )
    elif view.defense is None:
        parts.append(_("Every square meets its full Defense."))
    else:
        parts.append(_("Every square meets its full Defense of {defense}.", defense=view.defense))
    if view.wounds is not None:
        parts.append(_("It is {wounds}.", wounds=_(view.wounds)))
    if view.hidden_left_out:
        parts.append(_("Hidden unarmored spots not shown: {count}.", count=view.hidden_left_out))
    return " ".join(parts)
