"""The page's fatigue chart, built from a channel's log on a real store (a SQLite file and
PostgreSQL): what its series covers (this evening's play among the latest changes, as
`/party chart` frames it, never an undone change), and the SVG's layout and words (in Spanish
too, names escaped)."""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from lang import speaking
from rules.fatigue import FatigueState
from store import Store
from table import partyops
from table.model import Character, Table
from tests.store.conftest import Database
from web.chart import BOTTOM, CHART_CHANGES, LEFT, RECENT, RIGHT, TOP, chart, page_series
from web.pages import fragment

CH, GUILD, GM = 2001, 6006, 11
Op = Callable[[Table], tuple[Table, Any]]


def _party(table: Table) -> tuple[Table, None]:
    for name, fl, fp in (("Aria", 20, 10), ("Bo <b>&amp;", 12, 0)):
        hero = Character(name, GM, fl_override=Fraction(fl), fatigue=FatigueState(fp=fp))
        table = table.with_character(hero)
    return table, None


def _spend(name: str, amount: int) -> Op:
    return lambda table: partyops.spend(table, name, amount)


def _rest(kind: str) -> Op:
    return lambda table: partyops.party_rest(table, kind)


async def _series(store: Store) -> Any:
    table = await store.read(CH, GUILD)
    events = await store.history(CH, CHART_CHANGES)
    return page_series(table, events)


async def store_history(db: Database) -> list[Any]:
    async with Store.open(db.url) as store:
        return await store.history(CH, CHART_CHANGES)


def _fps(series: Any, name: str) -> list[int]:
    line = next(line for line in series.lines if line.name == name)
    return [step.fp for step in line.steps if step.width]


async def test_the_chart_is_this_evenings_play_and_leaves_undone_changes_out(
    db: Database,
) -> None:
    async with Store.open(db.url) as store:
        assert await _series(store) is None  # no characters: no chart
        await store.apply(CH, GUILD, GM, "test seed", _party)
        await store.apply(CH, GUILD, GM, "fatigue spend", _spend("Aria", 7))  # 10 → 17
        await store.apply(CH, GUILD, GM, "rest long", _rest("long"))
        await store.apply(CH, GUILD, GM, "rest short", _rest("short"))
        await store.apply(CH, GUILD, GM, "fatigue spend", _spend("Aria", 30))
        await store.undo_last(CH, GUILD, GM, True)  # taken back: not in the chart
        await store.apply(CH, GUILD, GM, "fatigue spend", _spend("Aria", 4))
        series = await _series(store)
        table = await store.read(CH, GUILD)
    aria = table.get("Aria").fatigue.fp
    assert _fps(series, "Aria")[-2:] == [aria - 4, aria] and aria < 30  # no 30 in it
    # Built again from the same changes (their characters kept), it is the same series.
    events = await store_history(db)
    assert page_series(table, events) == page_series(table, events) == series
    assert series.since == "evening" and series.end == table.clock
    # The whole evening: a Long Rest inside it doesn't cut it.
    assert [rest.kind for rest in series.rests] == ["long", "short"]
    assert _fps(series, "Aria")[0] == 10  # from its first change on


async def test_an_evening_longer_than_the_latest_changes_says_how_many(
    db: Database, shipped_catalogs: None
) -> None:
    async with Store.open(db.url) as store:
        await store.apply(CH, GUILD, GM, "test seed", _party)
        await store.apply(CH, GUILD, GM, "rest long", _rest("long"))
        for _ in range(CHART_CHANGES):
            await store.apply(CH, GUILD, GM, "fatigue spend", _spend("Bo <b>&amp;", 1))
        series = await _series(store)
    assert series.since == RECENT and series.changes == CHART_CHANGES
    assert _fps(series, "Bo <b>&amp;")[-1] == CHART_CHANGES
    with speaking("es-ES"):
        assert chart(series).since == f"los últimos {CHART_CHANGES} cambios"


async def test_the_svg_in_english_and_spanish_escapes_names(
    db: Database, shipped_catalogs: None
) -> None:
    async with Store.open(db.url) as store:
        await store.apply(CH, GUILD, GM, "test seed", _party)
        await store.apply(CH, GUILD, GM, "rest short", _rest("short"))
        await store.apply(CH, GUILD, GM, "fatigue spend", _spend("Aria", 25))
        series = await _series(store)
        table = await store.read(CH, GUILD)
        events = await store.history(CH, CHART_CHANGES)
    with speaking(None):
        laid = chart(series)
    # Every point inside the plot (names at its right edge), one rest span, a trace each.
    points = [
        (float(x), float(y))
        for trace in laid.traces
        for run in trace.runs
        for x, y in re.findall(r"([\d.]+),([\d.]+)", run)
    ]
    assert points and all(LEFT <= x <= RIGHT and TOP <= y <= BOTTOM for x, y in points)
    assert [r.title for r in laid.rests] == ["Short Rest"] and laid.rests[0].width > 0
    assert [t.name for t in laid.traces] == ["Aria", "Bo <b>&amp;"]
    assert laid.bands[0].name == "Fresh" and laid.ticks[0].day == "Day 1"
    english = fragment(table, events, series, None)
    spanish = fragment(table, events, series, "es-ES")
    assert "Fatigue over game time" in english and "this evening&#39;s play" in english
    assert "Fatiga a lo largo del tiempo de juego" in spanish and "Descansado" in spanish
    assert "Bo &lt;b&gt;&amp;amp;" in english and "<b>" not in english
    assert 'style="' not in english  # colours come from page.css's classes (the CSP)
    fp = table.get("Aria").fatigue.fp
    assert 20 < fp < 40 and f"Aria Fatigued ({fp}/100 FP)" in english  # the chart in words


def test_many_changes_at_one_time_are_one_stroke() -> None:
    table = Table(CH, GUILD, characters=(Character("Aria", GM, fl_override=Fraction(20)),))
    series = page_series(table, [])
    assert series is not None
    steps = tuple(
        type(series.lines[0].steps[0])(0, fp, 0, 20) for fp in range(0, 100)
    )  # 100 spends at one game time
    line = type(series.lines[0])("Aria", steps)
    laid = chart(type(series)((line,), (), 0, 0, "long_rest", 100))
    assert len(laid.traces[0].runs[0].split()) <= 3
