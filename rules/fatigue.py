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

from dataclasses import replace
from fractions import Fraction

from lang import N_, _

from rules._fatigue_events import (
    EVENT_KINDS,
    FatigueEvent,
    band_event,
    cap_set_event,
    held_note,
    holding_cap,
)
from rules._fatigue_level import (
    BANDS,
    COMBINES,
    EXHAUSTED,
    SHATTERED,
    TOUGHNESS_MAX,
    TOUGHNESS_MIN,
    band_index,
    band_name,
    band_ranges,
    band_width,
    check_int,
    fatigue_level,
    max_fp,
    parse_base_hd,
    toughness_from_con,
)
from rules._fatigue_state import (
    FP_AT_ONCE_MAX,
    MINUTES_MAX,
    FatigueSettings,
    FatigueState,
    Transition,
    fp_change,
    lowered,
    with_changes,
)
from rules._fatigue_time import REST_KINDS, advance, rest, rest_minutes
from rules.errors import RulesError
from rules.gametime import game_time

__all__ = [
    "BANDS",
    "COMBINES",
    "EVENT_KINDS",
    "FP_AT_ONCE_MAX",
    "MINUTES_MAX",
    "REST_KINDS",
    "TOUGHNESS_MAX",
    "TOUGHNESS_MIN",
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
    "max_fp",
    "parse_base_hd",
    "recover",
    "rest",
    "rest_minutes",
    "spend",
    "temp",
    "toughness_from_con",
]


def _recap(
    before: FatigueState, after: FatigueState, fl: Fraction
) -> tuple[FatigueState, list[FatigueEvent]]:
    """Becoming Exhausted or Shattered (docs/rules.md#34-caps): a change that leaves FP in that band
    while no cap of that band is in force sets it, so a character still Exhausted after a Break
    is capped again by the next change. Only actions call this (spend, recover, temp): time
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


def spend(state: FatigueState, fl: Fraction, amount: int) -> Transition:
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
    new = with_changes(
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
    fp = lowered(state.fp, amount, floor)
    new = with_changes(state, fp=fp)
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


def temp(
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
    minutes = check_int(minutes, N_("Temporary FP duration (minutes)"), 1, MINUTES_MAX)
    fp = lowered(state.fp, amount, state.floor(fl))
    pooled = amount - (state.fp - fp)
    expires = state.temp_expires
    if pooled:
        ends = now + 60 * minutes
        expires = ends if expires is None else max(expires, ends)
    new = with_changes(state, fp=fp, temp=state.temp + pooled, temp_expires=expires)

    text = _("Temporary FP +{amount}: {change}", amount=amount, change=fp_change(state.fp, fp))
    if new.temp and new.temp_expires is not None:
        text += _(", pool {temp} until {time}", temp=new.temp, time=game_time(new.temp_expires))
    events = [FatigueEvent("temp_granted", text, amount=amount), *band_event(state.fp, fp, fl)]
    new, capped = _recap(state, new, fl)
    return Transition(new, (*events, *capped))
