"""What a `/save` reply's buttons keep in their custom_ids, and the save they stand for when
clicked: the difficulty option given, and a character's name or a plain roll's numbers."""

from __future__ import annotations

from dataclasses import replace

from rules.saves import SaveKind
from table.model import Table
from table.savecalc import DifficultyOptions, SaveInputs, SaveOptions, save_inputs

AGAINST_OPTIONS = {"v": "vs", "d": "dc", "s": "spell"}
# Pieces of the custom_ids: every number's digits are bounded, so parsing one cannot fail.
AGAINST_ID = r"(?P<against>[vds]-?\d{1,4})"
MOD_ID = r"(?P<mod>-?\d{1,3})"
PER_ID = r"(?P<per>\d{0,4})"
MAYBE_INT_ID = r"(?:-?\d{1,3})?"


def against_code(against: DifficultyOptions) -> str:
    """`v7`, `d85` or `s120`: the difficulty option that was given, and its value."""
    for letter, option in AGAINST_OPTIONS.items():
        value = getattr(against, option)
        if value is not None:
            return f"{letter}{value}"
    raise ValueError("a save without a difficulty gets no button")


def against_from_code(code: str) -> DifficultyOptions:
    return DifficultyOptions(**{AGAINST_OPTIONS[code[0]]: int(code[1:])})


def again_options(options: SaveOptions, inputs: SaveInputs) -> SaveOptions:
    """What "Roll again" keeps: a character's name (its numbers are read again when clicked)
    and only the numbers typed over it; for a plain roll, all its numbers."""
    if inputs.name is not None:
        return replace(options, character=inputs.name)
    return replace(options, level=inputs.level, stat=inputs.stat, kin=inputs.kin, character=None)


def again_inputs(kind: SaveKind, options: SaveOptions, table: Table, roller_id: int) -> SaveInputs:
    """The inputs of a roll again from `again_options`: a character as it is stored now."""
    if options.character is not None:
        return save_inputs(kind, options, table, roller_id)
    assert options.level is not None  # again_options keeps a plain roll's level
    return SaveInputs(
        kind=kind,
        name=None,
        level=options.level,
        stat=options.stat or 0,
        kin=options.kin or 0,
        mod=options.mod,
        difficulty=options.against.difficulty(),
        per=options.per,
        ties_succeed=table.settings.ties_succeed,
    )
