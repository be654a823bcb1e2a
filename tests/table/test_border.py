"""table/ is Discord-free: it imports rules, itself and plain libraries, never discord or the
bot's Discord side (bot/, cogs/)."""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.borders import imported_roots, ruff_on_a_discord_import

TABLE = Path(__file__).resolve().parents[2] / "table"
FORBIDDEN = {"discord", "bot", "cogs", "aiosqlite", "asyncpg"}


@pytest.mark.parametrize("path", sorted(TABLE.glob("*.py")), ids=lambda p: p.name)
def test_table_imports_nothing_of_discord_or_storage(path: Path) -> None:
    assert not imported_roots(path) & FORBIDDEN, f"{path.name} reaches outside the table"


def test_importing_the_table_loads_no_discord() -> None:
    probe = (
        "import sys, pkgutil, importlib, table\n"
        "for m in pkgutil.iter_modules(table.__path__):\n"
        "    importlib.import_module('table.' + m.name)\n"
        "print(sorted(n for n in sys.modules if n.split('.')[0] in ('discord', 'bot', 'cogs')))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=TABLE.parent
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_ruff_bans_discord_inside_table() -> None:
    run = ruff_on_a_discord_import(TABLE)
    assert run.returncode == 1
    assert "TID251" in run.stdout and "discord" in run.stdout
