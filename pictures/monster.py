"""The monster from above (`/monster show`, `/monster face`): its square in the middle with an
arrow where it faces, the eight squares around it, and in gold the squares from which a hit
meets an unarmored spot (half Defense). A hidden spot is drawn hatched, in the GM's copy only;
the numbers (Defense, HP) only where the reader may see them, else how hurt it looks."""

from __future__ import annotations

import math

from matplotlib.axes import Axes
from matplotlib.patches import Circle, FancyArrow, Rectangle

from lang import _
from pictures import Picture
from pictures._canvas import BASE, GRID, INK, MUTED, figure, font, plain, png
from pictures.words import monster_alt
from rules.defense import FACINGS, facing_text
from table.monster_view import MonsterView, Square

FILENAME = "monster.png"
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
    ax.text(
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
    if not square.unarmored:
        return
    words = [_("½ Defense") if half is None else _("½ Defense: {half}", half=half)]
    if square.hard_to_hit:
        words.append(_("−2 to hit"))
    if square.hidden:
        words.append(_("hidden"))
    ax.text(
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
    ax.text(
        1.5,
        1.1,
        name,
        ha="center",
        va="bottom",
        color=INK,
        fontproperties=font(BASE - 2, bold=True),
        zorder=4,
    )


def draw_monster(view: MonsterView) -> Picture:
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
    return Picture(FILENAME, png(fig), monster_alt(view))
