"""Fatigue Points (docs/rules.md#3-fatigue): an immutable state and pure transitions.

Every transition takes the character's Fatigue Level `fl` (see `fatigue_level`) and returns a
`Transition(state, events, minutes)`. Time is game time on the channel clock, in seconds:

* `advance(state, fl, start, end, settings)` handles Temporary FP after its expiry E. The rounds
  that count end at E + k·round_seconds for k ≥ 1, and a round counts when start < its end ≤ end.
  So nothing happens at E itself, the first point goes one full round later, and advancing in
  pieces (0→a, a→b) gives the same result as one step (0→b).
* `rest(...)` covers the rest's own minutes (it converts 1 Temporary FP a minute whatever the
  duration), and says how long it took in `Transition.minutes`. A party rest moves the clock on
  by that many minutes WITHOUT calling `advance` over the same span.

Every span of game time counts once per character. `FatigueState.settled` is the game time a
character has been settled through AHEAD of the channel clock, by resting alone while the clock
stood still (0 when it is not ahead: the clock itself says how far everyone is settled). Time
the clock then passes up to `settled` does nothing to that character, in `advance` and in a
party `rest`; once the clock reaches it, it goes back to 0.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from lang import N_, _

from rules._fatigue_events import (
    EVENT_KINDS,
    FatigueEvent,
    band_event,
    cap_cleared_event,
    cap_set_event,
    held_note,
    holding_cap,
)
from rules._fatigue_level import (
    BANDS,
    EXHAUSTED,
    SHATTERED,
    band_index,
    band_lower,
    band_name,
    band_ranges,
    band_width,
    check_int,
    fatigue_level,
    max_fp,
    parse_base_hd,
    toughness_from_con,
)
from rules.errors import RulesError
from rules.gametime import game_time

__all__ = [
    "BANDS",
    "EVENT_KINDS",
    "REST_KINDS",
    "FatigueEvent",
    "FatigueSettings",
    "FatigueState",
    "Transition",
    "advance",
    "band_index",
    "band_name",
    "band_ranges",
    "band_width",
    "clear_vp",
    "fatigue_level",
    "gain",
    "grant_temp",
    "max_fp",
    "parse_base_hd",
    "recover",
    "rest",
    "rest_minutes",
    "toughness_from_con",
]

REST_KINDS: tuple[str, ...] = ("break", "short", "long", "minutes")
_REST_NAMES = {
    "break": N_("Took a Break"),
    "short": N_("Took a Short Rest"),
    "long": N_("Took a Long Rest"),
}
RESTED = N_("Rested")  # a rest of some minutes
_MAX_MINUTES = 7 * 24 * 60  # a week of game time: longer is surely a typo
FP_AT_ONCE_MAX = 1000  # FP gained, recovered or granted in one go: more is surely a typo


@dataclass(frozen=True)
class FatigueSettings:
    """The channel's settings (docs/rules.md#37-recovery-and-rests); passed in, never stored."""

    round_seconds: int = 60
    rest_rate: int = 1  # FP removed per minute of rest
    break_minutes: int = 10
    short_minutes: int = 60
    long_minutes: int = 480
    temp_minutes: int = 10  # Temporary FP duration when none is given

    def __post_init__(self) -> None:
        check_int(self.round_seconds, N_("Round length (seconds)"), 1, 3600)
        check_int(self.rest_rate, N_("Rest rate (FP per minute)"), 0, 100)
        check_int(self.break_minutes, N_("Break length (minutes)"), 1, 24 * 60)
        check_int(self.short_minutes, N_("Short Rest length (minutes)"), 1, 24 * 60)
        check_int(self.long_minutes, N_("Long Rest length (minutes)"), 1, _MAX_MINUTES)
        check_int(self.temp_minutes, N_("Temporary FP duration (minutes)"), 1, _MAX_MINUTES)


