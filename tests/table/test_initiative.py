"""`table.initiative` and `table.combat`: the order, the turn, the round and the clock."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RulesError
from table import bestiary, initiative, sheet
from table.combat import COMBATANTS_MAX, SCORE_LIMIT, Initiative
from table.dice_expr import roll_expression
from table.model import Character, Forbidden, Monster, Table
from table.sheet import SheetOptions

GM, PLAYER = 1, 2


def table() -> Table:
    return Table(10, 20, characters=(Character("Aria", PLAYER),))


def add(
    t: Table, name: str, score: int, actor: int = GM, rng: random.Random | None = None
) -> Table:
    step = initiative.add
    return step(
        t,
        actor_id=actor,
        is_gm=actor == GM,
        name=name,
        score=score,
        other=True,
        rng=rng or random.Random(0),
    )[0]


@given(
    st.lists(
        st.tuples(st.integers(-3, 3), st.integers(-2, 2)), min_size=1, max_size=COMBATANTS_MAX
    ),
    st.integers(0, 2**32),
)
def test_highest_first_then_the_bonus_then_a_kept_roll_off_never_the_order_added(
    entries: list[tuple[int, int]], seed: int
) -> None:
    """Scores and bonuses drawn close together, so ties abound: the order is by score, then
    bonus; a tie of both is settled by roll-offs, all different, kept with the order (read
    back from its stored form, as undo and redo put it back, it is the same)."""
    rng = random.Random(seed)
    monsters = tuple(
        Monster(f"M{i}", {"rank": 0, "armor": "light"}, init_bonus=bonus)
        for i, (_score, bonus) in enumerate(entries)
    )
    t = replace(table(), monsters=monsters)
    for i, (score, _bonus) in enumerate(entries):
        t, __ = initiative.add(t, actor_id=GM, is_gm=True, name=f"M{i}", score=score, rng=rng)
    order = t.initiative.combatants
    assert [(-c.score, -c.bonus) for c in order] == sorted((-c.score, -c.bonus) for c in order)
    for first, second in itertools.pairwise(order):
        if first.tie == second.tie:
            assert first.rolloff > second.rolloff > 0  # settled by the roll-off, not by `added`
    assert Initiative.from_dict(t.initiative.to_dict()) == t.initiative


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
    before = [(c.name.replace("Aria", "Arianne"), c.score) for c in t.initiative.combatants]
    current = t.initiative.current
    t, _ = sheet.change(t, PLAYER, False, "Aria", SheetOptions(), new_name="Arianne")
    order = t.initiative
    assert [(c.name, c.score) for c in order.combatants] == before  # the roll-off's order too
    assert order.current is not None and current is not None
    assert order.current.name == current.name.replace("Aria", "Arianne")
    moved = order.find("Arianne")
    t, _ = sheet.change(t, GM, True, "Arianne", SheetOptions(), owner_id=PLAYER + 1)
    assert moved is not None
    assert t.initiative.find("Arianne") == replace(moved, owner_id=PLAYER + 1)
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


def test_removing_whoever_has_the_turn_passes_it() -> None:
    t, _ = initiative.start(add(add(table(), "Orc", 5), "Imp", 3))
    t, removal = initiative.remove(t, "Orc")
    assert removal.gone.name == "Orc" and removal.passed is not None
    assert removal.passed.now.name == "Imp" and removal.passed.new_round is None
    assert [c.name for c in t.initiative.combatants] == ["Imp"]
    assert t.initiative.current is not None and t.initiative.current.name == "Imp"
    # The last in the order leaving on its turn opens the next round, and the clock moves.
    t, _ = initiative.start(add(add(table(), "Orc", 5), "Imp", 3))
    t, _ = initiative.next_turn(t)
    clock = t.clock
    t, removal = initiative.remove(t, "Imp")
    assert removal.passed is not None and removal.passed.new_round is not None
    assert t.initiative.round == 2 and t.clock == clock + t.settings.round_seconds


# --- defeated monsters ---------------------------------------------------------------------


def goblin(name: str, hp: int) -> Monster:
    return Monster(name, {"rank": 1, "armor": "light", "spots": ["back"]}, hp_max=10, hp=hp)


def with_monsters(t: Table, *monsters: Monster) -> Table:
    for monster in monsters:
        t = t.with_monster(monster)
    return t


def test_a_defeated_monster_is_passed_over_and_never_asked_its_facing() -> None:
    t = with_monsters(table(), goblin("Troll", 10), goblin("Imp", 10))
    t = add(add(add(t, "Troll", 9), "Imp", 5), "Aria", 1)
    t, _ = initiative.start(t)
    t, hit = bestiary.hit(t, is_gm=True, name="Troll", damage=50)  # on its own turn
    assert hit.monster.down and hit.in_fight
    assert initiative.defeated(t, t.initiative.combatants[0])
    t, report = initiative.next_turn(t)
    assert report.ended.name == "Troll" and report.facing is None  # defeated: no facing
    assert report.now.name == "Imp"
    t, report = initiative.next_turn(t)
    assert report.facing is not None and report.facing.name == "Imp"
    t, report = initiative.next_turn(t)  # Aria was last: round 2 opens past the Troll
    assert report.round == 2 and report.now.name == "Imp"
    assert [c.name for c in report.skipped] == ["Troll"]
    t, removal = initiative.remove(t, "Troll")  # at any time
    assert removal.passed is None and t.initiative.current == report.now


def test_the_fight_starts_with_the_first_standing_and_refuses_when_none_stands() -> None:
    t = with_monsters(table(), goblin("Troll", 0), goblin("Imp", -3))
    t = add(add(t, "Troll", 9), "Imp", 5)
    with pytest.raises(RulesError, match="Everyone in the initiative is defeated"):
        initiative.start(t)
    t = add(t, "Aria", 1)
    t, order = initiative.start(t)
    assert order.current is not None and order.current.name == "Aria"
    with pytest.raises(RulesError, match="only one left"):
        initiative.remove(t, "Aria")


@given(
    st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=8),
    st.integers(1, 25),
    st.randoms(use_true_random=False),
)
def test_next_never_lands_on_a_defeated_combatant(
    kinds: list[tuple[bool, bool]], turns: int, rng: random.Random
) -> None:
    # Each combatant is a monster or a plain name; a monster may be defeated. Now and then a
    # hit defeats the one whose turn it is.
    t = table()
    for index, (monster, down) in enumerate(kinds):
        name = f"N{index}"
        if monster:
            t = t.with_monster(goblin(name, 0 if down else 10))
        t = add(t, name, rng.randint(-5, 5))
    if all(initiative.defeated(t, c) for c in t.initiative.combatants):
        with pytest.raises(RulesError, match="defeated"):
            initiative.start(t)
        return
    t, _ = initiative.start(t)
    for _ in range(turns):
        current = t.initiative.current
        assert current is not None and not initiative.defeated(t, current)
        if current.kind == "monster" and rng.random() < 0.2:
            t, _ = bestiary.hit(t, is_gm=True, name=current.name, damage=100)
        if all(initiative.defeated(t, c) for c in t.initiative.combatants):
            with pytest.raises(RulesError, match="defeated"):
                initiative.next_turn(t)
            return
        t, report = initiative.next_turn(t)
        assert not any(c == report.now for c in report.skipped)
        assert all(initiative.defeated(t, c) for c in report.skipped)


def test_a_name_that_matches_nothing_is_refused_with_the_close_ones() -> None:
    t = table().with_monster(goblin("Cave Troll", 10))
    for typed in ("Troll", "cave trol"):
        with pytest.raises(RulesError, match="did you mean Cave Troll\\?") as refused:
            initiative.add(t, actor_id=GM, is_gm=True, name=typed, score=5, rng=random.Random(0))
        assert "other:True" in str(refused.value)
    with pytest.raises(RulesError, match="No character or monster named 'Ghost' here\\. To"):
        initiative.add(t, actor_id=GM, is_gm=True, name="Ghost", score=5, rng=random.Random(0))
    t, added = initiative.add(
        t, actor_id=GM, is_gm=True, name="Troll", score=5, other=True, rng=random.Random(0)
    )
    assert (
        added.combatant.kind == "other" and added.combatant.name == "Troll"
    )  # deliberately just a name
    t, added = initiative.add(
        t, actor_id=GM, is_gm=True, name="cave troll", score=3, other=True, rng=random.Random(0)
    )
    assert (
        added.combatant.kind == "monster" and added.combatant.name == "Cave Troll"
    )  # a stored name stays one
    with pytest.raises(Forbidden):  # a player's `other` adds nothing
        initiative.add(
            t, actor_id=PLAYER, is_gm=False, name="Ghost", score=5, other=True, rng=random.Random(0)
        )


def test_a_player_already_in_the_order_is_told_to_ask_the_gm() -> None:
    # `/init remove` is the GM's: a player changing their score must ask the GM.
    t = add(table(), "Aria", 5, actor=PLAYER)
    with pytest.raises(RulesError, match="ask the GM to `/init remove` it"):
        add(t, "Aria", 9, actor=PLAYER)
    with pytest.raises(RulesError, match="`/init remove` it first") as gm:
        add(t, "Aria", 9)
    assert "ask the GM" not in str(gm.value)


# --- rolled scores -------------------------------------------------------------------------


@given(st.integers(1, 20), st.integers(-50, 50), st.randoms(use_true_random=False))
def test_a_rolled_score_is_the_dice_total_as_roll_reads_them(
    size: int, bonus: int, rng: random.Random
) -> None:
    expression = f"1d{size}{bonus:+d}"
    seed = rng.randint(0, 2**32)
    t, joined = initiative.add(
        table(),
        actor_id=PLAYER,
        is_gm=False,
        name="Aria",
        score=expression,
        rng=random.Random(seed),
    )
    expected = roll_expression(expression, random.Random(seed)).total
    assert joined.combatant.score == expected and joined.roll is not None
    assert 1 + bonus <= expected <= size + bonus
    assert t.initiative.find("Aria") == joined.combatant


def test_no_score_rolls_the_channels_dice_for_a_stored_combatant_only() -> None:
    t = replace(table(), settings=replace(table().settings, init_dice="2d6+100"))
    t = t.with_monster(goblin("Imp", 10))
    t, joined = initiative.add(t, actor_id=GM, is_gm=True, name="imp", rng=random.Random(3))
    assert 102 <= joined.combatant.score <= 112 and joined.roll is not None
    assert joined.roll.expression == "2d6+100"
    with pytest.raises(RulesError, match="needs a score"):
        initiative.add(t, actor_id=GM, is_gm=True, name="Ghost", other=True, rng=random.Random())
    t, joined = initiative.add(
        t, actor_id=GM, is_gm=True, name="Ghost", score=" 12 ", other=True, rng=random.Random(0)
    )
    assert joined.combatant.score == 12 and joined.roll is None  # a plain number is no roll


@pytest.mark.parametrize("dice", ["", "d", "1d0", "x" * 31, "1001d6"])
def test_the_channels_dice_must_roll(dice: str) -> None:
    with pytest.raises(RulesError):
        replace(table().settings, init_dice=dice)


# --- going back ----------------------------------------------------------------------------


@given(
    st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=7),
    st.integers(0, 20),
    st.randoms(use_true_random=False),
)
def test_prev_undoes_next_and_never_lands_on_a_defeated_combatant(
    kinds: list[tuple[bool, bool]], turns: int, rng: random.Random
) -> None:
    t = table()
    for index, (monster, down) in enumerate(kinds):
        name = f"N{index}"
        if monster:
            t = t.with_monster(goblin(name, 0 if down else 10))
        t = add(t, name, rng.randint(-5, 5))
    if all(initiative.defeated(t, c) for c in t.initiative.combatants):
        return
    t, _ = initiative.start(t)
    for _ in range(turns):
        t, _ = initiative.next_turn(t)
    went, _ = initiative.next_turn(t)
    back, report = initiative.previous_turn(went)
    assert (back.initiative.round, back.initiative.turn) == (t.initiative.round, t.initiative.turn)
    assert back.initiative.current is not None
    assert not initiative.defeated(back, back.initiative.current)
    assert report.back and report.now == t.initiative.current
    assert back.clock == went.clock  # the clock stays
    again, report = initiative.next_turn(back)
    assert again.initiative == went.initiative and again.clock == went.clock  # not twice
    assert report.new_round is None


def test_there_is_no_turn_before_the_first() -> None:
    t, _ = initiative.start(add(add(table(), "Orc", 5), "Imp", 3))
    with pytest.raises(RulesError, match="first turn"):
        initiative.previous_turn(t)
    with pytest.raises(RulesError, match="No initiative is running"):
        initiative.previous_turn(add(table(), "Orc", 5))
    t, _ = initiative.next_turn(t)
    t, _ = initiative.next_turn(t)  # round 2: back into round 1, the Imp's turn
    clock = t.clock
    t, report = initiative.previous_turn(t)
    assert (t.initiative.round, report.now.name, t.clock) == (1, "Imp", clock)
    assert Initiative.from_dict(t.initiative.to_dict()) == t.initiative
    assert t.initiative.reached == 2
