"""Time on the channel clock (docs/rules.md#37-recovery-and-rests): Temporary FP fading as the
clock moves (`advance`) and rests (`rest`).

Public names are re-exported by `rules.fatigue`; import them from there.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from lang import N_, _

from rules._fatigue_events import (
    FatigueEvent,
    band_event,
    cap_cleared_event,
    held_note,
    holding_cap,
)
from rules._fatigue_level import BANDS, EXHAUSTED, SHATTERED, check_int
from rules._fatigue_state import (
    MINUTES_MAX,
    FatigueSettings,
    FatigueState,
    Transition,
    fp_change,
    lowered,
    with_changes,
)
from rules.errors import RulesError
from rules.gametime import game_time

REST_KINDS: tuple[str, ...] = ("break", "short", "long", "minutes")
_REST_NAMES = {
    "break": N_("Took a Break"),
    "short": N_("Took a Short Rest"),
    "long": N_("Took a Long Rest"),
}
RESTED = N_("Rested")  # a rest of some minutes


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
    fp = lowered(state.fp, steps + extra, floor)
    new = with_changes(state, fp=fp, temp=state.temp - steps)
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
        return check_int(minutes, N_("Rest length (minutes)"), 1, MINUTES_MAX)
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
    uncapped = with_changes(
        state,
        exhausted_cap=state.exhausted_cap and not clear_exhausted,
        shattered_cap=state.shattered_cap and not clear_shattered,
        settled=settled,
    )

    floor = uncapped.floor(fl)
    held = ""
    if kind == "long":
        new = with_changes(uncapped, fp=0, temp=0)
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
        change=fp_change(state.fp, new.fp),
        held=held,
    )
    events.append(FatigueEvent("recovered", text, amount=state.fp - new.fp))
    events.extend(band_event(state.fp, new.fp, fl))
    return Transition(new, tuple(events), minutes=length)
