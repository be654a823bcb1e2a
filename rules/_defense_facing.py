"""Facing and partial armor: naming an adjacent square relative to the monster's facing.

Compass points and spots are kept as English keys (`W`, `back-left`); a reader sees them in
their own language (`O`, `espalda izquierda`), and either language's name is accepted as typed.
"""

from __future__ import annotations

import unicodedata

from lang import N_, _
from lang.spellings import every_spelling

from rules.errors import RulesError

# Both lists run clockwise, so a square's offset from the facing picks the spot. Marked, since
# a reader sees them translated (Spanish writes west as O, for oeste).
FACINGS: tuple[str, ...] = (
    N_("N"),
    N_("NE"),
    N_("E"),
    N_("SE"),
    N_("S"),
    N_("SW"),
    N_("W"),
    N_("NW"),
)
SPOTS: tuple[str, ...] = (
    "front",
    "front-right",
    "right",
    "back-right",
    "back",
    "back-left",
    "left",
    "front-left",
)
HARD_TO_HIT = N_("Hard to Hit: −2 to hit")  # English: show it through `_()`

_LONG_NAMES = {
    N_("north"): "N",
    N_("northeast"): "NE",
    N_("east"): "E",
    N_("southeast"): "SE",
    N_("south"): "S",
    N_("southwest"): "SW",
    N_("west"): "W",
    N_("northwest"): "NW",
}


def _key(text: str, joiner: str) -> str:
    """Lower case, accents dropped, words joined by `joiner`: 'Espalda  Izquierda' and
    'espalda_izquierda' are both 'espalda-izquierda'."""
    bare = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(c for c in bare if not unicodedata.combining(c))
    return joiner.join(bare.replace("_", " ").replace("-", " ").split())


def _names(keys: dict[str, str], joiner: str) -> dict[str, str]:
    """Every spelling of each name, in every installed language, to the key it names."""
    return {
        _key(spelling, joiner): key
        for name, key in keys.items()
        for spelling in every_spelling(name)
    }


def facing_text(facing: str) -> str:
    """A compass point (one of FACINGS) as the reader writes it."""
    return _(facing)


def spot_text(spot: str) -> str:
    """A spot (one of SPOTS) as the reader writes it."""
    return _(spot)


def compass(direction: object, what: str = N_("direction")) -> str:
    """A compass point as one of FACINGS ('ne', 'North-East', 'northeast', and each in any
    installed language: 'O', 'oeste'); `what` (a marked message) names it in the error."""
    if direction in FACINGS:  # as stored: no lookup
        return str(direction)
    if isinstance(direction, str):
        names = _names({**{f: f for f in FACINGS}, **_LONG_NAMES}, "")
        found = names.get(_key(direction, ""))
        if found is not None:
            return found
    raise RulesError(
        _(
            "Unknown {what} '{value}': choose {choices}",
            what=_(what),
            value=direction,
            choices=", ".join(facing_text(f) for f in FACINGS),
        )
    )


def spot_key(spot: str) -> str | None:
    """The spot (one of SPOTS) that `spot` names in any installed language, or None."""
    return _names({s: s for s in SPOTS}, "-").get(_key(spot, "-"))


def spot_name(spot: object) -> str:
    """A spot as one of SPOTS ('Back Left', 'back_left' and 'espalda izquierda' are accepted)."""
    if spot in SPOTS:  # as stored: no lookup
        return str(spot)
    if isinstance(spot, str):
        found = spot_key(spot)
        if found is not None:
            return found
    raise RulesError(
        _(
            "Unknown spot '{spot}': choose {choices}",
            spot=spot,
            choices=", ".join(spot_text(s) for s in SPOTS),
        )
    )


def relative_spot(facing: str, from_square: str) -> str:
    """Which spot of a monster facing `facing` the adjacent compass square `from_square` is.

    A monster facing E has its front at square E, its back at W and its front-left at NE.
    """
    square, faces = compass(from_square, N_("square")), compass(facing, N_("facing"))
    turn = FACINGS.index(square) - FACINGS.index(faces)
    return SPOTS[turn % len(SPOTS)]