@dataclass(frozen=True)
class FatigueState:
    """One character's fatigue. Store it by field name; it is valid by construction."""

    fp: int = 0
    temp: int = 0
    temp_expires: int | None = None  # game seconds when the Temporary FP ends; None with no pool
    exhausted_cap: bool = False
    shattered_cap: bool = False
    vp_damage: int = 0  # a tally for the GM to apply on the sheet; only `clear_vp` clears it
    settled: int = 0  # game seconds rested through ahead of the clock (see the module docstring)

    def __post_init__(self) -> None:
        check_int(self.fp, N_("FP"), 0)
        check_int(self.temp, N_("Temporary FP"), 0)
        check_int(self.vp_damage, N_("VP damage"), 0)
        check_int(self.settled, N_("Settled game time"), 0)
        if self.temp > 0 and self.temp_expires is None:
            raise RulesError(_("Temporary FP needs an expiry time"))
        if self.temp == 0 and self.temp_expires is not None:
            raise RulesError(_("An expiry time needs Temporary FP"))
        if self.temp_expires is not None:
            check_int(self.temp_expires, N_("Temporary FP expiry"), 0)
        for name in ("exhausted_cap", "shattered_cap"):
            flag = getattr(self, name)
            if flag not in (0, 1):  # also takes SQLite's 0/1, kept as a real bool
                raise RulesError(_("{name} must be true or false", name=name))
            object.__setattr__(self, name, bool(flag))

    def floor(self, fl: Fraction) -> int:
        """Lowest FP allowed now: 4W+1 under the Shattered cap, 3W+1 under Exhausted, else 0."""
        if self.shattered_cap:
            return band_lower(SHATTERED, fl)
        if self.exhausted_cap:
            return band_lower(EXHAUSTED, fl)
        return 0


@dataclass(frozen=True)
class Transition:
    state: FatigueState
    events: tuple[FatigueEvent, ...] = ()
    minutes: int = 0  # game minutes the action took (rests); the caller moves the clock


def _lower(fp: int, amount: int, floor: int) -> int:
    """FP lowered by `amount`, not below `floor`; never raised (a changed FL may lift the floor
    above the current FP)."""
    return max(fp - amount, min(fp, floor))


def _with(state: FatigueState, **changes: Any) -> FatigueState:
    if changes.get("temp", state.temp) == 0:
        changes["temp_expires"] = None  # an empty pool has no duration
    return replace(state, **changes)


def _recap(
    before: FatigueState, after: FatigueState, fl: Fraction
) -> tuple[FatigueState, list[FatigueEvent]]:
    """Becoming Exhausted or Shattered (docs/rules.md#34-caps): a change that leaves FP in that band
    while no cap of that band is in force sets it, so a character still Exhausted after a Break
    is capped again by the next change. Only actions call this (gain, recover, grant_temp): time
    passing (`advance`, `rest`) only converts and recovers, and must give the same result however
    the GM cuts it into pieces; a cap set halfway through a span would stop it."""
    band = band_index(after.fp, fl)
    events: list[FatigueEvent] = []
    again = band == band_index(before.fp, fl)
    if band == EXHAUSTED and not after.exhausted_cap:
        after = replace(after, exhausted_cap=True)
        events.append(cap_set_event(BANDS[EXHAUSTED], fl, again))
    if band == SHATTERED and not after.shattered_cap:
        after = replace(after, shattered_cap=True)
        events.append(cap_set_event(BANDS[SHATTERED], fl, again))
    return after, events


