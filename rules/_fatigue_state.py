"""The fatigue state, the channel's fatigue settings, and what every transition returns.

Public names are re-exported by `rules.fatigue`; import them from there.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from lang import N_, _

from rules._fatigue_events import FatigueEvent
from rules._fatigue_level import EXHAUSTED, SHATTERED, band_lower, check_int
from rules.errors import RulesError

MINUTES_MAX = 7 * 24 * 60  # a week of game time: longer is surely a typo
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
        check_int(self.long_minutes, N_("Long Rest length (minutes)"), 1, MINUTES_MAX)
        check_int(self.temp_minutes, N_("Temporary FP duration (minutes)"), 1, MINUTES_MAX)


@dataclass(frozen=True)
class FatigueState:
    """One character's fatigue. Store it by field name; it is valid by construction."""

    fp: int = 0
    temp: int = 0
    temp_expires: int | None = None  # game seconds when the Temporary FP ends; None with no pool
    exhausted_cap: bool = False
    shattered_cap: bool = False
    vp_damage: int = 0  # a tally for the GM to apply on the sheet; only `clear_vp` clears it
    settled: int = 0  # game seconds rested through ahead of the clock (see `rules.fatigue`)

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


def lowered(fp: int, amount: int, floor: int) -> int:
    """FP lowered by `amount`, not below `floor`; never raised (a changed FL may lift the floor
    above the current FP)."""
    return max(fp - amount, min(fp, floor))


def with_changes(state: FatigueState, **changes: Any) -> FatigueState:
    if changes.get("temp", state.temp) == 0:
        changes["temp_expires"] = None  # an empty pool has no duration
    return replace(state, **changes)


def fp_change(old: int, new: int) -> str:
    # "FP 0 → 0" reads like a mistake in a reply; say it stayed.
    if old != new:
        return _("FP {old} → {new}", old=old, new=new)
    return _("FP stays {new}", new=new)
