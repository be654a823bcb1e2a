"""docs/rules.md is the project's one rules reference (docs/rules.md#0-sources-and-conventions).

Code cites its sections as `docs/rules.md#anchor`; every such anchor must be a heading there, and
no file may cite a rules file that lives outside the repository (a decisions page or the rules
texts beside the checkout). Its tables must also agree with the `rules` package.
"""

from __future__ import annotations

import os
import re
from fractions import Fraction
from pathlib import Path

import pytest

from rules.defense import ARMOR_LEVELS, ORDERS, monster_defense
from rules.fatigue import band_ranges, toughness_from_con
from rules.saves import spell_difficulty, sr_bonus, sr_difficulty

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "docs" / "rules.md"
SKIPPED_DIRS = {".git", ".venv", "venv", "node_modules", "discord-api-spec", "build", "dist"}
SCANNED = {".py", ".toml", ".md", ".sql", ".cfg", ".ini", ".example", ".txt"}
CITATION = re.compile(r"docs/rules\.md#([\w-]+)")
LOCAL_LINK = re.compile(r"\]\(#([\w-]+)\)")
# A cited document (`NOTES.md`, `texts/x.txt`): it must exist in the repository.
CITED_FILE = re.compile(r"(?<![\w./-])((?:\.\./)?[\w-]+(?:/[\w.-]+)*\.(?:md|txt))\b")
# Folders that hold the rules outside the repository, whatever file in them is named.
OUTSIDE_DIR = re.compile(r"(?<![\w-])(?:rules-text|shared)/")


def anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def headings() -> list[tuple[int, str]]:
    """(level, text) of each heading of docs/rules.md outside code blocks."""
    found, fenced = [], False
    for line in REFERENCE.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        match = None if fenced else re.match(r"(#{1,6}) (.+)", line)
        if match:
            found.append((len(match.group(1)), match.group(2)))
    return found


ANCHORS = {anchor(text) for _, text in headings()}


def scanned_files() -> list[Path]:
    """The repository's own text files (this one aside: it names what it looks for)."""
    files = []
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
        for name in sorted(names):
            path = Path(folder) / name
            if path.suffix in SCANNED and path != Path(__file__).resolve():
                files.append(path)
    return files


FILES = scanned_files()


def section(number: str) -> str:
    """The text of the section headed `number` (e.g. "4.1"), up to the next heading."""
    text = REFERENCE.read_text(encoding="utf-8")
    match = re.search(rf"^#+ {re.escape(number)} .*?\n(.*?)(?=^#+ |\Z)", text, re.M | re.S)
    assert match, f"docs/rules.md has no section {number}"
    return match.group(1)