def gain(state: FatigueState, fl: Fraction, amount: int) -> Transition:
    """An action costing `amount` FP: Temporary FP absorbs first, the rest raises FP.

    Rising into Exhausted (or past it) sets the Exhausted cap; into Shattered, the Shattered cap;
    ending in a band whose cap a rest cleared sets it again. Leaving FP above Maximum after
    raising it costs 1 VP.
    """
    amount = check_int(amount, N_("FP gained"), 1, FP_AT_ONCE_MAX)
    absorbed = min(state.temp, amount)
    fp = state.fp + amount - absorbed
    old_band, new_band = band_index(state.fp, fl), band_index(fp, fl)
    crossed_exhausted = not state.exhausted_cap and old_band < EXHAUSTED < new_band
    top = max_fp(fl)
    hurt = fp > state.fp and fp > top
    new = _with(
        state,
        fp=fp,
        temp=state.temp - absorbed,
        exhausted_cap=state.exhausted_cap or crossed_exhausted,
        vp_damage=state.vp_damage + int(hurt),
    )

    events: list[FatigueEvent] = []
    if absorbed:
        if new.temp:
            text = _(
                "Temporary FP absorbed {absorbed} ({left} left)", absorbed=absorbed, left=new.temp
            )
        else:
            text = _("Temporary FP absorbed {absorbed} (pool used up)", absorbed=absorbed)
        events.append(FatigueEvent("absorbed", text, amount=absorbed))
    if fp > state.fp:
        text = _("FP {old} → {new} (+{gain})", old=state.fp, new=fp, gain=fp - state.fp)
        events.append(FatigueEvent("gained", text, amount=fp - state.fp))
    events.extend(band_event(state.fp, fp, fl))
    if crossed_exhausted:  # through Exhausted into Shattered in one go
        events.append(cap_set_event(BANDS[EXHAUSTED], fl))
    new, capped = _recap(state, new, fl)
    events.extend(capped)
    if hurt:
        text = _("Over Maximum FP ({fp}/{top}): 1 VP damage", fp=fp, top=top)
        events.append(FatigueEvent("vp_damage", text, amount=1))
    return Transition(new, tuple(events))


def clear_vp(state: FatigueState) -> Transition:
    """The GM has applied the VP damage tally to the sheet (or waives it): it goes back to 0.
    No rest does this (docs/rules.md#33-gaining-fp-and-vp-damage)."""
    if not state.vp_damage:
        raise RulesError(_("There is no VP damage to clear"))
    text = _("VP damage tally cleared ({tally} → 0)", tally=state.vp_damage)
    return Transition(
        replace(state, vp_damage=0), (FatigueEvent("vp_cleared", text, amount=state.vp_damage),)
    )


def recover(state: FatigueState, fl: Fraction, amount: int) -> Transition:
    """The GM removes `amount` FP directly; FP stops at the floor (a cap) and at 0."""
    amount = check_int(amount, N_("FP recovered"), 1, FP_AT_ONCE_MAX)
    floor = state.floor(fl)
    fp = _lower(state.fp, amount, floor)
    new = _with(state, fp=fp)
    note = held_note(holding_cap(state.exhausted_cap, state.shattered_cap), floor)
    held = note if state.fp - amount < floor else ""
    if fp == state.fp:  # at 0 or at the floor: "Recovered 0 FP (0 → 0)" reads like a mistake
        text = _("Recovered nothing: FP stays {fp}{held}", fp=fp, held=held)
    else:
        text = _(
            "Recovered {amount} FP ({old} → {new}){held}",
            amount=state.fp - fp,
            old=state.fp,
            new=fp,
            held=held,
        )
    events = [FatigueEvent("recovered", text, amount=state.fp - fp), *band_event(state.fp, fp, fl)]
    new, capped = _recap(state, new, fl)
    return Transition(new, (*events, *capped))


def _fp_change(old: int, new: int) -> str:
    # "FP 0 → 0" reads like a mistake in a reply; say it stayed.
    if old != new:
        return _("FP {old} → {new}", old=old, new=new)
    return _("FP stays {new}", new=new)


