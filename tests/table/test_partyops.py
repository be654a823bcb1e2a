"""table.partyops: fatigue on a whole table, one character or everyone, and the channel clock."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.fatigue import FatigueState
from table import partyops
from table.model import ChannelSettings, Character, Table

OWNER = 111
OGRE_FL = Fraction(41, 2)  # the worked example: bands of 20, Maximum FP 100


def character(name: str, fl: Fraction | None = OGRE_FL, **fatigue: object) -> Character:
    return Character(
        name,
        OWNER,
        fl_override=fl,
        fatigue=FatigueState(**fatigue),  # type: ignore[arg-type]
    )


def table(*characters: Character, clock: int = 0, settings: ChannelSettings | None = None) -> Table:
    return Table(1, 2, clock=clock, settings=settings or ChannelSettings(), characters=characters)


def state(t: Table, name: str) -> FatigueState:
    return t.get(name).fatigue


# --- one character -------------------------------------------------------------------------


def test_spend_raises_fp_of_that_character_only() -> None:
    before = table(character("Bree", fp=3), character("Odo", fp=5))
    after, change = partyops.spend(before, "bree", 2)
    assert state(after, "Bree").fp == 5
    assert state(after, "Odo") == state(before, "Odo")
    assert change.name == "Bree"
    assert (change.before.fp, change.after.fp) == (3, 5)
    assert change.fl == OGRE_FL


def test_spend_into_exhausted_sets_the_cap_and_reports_it() -> None:
    # W = 20: Exhausted starts at 61; 55 + 10 = 65.
    after, change = partyops.spend(table(character("Bree", fp=55)), "Bree", 10)
    assert state(after, "Bree").exhausted_cap
    caps = [e for e in change.events if e.kind == "cap_set"]
    assert [e.cap for e in caps] == ["Exhausted"]
    assert "61" in caps[0].text


def test_spend_over_maximum_costs_one_vp() -> None:
    after, change = partyops.spend(table(character("Bree", fp=99)), "Bree", 3)
    assert state(after, "Bree").fp == 102
    assert state(after, "Bree").vp_damage == 1
    assert any(e.kind == "vp_damage" for e in change.events)


def test_without_a_fatigue_level_the_error_points_at_character_set() -> None:
    t = table(character("Nobody", fl=None))
    with pytest.raises(RulesError, match="/character set"):
        partyops.spend(t, "Nobody", 1)


def test_unknown_name_is_an_error() -> None:
    with pytest.raises(RulesError, match="No character named"):
        partyops.spend(table(character("Bree")), "Bilbo", 1)


def test_remove_respects_the_exhausted_floor() -> None:
    t = table(character("Bree", fp=70, exhausted_cap=True))
    after, _ = partyops.recover(t, "Bree", 30)
    assert state(after, "Bree").fp == 61  # 3W + 1


def test_temp_expires_after_the_default_duration_on_the_channel_clock() -> None:
    after, change = partyops.temp(table(character("Bree"), clock=600), "Bree", 4)
    got = state(after, "Bree")
    assert (got.temp, got.temp_expires) == (4, 600 + 10 * 60)
    assert change.events


def test_temp_with_minutes_lowers_fp_first() -> None:
    after, _ = partyops.temp(table(character("Bree", fp=3), clock=60), "Bree", 5, minutes=2)
    got = state(after, "Bree")
    assert (got.fp, got.temp, got.temp_expires) == (0, 2, 60 + 120)


def test_rest_one_does_not_move_the_clock() -> None:
    t = table(character("Bree", fp=30), character("Odo", fp=30), clock=1000)
    after, change = partyops.rest_one(t, "Bree", "break")
    assert after.clock == 1000
    assert state(after, "Bree").fp == 20  # 10 minutes at 1 FP a minute
    assert state(after, "Odo").fp == 30
    assert change.after.fp == 20


# --- everyone ------------------------------------------------------------------------------


def test_party_spend_skips_characters_without_a_fatigue_level() -> None:
    t = table(character("Bree", fp=1), character("Odo"), character("Nobody", fl=None))
    after, report = partyops.party_spend(t, 2)
    assert [(c.name, c.after.fp) for c in report.changes] == [("Bree", 3), ("Odo", 2)]
    assert report.skipped == ("Nobody",)
    assert state(after, "Nobody") == FatigueState()
    assert after.clock == t.clock


def test_party_spend_needs_someone_with_a_fatigue_level() -> None:
    with pytest.raises(RulesError, match="no characters"):
        partyops.party_spend(table(), 1)
    with pytest.raises(RulesError, match="Fatigue Level"):
        partyops.party_spend(table(character("Nobody", fl=None)), 1)


def test_party_reset_makes_everyone_fresh_and_keeps_the_clock() -> None:
    t = table(
        character("Bree", fp=90, temp=2, temp_expires=50, exhausted_cap=True, shattered_cap=True),
        character("Nobody", fl=None, fp=4, vp_damage=2),
        clock=30,
    )
    after, report = partyops.party_reset(t)
    assert all(c.fatigue == FatigueState() for c in after.characters)
    assert after.clock == 30
    assert {c.name: c.before.fp for c in report.changes} == {"Bree": 90, "Nobody": 4}
    with pytest.raises(RulesError):
        partyops.party_reset(table())


def test_party_break_moves_the_clock_and_clears_only_the_exhausted_cap() -> None:
    t = table(
        character("Bree", fp=95, exhausted_cap=True, shattered_cap=True),
        character("Odo", fp=70, exhausted_cap=True),
        clock=100,
        settings=ChannelSettings(break_minutes=15),
    )
    after, report = partyops.party_rest(t, "break")
    assert after.clock == 100 + 15 * 60
    assert report.seconds == 15 * 60
    bree, odo = state(after, "Bree"), state(after, "Odo")
    assert (bree.exhausted_cap, bree.shattered_cap, bree.fp) == (False, True, 81)  # 4W+1 holds
    assert (odo.exhausted_cap, odo.fp) == (False, 55)


def test_party_long_rest_empties_everyone() -> None:
    t = table(character("Bree", fp=95, temp=3, temp_expires=10, shattered_cap=True))
    after, report = partyops.party_rest(t, "long")
    assert state(after, "Bree") == FatigueState(vp_damage=0)
    assert report.clock_after == 480 * 60


def test_party_rest_in_minutes_needs_the_minutes() -> None:
    t = table(character("Bree", fp=5))
    after, _ = partyops.party_rest(t, "minutes", 3)
    assert (after.clock, state(after, "Bree").fp) == (180, 2)
    with pytest.raises(RulesError):
        partyops.party_rest(t, "minutes")


def test_time_passing_fades_expired_temporary_fp_round_by_round() -> None:
    # Expires at 600; the rounds after it end at 660, 720, 780: three points fade.
    t = table(character("Bree", fp=10, temp=5, temp_expires=600), character("Odo", fp=4))
    after, report = partyops.pass_seconds(t, 780)
    assert (state(after, "Bree").fp, state(after, "Bree").temp) == (7, 2)
    assert state(after, "Odo").fp == 4
    assert (report.clock_before, report.clock_after) == (0, 780)
    bree = next(c for c in report.changes if c.name == "Bree")
    assert any(e.kind == "temp_decay" for e in bree.events)


def test_rounds_use_the_channel_round_length() -> None:
    t = table(
        character("Bree", fp=10, temp=5, temp_expires=0), settings=ChannelSettings(round_seconds=6)
    )
    after, report = partyops.pass_rounds(t, 10)
    assert report.seconds == 60
    assert state(after, "Bree").temp == 0  # ten 6-second rounds: all five points fade
    assert state(after, "Bree").fp == 5


def test_minutes_pass_in_minutes() -> None:
    after, report = partyops.pass_minutes(table(clock=5), 90)
    assert (after.clock, report.seconds) == (5 + 5400, 5400)


@pytest.mark.parametrize("count", [0, -1, partyops.ROUNDS_MAX + 1, True])
def test_round_counts_outside_the_limits(count: int) -> None:
    with pytest.raises(RulesError, match="Rounds"):
        partyops.pass_rounds(table(), count)


def test_minutes_outside_the_limits() -> None:
    with pytest.raises(RulesError, match="Minutes"):
        partyops.pass_minutes(table(), 0)
    with pytest.raises(RulesError, match="Minutes"):
        partyops.pass_minutes(table(), partyops.MINUTES_MAX + 1)


# --- properties ----------------------------------------------------------------------------


def random_table(rng: random.Random) -> Table:
    characters = []
    for index in range(rng.randint(1, 5)):
        fl = Fraction(rng.randint(2, 40), rng.choice([1, 2]))
        temp = rng.randint(0, 6)
        characters.append(
            character(
                f"Hero {index}",
                fl=fl,
                fp=rng.randint(0, 150),
                temp=temp,
                temp_expires=rng.randint(0, 1200) if temp else None,
            )
        )
    return table(
        *characters,
        clock=rng.randint(0, 600),
        settings=ChannelSettings(round_seconds=rng.choice([6, 10, 60])),
    )


@given(st.integers(0, 2**32))
def test_time_passing_in_pieces_equals_one_step(seed: int) -> None:
    rng = random.Random(seed)
    t = random_table(rng)
    first, second = rng.randint(1, 900), rng.randint(1, 900)
    whole, _ = partyops.pass_seconds(t, first + second)
    halfway, _ = partyops.pass_seconds(t, first)
    pieces, _ = partyops.pass_seconds(halfway, second)
    assert pieces == whole


@given(st.integers(0, 2**32))
def test_party_changes_touch_only_fatigue_and_the_clock(seed: int) -> None:
    rng = random.Random(seed)
    t = random_table(rng)
    op = rng.choice(
        [
            lambda x: partyops.party_spend(x, rng.randint(1, 30)),
            lambda x: partyops.party_rest(x, rng.choice(["break", "short", "long"])),
            lambda x: partyops.pass_rounds(x, rng.randint(1, 50)),
            partyops.party_reset,
        ]
    )
    after, report = op(t)
    assert [c.name for c in after.characters] == [c.name for c in t.characters]
    for old, new in zip(t.characters, after.characters, strict=True):
        assert replace(new, fatigue=old.fatigue) == old
    assert after.settings == t.settings
    assert (report.clock_before, report.clock_after) == (t.clock, after.clock)
    assert {c.name: c.after for c in report.changes} == {
        c.name: c.fatigue for c in after.characters
    }