def table_rows(text: str) -> list[list[str]]:
    """The cells of each Markdown table row, the |---| rule left out; − read as a minus."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not re.fullmatch(r"[|\-: ]+", line):
            cells = [c.strip().strip("*").replace("−", "-") for c in line.strip("|").split("|")]
            rows.append(cells)
    return rows


def number_range(cell: str) -> range:
    """`51–80` → 51..80, `7` → 7..7, `176 and up` → 176..1000."""
    if cell.endswith("and up"):
        return range(int(cell.split()[0]), 1001)
    low, _, high = cell.partition("–")
    return range(int(low), int(high or low) + 1)


# --- the reference exists, is linked, and its anchors hold ----------------------------------


def test_reference_exists_and_is_linked_from_the_readme() -> None:
    assert REFERENCE.is_file()
    assert "](docs/rules.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_section_is_numbered_so_its_anchor_stays_put() -> None:
    below_title = [text for level, text in headings() if level > 1]
    assert below_title
    unnumbered = [text for text in below_title if not re.match(r"\d+(\.\d+)*\.? ", text)]
    assert not unnumbered, f"number these headings: {unnumbered}"
    anchors = [anchor(text) for text in below_title]
    twice = {a for a in anchors if anchors.count(a) > 1}
    assert not twice, f"headings with the same anchor: {sorted(twice)}"


def test_the_anchor_rule_matches_githubs() -> None:
    assert anchor("3.4 Caps") == "34-caps"
    assert anchor("4. Monster Defense and Armor") == "4-monster-defense-and-armor"
    assert anchor("1.2 The 100-die cap") == "12-the-100-die-cap"


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_citations_name_sections_that_exist(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    cited = set(CITATION.findall(text))
    if path == REFERENCE:
        cited |= set(LOCAL_LINK.findall(text))
    missing = sorted(cited - ANCHORS)
    assert not missing, (
        f"{path.relative_to(ROOT)} cites docs/rules.md#{missing[0]}, no such section"
    )


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_cites_a_file_outside_the_repository(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    outside = [m.group(0) for m in OUTSIDE_DIR.finditer(text)]
    for cited in CITED_FILE.findall(text):
        here = (path.parent / cited, ROOT / cited)
        if not any(p.is_file() for p in here) and not list(ROOT.glob(f"*/{cited}")):
            outside.append(cited)
    assert not outside, f"{path.relative_to(ROOT)} cites {outside[0]}: cite docs/rules.md instead"


def test_the_checks_catch_what_they_are_for() -> None:
    assert CITATION.findall("see docs/rules.md#99-nowhere") == ["99-nowhere"]
    assert "99-nowhere" not in ANCHORS
    assert OUTSIDE_DIR.search("(rules-text/fatigue.txt)")
    assert CITED_FILE.findall("(see NOTES.md §3)") == ["NOTES.md"]
    assert not (ROOT / "NOTES.md").exists()


# --- the reference's tables agree with the rules package -----------------------------------


def test_save_rolls_table_checks() -> None:
    checks = re.findall(r"level (\d+) → \+(\d+)\s+and (\d+)", section("2.1"))
    assert len(checks) >= 5
    for level, bonus, difficulty in checks:
        assert (sr_bonus(int(level)), sr_difficulty(int(level))) == (int(bonus), int(difficulty))


def test_spell_casting_table() -> None:
    pairs = []
    for row in table_rows(section("2.4"))[1:]:
        pairs += [(row[0], row[1]), (row[3], row[4])]
    covered = set()
    for totals, difficulty in pairs:
        for total in (number_range(totals)[0], number_range(totals)[-1]):
            assert spell_difficulty(total) == int(difficulty), totals
        covered |= set(number_range(totals))
    assert covered == set(range(51, 1001))
    assert spell_difficulty(50) is None


def test_constitution_table() -> None:
    header, toughness = (
        row for row in table_rows(section("3.1")) if row[0] in ("Constitution", "Toughness")
    )
    pairs = list(zip(header[1:], toughness[1:], strict=True))
    assert {con for cell, _ in pairs for con in number_range(cell)} == set(range(26))
    for cell, value in pairs:
        for con in number_range(cell):
            assert toughness_from_con(con) == int(value), con


def test_band_examples() -> None:
    rows = table_rows(section("3.2"))[1:]
    for column, fl in ((2, Fraction(7)), (3, Fraction(41, 2))):
        shown = [tuple(int(n) for n in row[column].split("–")) for row in rows]
        assert shown == [(low, high) for _, low, high in band_ranges(fl)]


def test_defense_table() -> None:
    header, *rows = table_rows(section("4.1"))
    assert [h.lower() for h in header[1:]] == list(ARMOR_LEVELS)
    *ranks, evasion = rows
    assert [int(row[0]) for row in ranks] == list(range(6))
    for row in ranks:
        for armor, cell in zip(ARMOR_LEVELS, row[1:], strict=True):
            assert monster_defense(int(row[0]), armor).defense == int(cell), (row[0], armor)
    for armor, cell in zip(ARMOR_LEVELS, evasion[1:], strict=True):
        modifier = monster_defense(0, armor).evasion_modifier
        assert (None if cell == "set to 0" else int(cell)) == modifier, armor


def test_material_drops() -> None:
    header, materials = table_rows(section("4.11"))
    shown = dict(zip((h.lower() for h in header[1:]), (int(m) for m in materials[1:]), strict=True))
    assert shown == ORDERS
