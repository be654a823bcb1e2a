"""Facing and partial armor: naming an adjacent square relative to the monster's facing."""

from __future__ import annotations

from lang import N_, _

from rules.errors import RulesError

# Both lists run clockwise, so a square's offset from the facing picks the spot.
FACINGS: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
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
    "north": "N",
    "northeast": "NE",
    "east": "E",
    "southeast": "SE",
    "south": "S",
    "southwest": "SW",
    "west": "W",
    "northwest": "NW",
}


def compass(direction: object, what: str = N_("direction")) -> str:
    """A compass point as one of FACINGS ('ne', 'North-East' and 'northeast' are accepted);
    `what` (a marked message) names it in the error."""
    if isinstance(direction, str):
        key = direction.strip().replace("-", "").replace(" ", "").replace("_", "")
        name = _LONG_NAMES.get(key.lower(), key.upper())
        if name in FACINGS:
            return name
    raise RulesError(
        _(
            "Unknown {what} '{value}': choose {choices}",
            what=_(what),
            value=direction,
            choices=", ".join(FACINGS),
        )
    )


def spot_name(spot: object) -> str:
    """A spot as one of SPOTS ('Back Left' and 'back_left' are accepted)."""
    if isinstance(spot, str):
        name = "-".join(spot.strip().lower().replace("_", " ").replace("-", " ").split())
        if name in SPOTS:
            return name
    raise RulesError(
        _("Unknown spot '{spot}': choose {choices}", spot=spot, choices=", ".join(SPOTS))
    )


def relative_spot(facing: str, from_square: str) -> str:
    """Which spot of a monster facing `facing` the adjacent compass square `from_square` is.

    A monster facing E has its front at square E, its back at W and its front-left at NE.
    """
    square, faces = compass(from_square, N_("square")), compass(facing, N_("facing"))
    turn = FACINGS.index(square) - FACINGS.index(faces)
    return SPOTS[turn % len(SPOTS)]
