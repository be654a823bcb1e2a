"""`lang/messages.pot`, the template a new language starts from (README: Adding a language), is
what the README's `pybabel extract` command makes from the code now: every marked message, no
message the code no longer has."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from babel.messages.pofile import read_po

from lang.catalogs import ids as message_ids
from tests.lang.test_catalog_complete import MARKED, REPO

TEMPLATE = REPO / "lang" / "messages.pot"
# The README's command, run here through this Python's Babel (the `pybabel` script's `main`).
EXTRACT = ["extract", "-F", "lang/babel.cfg", "-k", "n_:1,2", "-k", "N_", "-o"]


def ids(path: Path) -> set[str]:
    with path.open("rb") as file:
        return {message_ids(m)[0] for m in read_po(file) if m.id}


def test_the_readme_gives_the_extract_command() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "pybabel " + " ".join(EXTRACT) + " lang/messages.pot ." in readme


def test_the_extract_command_finds_every_marked_message(tmp_path: Path) -> None:
    out = tmp_path / "messages.pot"
    babel = "from babel.messages.frontend import main; main()"
    ran = subprocess.run(
        [sys.executable, "-c", babel, *EXTRACT, str(out), "."],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert ids(out) == set(MARKED)


def test_the_template_is_up_to_date() -> None:
    shipped = ids(TEMPLATE)
    missing, stale = set(MARKED) - shipped, shipped - set(MARKED)
    assert not missing and not stale, (
        f"lang/messages.pot lacks {sorted(missing)[:5]} and still has {sorted(stale)[:5]}: "
        "make it again with `pybabel " + " ".join(EXTRACT) + " lang/messages.pot .`"
    )
