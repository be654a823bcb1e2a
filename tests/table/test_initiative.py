"""`table.initiative` and `table.combat`: the order, the turn, the round and the clock."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RulesError
from table import initiative, sheet
from table.combat import SCORE_LIMIT, Initiative
from table.model import Character, Forbidden, Table
from table.sheet import SheetOptions

GM, PLAYER = 1, 2


def table() -> Table:
    return Table(10, 20, characters=(Character("Aria", PLAYER),))


def add(t: Table, name: str, score: int, actor: int = GM) -> Table:
    return initiative.add(t, actor_id=actor, is_gm=actor == GM, name=name, score=score)[0]


@given(st.lists(st.integers(-SCORE_LIMIT, SCORE_LIMIT), min_size=1, max_size=20))
def test_highest_first_and_ties_in_the_order_added(scores: list[int]) -> None:
    t = table()
    for index, score in enumerate(scores):
        t = add(t, f"N{index}", score)
    names = [c.name for c in t.initiative.combatants]
    expected = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    assert names == [f"N{i}" for i in expected]


@pytest.mark.parametrize("score", [SCORE_LIMIT + 1, -SCORE_LIMIT - 1])
def test_scores_stay_within_a_thousand(score: int) -> None:
    with pytest.raises(RulesError, match="between"):
        add(table(), "Orc", score)


def test_players_add_only_their_own_character() -> None:
    t = add(table(), "aria", 5, actor=PLAYER)
    assert t.initiative.combatants[0].name == "Aria"  # the stored spelling
    for name in ("Orc", "Bob"):
        with pytest.raises(Forbidden):
            add(t, name, 5, actor=PLAYER + 1)


def test_whoever_has_the_turn_keeps_it_when_others_join_or_leave() -> None:
    t = add(add(table(), "Orc", 5), "Aria", 3)
    t, _ = initiative.start(t)
    t, _ = initiative.next_turn(t)
    assert t.initiative.current is not None and t.initiative.current.name == "Aria"
    t = add(t, "Dragon", 20)  # before Aria in the order
    assert t.initiative.current is not None and t.initiative.current.name == "Aria"
    t, _ = initiative.remove(t, "Orc")
    assert t.initiative.current is not None and t.initiative.current.name == "Aria"


@given(st.integers(1, 6), st.integers(1, 30), st.randoms(use_true_random=False))
def test_every_full_pass_is_one_round_on_the_clock(
    size: int, turns: int, rng: random.Random
) -> None:
    t = replace(table(), clock=rng.randint(0, 10_000))
    for index in range(size):
        t = add(t, f"N{index}", rng.randint(-5, 5))
    start_clock = t.clock
    t, _ = initiative.start(t)
    for _ in range(turns):
        t, report = initiative.next_turn(t)
        assert (report.new_round is not None) == (t.initiative.turn == 0)
    rounds = turns // size
    assert t.initiative.round == 1 + rounds
    assert t.clock == start_clock + rounds * t.settings.round_seconds


def test_round_trip_through_a_dict() -> None:
    t = add(add(table(), "Orc", 5), "Aria", 5)
    t, _ = initiative.start(t)
    assert Initiative.from_dict(t.initiative.to_dict()) == t.initiative
    assert Initiative.from_dict(None) == Initiative()


def test_a_renamed_or_given_character_keeps_its_place_under_its_new_name() -> None:
    # The order holds names: renaming a character mid-fight must rename its place in the
    # order (turn, score and tie order kept), or the order shows a name nobody can remove.
    t = add(add(add(table(), "Orc", 5), "Aria", 5), "Troll", 9)
    t, _ = initiative.start(t)
    t, _ = initiative.next_turn(t)
    t, _ = sheet.change(t, PLAYER, False, "Aria", SheetOptions(), new_name="Arianne")
    order = t.initiative
    assert [(c.name, c.score) for c in order.combatants] == [
        ("Troll", 9),
        ("Orc", 5),
        ("Arianne", 5),
    ]
    assert order.current is not None and order.current.name == "Orc"
    t, _ = sheet.change(t, GM, True, "Arianne", SheetOptions(), owner_id=PLAYER + 1)
    assert t.initiative.find("Arianne") == replace(order.combatants[2], owner_id=PLAYER + 1)
    t, _ = initiative.remove(t, "Arianne")
    assert t.initiative.find("Aria") is None and t.initiative.find("Arianne") is None


def test_a_rename_onto_another_name_in_the_order_is_refused() -> None:
    t = add(add(table(), "Goblin", 5), "Aria", 3)
    with pytest.raises(RulesError, match="Goblin is already in the initiative"):
        sheet.change(t, PLAYER, False, "Aria", SheetOptions(), new_name="goblin")


def test_the_last_one_left_is_not_told_to_pass_the_turn() -> None:
    # Passing the turn of the only one left starts a new round with them again (and moves the
    # clock), so the refusal points to `/init end` instead.
    t, _ = initiative.start(add(table(), "Orc", 5))
    with pytest.raises(RulesError, match="only one left") as refused:
        initiative.remove(t, "Orc")
    assert "/init end" in str(refused.value) and "/init next" not in str(refused.value)
    t, _ = initiative.start(add(add(table(), "Orc", 5), "Imp", 3))
    with pytest.raises(RulesError, match="pass it with `/init next` first"):
        initiative.remove(t, "Orc")


def test_a_player_already_in_the_order_is_told_to_ask_the_gm() -> None:
    # `/init remove` is the GM's: a player changing their score must ask the GM.
    t = add(table(), "Aria", 5, actor=PLAYER)
    with pytest.raises(RulesError, match="ask the GM to `/init remove` it"):
        add(t, "Aria", 9, actor=PLAYER)
    with pytest.raises(RulesError, match="`/init remove` it first") as gm:
        add(t, "Aria", 9)
    assert "ask the GM" not in str(gm.value)
