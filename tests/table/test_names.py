"""A new name is what it looks like: properties of `table.names.clean_name` and of
`table.lookalikes` over names drawn at random (Hypothesis), and the cases that showed the need
("it is ㅤ's turn", three "Aria"s in one turn order)."""

from __future__ import annotations

import string
import unicodedata

import pytest
import regex
from confusable_homoglyphs import confusables
from hypothesis import assume, example, given
from hypothesis import strategies as st

from rules.errors import RulesError
from table.lookalikes import check_unlike, first_alike, skeleton
from table.names import NAME_LIMIT, clean_name, name_key

INVISIBLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
# Every code point Unicode calls default-ignorable (the fillers, joiners, variation selectors).
IGNORABLE = [chr(c) for c in range(0x110000) if INVISIBLE.match(chr(c))]

letters = st.characters(categories=("Lu", "Ll", "Lo", "Nd"))
texts = st.text(st.characters(codec="utf-8"), min_size=1, max_size=40)
names = st.builds(
    lambda first, rest: (first + rest)[:NAME_LIMIT],
    letters,
    st.text(st.one_of(letters, st.sampled_from(" -'.")), max_size=20),
)


def _accepted(text: str) -> str | None:
    try:
        return clean_name(text, "character")
    except RulesError:
        return None


@given(texts)
@example("Aria\u3164")
@example("\u3164")
@example("Ar\u034fia")
@example("Ar\ufe0fia")
@example("\u0301\u0301")
def test_a_name_kept_is_as_a_keyboard_writes_it_and_shows_all_it_is(text: str) -> None:
    name = _accepted(text)
    if name is None:
        return
    assert unicodedata.normalize("NFKC", name) == name
    assert not INVISIBLE.search(name)
    assert all(unicodedata.category(c)[0] in "LMNZP" for c in name)
    assert unicodedata.category(name[0])[0] in "LN"  # never an accent on nothing
    assert 1 <= len(name) <= NAME_LIMIT and name == " ".join(name.split())
    assert clean_name(name, "character") == name  # kept as it came back


@given(names, st.sampled_from(IGNORABLE), st.integers(0, NAME_LIMIT))
def test_anything_unseen_anywhere_in_a_name_is_refused(name: str, unseen: str, at: int) -> None:
    assume(_accepted(name) is not None)
    spoiled = name[:at] + unseen + name[at:]
    assume(unicodedata.normalize("NFKC", spoiled).strip() != unicodedata.normalize("NFKC", name))
    with pytest.raises(RulesError):
        clean_name(spoiled, "character")


@given(st.text(st.characters(categories=("Mn", "Me", "Mc")), min_size=1, max_size=10))
def test_a_name_of_accents_alone_is_refused(marks: str) -> None:
    assert _accepted(marks) is None


def _homoglyphs(char: str) -> list[str]:
    """What Unicode's confusables data says `char` looks like (one character each), as a name
    keeps it: a look-alike that NFKC writes otherwise (`ϲ` as `ς`) is another case."""
    found = confusables.is_confusable(char, greedy=True)
    if not found:
        return []
    near = [g["c"].strip("\u200e\u200f") for entry in found for g in entry["homoglyphs"]]
    return [c for c in near if len(c) == 1 and c != char and unicodedata.normalize("NFKC", c) == c]


latin_names = st.text(st.sampled_from(string.ascii_letters), min_size=2, max_size=12)


@given(latin_names, st.data())
@example("Aria", None)
def test_a_letter_swapped_for_one_that_looks_like_it_is_a_look_alike(
    name: str, data: st.DataObject | None
) -> None:
    if data is None:  # the case that showed it: a Cyrillic а
        twin = "\u0410ria"
    else:
        at = data.draw(st.integers(0, len(name) - 1))
        swaps = _homoglyphs(name[at])
        assume(swaps)
        twin = name[:at] + data.draw(st.sampled_from(swaps)) + name[at + 1 :]
    twin_name = _accepted(twin)
    assume(twin_name is not None)
    assert twin_name is not None
    assume(name_key(twin_name) != name_key(name))
    looks = (skeleton(twin_name), skeleton(name_key(twin_name)))
    assert looks[0] == skeleton(name) or looks[1] == skeleton(name_key(name))
    with pytest.raises(RulesError, match="looks just like"):
        check_unlike(twin_name, [name])
    found = first_alike([name, "Someone Else", twin_name])
    assert found is not None and found[0] == 2


@given(names)
def test_a_name_never_looks_like_itself_in_another_case(name: str) -> None:
    assume(_accepted(name) is not None)
    same = [n for n in (name.upper(), name.lower(), name) if name_key(n) == name_key(name)]
    check_unlike(name, same)  # the same name: another check's (taken)
    assert first_alike([name, *same]) is None


@pytest.mark.parametrize(
    ("name", "other"),
    [("Al", "AI"), ("B0b", "BOb"), ("Bill", "BiII"), ("Аria", "Aria"), ("Ρetra", "Petra")],
)
def test_unicodes_own_look_alikes_are_told(name: str, other: str) -> None:
    with pytest.raises(RulesError, match=f"'{name}' looks just like '{other}'"):
        check_unlike(name, [other])


@pytest.mark.parametrize(("name", "other"), [("Aria", "Arla"), ("Bo", "Bob"), ("Cora", "Dora")])
def test_names_that_read_differently_are_told_apart(name: str, other: str) -> None:
    check_unlike(name, [other])
