"""The page's words: a change as `/history` says it, in plain text (markdown escapes undone,
mentions as words, never an id), and the board's values as the templates are given them."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from fractions import Fraction

from discord.utils import escape_markdown
from hypothesis import given
from hypothesis import strategies as st

from lang import speaking
from rules.fatigue import FatigueState
from table.event import Event
from table.model import Character, Table
from web.pages import fragment
from web.view import member, segments
from web.words import change_text, plain

MARKUP = "\\*_~|`>#-[]()<>&'\" "


@given(st.text(alphabet=st.sampled_from(MARKUP) | st.characters(), max_size=40))
def test_a_name_comes_back_exactly_as_typed(name: str) -> None:
    assert plain(escape_markdown(name)) == name


def test_mentions_become_words(shipped_catalogs: None) -> None:
    text = "player <@123456789012345678> → <@!42>, GM role <@&99>"
    assert plain(text) == "player a player → a player, GM role a role"
    with speaking("es-ES"):
        assert "un jugador" in plain("<@1>")


def test_a_change_reads_as_history_says_it_without_ids(shipped_catalogs: None) -> None:
    owner_was, owner_now = {"name": "A_b*", "owner_id": 5}, {"name": "A_b*", "owner_id": 6}
    event = Event(
        1,
        777,
        "character set",
        datetime(2026, 1, 1, tzinfo=UTC),
        {"characters": {"a_b*": owner_was}},
        {"characters": {"a_b*": owner_now}},
        channel_id=3,
    )
    assert change_text(event, True) == ("character set", "A_b* player a player → a player")
    with speaking("es-ES"):
        action, what = change_text(event, True)
    assert action != "character set" and "un jugador" in what and "5" not in what


def test_the_bar_fills_each_band_up_to_the_fp() -> None:
    bands = segments(23, Fraction(10))  # bands of 10: Fresh 0–10, Fatigued 11–20, Tired 21–30
    assert [(s.band, s.x, s.width, s.fill) for s in bands] == [
        ("fresh", 0, 10, 10),
        ("fatigued", 10, 10, 10),
        ("tired", 20, 10, 3),
        ("exhausted", 30, 10, 0),
        ("shattered", 40, 10, 0),
    ]
    over = segments(80, Fraction(10))  # past Maximum FP: every band full
    assert all(s.fill == s.width for s in over)


def test_a_character_without_a_fatigue_level_shows_no_bar() -> None:
    shown = member(Character("Bo", 1, fatigue=FatigueState(fp=3)), clock=0)
    assert (shown.band, shown.top, shown.segments) == ("none", None, ())


def test_the_board_escapes_every_name() -> None:
    table = Table(1, 2, characters=(Character("<b>Tom</b> &lt Jerry", 1),))
    html = fragment(table, [], None, None)
    assert "&lt;b&gt;Tom&lt;/b&gt; &amp;lt Jerry" in html and "<b>" not in html


def test_the_undo_of_an_import_reads_as_what_it_put_back(shipped_catalogs: None) -> None:
    """As /history says it: one character back and another gone, not a rename (in Spanish
    too); the undo of a rename still reads as one."""
    bo, aria = {"name": "Bo", "owner_id": 2}, {"name": "Aria", "owner_id": 2}
    undo = Event(
        8,
        777,
        "undo",
        datetime(2026, 1, 1, tzinfo=UTC),
        {"characters": {"aria": aria, "bo": None}},
        {"characters": {"aria": None, "bo": bo}},
        channel_id=3,
        undoes=7,
        undid="import",
    )
    assert change_text(undo, True) == ("undo", "Aria removed; Bo brought back")
    with speaking("es-ES"):
        assert change_text(undo, True) == ("deshacer", "Aria quitado; Bo recuperado")
    renamed = change_text(dataclasses.replace(undo, undid="character set"), True)
    assert renamed == ("undo", "Bo renamed from Aria")


def test_a_redo_brings_back_what_it_puts_back(shipped_catalogs: None) -> None:
    """A redo's line, as /history's, says a character it puts back was brought back, not
    created; a first creation still reads as created."""
    redo = Event(
        9,
        777,
        "redo",
        datetime(2026, 1, 1, tzinfo=UTC),
        {"characters": {"bo": None}},
        {"characters": {"bo": {"name": "Bo", "owner_id": 2}}},
        channel_id=3,
    )
    assert change_text(redo, True) == ("redo", "Bo brought back")
    with speaking("es-ES"):
        assert change_text(redo, True) == ("rehacer", "Bo recuperado")
    created = dataclasses.replace(redo, action="character create")
    assert change_text(created, True) == ("character create", "Bo created")


def test_the_page_reads_a_hit_and_never_the_gms_preparation(shipped_catalogs: None) -> None:
    """A hit that changed nothing the players see reads as a hit, without numbers; a change to
    a monster still behind the GM's screen reads as only that, its kind and name left out."""
    ogre = {"name": "Bridge Ogre", "build": {"rank": 2, "armor": "heavy"}, "hp_max": 30}
    hit = Event(
        1,
        777,
        "monster hit",
        datetime(2026, 1, 1, tzinfo=UTC),
        {"characters": {}, "monsters": {"bridge ogre": {**ogre, "hp": 20}}},
        {"characters": {}, "monsters": {"bridge ogre": {**ogre, "hp": 18}}},
        channel_id=3,
    )
    assert change_text(hit, False) == ("monster hit", "monster Bridge Ogre hit, still looks hurt")
    hidden = {"bridge ogre": {**ogre, "hp": 30, "hidden": True}}
    made = dataclasses.replace(
        hit, action="monster create", before={"characters": {}, "monsters": {"bridge ogre": None}}
    )
    made = dataclasses.replace(made, after={"characters": {}, "monsters": hidden})
    assert change_text(made, True) == ("behind the GM's screen", "")