def grant_temp(
    state: FatigueState,
    fl: Fraction,
    amount: int,
    now: int,
    settings: FatigueSettings,
    minutes: int | None = None,
) -> Transition:
    """Grant `amount` Temporary FP at game time `now` for `minutes` (default: the setting).

    FP is lowered first, down to the floor; the rest joins the one Temporary pool, whose expiry
    becomes the later of the old and now + duration. A grant spent wholly on FP leaves the
    pool (and its expiry) alone. A character who rested alone ahead of the clock gets it at
    its own time, the end of that rest: the rest is over, so its minutes can't convert it.
    """
    amount = check_int(amount, N_("Temporary FP"), 1, FP_AT_ONCE_MAX)
    now = max(check_int(now, N_("Game time (seconds)"), 0), state.settled)
    if minutes is None:
        minutes = settings.temp_minutes
    minutes = check_int(minutes, N_("Temporary FP duration (minutes)"), 1, _MAX_MINUTES)
    fp = _lower(state.fp, amount, state.floor(fl))
    pooled = amount - (state.fp - fp)
    expires = state.temp_expires
    if pooled:
        ends = now + 60 * minutes
        expires = ends if expires is None else max(expires, ends)
    new = _with(state, fp=fp, temp=state.temp + pooled, temp_expires=expires)

    text = _("Temporary FP +{amount}: {change}", amount=amount, change=_fp_change(state.fp, fp))
    if new.temp and new.temp_expires is not None:
        text += _(", pool {temp} until {time}", temp=new.temp, time=game_time(new.temp_expires))
    events = [FatigueEvent("temp_granted", text, amount=amount), *band_event(state.fp, fp, fl)]
    new, capped = _recap(state, new, fl)
    return Transition(new, (*events, *capped))


def _convert(
    state: FatigueState,
    fl: Fraction,
    steps: int,
    floor: int,
    extra: int = 0,
    resting: bool = False,
) -> tuple[FatigueState, list[FatigueEvent]]:
    """Convert `steps` Temporary FP (each −1 Temporary, −1 FP), then remove `extra` FP; FP
    stops at `floor` but Temporary FP still drops. Order does not matter: both only lower FP."""
    fp = _lower(state.fp, steps + extra, floor)
    new = _with(state, fp=fp, temp=state.temp - steps)
    events: list[FatigueEvent] = []
    if steps:
        if resting:  # a reply says why it dropped before its expiry
            text = _(
                "{steps} Temporary FP converted while resting ({left} left)",
                steps=steps,
                left=new.temp,
            )
        else:
            text = _("Temporary FP −{steps} ({left} left)", steps=steps, left=new.temp)
        events.append(FatigueEvent("temp_decay", text, amount=steps))
        if new.temp == 0:
            events.append(FatigueEvent("temp_expired", _("Temporary FP gone")))
    return new, events


