"""The README and docs/ stay true to the repository: the links, paths and code they name exist,
the README leads to every page of docs/, the layers' picture is drawn from the contracts as
they are now, and no page tells how the code came to be instead of what it is."""

from __future__ import annotations

import importlib
import importlib.util
import re
import struct
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
FOLDERS = {p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith(".")}
PATH = re.compile(r"`((?:" + "|".join(sorted(FOLDERS)) + r")/[^`\s]*)`")
LAYERS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
    "importlinter"
]["root_packages"]
DOTTED = re.compile(r"`((?:" + "|".join(LAYERS) + r")(?:\.\w+)+)`")  # `rules.fatigue.spend`


def resolves(dotted: str) -> bool:
    """Whether `dotted` names a module of the code, or something in one."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            if not hasattr(found, name):
                return False
            found = getattr(found, name)
        return True
    return False


def layers_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("layers", ROOT / "docs" / "layers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def png_text(path: Path) -> dict[str, str]:
    """The tEXt chunks of a PNG file: keyword → text."""
    data, found = path.read_bytes(), {}
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at = 8
    while at < len(data):
        (size,), kind = struct.unpack(">I", data[at : at + 4]), data[at + 4 : at + 8]
        if kind == b"tEXt":
            key, _, text = data[at + 8 : at + 8 + size].partition(b"\0")
            found[key.decode("latin-1")] = text.decode("latin-1")
        at += 12 + size
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_link_and_named_path_exists(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if target.startswith(("http://", "https://", "mailto:", "#")):
            continue
        assert (page.parent / target.partition("#")[0]).exists(), f"{page.name} links {target}"
    for path in PATH.findall(text):
        if not re.search(r"[<>{}*…]", path):  # a pattern, not a path
            assert (ROOT / path.partition("#")[0]).exists(), f"{page.name} names {path}"
    for dotted in DOTTED.findall(text):
        assert resolves(dotted), f"{page.name} names {dotted}, which the code doesn't have"


def test_the_readme_leads_to_every_page_of_the_docs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for page in PAGES[1:]:
        assert f"](docs/{page.name})" in readme, page.name


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_page_tells_how_the_code_came_to_be(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"\bsession[\s_-]*\d+|\bissue \d+|\bhelper \w+ \(", text, re.I)


def test_the_layers_picture_is_drawn_from_the_contracts_as_they_are() -> None:
    """Redraw with `python docs/layers.py` when pyproject.toml's contracts change."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    drawn = png_text(ROOT / "docs" / "layers.png").get("Contracts")
    assert drawn == layers_script().fingerprint(config["tool"]["importlinter"])


def test_the_picture_shows_every_layer_and_what_it_may_not_import() -> None:
    script = layers_script()
    config = script.contracts()
    shown = {text.get_text() for text in script.draw(config).axes[0].texts}
    for row in script.layers(config):
        for name in row:
            assert f"{name}/" in shown and script.JOBS[name] in shown
    assert set(script.refusals(config).values()) <= shown
    assert "no Discord, no database" in shown  # rules and table
