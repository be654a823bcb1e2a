"""What every picture shares: a figure on the Agg canvas, the bundled fonts, the colours, and
the PNG it becomes. Sized to be read on a phone, where Discord shows an image about 400 pixels
wide: few words, large type."""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import matplotlib
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties

from pictures.layout import spread

DPI = 125
WIDTH, HEIGHT = 8.0, 5.0  # inches: 1000 × 625 pixels
BASE = 15  # points: about 26 pixels, about 10 on a phone's screen
INK = "#1f2328"  # text and axes
MUTED = "#59636e"  # secondary text
GRID = "#d0d7de"
BACKGROUND = "#ffffff"

# The fatigue bands' colours, Fresh to Shattered: the ones `/party show` uses
# (`render.common.BAND_COLOURS`; a test keeps the two the same).
BAND_HEX = ("#2ecc71", "#f1c40f", "#e67e22", "#e74c3c", "#71368a")
# Lines drawn over the bands: dark, told apart by hue and by marker, never a band's colour.
LINE_COLOURS = (
    "#1d4ed8",  # blue
    "#111827",  # near black
    "#be185d",  # magenta
    "#0f766e",  # teal
    "#92400e",  # brown
    "#6d28d9",  # violet
    "#0369a1",  # sky
    "#4b5563",  # grey
    "#b91c1c",  # dark red
    "#3f6212",  # olive
)
MARKERS = ("o", "s", "D", "^", "v", "P", "X", "h", "<", ">")


@lru_cache(maxsize=2)
def _font_file(bold: bool) -> str:
    """The path of the regular or the bold font file: 2 kept, one each."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return str(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / name)


def font(size: float = BASE, bold: bool = False) -> FontProperties:
    """The bundled DejaVu Sans (by file: a host's own fonts never stand in)."""
    return FontProperties(fname=_font_file(bold), size=size)


def figure(width: float = WIDTH, height: float = HEIGHT) -> Figure:
    """A new figure with its own Agg canvas: nothing global, safe in any thread."""
    fig = Figure(figsize=(width, height), dpi=DPI, facecolor=BACKGROUND)
    FigureCanvasAgg(fig)
    return fig


def png(fig: Figure) -> bytes:
    """The figure as PNG bytes, the same for the same figure (no date or version inside)."""
    out = io.BytesIO()
    fig.savefig(
        out,
        format="png",
        dpi=DPI,
        facecolor=BACKGROUND,
        metadata={"Software": None},
        pil_kwargs={"compress_level": 1},  # a fifth of the default's time, a third larger
    )
    return out.getvalue()


def plain(text: str) -> str:
    """A name or label shown as written: `$` would otherwise start matplotlib's math."""
    return text.replace("$", r"\$")


def edge_names(
    ax: Axes, named: Sequence[tuple[str, float, str]], gap: float, low: float, high: float
) -> None:
    """Each (name, height in data, colour) at the right edge beside where its line ends,
    moved apart so that none overlap, with a thin leader to its line: no legend to decode."""
    order = sorted(range(len(named)), key=lambda i: named[i][1])
    heights = spread([named[i][1] for i in order], gap, low, high)
    for i, y in zip(order, heights, strict=True):
        name, end, colour = named[i]
        # A leader from the line's end to its name (a plain line: an arrow costs far more).
        ax.plot(
            [1, 1.012],
            [end, y],
            transform=ax.get_yaxis_transform(),
            color=GRID,
            linewidth=1,
            clip_on=False,
        )
        ax.text(
            1.015,
            y,
            name,
            transform=ax.get_yaxis_transform(),
            va="center",
            ha="left",
            color=colour,
            fontproperties=font(BASE - 1, bold=True),
        )
