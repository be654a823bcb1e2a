"""render.common's one way of fitting a list into an embed, as every roster and log uses it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from render import characters, monsters
from render.common import DESCRIPTION_MAX, fit_lines
from table.model import Character, Monster, Table

LINES = st.lists(st.text(alphabet="abc xyz", min_size=1, max_size=60), min_size=1, max_size=200)


@given(lines=LINES, limit=st.integers(20, 600))
def test_fitted_lines_stay_within_the_limit_and_count_what_they_leave_out(
    lines: list[str], limit: int
) -> None:
    text = fit_lines(lines, limit)
    assert len(text) <= limit
    shown = text.split("\n")
    if shown == lines:
        return
    kept, more = shown[:-1], shown[-1]
    assert kept == lines[: len(kept)]  # whole lines, in order, none cut in the middle
    assert more == f"…and {len(lines) - len(kept)} more"


def test_a_long_monster_roster_ends_in_whole_lines_and_says_how_many_more() -> None:
    many = [Monster(f"Goblin {n:03}", {"rank": 1, "armor": "light"}) for n in range(300)]
    description = monsters.roster_embed(many).description or ""
    assert len(description) <= DESCRIPTION_MAX
    *lines, more = description.split("\n")
    assert lines == [monsters.roster_line(m) for m in many[: len(lines)]]
    assert more == f"…and {300 - len(lines)} more"


def test_a_long_character_roster_fits_the_same_way() -> None:
    party = Table(1, 2, characters=tuple(Character(f"Hero {n:03}", 7) for n in range(300)))
    description = characters.roster_embed(party).description or ""
    assert len(description) <= DESCRIPTION_MAX
    *lines, more = description.split("\n")
    assert lines == [characters.roster_line(c) for c in party.characters[: len(lines)]]
    assert more == f"…and {300 - len(lines)} more"
