"""Fatigue (docs/rules.md#3-fatigue): level, bands, and the state's transitions."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.fatigue import (
    BANDS,
    FatigueSettings,
    FatigueState,
    Transition,
    advance,
    band_index,
    band_name,
    band_ranges,
    band_width,
    fatigue_level,
    max_fp,
    parse_base_hd,
    recover,
    rest,
    rest_minutes,
    spend,
    temp,
    toughness_from_con,
)

OGRE_FL = Fraction(41, 2)  # the worked example: bands of 20, maximum 100
SEVEN = Fraction(7)  # the text's FL 7 example: bands of 7, maximum 35
DEFAULTS = FatigueSettings()


def kinds(t: Transition, kind: str) -> list:
    return [e for e in t.events if e.kind == kind]


# --- Constitution → Toughness -------------------------------------------------------------

# Every row of docs/rules.md#31-fatigue-level's table, written out value by value.
CON_TABLE = {0: -5, 1: -3, 2: -2, 3: -2, 4: -1, 5: -1, 6: -1}
CON_TABLE |= dict.fromkeys(range(7, 15), 0)
CON_TABLE |= {15: 1, 16: 2, 17: 3, 18: 4, 19: 5, 20: 5, 21: 6, 22: 6, 23: 6, 24: 7, 25: 7}


@pytest.mark.parametrize(("con", "toughness"), sorted(CON_TABLE.items()))
def test_constitution_table(con: int, toughness: int) -> None:
    assert toughness_from_con(con) == toughness


@pytest.mark.parametrize("con", [-1, 26, 100, True, 17.0, "17"])
def test_constitution_outside_table(con: object) -> None:
    with pytest.raises(RulesError, match="Constitution"):
        toughness_from_con(con)  # type: ignore[arg-type]


# --- Fatigue Level ------------------------------------------------------------------------


def test_worked_example_ogre_fighter_thief() -> None:
    fl = fatigue_level([(10, 5), (6, 6)], "multi", toughness_from_con(17), "4+1", 8)
    assert fl == Fraction(41, 2)
    assert isinstance(fl, Fraction)
    assert band_ranges(fl) == [
        ("Fresh", 0, 20),
        ("Fatigued", 21, 40),
        ("Tired", 41, 60),
        ("Exhausted", 61, 80),
        ("Shattered", 81, 100),
    ]
    assert max_fp(fl) == 100
    assert band_width(fl) == 20


def test_fl_seven_bands() -> None:
    assert band_ranges(SEVEN) == [
        ("Fresh", 0, 7),
        ("Fatigued", 8, 14),
        ("Tired", 15, 21),
        ("Exhausted", 22, 28),
        ("Shattered", 29, 35),
    ]
    assert max_fp(SEVEN) == 35
    # a d4 single class at level 3 with no Toughness has FL 4 + 3
    assert fatigue_level([(4, 3)]) == 7


@pytest.mark.parametrize(
    ("classes", "combine", "toughness", "base_hd", "kin", "expected"),
    [
        ([(10, 5)], "single", 3, None, None, Fraction(18)),  # 10 + 3 + 5
        ([(8, 14)], "single", 0, None, None, Fraction(18)),  # level counts up to 10
        ([(10, 10)], "single", -5, None, None, Fraction(15)),
        ([(10, 5), (6, 6)], "dual", 3, "4+1", 8, Fraction(23)),  # d10, highest level 6, +3, +4
        ([(6, 12), (10, 2)], "dual", 0, None, None, Fraction(20)),  # d10 and min(12, 10)
        ([(8, 12), (4, 3)], "multi", 0, None, None, Fraction(25, 2)),  # 6 + (10 + 3) / 2
        ([(10, 3), (6, 3), (4, 4)], "multi", 0, None, None, Fraction(10)),  # 20/3 + 10/3
        ([(6, 6)], "single", 0, None, 8, Fraction(14)),  # kin d8 beats the thief's d6
        ([(10, 5), (6, 6)], "multi", 0, None, 12, Fraction(35, 2)),  # kin d12 beats average 8
        ([(10, 5)], "single", 0, None, 4, Fraction(15)),  # a smaller kin HD is ignored
    ],
)
def test_fatigue_level_variants(
    classes: list[tuple[int, int]],
    combine: str,
    toughness: int,
    base_hd: str | None,
    kin: int | None,
    expected: Fraction,
) -> None:
    assert fatigue_level(classes, combine, toughness, base_hd, kin) == expected


@pytest.mark.parametrize(
    ("base_hd", "bonus"),
    [("1", 0), ("1+2", 0), ("1+3", 2), ("1+5", 2), ("2", 2), ("3", 3), ("4+1", 4), ("2+6", 4)],
)
def test_base_hd_bonus(base_hd: str, bonus: int) -> None:
    without = fatigue_level([(8, 1)])
    assert fatigue_level([(8, 1)], base_hd=base_hd) - without == bonus


@pytest.mark.parametrize(
    ("text", "parsed"), [("4+1", (4, 1)), ("3", (3, 0)), (" 4 + 1 ", (4, 1)), ("12+7", (12, 7))]
)
def test_parse_base_hd(text: str, parsed: tuple[int, int]) -> None:
    assert parse_base_hd(text) == parsed


@pytest.mark.parametrize("text", ["", "4d8+1", "+1", "4+", "4-1", "four", "4+1+1", None, 4])
def test_parse_base_hd_malformed(text: object) -> None:
    with pytest.raises(RulesError, match="Base HD must look like 4\\+1"):
        parse_base_hd(text)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "parsed"), [("999+999", (999, 999)), ("1+0", (1, 0)), ("0004+001", (4, 1))]
)
def test_parse_base_hd_at_the_ends_of_its_range(text: str, parsed: tuple[int, int]) -> None:
    assert parse_base_hd(text) == parsed


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("1000", "Base HD must be 1 to 999 HD (the 4 of 4+1)"),
        ("0+3", "Base HD must be 1 to 999 HD (the 4 of 4+1)"),
        ("9" * 90 + "+1", "Base HD must be 1 to 999 HD (the 4 of 4+1)"),
        ("4+1000", "Base HD's plus must be 0 to 999 (the 1 of 4+1)"),
    ],
)
def test_parse_base_hd_well_formed_but_out_of_range(text: str, says: str) -> None:
    # The form is right, so the error names the range, not the form.
    with pytest.raises(RulesError) as caught:
        parse_base_hd(text)
    assert str(caught.value) == says


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"classes": []}, "at least one class"),
        ({"classes": [(10, 5), (6, 6)]}, "exactly one class"),
        ({"classes": [(10, 5)], "combine": "multi"}, "two or more"),
        ({"classes": [(10, 5)], "combine": "dual"}, "two or more"),
        ({"classes": [(10, 5)], "combine": "triple"}, "single, multi or dual"),
        ({"classes": [(7, 5)]}, "HD size"),
        ({"classes": [(True, 5)]}, "HD size"),
        ({"classes": [(10, 0)]}, "Level must be 1 or more"),
        ({"classes": [(10, -2)]}, "Level"),
        ({"classes": [(10,)]}, "HD size and a level"),
        ({"classes": 10}, "pairs"),
        ({"classes": [(10, 5)], "toughness": 8}, "Toughness"),
        ({"classes": [(10, 5)], "toughness": -6}, "Toughness"),
        ({"classes": [(10, 5)], "kin_hd_size": 5}, "Kin HD"),
        ({"classes": [(10, 5)], "base_hd": "x"}, "Base HD must look like 4\\+1"),
    ],
)
def test_fatigue_level_rejects(kwargs: dict, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        fatigue_level(**kwargs)


# --- Bands --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fl", "width"), [(OGRE_FL, 20), (SEVEN, 7), (Fraction(1, 2), 1), (0, 1), (-3, 1), (1, 1)]
)
def test_band_width(fl: Fraction, width: int) -> None:
    assert band_width(fl) == width
    assert max_fp(fl) == 5 * width


@pytest.mark.parametrize(
    ("fp", "band"),
    [(0, 0), (7, 0), (8, 1), (14, 1), (15, 2), (21, 2), (22, 3), (28, 3), (29, 4), (35, 4)],
)
def test_band_edges_fl_seven(fp: int, band: int) -> None:
    assert band_index(fp, SEVEN) == band
    assert band_name(fp, SEVEN) == BANDS[band]


@pytest.mark.parametrize("fp", [36, 101, 500])
def test_above_maximum_is_still_shattered(fp: int) -> None:
    assert band_name(fp, SEVEN) == "Shattered"


def test_band_rejects_bad_input() -> None:
    with pytest.raises(RulesError, match="FP"):
        band_index(-1, SEVEN)
    with pytest.raises(RulesError, match="Fatigue Level"):
        band_width(20.5)  # type: ignore[arg-type]


# --- Settings and state -------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"round_seconds": 0},
        {"rest_rate": -1},
        {"break_minutes": 0},
        {"short_minutes": 0},
        {"long_minutes": 0},
        {"temp_minutes": 0},
        {"round_seconds": 6.0},
    ],
)
def test_settings_validate(kwargs: dict) -> None:
    with pytest.raises(RulesError):
        FatigueSettings(**kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"fp": -1},
        {"temp": -1},
        {"vp_damage": -1},
        {"temp": 3},  # a pool needs an expiry
        {"temp_expires": 60},  # an expiry needs a pool
        {"temp": 3, "temp_expires": -1},
        {"exhausted_cap": 2},
    ],
)
def test_state_validates(kwargs: dict) -> None:
    with pytest.raises(RulesError):
        FatigueState(**kwargs)


def test_state_takes_sqlite_flags_and_reports_floor() -> None:
    state = FatigueState(fp=70, exhausted_cap=1)  # type: ignore[arg-type]
    assert state.exhausted_cap is True
    assert state.floor(OGRE_FL) == 61
    assert FatigueState(fp=90, exhausted_cap=True, shattered_cap=True).floor(OGRE_FL) == 81
    assert FatigueState(fp=5).floor(OGRE_FL) == 0


# --- Scripted sequences -------------------------------------------------------------------


def test_temp_grant_expiry_and_per_round_decay() -> None:
    t = spend(FatigueState(), SEVEN, 24)  # Exhausted is 22-28: the floor becomes 22
    assert t.state == FatigueState(fp=24, exhausted_cap=True)
    assert [e.cap for e in kinds(t, "cap_set")] == ["Exhausted"]

    # 2 of the 20 lower FP to the floor; 18 go to the pool until 120 s
    t = temp(t.state, SEVEN, 20, now=0, settings=DEFAULTS, minutes=2)
    assert t.state == FatigueState(fp=22, temp=18, temp_expires=120, exhausted_cap=True)

    # the first round after expiry ends at 180 s
    assert advance(t.state, SEVEN, 0, 179, DEFAULTS).state == t.state
    t = advance(t.state, SEVEN, 0, 180, DEFAULTS)
    # at the floor, Temporary FP still drops a point a round
    assert t.state == FatigueState(fp=22, temp=17, temp_expires=120, exhausted_cap=True)
    assert [e.amount for e in kinds(t, "temp_decay")] == [1]

    # a Break: Exhausted cap off, then 10 minutes of 1 conversion + 1 rest point each
    t = rest(t.state, SEVEN, "break", DEFAULTS)
    assert t.minutes == 10
    assert t.state == FatigueState(fp=2, temp=7, temp_expires=120)
    assert [e.cap for e in kinds(t, "cap_cleared")] == ["Exhausted"]
    assert [(e.band_from, e.band_to) for e in kinds(t, "band")] == [("Exhausted", "Fresh")]

    # clock at 780 after the break; rounds end at 840, 900, 960, 1020, 1080
    t = advance(t.state, SEVEN, 780, 1080, DEFAULTS)
    assert t.state == FatigueState(fp=0, temp=2, temp_expires=120)
    t = advance(t.state, SEVEN, 1080, 1200, DEFAULTS)
    assert t.state == FatigueState(fp=0)
    assert len(kinds(t, "temp_expired")) == 1


def test_short_rounds_decay_at_zero() -> None:
    six = FatigueSettings(round_seconds=6)
    t = temp(FatigueState(), SEVEN, 5, now=0, settings=six, minutes=1)
    assert t.state == FatigueState(temp=5, temp_expires=60)
    t = advance(t.state, SEVEN, 0, 78, six)  # rounds end at 66, 72, 78
    assert t.state == FatigueState(temp=2, temp_expires=60)
    t = advance(t.state, SEVEN, 78, 10_000, six)
    assert t.state == FatigueState()


def test_advance_counts_rounds_not_span() -> None:
    state = FatigueState(fp=10, temp=5, temp_expires=600)
    # 30 s pieces around the 660 s round end: only the piece containing it counts
    assert advance(state, SEVEN, 600, 630, DEFAULTS).state == state
    assert advance(state, SEVEN, 630, 660, DEFAULTS).state.temp == 4
    assert advance(state, SEVEN, 660, 690, DEFAULTS).state == state


def test_grant_keeps_the_later_expiry() -> None:
    t = temp(FatigueState(), SEVEN, 3, now=0, settings=DEFAULTS)  # 10 minutes by default
    assert t.state.temp_expires == 600
    t = temp(t.state, SEVEN, 2, now=300, settings=DEFAULTS, minutes=2)  # ends 420
    assert t.state == FatigueState(temp=5, temp_expires=600)
    t = temp(t.state, SEVEN, 1, now=300, settings=DEFAULTS)  # ends 900
    assert t.state == FatigueState(temp=6, temp_expires=900)


def test_grant_spent_on_fp_makes_no_pool() -> None:
    t = temp(FatigueState(fp=10), SEVEN, 4, now=0, settings=DEFAULTS)
    assert t.state == FatigueState(fp=6)
    assert [(e.band_from, e.band_to) for e in kinds(t, "band")] == [("Fatigued", "Fresh")]


def test_gain_uses_temp_first() -> None:
    state = FatigueState(fp=3, temp=4, temp_expires=600)
    t = spend(state, SEVEN, 3)
    assert t.state == FatigueState(fp=3, temp=1, temp_expires=600)
    assert [e.amount for e in kinds(t, "absorbed")] == [3]
    assert kinds(t, "gained") == []
    t = spend(t.state, SEVEN, 4)
    assert t.state == FatigueState(fp=6)  # pool used up, expiry gone


def test_rests_clear_the_right_caps() -> None:
    capped = FatigueState(fp=95, exhausted_cap=True, shattered_cap=True, vp_damage=2)

    brk = rest(capped, OGRE_FL, "break", DEFAULTS)  # Exhausted cap off; Shattered holds at 81
    assert brk.state == FatigueState(fp=85, shattered_cap=True, vp_damage=2)
    assert [e.cap for e in kinds(brk, "cap_cleared")] == ["Exhausted"]
    again = rest(brk.state, OGRE_FL, "break", DEFAULTS)
    assert again.state == FatigueState(fp=81, shattered_cap=True, vp_damage=2)
    assert kinds(again, "cap_cleared") == []

    short = rest(capped, OGRE_FL, "short", DEFAULTS)
    assert short.state == FatigueState(fp=35, vp_damage=2)
    assert short.minutes == 60
    assert sorted(e.cap for e in kinds(short, "cap_cleared")) == ["Exhausted", "Shattered"]

    pooled = FatigueState(fp=95, temp=9, temp_expires=60, exhausted_cap=True, shattered_cap=True)
    long = rest(pooled, OGRE_FL, "long", DEFAULTS)
    assert long.state == FatigueState()
    assert long.minutes == 480
    # FP ends at 0: "FP can drop below 61 again" would only add words to the party's line.
    cleared = [e.text for e in kinds(long, "cap_cleared")]
    assert cleared == ["Exhausted cap cleared", "Shattered cap cleared"]

    plain = rest(capped, OGRE_FL, "minutes", DEFAULTS, minutes=30)  # clears no cap
    assert plain.state == FatigueState(fp=81, exhausted_cap=True, shattered_cap=True, vp_damage=2)
    assert plain.minutes == 30


def test_a_break_held_by_the_shattered_cap_says_so_once() -> None:
    capped = FatigueState(fp=82, exhausted_cap=True, shattered_cap=True)
    brk = rest(capped, OGRE_FL, "break", DEFAULTS)
    assert brk.state == FatigueState(fp=81, shattered_cap=True)
    texts = [e.text for e in brk.events]
    held = "the Shattered cap holds FP at 81 until a Short Rest"
    assert sum(text.count(held) for text in texts) == 1, texts
    # Without the Break's own note, a plain rest cut short by a cap still says why.
    plain = rest(capped, OGRE_FL, "minutes", DEFAULTS, minutes=5)
    assert any(held in text for text in (e.text for e in plain.events))


def test_rest_rate_and_conversion_add_up() -> None:
    fast = FatigueSettings(rest_rate=2)
    state = FatigueState(fp=50, temp=3, temp_expires=10_000)
    t = rest(state, OGRE_FL, "minutes", fast, minutes=5)
    assert t.state == FatigueState(fp=50 - 3 - 10)  # 3 conversions, 5 minutes × 2
    assert len(kinds(t, "temp_expired")) == 1


def test_vp_damage_above_maximum() -> None:
    t = spend(FatigueState(fp=98), OGRE_FL, 2)
    assert t.state.vp_damage == 0  # 100 is not above the maximum of 100
    t = spend(t.state, OGRE_FL, 1)
    assert t.state.vp_damage == 1
    assert [e.amount for e in kinds(t, "vp_damage")] == [1]
    t = spend(t.state, OGRE_FL, 5)  # any cost above maximum: still 1 VP
    assert (t.state.fp, t.state.vp_damage) == (106, 2)
    pooled = FatigueState(fp=106, temp=3, temp_expires=600, vp_damage=2)
    t = spend(pooled, OGRE_FL, 2)  # wholly absorbed: FP did not rise
    assert t.state.vp_damage == 2
    t = spend(t.state, OGRE_FL, 4)  # the 1 point left absorbs 1; FP rises by 3
    assert (t.state.fp, t.state.vp_damage) == (109, 3)


def test_band_and_cap_events_fire_once() -> None:
    t = spend(FatigueState(), SEVEN, 22)  # exactly the bottom of Exhausted
    assert [(e.band_from, e.band_to) for e in kinds(t, "band")] == [("Fresh", "Exhausted")]
    assert [e.text for e in kinds(t, "cap_set")] == [
        "Entered Exhausted: FP can't drop below 22 until a Break"
    ]
    t = spend(t.state, SEVEN, 1)
    assert kinds(t, "band") == kinds(t, "cap_set") == []
    t = recover(t.state, SEVEN, 5)
    assert t.state.fp == 22
    assert [e.amount for e in kinds(t, "recovered")] == [1]
    t = spend(t.state, SEVEN, 7)  # 29: Shattered
    assert [e.cap for e in kinds(t, "cap_set")] == ["Shattered"]

    jump = spend(FatigueState(), SEVEN, 30)  # straight through Exhausted into Shattered
    assert [e.cap for e in kinds(jump, "cap_set")] == ["Exhausted", "Shattered"]
    assert len(kinds(jump, "band")) == 1


def test_still_exhausted_after_a_break_is_capped_again_by_a_spend() -> None:
    # docs/rules.md#34-caps: a change leaving FP in Exhausted with no cap in force sets it
    state = FatigueState(fp=75, exhausted_cap=True)
    t = rest(state, OGRE_FL, "break", DEFAULTS)  # 65: still Exhausted, cap gone
    assert t.state == FatigueState(fp=65)
    t = spend(t.state, OGRE_FL, 1)
    assert t.state.exhausted_cap
    assert [e.text for e in kinds(t, "cap_set")] == [
        "Still Exhausted, capped again: FP can't drop below 61 until a Break"
    ]
    assert recover(t.state, OGRE_FL, 20).state.fp == 61


def test_a_raised_floor_never_raises_fp() -> None:
    # FP 62 capped at FL 20.5 (floor 61); the character's FL grows to 30 (floor 91)
    t = recover(FatigueState(fp=62, exhausted_cap=True), Fraction(30), 5)
    assert t.state.fp == 62


@pytest.mark.parametrize("amount", [0, -1, True, 1.5])
def test_amounts_must_be_positive_whole_numbers(amount: object) -> None:
    for call in (
        lambda: spend(FatigueState(), SEVEN, amount),  # type: ignore[arg-type]
        lambda: recover(FatigueState(), SEVEN, amount),  # type: ignore[arg-type]
        lambda: temp(FatigueState(), SEVEN, amount, 0, DEFAULTS),  # type: ignore[arg-type]
    ):
        with pytest.raises(RulesError):
            call()


def test_time_and_rest_errors() -> None:
    state = FatigueState(temp=1, temp_expires=60)
    with pytest.raises(RulesError, match="backwards"):
        advance(state, SEVEN, 100, 50, DEFAULTS)
    with pytest.raises(RulesError):
        advance(state, SEVEN, -1, 50, DEFAULTS)
    with pytest.raises(RulesError):
        temp(state, SEVEN, 1, -5, DEFAULTS)
    with pytest.raises(RulesError):
        temp(state, SEVEN, 1, 0, DEFAULTS, minutes=0)
    with pytest.raises(RulesError, match="minutes"):
        rest(state, SEVEN, "minutes", DEFAULTS)
    with pytest.raises(RulesError):
        rest(state, SEVEN, "minutes", DEFAULTS, minutes=0)
    with pytest.raises(RulesError):
        rest(state, SEVEN, "break", DEFAULTS, minutes=15)
    with pytest.raises(RulesError, match="break, short, long"):
        rest(state, SEVEN, "nap", DEFAULTS)


def test_rest_minutes() -> None:
    table = FatigueSettings(break_minutes=15, short_minutes=90, long_minutes=600)
    assert rest_minutes("break", table) == 15
    assert rest_minutes("short", table) == 90
    assert rest_minutes("long", table) == 600
    assert rest_minutes("minutes", table, 7) == 7


# --- Properties against a point-by-point model --------------------------------------------


@dataclass
class Model:
    """The rules applied one point, one second, one minute at a time."""

    width: int
    fp: int = 0
    temp: int = 0
    expires: int | None = None
    exhausted: bool = False
    shattered: bool = False
    vp: int = 0

    def band(self, fp: int) -> int:
        tops = [self.width * k for k in range(1, 5)]
        return next((i for i, top in enumerate(tops) if fp <= top), 4)

    def floor(self) -> int:
        return 4 * self.width + 1 if self.shattered else 3 * self.width + 1 if self.exhausted else 0

    def lower(self) -> None:
        if self.fp > self.floor():
            self.fp -= 1

    def tidy(self) -> None:
        if self.temp == 0:
            self.expires = None

    def recap(self) -> None:
        """Any change but a rest that leaves FP in Exhausted / Shattered sets that band's cap."""
        self.exhausted |= self.band(self.fp) == 3
        self.shattered |= self.band(self.fp) == 4

    def spend(self, n: int) -> None:
        before = self.fp
        for _ in range(n):
            if self.temp:
                self.temp -= 1
                continue
            self.fp += 1
            self.exhausted |= self.fp == 3 * self.width + 1  # crossing into Exhausted
            self.shattered |= self.fp == 4 * self.width + 1
        self.vp += self.fp > before and self.fp > 5 * self.width
        self.tidy()
        self.recap()

    def recover(self, n: int) -> None:
        for _ in range(n):
            self.lower()
        self.recap()

    def grant(self, n: int, now: int, minutes: int) -> None:
        pooled = 0
        for _ in range(n):
            if self.fp > self.floor():
                self.fp -= 1
            else:
                pooled += 1
        if pooled:
            self.temp += pooled
            self.expires = max(self.expires or 0, now + 60 * minutes)
        self.recap()

    def advance(self, start: int, end: int, round_seconds: int) -> None:
        for second in range(start + 1, end + 1):  # time passing sets no cap
            e = self.expires
            if e is not None and second > e and (second - e) % round_seconds == 0:
                self.temp -= 1
                self.lower()
                self.tidy()

    def rest(self, kind: str, minutes: int, rate: int) -> None:
        self.exhausted &= kind == "minutes"
        self.shattered &= kind in ("minutes", "break")
        if kind == "long":
            self.fp = self.temp = 0
        for _ in range(0 if kind == "long" else minutes):
            if self.temp:
                self.temp -= 1
                self.lower()
            for _ in range(rate):
                self.lower()
        self.tidy()

    def state(self) -> FatigueState:
        return FatigueState(
            self.fp, self.temp, self.expires, self.exhausted, self.shattered, self.vp
        )


