"""table.snapshot.Change: a logged change read by what it holds, as /history and /undo read it."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.fatigue import FatigueState
from table import initiative, sheet
from table.model import Character, Table
from table.sheet import SheetOptions
from table.snapshot import Change, LoggedFatigue, character_to_dict, diff, fatigue_at

ARIA = Character("Aria", 21, classes=((8, 3),), toughness=1, fatigue=FatigueState(fp=7))
BO = Character("Bo", 22, fl_override=Fraction(41, 2))


def test_a_rename_reads_as_one_record_renamed() -> None:
    before = Table(1, 2, characters=(ARIA, BO))
    after = sheet.change(before, 21, True, "Aria", SheetOptions(), new_name="Ari")[0]
    change = Change(*diff(before, after))
    assert change.renamed("characters") == ("aria", "ari")
    assert change.renamed("monsters") is None
    assert change.name_of("characters", "ari") == "Ari"
    assert change.name_of("characters", "aria") == "Aria"  # as it was, when it is gone


def test_a_removal_and_a_creation_of_two_are_no_rename() -> None:
    before = Table(1, 2, characters=(ARIA,))
    after = Table(1, 2, characters=(BO, Character("Cy", 23)))
    assert Change(*diff(before, after)).renamed("characters") is None


@given(fp=st.integers(0, 200), size=st.sampled_from([4, 6, 8, 10, 12]), level=st.integers(1, 12))
def test_a_characters_logged_fatigue_is_its_fp_and_fatigue_level(
    fp: int, size: int, level: int
) -> None:
    character = Character("Aria", 21, classes=((size, level),), fatigue=FatigueState(fp=fp))
    assert fatigue_at(character_to_dict(character)) == LoggedFatigue(fp, character.fl)


def test_an_override_is_read_from_its_logged_text() -> None:
    assert fatigue_at(character_to_dict(BO)) == LoggedFatigue(0, Fraction(41, 2))


@pytest.mark.parametrize(
    "record",
    [{}, {"fatigue": {"fp": 3}}, {"fatigue": {"fp": 3}, "fl_override": "x/0"}, {"fatigue": 3}],
)
def test_a_record_that_no_longer_reads_has_no_fatigue(record: dict[str, object]) -> None:
    assert fatigue_at(record) is None


def test_the_turn_order_reads_only_where_the_change_touched_it() -> None:
    table = Table(1, 2, characters=(ARIA,))
    assert Change(*diff(table, table.with_character(BO))).orders() is None
    started = initiative.add(
        table, actor_id=21, is_gm=False, name="Aria", score=12, rng=random.Random(0)
    )[0]
    was, now = Change(*diff(table, started)).orders() or (None, None)
    assert was is None
    assert now is not None and now["combatants"][0]["name"] == "Aria"
