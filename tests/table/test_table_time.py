"""The channel's clock and fatigue over game time (docs/rules.md#3-fatigue): a character's own
rest and the clock, the round number across a change of round length, and clearing the VP damage
tally."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.fatigue import FatigueState
from table import partyops
from table.model import ChannelSettings, Character, Table
from table.sheet import SettingsOptions, change_settings

OWNER = 111


def character(name: str, fl: int = 20, **fatigue: object) -> Character:
    state = FatigueState(**fatigue)  # type: ignore[arg-type]
    return Character(name, OWNER, fl_override=Fraction(fl), fatigue=state)


def test_worked_check_through_the_table() -> None:
    """FL 20, spend 60, Temporary FP 80 for 1 minute; A's own Break; the clock passes 10
    minutes: A keeps 10 Temporary FP, B (who didn't rest) fades as the rounds pass."""
    table = Table(1, 2, characters=(character("A"), character("B")))
    for name in ("A", "B"):
        table, _ = partyops.spend(table, name, 60)
        table, _ = partyops.temp(table, name, 80, minutes=1)
    assert (table.get("A").fatigue.fp, table.get("A").fatigue.temp) == (0, 20)

    table, change = partyops.rest_one(table, "A", "break")
    assert table.clock == 0
    assert change.after.temp == 10
    table, report = partyops.pass_minutes(table, 10)
    a, b = table.get("A").fatigue, table.get("B").fatigue
    assert (a.fp, a.temp, a.settled) == (0, 10, 0)
    assert [c.events for c in report.changes if c.name == "A"] == [()]
    assert b.temp == 20 - 9  # rounds ending 02:00 … 10:00 after its 01:00 expiry


def test_a_party_rest_over_a_characters_own_rest_counts_the_rest_once() -> None:
    table = Table(1, 2, characters=(character("A", fp=50), character("B", fp=50)))
    table, _ = partyops.rest_one(table, "A", "minutes", 4)
    table, report = partyops.party_rest(table, "break")
    assert (table.get("A").fatigue.fp, table.get("B").fatigue.fp) == (40, 40)
    assert table.clock == 600 and table.get("A").fatigue.settled == 0
    texts = [e.text for c in report.changes if c.name == "A" for e in c.events]
    assert any("6 counted: rested alone until Day 1, 00:04" in text for text in texts)


def test_clear_vp_damage_is_its_own_change_and_refuses_a_clean_tally() -> None:
    table = Table(1, 2, characters=(character("A", fp=101, vp_damage=2, shattered_cap=True),))
    after, change = partyops.clear_vp(table, "a")
    assert after.get("A").fatigue == FatigueState(fp=101, shattered_cap=True)
    assert [e.kind for e in change.events] == ["vp_cleared"]
    with pytest.raises(RulesError, match="A has no VP damage to clear"):
        partyops.clear_vp(after, "A")


def test_round_531_stays_531_when_rounds_become_6_seconds() -> None:
    table, _ = partyops.pass_rounds(Table(1, 2), 530)
    assert (table.round_number, table.clock) == (531, 31_800)
    table, _ = change_settings(table, SettingsOptions(round_seconds=6))
    assert (table.round_number, table.clock) == (531, 31_800)
    table, report = partyops.pass_rounds(table, 1)
    assert (table.round_number, table.clock, report.round_after) == (532, 31_806, 532)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_new_round_length_keeps_the_round_and_the_game_time(seed: int) -> None:
    """Any mix of `/clock round`, `/clock pass` and round length changes: a length change moves
    neither the round number nor the clock; n rounds always add n to the round number."""
    rng = random.Random(seed)
    table = Table(1, 2)
    for _ in range(25):
        op = rng.choice(["round", "pass", "length"])
        before = table
        if op == "round":
            count = rng.randint(1, 50)
            table, _ = partyops.pass_rounds(table, count)
            assert table.round_number == before.round_number + count
        elif op == "pass":
            table, _ = partyops.pass_minutes(table, rng.randint(1, 30))
            assert table.round_number >= before.round_number
        else:
            length = rng.choice([1, 6, 10, 30, 60, 3600])
            table, _ = change_settings(table, SettingsOptions(round_seconds=length))
            assert (table.round_number, table.clock) == (before.round_number, before.clock)
            assert table.settings == ChannelSettings(round_seconds=length)
