"""No cog module imports another: what two command groups share lives in a `cogs/_…` helper, so
a cog can be read, loaded and unloaded on its own."""

from __future__ import annotations

import ast
from pathlib import Path

COGS = Path(__file__).resolve().parents[2] / "cogs"


def imported(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


def test_no_cog_imports_another() -> None:
    cogs = {f"cogs.{p.stem}" for p in COGS.glob("*.py") if not p.stem.startswith("_")}
    assert len(cogs) > 10
    for path in sorted(COGS.glob("*.py")):
        others = imported(path) & (cogs - {f"cogs.{path.stem}"})
        assert not others, f"cogs/{path.name} imports {sorted(others)}: share it in a cogs/_ helper"
