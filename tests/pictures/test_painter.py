"""The painter's part in keeping the bot's event loop free: a series built from a Recipe in the
worker process (errors and words as the reader would have them), only what is kept of it sent
back, the worker at a lower priority than the bot, and no matplotlib in the bot's process."""

from __future__ import annotations

import ast
import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from docs.examples import random_session
from pictures.fatigue import draw_fatigue
from pictures.painter import NICE, Job, Painter, Recipe
from rules.errors import RulesError
from table.fatigue_series import SINCE_ALL, FatigueSeries, Start, fatigue_series
from table.model import Character, Table

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def painter() -> Iterator[Painter]:
    painter = Painter()
    painter.warm()
    yield painter
    painter.close()


def test_a_recipe_is_built_and_drawn_in_the_worker(painter: Painter) -> None:
    session = random_session(4, 60)
    args = (session.table, session.newest_first(), Start(0), SINCE_ALL)
    job = Job("fatigue", Recipe(fatigue_series, args, FatigueSeries.as_now), None)
    kept, picture = asyncio.run(painter.paint(job))
    whole = fatigue_series(*args)
    assert picture == draw_fatigue(whole)  # the same picture as drawn from the series here
    assert kept == whole.as_now() and kept != whole
    assert [line.now for line in kept.lines] == [line.now for line in whole.lines]
    assert all(len(line.steps) == 1 for line in kept.lines) and not kept.rests


def test_a_series_the_worker_cannot_build_is_refused_in_the_readers_language(
    painter: Painter, shipped_catalogs: None
) -> None:
    nobody = Table(1, 2, characters=(Character("Bree", 5),))  # no Fatigue Level
    recipe = Recipe(fatigue_series, (nobody, [], Start(0), SINCE_ALL))
    with pytest.raises(RulesError, match="Aquí nadie tiene todavía Nivel de Fatiga"):
        asyncio.run(painter.paint(Job("fatigue", recipe, "es-ES")))
    with pytest.raises(RulesError, match="Nobody here has a Fatigue Level"):
        asyncio.run(painter.paint(Job("fatigue", recipe, None)))


def test_the_worker_runs_below_the_bot(painter: Painter) -> None:
    pool = painter._pool
    assert isinstance(pool, ProcessPoolExecutor)
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    for pid in pool._processes or {}:
        assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, mine + NICE)


def test_starting_the_bot_imports_no_drawing() -> None:
    code = (
        "import importlib, sys; from bot.client import COGS, Tablekeeper; "
        "[importlib.import_module(c) for c in COGS]; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'matplotlib', 'PIL', 'numpy'})); "
        "print(sorted(m for m in sys.modules if m.startswith('pictures.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    drawing, pictures = out.stdout.splitlines()
    assert drawing == "[]"
    # The painter, and what the web page's chart shares with the pictures (words, the clock's
    # ticks, labels' spacing): no module that draws.
    shared = ["pictures.clock", "pictures.layout", "pictures.words", "pictures.painter"]
    assert set(ast.literal_eval(pictures)) <= set(shared), pictures
