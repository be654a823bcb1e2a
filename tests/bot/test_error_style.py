"""Every error text the bot raises for a user (RulesError and its kin in bot/, table/ and
cogs/) ends the same way: without a full stop, as most of them always did. Read from the source,
so a new message written the other way fails here rather than in a reply."""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RAISED = {
    "RulesError",
    "Forbidden",
    "NoSaveError",
    "RollValueError",
}  # the last: d20's, shown as is
# Texts handed to RulesError through a parameter rather than in the raise itself.
PASSED_ON = {"RECOVER_IS_GMS"}
MARKS = {"_", "n_", "N_"}  # `lang`'s: a marked message is read through its English text


def _unmarked(node: ast.expr | None) -> list[ast.expr]:
    """`_("text", ...)` → the English text's node(s) (both forms of an `n_`); else the node."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKS:
        return list(node.args[:2] if node.func.id == "n_" else node.args[:1])
    return [] if node is None else [node]


def _modules() -> list[Path]:
    return sorted(
        p
        for d in ("bot", "cogs", "render", "store", "exports", "table")
        for p in (ROOT / d).rglob("*.py")
    )


def _constants(trees: dict[Path, ast.Module]) -> dict[str, list[str]]:
    """Module-level string constants by name (a name may be defined in several modules)."""
    found: dict[str, list[str]] = defaultdict(list)
    for tree in trees.values():
        for node in tree.body:
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
            ):
                for value in _unmarked(node.value):
                    if isinstance(value, ast.Constant) and isinstance(value.value, str):
                        found[node.targets[0].id].append(value.value)
    return found


def _endings(node: ast.expr, constants: dict[str, list[str]]) -> Iterator[str]:
    """The text each way this message can end: a literal's, or the constant's it ends with."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.JoinedStr) and node.values:
        yield from _endings(node.values[-1], constants)
    elif isinstance(node, ast.FormattedValue):
        yield from _endings(node.value, constants)
    elif isinstance(node, ast.Name):
        yield from constants.get(node.id, [])
    elif isinstance(node, ast.Call) and _unmarked(node) != [node]:
        for text in _unmarked(node):
            yield from _endings(text, constants)


def _messages() -> list[tuple[str, str]]:
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in _modules()}
    constants = _constants(trees)
    messages = [(name, text) for name in PASSED_ON for text in constants[name]]
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if called in RAISED:
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                messages += [(where, text) for text in _endings(node.args[0], constants)]
    return messages


def test_the_scan_finds_the_messages() -> None:
    # A scan that silently found nothing would pass anything.
    texts = [text for _, text in _messages()]
    assert len(texts) > 50
    assert any("Bots can't own characters" in text for text in texts)
    assert any("Only the GM can remove FP directly" in text for text in texts)


@pytest.mark.parametrize(("where", "text"), _messages())
def test_user_facing_errors_end_without_a_full_stop(where: str, text: str) -> None:
    assert not text.rstrip().endswith("."), f"{where}: {text!r}"
