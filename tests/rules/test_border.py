"""rules/ is a pure library: only the standard library (and `lang`, the words of the reply's
language, itself standard library only), never discord (README: How it is built)."""

import sys
from pathlib import Path

import pytest

from tests.borders import imported_roots, ruff_on_a_discord_import

RULES = Path(__file__).resolve().parents[2] / "rules"


@pytest.mark.parametrize("path", sorted(RULES.glob("*.py")), ids=lambda p: p.name)
def test_rules_imports_only_the_standard_library(path: Path) -> None:
    outside = imported_roots(path) - set(sys.stdlib_module_names) - {"rules", "lang", "__future__"}
    assert not outside, f"{path.name} imports {sorted(outside)}"


def test_ruff_bans_discord_inside_rules() -> None:
    run = ruff_on_a_discord_import(RULES)
    assert run.returncode == 1
    assert "TID251" in run.stdout and "discord" in run.stdout
