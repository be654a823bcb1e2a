"""rules/ is a pure library: only the standard library, never discord (README: How it is built)."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "rules"


def _imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("path", sorted(RULES.glob("*.py")), ids=lambda p: p.name)
def test_rules_imports_only_the_standard_library(path: Path) -> None:
    outside = _imported_roots(path) - set(sys.stdlib_module_names) - {"rules", "__future__"}
    assert not outside, f"{path.name} imports {sorted(outside)}"


def test_ruff_bans_discord_inside_rules() -> None:
    source = "import discord\n\nprint(discord)\n"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--no-cache",
            "--stdin-filename",
            str(RULES / "probe.py"),
            "-",
        ],
        input=source,
        capture_output=True,
        text=True,
        cwd=RULES.parent,
    )
    assert run.returncode == 1
    assert "TID251" in run.stdout and "discord" in run.stdout