def _random_fl(rng: random.Random) -> Fraction:
    return Fraction(rng.randint(-3, 24), rng.choice([1, 2, 3]))


def _random_settings(rng: random.Random) -> FatigueSettings:
    return FatigueSettings(
        round_seconds=rng.choice([6, 10, 60]),
        rest_rate=rng.randint(0, 3),
        break_minutes=rng.randint(1, 15),
        short_minutes=rng.randint(10, 60),
        temp_minutes=rng.randint(1, 10),
    )


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_sequences_follow_the_rules(seed: int) -> None:
    rng = random.Random(seed)
    fl, table = _random_fl(rng), _random_settings(rng)
    width = band_width(fl)
    model, state, now, vp_events = Model(width), FatigueState(), 0, 0
    for _ in range(40):
        op = rng.choice(["spend", "spend", "recover", "temp", "advance", "rest"])
        if op == "spend":
            n = rng.randint(1, 2 * width + 3)
            t = spend(state, fl, n)
            model.spend(n)
        elif op == "recover":
            n = rng.randint(1, 2 * width)
            t = recover(state, fl, n)
            model.recover(n)
        elif op == "temp":
            n, minutes = rng.randint(1, width + 3), rng.choice([None, 1, 2, 5])
            t = temp(state, fl, n, now, table, minutes)
            model.grant(n, now, table.temp_minutes if minutes is None else minutes)
        elif op == "advance":
            end = now + rng.randint(0, 600)
            t = advance(state, fl, now, end, table)
            model.advance(now, end, table.round_seconds)
            now = end
        else:
            kind = rng.choice(["break", "short", "long", "minutes"])
            minutes = rng.randint(1, 30) if kind == "minutes" else None
            t = rest(state, fl, kind, table, minutes)
            length = minutes or {"break": table.break_minutes, "short": table.short_minutes}.get(
                kind, 480
            )
            assert t.minutes == length
            model.rest(kind, length, table.rest_rate)
            now += 60 * length  # the rest covers its own minutes: no advance over them

        new = t.state
        assert new == model.state()
        assert new.fp >= new.floor(fl) and new.fp >= 0 and new.temp >= 0

        old_band, new_band = band_index(state.fp, fl), band_index(new.fp, fl)
        bands = [(e.band_from, e.band_to) for e in kinds(t, "band")]
        assert bands == ([] if old_band == new_band else [(BANDS[old_band], BANDS[new_band])])
        for cap, before, after in (
            ("Exhausted", state.exhausted_cap, new.exhausted_cap),
            ("Shattered", state.shattered_cap, new.shattered_cap),
        ):
            assert [e.cap for e in kinds(t, "cap_set")].count(cap) == (after and not before)
            assert [e.cap for e in kinds(t, "cap_cleared")].count(cap) == (before and not after)
        raised_over_max = op == "spend" and new.fp > state.fp and new.fp > max_fp(fl)
        assert len(kinds(t, "vp_damage")) == raised_over_max
        vp_events += raised_over_max
        assert all(e.text for e in t.events)
        state = new
    assert state.vp_damage == vp_events


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_gain_then_recover_returns_to_fresh(seed: int) -> None:
    rng = random.Random(seed)
    fl = _random_fl(rng)
    total = rng.randint(1, 3 * band_width(fl))  # short of Exhausted, so no cap
    state = FatigueState()
    gained = 0
    while gained < total:
        step = rng.randint(1, total - gained)
        state = spend(state, fl, step).state
        gained += step
    assert state.fp == total
    while gained:
        step = rng.randint(1, gained)
        state = recover(state, fl, step).state
        gained -= step
    assert state == FatigueState()
    assert band_name(state.fp, fl) == "Fresh"


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_advance_in_pieces_equals_one_step(seed: int) -> None:
    rng = random.Random(seed)
    fl, table = _random_fl(rng), _random_settings(rng)
    temp = rng.randint(1, 30)
    state = FatigueState(fp=rng.randint(0, 40), temp=temp, temp_expires=rng.randint(0, 600))
    cuts = sorted(rng.randint(0, 3000) for _ in range(rng.randint(2, 6)))
    stepped = state
    for start, end in itertools.pairwise(cuts):
        stepped = advance(stepped, fl, start, end, table).state
    assert stepped == advance(state, fl, cuts[0], cuts[-1], table).state


def test_event_texts_say_fp_stayed_rather_than_showing_a_no_op_arrow() -> None:
    fl = Fraction(7)
    rates = FatigueSettings()
    rested = rest(FatigueState(), fl, "long", rates)
    assert rested.events[0].text == "Took a Long Rest (480 min): FP stays 0"
    granted = temp(FatigueState(), fl, 3, 0, rates)
    assert granted.events[0].text.startswith("Temporary FP +3: FP stays 0, pool 3 until")
    tired = rest(FatigueState(fp=30), fl, "break", rates)
    assert tired.events[0].text.startswith("Took a Break (10 min): FP 30 → 20")
    fresh = recover(FatigueState(), fl, 5)
    assert fresh.events[0].text == "Recovered nothing: FP stays 0"
    held = recover(FatigueState(fp=22, exhausted_cap=True), fl, 5)
    assert held.events[0].text == (
        "Recovered nothing: FP stays 22; the Exhausted cap holds FP at 22 until a Break"
    )
    assert recover(FatigueState(fp=9), fl, 5).events[0].text == "Recovered 5 FP (9 → 4)"
