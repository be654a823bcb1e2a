"""Draws docs/layers.png, the picture of the layers, from pyproject.toml's [tool.importlinter].

    python docs/layers.py [OUT.png]

The layers, their order and what each may not import come from the contracts `lint-imports`
checks, so the picture shows what the code is held to; only each folder's one-line job is
written here. The contracts it was drawn from are kept in the PNG (its "Contracts" text), and
tests/test_docs.py fails when they differ from pyproject.toml's: redraw then.
Drawn with matplotlib (a dependency of the bot's pictures) on its Figure with the Agg canvas and
the fonts it bundles, so the picture is the same on any machine.
"""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

ROOT = Path(__file__).resolve().parents[1]
OUT = Path(__file__).resolve().parent / "layers.png"

# Each folder's job, in a few words: the one thing the contracts can't say.
JOBS = {
    "cogs": "the commands, one module per group:\nparse options, check who may, reply",
    "bot": "the Discord process: client, command tree and its error\n"
    "handler, acknowledgement, settings, health, metrics, CLI tools",
    "web": "the table's live web page:\nits own server, templates, events",
    "exports": "the export file: written and signed,\nread back, checked, upgraded",
    "render": "Discord embeds and views\nfrom the table's state",
    "pictures": "charts as PNG and alt text,\ndrawn off the event loop",
    "store": "SQLite and PostgreSQL, one\ntransaction per change, the log",
    "table": "a channel's table (characters, monsters, settings, clock)\n"
    "and the operations a command runs on it",
    "rules": "the game's rules, a pure library:\ndice, saves, fatigue, defense",
    "lang": "the words, in the reader's language\n(gettext catalogs)",
}
# What a forbidden module stands for, so the picture says "no Discord" rather than a list.
KINDS = {
    "discord": "Discord",
    "aiohttp": "Discord",
    "aiosqlite": "database",
    "asyncpg": "database",
    "sqlite3": "database",
    "babel": "Babel",
}
# One colour per layer, top to bottom (light fills, darker edges of the same hue).
FILLS = ["#dbe9f6", "#d9ecf0", "#dcefe2", "#eef0d8", "#f6e9d6", "#f3dede", "#e9e1f2"]
EDGES = ["#4a7fb5", "#3f8f9c", "#4f9a66", "#8d9441", "#b98a45", "#b45f5f", "#7d62a8"]


def contracts(pyproject: Path = ROOT / "pyproject.toml") -> dict[str, Any]:
    return tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["importlinter"]


def fingerprint(config: dict[str, Any]) -> str:
    """The contracts as one line of ASCII text, kept in the PNG to tell when it is out of date."""
    return json.dumps(config["contracts"], sort_keys=True, ensure_ascii=True)


def layers(config: dict[str, Any]) -> list[list[str]]:
    """The layers contract's rows, top first: ["cogs"], ["bot"], ["render", "store"], …"""
    (stack,) = [c["layers"] for c in config["contracts"] if c["type"] == "layers"]
    return [[name.strip() for name in row.split("|")] for row in stack]


def refusals(config: dict[str, Any]) -> dict[str, str]:
    """Per package, what its forbidden contracts keep out: "no Discord, no database"."""
    kept_out: dict[str, dict[str, None]] = {}  # a dict keeps the order, once each
    allowed: dict[str, list[str]] = {}
    for contract in (c for c in config["contracts"] if c["type"] == "forbidden"):
        kinds = dict.fromkeys(KINDS.get(m, m) for m in contract["forbidden_modules"])
        # "lang.catalogs -> babel": lang.catalogs may use Babel; a module's several exceptions
        # in one package ("web.words -> render.history", …) read as one: web.words may use render
        used: dict[str, dict[str, None]] = {}
        for source, _, target in (r.partition(" -> ") for r in contract.get("ignore_imports", [])):
            top = target.split(".")[0]
            used.setdefault(source, {})[KINDS.get(top, top)] = None
        exceptions = [f"{source} may use {', '.join(ts)}" for source, ts in used.items()]
        for package in contract["source_modules"]:
            kept_out.setdefault(package, {}).update(kinds)
            allowed.setdefault(package, []).extend(exceptions)
    said = {package: "no " + ", no ".join(kinds) for package, kinds in kept_out.items()}
    for package, exceptions in allowed.items():
        if exceptions:
            said[package] += f" ({'; '.join(exceptions)})"
    return said


def draw(config: dict[str, Any]) -> Figure:
    rows = layers(config)
    missing = [name for row in rows for name in row if name not in JOBS]
    if missing:
        raise SystemExit(f"docs/layers.py: write a job for {', '.join(missing)} in JOBS")
    refused = refusals(config)
    height, gap, width = 1.25, 0.28, 8.6
    top = len(rows) * (height + gap)
    figure = Figure(figsize=(10.5, 1.15 + 1.5 * len(rows)), dpi=110)
    FigureCanvasAgg(figure)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(-1.45, width + 0.25)
    axes.set_ylim(-0.8, top + 0.55)
    axes.axis("off")
    axes.text(-1.25, top + 0.2, "Tablekeeper's layers", fontsize=18, weight="bold", color="#222")
    axes.text(
        -1.25,
        top - 0.12,
        "each package imports only the ones below it; side by side, none imports another",
        fontsize=10.5,
        color="#555",
    )
    for level, row in enumerate(rows):
        y = top - (level + 1) * (height + gap)
        span = (width - 0.3 * (len(row) - 1)) / len(row)
        for place, name in enumerate(row):
            x = place * (span + 0.3)
            box = FancyBboxPatch(
                (x, y),
                span,
                height,
                boxstyle="round,pad=0,rounding_size=0.12",
                facecolor=FILLS[level % len(FILLS)],
                edgecolor=EDGES[level % len(EDGES)],
                linewidth=1.6,
            )
            axes.add_patch(box)
            axes.text(
                x + 0.18,
                y + height - 0.2,
                f"{name}/",
                fontsize=15,
                weight="bold",
                family="DejaVu Sans Mono",
                color=EDGES[level % len(EDGES)],
                va="top",
            )
            axes.text(x + 0.18, y + height - 0.5, JOBS[name], fontsize=10.5, color="#222", va="top")
            if name in refused:
                axes.text(
                    x + 0.18,
                    y + 0.12,
                    refused[name],
                    fontsize=9.5,
                    style="italic",
                    color="#a33",
                    va="bottom",
                )
    arrow = FancyArrowPatch(
        (-0.55, top - 0.55),
        (-0.55, 0.05),
        arrowstyle="-|>,head_width=0.35,head_length=0.6",
        mutation_scale=18,
        linewidth=2.2,
        color="#777",
    )
    axes.add_patch(arrow)
    axes.text(
        -0.78,
        top / 2,
        "may import",
        rotation=90,
        fontsize=11,
        color="#555",
        ha="center",
        va="center",
    )
    axes.text(
        -1.25,
        -0.5,
        "Drawn by docs/layers.py from pyproject.toml's [tool.importlinter] "
        "(checked by lint-imports).",
        fontsize=9,
        color="#777",
    )
    return figure


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    config = contracts()
    draw(config).savefig(out, metadata={"Software": None, "Contracts": fingerprint(config)})
    print(f"Drew {out}")


if __name__ == "__main__":
    main()
