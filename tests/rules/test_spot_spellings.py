"""Spots and compass points typed in any installed language (docs/rules.md#47-partial-armor)."""

from __future__ import annotations

import pytest

from lang import speaking
from lang.spellings import every_spelling
from rules._defense_facing import _LONG_NAMES, FACINGS, SPOTS, _key, compass
from rules.defense import facing_text, relative_spot, spot_key, spot_text
from rules.errors import RulesError

pytestmark = pytest.mark.usefixtures("shipped_catalogs")


@pytest.mark.parametrize(
    ("typed", "facing"),
    [
        ("W", "W"),
        ("o", "W"),
        ("Oeste", "W"),
        ("west", "W"),
        ("so", "SW"),
        ("NO", "NW"),
        ("nor-oeste", "NW"),
        ("Sureste", "SE"),
        ("e", "E"),
        ("Este", "E"),
        ("north-east", "NE"),
    ],
)
def test_compass_in_either_language(typed: str, facing: str) -> None:
    assert compass(typed) == facing


@pytest.mark.parametrize(
    ("typed", "spot"),
    [
        ("espalda", "back"),
        ("Espalda Izquierda", "back-left"),
        ("espalda_derecha", "back-right"),
        ("flanco izquierdo", "left"),
        ("FRENTE", "front"),
        ("back-left", "back-left"),
    ],
)
def test_a_spot_in_either_language(typed: str, spot: str) -> None:
    assert spot_key(typed) == spot


def test_a_square_in_either_language() -> None:
    assert relative_spot("O", "este") == relative_spot("W", "E") == "back"


def test_shown_in_the_readers_language() -> None:
    with speaking("es-ES"):
        assert [facing_text(f) for f in FACINGS] == ["N", "NE", "E", "SE", "S", "SO", "O", "NO"]
        assert spot_text("back-left") == "espalda izquierda"
        with pytest.raises(RulesError, match="elige N, NE, E, SE, S, SO, O, NO"):
            compass("x")
    assert facing_text("W") == "W" and spot_text("back-left") == "back-left"


def test_no_spelling_names_two_things() -> None:
    """Each name a user may type, in any language, picks out one spot or one compass point."""
    compass_names = {**{f: f for f in FACINGS}, **_LONG_NAMES}
    for keys, joiner in ((compass_names, ""), ({s: s for s in SPOTS}, "-")):
        seen: dict[str, str] = {}
        for name, key in keys.items():
            for spelling in every_spelling(name):
                assert seen.setdefault(_key(spelling, joiner), key) == key, spelling
    assert len(every_spelling("W")) > 1  # the catalogs are installed: Spanish is checked too
