"""The table's side of the GM's screen and the fight's books: what the players may know of the
bestiary (`table.sight.players_view`), monsters that appear or are brought, the defeated
cleared, party-wide changes that leave a familiar out, and which logged changes are the GM's
preparation (`Change.behind_screen`)."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.fatigue import FatigueState
from table import bestiary, initiative, partyops
from table.model import Character, Forbidden, Monster, Table
from table.sight import players_view
from table.snapshot import Change, diff

BUILD = {"rank": 1, "armor": "light"}
NAMES = ("Cave Troll", "Goblin 1", "Goblin 2", "Wolf", "Ogre", "Bat")


def monster(name: str, **fields: object) -> Monster:
    return Monster(name, BUILD, hp_max=10, **fields)  # type: ignore[arg-type]


TYPED = st.one_of(
    st.text(max_size=12),
    st.sampled_from(NAMES).map(lambda name: name[:-1]),  # a typo away: "did you mean"
    st.sampled_from(NAMES).map(str.lower),
)


@given(st.lists(st.booleans(), min_size=len(NAMES), max_size=len(NAMES)), TYPED)
def test_nothing_a_player_looks_up_names_a_hidden_monster(hidden: list[bool], typed: str) -> None:
    beasts = tuple(monster(n, hidden=h) for n, h in zip(NAMES, hidden, strict=True))
    table = Table(1, None, monsters=beasts)
    seen = players_view(table)
    kept = {m.name for m in table.monsters if m.hidden}
    assert {m.name for m in seen.monsters} == set(NAMES) - kept
    try:
        said = seen.get_monster(typed).name
    except RulesError as refusal:
        said = str(refusal)
    assert not any(name in said for name in kept if name not in typed), said


def test_a_monster_or_a_group_appears_and_the_gm_alone_shows_it() -> None:
    table = Table(1, None, monsters=(monster("Goblin 1", hidden=True), monster("Goblin 2")))
    with pytest.raises(Forbidden):
        bestiary.appear(table, is_gm=False, name="Goblin")
    shown, appeared = bestiary.appear(table, is_gm=True, name="goblin")
    assert [m.name for m in appeared] == ["Goblin 1"]  # the one still hidden
    assert not any(m.hidden for m in shown.monsters)
    with pytest.raises(RulesError, match="can already see Goblin 1, Goblin 2"):
        bestiary.appear(shown, is_gm=True, name="Goblin")


def test_a_monster_brought_comes_as_it_was_and_hidden() -> None:
    source = Table(2, None, monsters=(monster("Wolf", hp=4, facing="E"),))
    here = Table(1, None, monsters=(monster("Bat"),))
    found = bestiary.members(source, "wolf")
    table, (wolf,) = bestiary.bring(here, is_gm=True, monsters=found)
    assert (wolf.hp, wolf.facing, wolf.hidden) == (4, "E", True)
    assert table.get_monster("Wolf") == wolf and source.get_monster("Wolf").hidden is False
    with pytest.raises(RulesError, match="already a monster named 'Wolf'"):
        bestiary.bring(table, is_gm=True, monsters=found)
    with pytest.raises(Forbidden):
        bestiary.bring(here, is_gm=False, monsters=found)


def test_a_monster_brought_is_named_unlike_everyone_here() -> None:
    """A name brought from another channel passed that channel's checks, not this one's: one
    that looks like a name here (a character, a monster, the turn order) is refused."""
    source = Table(2, None, monsters=(monster("\u0410ria"), monster("W\u043elf")))  # Cyrillic
    here = Table(1, None, characters=(Character("Aria", 5),))
    here, __ = initiative.add(here, actor_id=1, is_gm=True, name="Wolf", score=3, other=True)
    for name, other in (("\u0410ria", "Aria"), ("W\u043elf", "Wolf")):
        with pytest.raises(RulesError, match=f"'{name}' looks just like '{other}'"):
            bestiary.bring(here, is_gm=True, monsters=bestiary.members(source, name))


def _fight(*monsters: Monster) -> Table:
    table = Table(1, None, characters=(Character("Aria", 5),), monsters=monsters)
    rng = random.Random(1)
    for score, name in enumerate(("Aria", *(m.name for m in monsters))):
        table, __ = initiative.add(
            table, actor_id=1, is_gm=True, name=name, score=10 - score, rng=rng
        )
    return table


def test_the_defeated_go_from_the_bestiary_and_the_order_and_the_turn_passes_on() -> None:
    table = _fight(monster("Orc", hp=-2), monster("Imp"), monster("Rat", hp=0))
    table = initiative.start(table)[0]  # Aria's turn
    table = initiative.next_turn(table)[0]  # the Orc is passed over: the Imp's turn
    cleared_table, cleared = initiative.clear_defeated(table, is_gm=True)
    assert [m.name for m in cleared.gone] == ["Orc", "Rat"] and cleared.passed is None
    assert [m.name for m in cleared_table.monsters] == ["Imp"]
    assert [c.name for c in cleared_table.initiative.combatants] == ["Aria", "Imp"]
    assert cleared_table.initiative.current is not None
    assert cleared_table.initiative.current.name == "Imp"
    with pytest.raises(RulesError, match="No monster here is defeated"):
        initiative.clear_defeated(cleared_table, is_gm=True)
    with pytest.raises(Forbidden):
        initiative.clear_defeated(table, is_gm=False)


def test_clearing_a_monster_on_its_own_turn_passes_it_and_the_last_ones_end_the_order() -> None:
    table = _fight(monster("Orc"))
    table = initiative.start(table)[0]
    table = initiative.next_turn(table)[0]  # the Orc's turn: it falls on it
    table = bestiary.hit(table, is_gm=True, name="Orc", damage=50)[0]
    passed_table, cleared = initiative.clear_defeated(table, is_gm=True)
    assert cleared.passed is not None and cleared.passed.now.name == "Aria"
    assert [c.name for c in passed_table.initiative.combatants] == ["Aria"]
    alone = Table(1, None, monsters=(monster("Orc", hp=0),))
    alone = initiative.add(alone, actor_id=1, is_gm=True, name="Orc", score=3)[0]
    ended = initiative.clear_defeated(alone, is_gm=True)[0]
    assert ended.initiative.combatants == () and ended.monsters == ()


@given(st.lists(st.booleans(), min_size=1, max_size=6), st.integers(1, 20))
def test_party_wide_changes_leave_whoever_is_out_of_the_party(
    party: list[bool], amount: int
) -> None:
    characters = tuple(
        Character(f"C{i}", 5, fl_override=Fraction(20), fatigue=FatigueState(fp=30), in_party=p)
        for i, p in enumerate(party)
    )
    table = Table(1, None, characters=characters)
    if not any(party):
        with pytest.raises(RulesError, match="Nobody here is in the party"):
            partyops.party_spend(table, amount)
        return
    for change in (
        lambda t: partyops.party_spend(t, amount),
        partyops.party_reset,
        lambda t: partyops.party_rest(t, "short"),
    ):
        after, report = change(table)
        moved = {c.name for c in after.characters if c.fatigue != table.get(c.name).fatigue}
        assert moved <= {c.name for c in characters if c.in_party}
        assert {c.name for c in report.changes} <= {c.name for c in characters if c.in_party}


def test_a_change_is_the_gms_preparation_while_every_monster_it_touched_was_hidden() -> None:
    lurker = monster("Lurker", hidden=True)
    made = Change(*diff(Table(1, None), Table(1, None, monsters=(lurker,))))
    assert made.behind_screen() == {"lurker"} and made.only_behind_screen()
    shown = Change(
        *diff(
            Table(1, None, monsters=(lurker,)),
            Table(1, None, monsters=(dataclasses.replace(lurker, hidden=False),)),
        )
    )
    assert shown.behind_screen() == frozenset() and not shown.only_behind_screen()
    both = Change(
        *diff(
            Table(1, None, clock=0, monsters=(lurker,)),
            Table(1, None, clock=60, monsters=(dataclasses.replace(lurker, facing="S"),)),
        )
    )
    assert both.behind_screen() == {"lurker"} and not both.only_behind_screen()
