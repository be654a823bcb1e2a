"""render.importing: what an import's reply says of the rolls it brought, and of those it left
out past the roll log's bound, in English and in Spanish."""

from __future__ import annotations

import pytest

import lang
from render.importing import imported_text
from table.model import Table

pytestmark = pytest.mark.usefixtures("shipped_catalogs")


def test_the_rolls_an_import_brought_and_left_out_are_counted() -> None:
    text = imported_text(Table(1, 2), 4, False, 0, 100, 50)
    assert text.endswith(
        "And 100 rolls of its dice. The file's 50 older rolls were left out: the roll log keeps"
        " 100 a channel."
    )
    assert "roll" not in imported_text(Table(1, 2), 4, False)  # a file without a roll log
    with lang.speaking("es-ES"):
        spanish = imported_text(Table(1, 2), 4, False, 0, 1_000, 1)
    assert spanish.endswith(
        "Y 1000 tiradas de sus dados. Se dejó fuera 1 tirada más antigua del archivo: el"
        " registro de tiradas guarda 1000 por canal."
    )
