"""What a fatigue transition reports: events with a short sentence for the reply.

Public names are re-exported by `rules.fatigue`; import them from there.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from lang import N_, _

from rules._fatigue_level import BANDS, EXHAUSTED, SHATTERED, band_index, band_lower

EVENT_KINDS: tuple[str, ...] = (
    "gained",  # FP rose
    "absorbed",  # Temporary FP took (part of) a gain
    "band",  # the band changed: band_from → band_to
    "cap_set",  # cap = "Exhausted" | "Shattered"
    "cap_cleared",
    "vp_damage",  # an action left FP above Maximum and raised it
    "recovered",  # FP removed by `recover` or a rest (amount may be 0 when a cap holds it)
    "temp_granted",
    "temp_decay",  # Temporary FP converted after expiry or during rest
    "temp_expired",  # the Temporary pool ran out (not by absorbing a gain)
    "vp_cleared",  # the GM cleared the VP damage tally
)

CAP_ENDS = {"Exhausted": N_("a Break"), "Shattered": N_("a Short Rest")}


@dataclass(frozen=True)
class FatigueEvent:
    """One thing that happened; `text` is a sentence for the reply, in the language of the
    interaction it was made for; the rest is for code (band and cap names in English)."""

    kind: str
    text: str
    amount: int = 0
    band_from: str | None = None
    band_to: str | None = None
    cap: str | None = None


def band_event(old_fp: int, new_fp: int, fl: Fraction) -> tuple[FatigueEvent, ...]:
    old, new = BANDS[band_index(old_fp, fl)], BANDS[band_index(new_fp, fl)]
    if old == new:
        return ()
    text = _("Now {new} (was {old}) at {fp} FP", new=_(new), old=_(old), fp=new_fp)
    return (FatigueEvent("band", text, band_from=old, band_to=new),)


def cap_set_event(cap: str, fl: Fraction, again: bool = False) -> FatigueEvent:
    """`again`: FP was in that band already (a rest had cleared the cap), so it is set again."""
    floor = band_lower(BANDS.index(cap), fl)
    if again:
        text = _(
            "Still {cap}, capped again: FP can't drop below {floor} until {end}",
            cap=_(cap),
            floor=floor,
            end=_(CAP_ENDS[cap]),
        )
    else:
        text = _(
            "Entered {cap}: FP can't drop below {floor} until {end}",
            cap=_(cap),
            floor=floor,
            end=_(CAP_ENDS[cap]),
        )
    return FatigueEvent("cap_set", text, amount=floor, cap=cap)


def cap_cleared_event(
    cap: str, fl: Fraction, still: str | None = None, to_zero: bool = False
) -> FatigueEvent:
    """`still` names a cap that keeps holding (a Break leaves the Shattered cap); `to_zero`: FP
    goes to 0 anyway (a Long Rest), so where it may drop to goes unsaid."""
    floor = band_lower(BANDS.index(cap), fl)
    if still is not None:
        held = band_lower(BANDS.index(still), fl)
        text = _(
            "{cap} cap cleared, but the {still} cap holds FP at {held} until {end}",
            cap=_(cap),
            still=_(still),
            held=held,
            end=_(CAP_ENDS[still]),
        )
    elif to_zero:
        text = _("{cap} cap cleared", cap=_(cap))
    else:
        text = _("{cap} cap cleared: FP can drop below {floor} again", cap=_(cap), floor=floor)
    return FatigueEvent("cap_cleared", text, amount=floor, cap=cap)


def holding_cap(exhausted_cap: bool, shattered_cap: bool) -> str | None:
    """The cap that sets the floor (Shattered's is the higher one)."""
    if shattered_cap:
        return BANDS[SHATTERED]
    if exhausted_cap:
        return BANDS[EXHAUSTED]
    return None


def held_note(cap: str | None, floor: int) -> str:
    """Why FP stopped at `floor`, for a reply where the cap cut a recovery short."""
    if cap is None:
        return ""
    return _(
        "; the {cap} cap holds FP at {floor} until {end}",
        cap=_(cap),
        floor=floor,
        end=_(CAP_ENDS[cap]),
    )
