"""The monster from above (`/monster show`, `/monster face`): its square in the middle with an
arrow where it faces, the eight squares around it, and in gold the squares from which a hit
meets an unarmored spot (half Defense). A hidden spot is drawn hatched, in the GM's copy only;
the numbers (Defense, HP) only where the reader may see them, else how hurt it looks."""

from __future__ import annotations

import math

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrow, Rectangle
from matplotlib.text import Text

from lang import _
from pictures import Picture
from pictures._canvas import BASE, GRID, INK, MUTED, figure, font, plain, png
from pictures.words import monster_alt
from rules.defense import FACINGS, facing_text
from table.monster_view import MonsterView, Square

FILENAME = "monster.png"
SPOT_ROOM = 0.8  # of a square's 0.92 across: what a spot's name may fill (its box: the rest)
OPEN = "#fbbf24"  # gold: half Defense from here
OPEN_EDGE = "#b45309"
ARMORED = "#eef1f4"
TOKEN = "#374151"
# Where each compass square sits on the 3 × 3 board (column, row from the bottom).
PLACES = {
    "N": (1, 2),
    "NE": (2, 2),
    "E": (2, 1),
    "SE": (2, 0),
    "S": (1, 0),
    "SW": (0, 0),
    "W": (0, 1),
    "NW": (0, 2),
}


def _fit(ax: Axes, text: Text, room: float, wrap: bool = True) -> None:
    """Keep `text` within `room` of the board's units across: first (with `wrap`) on two
    lines, split at the space or hyphen nearest its middle (`espalda izquierda`), then in a
    smaller size, as measured by the renderer that draws it."""
    renderer = ax.get_figure().canvas.get_renderer()  # type: ignore[union-attr]
    per_unit = ax.transData.transform((1, 0))[0] - ax.transData.transform((0, 0))[0]

    def width() -> float:  # the words alone: their box is laid out only as they are drawn
        return float(text.get_window_extent(renderer).width) / per_unit

    words = text.get_text()
    if width() <= room:
        return
    breaks = [i for i, c in enumerate(words) if c in " -"] if wrap else []
    if breaks:
        at = min(breaks, key=lambda i: abs(i - len(words) / 2))
        head = words[: at + 1] if words[at] == "-" else words[:at]  # a hyphen stays
        text.set_text(f"{head}\n{words[at + 1 :]}")
    size = float(text.get_fontsize())
    while width() > room and size > 8:
        size -= 1
        text.set_fontsize(size)


def _square(ax: Axes, square: Square, half: int | None) -> None:
    col, row = PLACES[square.compass]
    fill = OPEN if square.unarmored else ARMORED
    ax.add_patch(
        Rectangle(
            (col + 0.04, row + 0.04),
            0.92,
            0.92,
            facecolor=fill,
            edgecolor=OPEN_EDGE if square.unarmored else GRID,
            linewidth=3 if square.unarmored else 1.5,
            hatch="//" if square.hidden else None,
            zorder=1,
        )
    )
    ax.text(
        col + 0.5,
        row + 0.8,
        facing_text(square.compass),
        ha="center",
        va="center",
        color=INK,
        fontproperties=font(BASE + 3, bold=True),
        zorder=3,
    )
    spot = ax.text(
        col + 0.5,
        row + 0.6,
        _(square.spot),
        ha="center",
        va="center",
        color=INK,
        fontproperties=font(BASE - 1),
        bbox={"boxstyle": "round,pad=0.15", "fc": fill, "ec": "none"},
        zorder=3,
    )
    _fit(ax, spot, SPOT_ROOM)
    if "\n" in spot.get_text():  # on two lines: a little lower, clear of the compass point
        spot.set_y(row + 0.55)
    if not square.unarmored:
        return
    words = [_("½ Defense") if half is None else _("½ Defense: {half}", half=half)]
    if square.hard_to_hit:
        words.append(_("−2 to hit"))
    if square.hidden:
        words.append(_("hidden"))
    note = ax.text(
        col + 0.5,
        row + 0.28,
        "\n".join(words),
        ha="center",
        va="center",
        color=INK,
        fontproperties=font(BASE - 2, bold=True),
        linespacing=1.25,
        zorder=3,
        bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none", "alpha": 0.8},
    )
    _fit(ax, note, SPOT_ROOM, wrap=False)


def _token(ax: Axes, view: MonsterView) -> None:
    """The monster in its square, an arrow to where it faces."""
    ax.add_patch(
        Rectangle(
            (1.04, 1.04), 0.92, 0.92, facecolor="white", edgecolor=INK, linewidth=2.5, zorder=1
        )
    )
    ax.add_patch(
        Circle((1.5, 1.5), 0.24, facecolor=TOKEN, edgecolor="white", linewidth=2, zorder=2)
    )
    turn = math.radians(45 * FACINGS.index(view.facing))
    dx, dy = math.sin(turn), math.cos(turn)
    reach = 0.44 if view.facing in ("N", "E", "S", "W") else 0.5  # to the square's edge
    ax.add_patch(
        FancyArrow(
            1.5,
            1.5,
            reach * dx,
            reach * dy,
            width=0.06,
            head_width=0.2,
            head_length=0.15,
            length_includes_head=True,
            color=OPEN_EDGE,
            zorder=3,
        )
    )
    name = plain(view.name if len(view.name) <= 14 else view.name[:13] + "…")
    # On the side the arrow doesn't go: below it, or above it when it points south.
    below = dy >= 0
    shown = ax.text(
        1.5,
        1.1 if below else 1.9,
        name,
        ha="center",
        va="bottom" if below else "top",
        color=INK,
        fontproperties=font(BASE - 2, bold=True),
        zorder=4,
    )
    _fit(ax, shown, SPOT_ROOM, wrap=False)


def draw_monster(view: MonsterView) -> Picture:
    return Picture(FILENAME, png(board(view)), monster_alt(view))


def board(view: MonsterView) -> Figure:
    """The picture before it becomes a PNG (its texts and patches, for the tests to measure)."""
    fig = figure(6.4, 7.2)
    ax = fig.add_axes((0.04, 0.03, 0.92, 0.8))
    ax.set_xlim(0, 3)
    ax.set_ylim(0, 3)
    ax.set_aspect("equal")
    ax.axis("off")
    for square in view.squares:
        _square(ax, square, view.half)
    _token(ax, view)
    fig.text(
        0.04,
        0.975,
        _("{name} from above", name=plain(view.name)),
        ha="left",
        va="top",
        color=INK,
        fontproperties=font(BASE + 5, bold=True),
    )
    facts = [_("Facing {facing}", facing=facing_text(view.facing))]
    if view.defense is not None:
        facts.append(_("Defense {defense}", defense=view.defense))
    if view.hp is not None and view.hp_max is not None:
        facts.append(f"HP {view.hp}/{view.hp_max}")
    elif view.wounds is not None:
        facts.append(_(view.wounds))
    fig.text(
        0.04, 0.915, " · ".join(facts), ha="left", va="top", color=MUTED, fontproperties=font(BASE)
    )
    if view.hidden_left_out:
        note = _("+ hidden unarmored spots: {count}", count=view.hidden_left_out)
        fig.text(0.04, 0.87, note, ha="left", va="top", color=MUTED, fontproperties=font(BASE - 2))
    return fig
