"""A translation file that can't be used stops `python -m bot` before it connects: one line
naming the file, a non-zero exit (not a reply failing mid-session in that language)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lang.catalogs import LOCALES
from tests.e2e.test_process import REPO
from tests.e2e.test_startup_faults import fails_in_one_line

pytestmark = pytest.mark.asyncio


def pointed_at(tmp_path: Path, locales: Path) -> str:
    """A PYTHONPATH under which the bot reads its catalogs from `locales` (as if shipped)."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(
        f"import pathlib, lang.catalogs\nlang.catalogs.LOCALES = pathlib.Path({str(locales)!r})\n"
    )
    return f"{site}:{REPO}"


@pytest.mark.parametrize(
    "damage",
    [
        "\nthis line is not part of any catalog\n",
        '\nmsgid "You have {fp} FP."\nmsgstr "Tienes {pf} FP."\n',  # a placeholder it lacks
    ],
    ids=["garbled", "unknown placeholder"],
)
async def test_a_broken_translation_stops_the_start_naming_the_file(
    tmp_path: Path, damage: str
) -> None:
    locales = tmp_path / "locales"
    shutil.copytree(LOCALES, locales)
    broken = locales / "es" / "LC_MESSAGES" / "messages.po"
    broken.write_text(broken.read_text() + damage)
    line = await fails_in_one_line(tmp_path, PYTHONPATH=pointed_at(tmp_path, locales))
    assert str(broken) in line
