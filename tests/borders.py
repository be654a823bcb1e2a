"""What the border tests of the pure packages (rules/, table/) share: the top-level modules a
file imports, read from its syntax tree, and ruff's verdict on a probe that imports discord."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def ruff_on_a_discord_import(package: Path) -> subprocess.CompletedProcess[str]:
    """ruff run on `import discord` as if it were a file inside `package`."""
    probe = str(package / "probe.py")
    return subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--stdin-filename", probe, "-"],
        input="import discord\n\nprint(discord)\n",
        capture_output=True,
        text=True,
        cwd=package.parent,
    )