def _rounds(expires: int, round_seconds: int, start: int, end: int) -> int:
    """How many k ≥ 1 have start < expires + k·round_seconds ≤ end."""
    last = (end - expires) // round_seconds
    first = max(1, (start - expires) // round_seconds + 1)
    return max(0, last - first + 1)


def _ahead(settled: int, clock: int) -> int:
    """`settled` once the clock stands at `clock`: kept while still ahead, else 0."""
    return settled if settled > clock else 0


def advance(
    state: FatigueState, fl: Fraction, start: int, end: int, settings: FatigueSettings
) -> Transition:
    """The channel clock moves from `start` to `end` game seconds (see the module docstring).
    Only the part after `state.settled` counts: a character who rested alone through part of the
    span had that part already."""
    start = check_int(start, N_("Start time (seconds)"), 0)
    end = check_int(end, N_("End time (seconds)"), 0)
    if end < start:
        raise RulesError(_("The game clock can't run backwards"))
    settled = _ahead(state.settled, end)
    steps = 0
    if state.temp_expires is not None:
        since = max(start, state.settled)
        rounds = _rounds(state.temp_expires, settings.round_seconds, since, end)
        steps = min(state.temp, rounds)
    if steps == 0:
        return Transition(state if settled == state.settled else replace(state, settled=settled))
    new, events = _convert(state, fl, steps, state.floor(fl))
    if new.fp != state.fp:
        text = _("FP {old} → {new} as Temporary FP fades", old=state.fp, new=new.fp)
        events.append(FatigueEvent("recovered", text, amount=state.fp - new.fp))
    events.extend(band_event(state.fp, new.fp, fl))
    return Transition(replace(new, settled=settled), tuple(events))


def rest_minutes(kind: str, settings: FatigueSettings, minutes: int | None = None) -> int:
    """How long a rest lasts: the setting for "break", "short" and "long"; `minutes` (required,
    1 or more) for "minutes"."""
    if kind not in REST_KINDS:
        raise RulesError(_("A rest is a break, short, long or a number of minutes"))
    if kind == "minutes":
        if minutes is None:
            raise RulesError(_("Say how many minutes the rest lasts"))
        return check_int(minutes, N_("Rest length (minutes)"), 1, _MAX_MINUTES)
    if minutes is not None:
        raise RulesError(_("Only a rest in minutes takes a length; the others use the settings"))
    lengths = {
        "break": settings.break_minutes,
        "short": settings.short_minutes,
        "long": settings.long_minutes,
    }
    return lengths[kind]


def _rest_span(state: FatigueState, length: int, now: int, alone: bool) -> tuple[int, int, int]:
    """(start, minutes that count, settled after) of a rest of `length` minutes at clock `now`.

    Alone, the character rests on from its own time (after any earlier rest of its own) and is
    settled through the rest's end. With the party, the rest runs from `now` and only the minutes
    ending after `settled` count: those before it were rested through already."""
    if alone:
        start = max(now, state.settled)
        return start, length, start + 60 * length
    skipped = min(length, max(0, (state.settled - now) // 60))
    return now, length - skipped, _ahead(state.settled, now + 60 * length)


def rest(
    state: FatigueState,
    fl: Fraction,
    kind: str,
    settings: FatigueSettings,
    minutes: int | None = None,
    *,
    now: int = 0,
    alone: bool = False,
) -> Transition:
    """Rest at clock `now`: clear caps first (break: Exhausted; short and long: both; minutes:
    none), then each minute that counts (see `_rest_span`) convert 1 Temporary FP and remove
    `rest_rate` FP. A Long Rest ends with FP and Temporary FP at 0. `alone`: only this character
    rests and the clock stands still. `Transition.minutes` is the rest's length."""
    length = rest_minutes(kind, settings, minutes)
    now = check_int(now, N_("Game time (seconds)"), 0)
    start, counted, settled = _rest_span(state, length, now, alone)
    clear_exhausted = kind in ("break", "short", "long")
    clear_shattered = kind in ("short", "long")
    events: list[FatigueEvent] = []
    still = None  # a cap this rest leaves holding, already named by the cleared cap's event
    if clear_exhausted and state.exhausted_cap:
        still = BANDS[SHATTERED] if state.shattered_cap and not clear_shattered else None
        events.append(cap_cleared_event(BANDS[EXHAUSTED], fl, still, kind == "long"))
    if clear_shattered and state.shattered_cap:
        events.append(cap_cleared_event(BANDS[SHATTERED], fl, to_zero=kind == "long"))
    uncapped = _with(
        state,
        exhausted_cap=state.exhausted_cap and not clear_exhausted,
        shattered_cap=state.shattered_cap and not clear_shattered,
        settled=settled,
    )

    floor = uncapped.floor(fl)
    held = ""
    if kind == "long":
        new = _with(uncapped, fp=0, temp=0)
        if state.temp:
            events.append(FatigueEvent("temp_expired", _("Temporary FP gone while resting")))
    else:
        steps = min(state.temp, counted)
        extra = settings.rest_rate * counted
        new, converted = _convert(uncapped, fl, steps, floor, extra, resting=True)
        events.extend(converted)
        holding = holding_cap(new.exhausted_cap, new.shattered_cap)
        if state.fp - steps - extra < floor and holding != still:
            held = held_note(holding, floor)
    rested = _(_REST_NAMES.get(kind, RESTED))
    if alone:
        when = _(
            "{length} min alone, {start} → {end}",
            length=length,
            start=game_time(start),
            end=game_time(settled),
        )
    elif counted < length and kind != "long":  # a Long Rest ends at 0 FP whatever counted
        when = _(
            "{length} min, {counted} counted: rested alone until {time}",
            length=length,
            counted=counted,
            time=game_time(state.settled),
        )
    else:
        when = _("{length} min", length=length)
    text = _(
        "{rested} ({when}): {change}{held}",
        rested=rested,
        when=when,
        change=_fp_change(state.fp, new.fp),
        held=held,
    )
    events.append(FatigueEvent("recovered", text, amount=state.fp - new.fp))
    events.extend(band_event(state.fp, new.fp, fl))
    return Transition(new, tuple(events), minutes=length)
