"""`/character use` on the table: each player has at most one active character, the last one
they made active; their only character needs no choosing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from table.active import active_character, make_active
from table.model import Character, Forbidden, Table

NAMES = {"Aria": 1, "Grusk": 1, "Cato": 1, "Bo": 2, "Cy": 2}


def table() -> Table:
    return Table(1, 2, characters=tuple(Character(n, owner) for n, owner in NAMES.items()))


@given(st.lists(st.sampled_from(sorted(NAMES)), max_size=12))
def test_each_players_active_character_is_the_last_one_they_chose(choices: list[str]) -> None:
    t = table()
    last: dict[int, str] = {}
    for name in choices:
        t, chosen = make_active(t, NAMES[name], name.lower())
        assert chosen.name == name and chosen.active
        last[NAMES[name]] = name
    for owner in (1, 2):
        active = [c.name for c in t.characters if c.owner_id == owner and c.active]
        assert active == ([last[owner]] if owner in last else [])
        found = active_character(t, owner)
        assert (found.name if found else None) == last.get(owner)
    assert [c.name for c in t.characters] == [c.name for c in table().characters]


def test_an_only_character_is_active_unchosen() -> None:
    t = Table(1, 2, characters=(Character("Solo", 7),))
    found = active_character(t, 7)
    assert found is not None and found.name == "Solo"
    assert active_character(t, 8) is None


def test_no_one_makes_anothers_character_active() -> None:
    with pytest.raises(Forbidden):
        make_active(table(), 2, "Aria")
