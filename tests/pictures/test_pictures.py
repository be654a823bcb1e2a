"""The pictures themselves: whole PNGs of a readable size, the same bytes for the same series on
any worker, words in the reader's language, the bands in `/party show`'s colours, and alt text
that says what the picture shows."""

from __future__ import annotations

import asyncio
import io
import os
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from matplotlib.patches import FancyArrow, Rectangle
from PIL import Image

from docs.examples import evening, examples, party, random_session, troll
from lang import speaking
from pictures import ALT_MAX, Picture
from pictures._canvas import BAND_HEX
from pictures.fatigue import chart_figure, draw_fatigue
from pictures.monster import board, draw_monster
from pictures.painter import Job, Painter, draw
from render.common import BAND_COLOURS
from rules.defense import FACINGS, SPOTS
from rules.fatigue import BANDS
from table.fatigue_series import SINCE_ALL, Start, fatigue_series
from table.monster import Monster
from table.monster_view import monster_view
from table.settings import DEFAULT_SETTINGS
from table.sight import GM_ALONE, channel_sight


@pytest.fixture
def catalogs(shipped_catalogs: None) -> Iterator[None]:
    yield


def image(picture: Picture) -> Image.Image:
    checked = Image.open(io.BytesIO(picture.png))
    checked.verify()
    return Image.open(io.BytesIO(picture.png))


def test_each_example_is_a_whole_png_with_alt_text() -> None:
    for name, picture in examples().items():
        shown = image(picture)
        assert shown.format == "PNG" and shown.width >= 750 and shown.height >= 600, name
        assert 0 < len(picture.alt) <= ALT_MAX
    again = examples()
    assert {n: p.png for n, p in again.items()} == {n: p.png for n, p in examples().items()}


def test_the_bands_are_the_boards_colours() -> None:
    assert [f"#{BAND_COLOURS[band].value:06x}" for band in BANDS] == list(BAND_HEX)


def test_the_alt_text_says_who_is_where_now() -> None:
    session = evening()
    series = fatigue_series(session.table, session.newest_first(), Start(0), SINCE_ALL)
    alt = draw_fatigue(series).alt
    for character in session.table.characters:
        assert character.name in alt
    assert "Short Rest at Day 1, 17:30" in alt and "VP damage taken: Dara at" in alt


def test_a_name_is_drawn_as_written() -> None:
    table = party(2)  # a `$` would start matplotlib's math: here it is only a letter
    table = table.without("Aria").with_character(replace(table.get("Aria"), name="Mage $^$"))
    series = fatigue_series(table, [], Start(0), SINCE_ALL)
    assert "Mage $^$" in draw_fatigue(series).alt  # drawn without error, as written
    image(draw_fatigue(series))


def test_words_follow_the_readers_language(catalogs: None) -> None:
    with speaking("es-ES"):
        picture = draw_monster(monster_view(troll(), GM_ALONE))
    assert "desde arriba" in picture.alt and "oculto" in picture.alt
    english = draw_monster(monster_view(troll(), GM_ALONE))
    assert english.png != picture.png


@pytest.mark.parametrize("threads", [True, False])
def test_a_painter_draws_off_the_loop_the_same_picture(threads: bool, catalogs: None) -> None:
    job = Job("monster", monster_view(troll(), channel_sight(DEFAULT_SETTINGS)), "es-ES")
    painter = Painter(threads=threads)
    try:
        drawn = asyncio.run(painter.draw(job))
    finally:
        painter.close()
    assert drawn == draw(job)
    assert "Puntos sin armadura ocultos que no se muestran: 1." in drawn.alt


def test_a_worker_process_is_replaced_after_its_bound_of_pictures() -> None:
    """Whatever matplotlib keeps in a worker lives no longer than PICTURES_PER_WORKER."""
    painter = Painter(pictures_per_worker=2)
    try:
        pool = painter._executor()
        workers = [pool.submit(os.getpid).result(timeout=60) for _ in range(3)]
    finally:
        painter.close()
    assert workers[0] == workers[1] != workers[2]
    assert os.getpid() not in workers


def test_a_party_of_ten_fits() -> None:
    session = random_session(10, 300)
    series = fatigue_series(session.table, session.newest_first(), Start(0), SINCE_ALL)
    picture = draw_fatigue(series)
    assert len(series.lines) == 10 and all(c.name in picture.alt for c in party(10).characters)
    image(picture)


def _extent(artist: Any, fig: Any) -> Any:
    return artist.get_window_extent(fig.canvas.get_renderer())


@pytest.mark.parametrize("language", [None, "es-ES"])
def test_every_word_on_the_monster_fits_its_square_and_the_arrow_misses_the_name(
    language: str | None, catalogs: None
) -> None:
    """Each spot's name (Spanish ones are long: `espalda izquierda`), the compass point and the
    half-Defense note stay inside their square; the facing arrow never crosses the name."""
    every = [{"spot": s, "hard_to_hit": True} for s in SPOTS]
    for name in ("Troll", "Bridge Ogre Chieftain"):
        for facing in FACINGS:
            monster = Monster(name, {"rank": 3, "armor": "heavy", "spots": every}, facing=facing)
            with speaking(language):
                fig = board(monster_view(monster, GM_ALONE))
            (ax,) = fig.axes
            squares = [_extent(p, fig) for p in ax.patches if isinstance(p, Rectangle)]
            margin = 0.04 * squares[0].width  # room for the words' own box inside the square
            for text in ax.texts:
                box = _extent(text, fig)
                middle = ((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2)
                square = next(q for q in squares if q.contains(*middle))
                inside = square.x0 + margin <= box.x0 and box.x1 <= square.x1 - margin
                assert inside and square.y0 <= box.y0 and box.y1 <= square.y1, text.get_text()
            (arrow,) = [p for p in ax.patches if isinstance(p, FancyArrow)]
            shown = next(t for t in ax.texts if t.get_zorder() == 4)  # the name
            assert not _extent(arrow, fig).overlaps(_extent(shown, fig)), (name, facing)


def test_rest_names_sit_above_the_plot_never_on_a_line() -> None:
    """Each rest's name is written above the plot, over the span or line it names: never on
    that line, nor on a character's."""
    session = evening()
    series = fatigue_series(session.table, session.newest_first(), Start(0), SINCE_ALL)
    fig = chart_figure(series)
    ax = fig.axes[0]
    plot = _extent(ax, fig)
    named = [t for t in ax.texts if t.get_text().startswith(("Short Rest", "Break", "Long Rest"))]
    assert named, [t.get_text() for t in ax.texts]
    for text in named:
        assert _extent(text, fig).y0 >= plot.y1, text.get_text()
