"""The fast path's caches show exactly what the uncached code shows, in every language, and each
language keeps its own: a cached call equals the same call through `__wrapped__` (the function
the cache wraps), after the other language has filled the cache for the same value."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterator
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lang
from lang.catalogs import load
from render import changes, common, fatigue, history
from rules.fatigue import FatigueState
from table.event import Event
from table.model import Character

LANGUAGES = (None, "es-ES")  # English, and Spanish where the catalogs have a word


@pytest.fixture(scope="module", autouse=True)
def catalogs() -> Iterator[None]:
    before = lang.installed()
    lang.install(load())
    yield
    lang.install(before)


def in_each_language(call: Any) -> list[tuple[object, object]]:
    """(cached, uncached) in each language; each language's cached call comes after the other
    language already cached the same value, so a key without the language would show."""
    results = []
    for locale in (*LANGUAGES, *reversed(LANGUAGES)):
        with lang.speaking(locale):
            results.append(call())
    return results


@st.composite
def characters(draw: st.DrawFn) -> Character:
    temp = draw(st.integers(0, 30))
    state = FatigueState(
        fp=draw(st.integers(0, 300)),
        temp=temp,
        temp_expires=draw(st.integers(0, 10_000)) if temp else None,
        exhausted_cap=draw(st.booleans()),
        shattered_cap=draw(st.booleans()),
        vp_damage=draw(st.integers(0, 20)),
        settled=draw(st.integers(0, 10_000)),
    )
    fl = draw(st.none() | st.fractions(min_value=Fraction(1, 2), max_value=60))
    classes = draw(st.lists(st.tuples(st.sampled_from([4, 6, 8, 10, 12]), st.integers(1, 20))))
    return Character(
        draw(st.sampled_from(["Aria", "Bo_rin", "*Cy*"])),
        7,
        classes=tuple(classes[:1]),
        fl_override=fl if fl is None or fl > 0 else None,
        fatigue=state,
    )


@settings(max_examples=150, deadline=None)
@given(character=characters(), clock=st.integers(0, 20_000))
def test_a_board_field_is_the_same_cached_or_not(character: Character, clock: int) -> None:
    def both() -> tuple[object, object]:
        words = lang.words()
        return (
            fatigue.board_field(character, clock, words),
            fatigue.board_field.__wrapped__(character, clock, words),
        )

    for cached, uncached in in_each_language(both):
        assert cached == uncached


def test_the_board_reads_in_each_language_after_the_other_was_cached() -> None:
    aria = Character("Aria", 7, fl_override=Fraction(10), fatigue=FatigueState(fp=25))
    with lang.speaking(None):
        english = fatigue.board_field(aria, 0, lang.words())
    with lang.speaking("es-ES"):
        spanish = fatigue.board_field(aria, 0, lang.words())
    assert "Tired" in english[0] and "Cansado" in spanish[0]


VALUES = st.none() | st.integers(0, 99)  # every setting shows a number


@given(
    old=st.dictionaries(st.sampled_from(sorted(changes._SETTINGS)), VALUES, max_size=4),
    new=st.dictionaries(st.sampled_from(sorted(changes._SETTINGS)), VALUES, max_size=4),
)
def test_unchanged_fields_read_as_before(old: dict[str, Any], new: dict[str, Any]) -> None:
    """The shortcut for parts that didn't change says what looking at every label says."""
    for locale in LANGUAGES:
        with lang.speaking(locale):
            slow = [
                changes._arrow(label, show, old.get(name), new.get(name))
                for name, (label, show) in changes._SETTINGS.items()
                if old.get(name) != new.get(name)
            ]
            assert changes._fields(old, new, changes._SETTINGS) == slow
            assert changes._fields(new, new, changes._SETTINGS) == []


def _event(fp_before: int, fp_after: int, **fields: Any) -> Event:
    def snapshot(fp: int) -> dict[str, Any]:
        aria = {"name": "Aria", "fl_override": "10", "fatigue": {"fp": fp}}
        return {"characters": {"aria": aria}}

    at = datetime(2026, 1, 1, tzinfo=UTC)
    base = Event(7, 21, "fatigue spend", at, snapshot(fp_before), snapshot(fp_after), 1)
    return dataclasses.replace(base, **fields)


@settings(max_examples=100, deadline=None)
@given(
    fps=st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60)), min_size=1, max_size=6),
    undo=st.booleans(),
)
def test_a_history_line_is_what_its_own_snapshots_say(
    fps: list[tuple[int, int]], undo: bool
) -> None:
    """Events of one id with other snapshots (another database, another test) read as their
    own; equal snapshots in new objects (a page read again) read the same; each language its
    own words."""
    now = datetime(2026, 1, 1, 1, tzinfo=UTC)
    for old, new in fps:
        event = _event(old, new, undoes=3 if undo else None)
        again = copy.deepcopy(event)
        for locale in (*LANGUAGES, *reversed(LANGUAGES)):
            with lang.speaking(locale):
                uncached = "; ".join(
                    changes.change_parts(event.before, event.after, undo, numbers=True)
                ) or lang._("no visible change")
                assert history._what(event, True) == uncached
                assert history._what(again, True) == uncached
                assert uncached in history.event_line(again, now, numbers=True)


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(st.text(max_size=30), max_size=14) | st.lists(st.just("x" * 9), max_size=120),
    limit=st.integers(0, 400),
)
def test_fitting_lines_reads_as_line_by_line(lines: list[str], limit: int) -> None:
    for locale in LANGUAGES:
        with lang.speaking(locale):
            assert common.fit_lines(lines, limit) == common.fit_one_by_one(lines, limit)
