"""The import-linter contracts in pyproject.toml hold for the code as it is, and each one breaks
when its boundary is crossed: a copy of the packages with one forbidden import added fails."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CONFIG = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
    "importlinter"
]
PACKAGES = CONFIG["root_packages"]
LINT = [
    sys.executable,
    "-c",
    "import sys; from importlinter.cli import lint_imports_command; "
    "sys.exit(lint_imports_command())",
]


def lint(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*LINT, "--config", str(root / "pyproject.toml"), "--no-cache"],
        cwd=root,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(root), "PATH": ""},
        check=False,
    )


def test_the_code_keeps_every_contract() -> None:
    run = lint(REPO)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"Contracts: {len(CONFIG['contracts'])} kept, 0 broken." in run.stdout


# One crossing per contract: (file, the line added, the contract that must break).
CROSSINGS = [
    ("table/names.py", "import store", "Each layer imports only the layers below it"),
    ("rules/dice.py", "import table", "Each layer imports only the layers below it"),
    ("store/errors.py", "import render", "Each layer imports only the layers below it"),
    (
        "table/names.py",
        "import sqlite3",
        "The rules and the table know neither Discord nor a database",
    ),
    (
        "rules/text.py",
        "import discord",
        "The rules and the table know neither Discord nor a database",
    ),
    ("lang/__init__.py", "import babel", "The words the rules use need only the standard library"),
    ("store/errors.py", "import discord", "The store knows no Discord"),
    ("store/errors.py", "import exports", "Each layer imports only the layers below it"),
    ("exports/upgrade.py", "import discord", "Export files know no Discord"),
    ("exports/upgrade.py", "import web", "Each layer imports only the layers below it"),
    ("render/common.py", "import aiosqlite", "Replies know no database"),
    ("web/view.py", "import bot.client", "Each layer imports only the layers below it"),
    ("web/limits.py", "import discord", "The web page knows no Discord"),
    ("web/view.py", "import render.common", "The web page knows no Discord"),
    ("cogs/about.py", "import web.server", "Only the bot reaches the web page"),
    ("pictures/_canvas.py", "import discord", "Pictures know neither Discord nor a database"),
    ("pictures/_canvas.py", "import render", "Each layer imports only the layers below it"),
    (
        "bot/health.py",
        "import bot.client",
        "No two modules of one layer import each other in a loop",
    ),
]


@pytest.mark.parametrize(("path", "line", "contract"), CROSSINGS, ids=lambda v: str(v)[:40])
def test_a_crossed_boundary_breaks_its_contract(
    tmp_path: Path, path: str, line: str, contract: str
) -> None:
    for package in PACKAGES:
        shutil.copytree(REPO / package, tmp_path / package, ignore=shutil.ignore_patterns("*.po"))
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    with (tmp_path / path).open("a", encoding="utf-8") as file:
        file.write(f"\n{line}\n")
    run = lint(tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"{contract} BROKEN" in run.stdout
