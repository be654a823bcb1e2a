"""The dice's report as a picture (pictures.dice): a whole PNG for an evening, for d100s with no
save and for a long party, with alt text that says each character's verdict, in the reader's
language; drawn in the painter's worker from the rows as read, as `/dice report` asks."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterator
from dataclasses import replace

import pytest
from PIL import Image

from docs.examples import _WHEN, evening_rolls
from lang import speaking
from pictures import ALT_MAX
from pictures.dice import draw_dice
from pictures.painter import Job, Painter, Recipe
from store.roll_log import ROLL_COLUMNS, ReportRows, report_of, roll_values
from table.dice_report import ALL, EVENING, dice_report


@pytest.fixture(autouse=True)
def catalogs(shipped_catalogs: None) -> Iterator[None]:
    yield


def whole(png: bytes) -> Image.Image:
    Image.open(io.BytesIO(png)).verify()
    shown = Image.open(io.BytesIO(png))
    assert shown.format == "PNG" and shown.width >= 750 and shown.height >= 600
    return shown


def test_an_evening_with_each_characters_verdict_in_words() -> None:
    report = dice_report(evening_rolls(), EVENING, _WHEN)
    picture = draw_dice(report)
    whole(picture.png)
    assert picture.filename == "dice.png"
    assert picture.alt.startswith("The table's dice, this evening. 23 of 48 saves succeeded")
    assert "Cael: Unlucky (" in picture.alt and "72 first d100s, as flat" in picture.alt
    with speaking("es-ES"):
        spanish = draw_dice(report)
    assert spanish.alt.startswith("Los dados de la mesa, esta noche. 23 de 48 salvaciones")
    assert spanish.png != picture.png


def test_d100s_without_a_save_and_a_long_party() -> None:
    d100s = [r for r in evening_rolls() if not r.rolled.is_save]
    picture = draw_dice(dice_report(d100s, ALL))
    whole(picture.png)
    assert "saves succeeded" not in picture.alt and "24 first d100s" in picture.alt
    many = [
        replace(r, rolled=replace(r.rolled, character=f"Adventurer number {i}"))
        for i, r in enumerate(evening_rolls())
    ]
    long = draw_dice(dice_report(many, ALL))
    assert len(long.alt) <= ALT_MAX and long.alt.endswith("…")


def test_drawn_in_the_worker_from_the_rows_as_read() -> None:
    rolls = evening_rolls()
    rows = ReportRows([roll_values(r) for r in rolls], EVENING, _WHEN, None, False)
    assert len(rows.values[0]) == len(ROLL_COLUMNS)
    painter = Painter(threads=True)
    try:
        job = Job("dice", Recipe(report_of, (rows,)), "en-US")
        report, picture = asyncio.run(painter.paint(job))
    finally:
        painter.close()
    assert report == dice_report(rolls, EVENING, _WHEN)
    assert picture.png == draw_dice(report).png
