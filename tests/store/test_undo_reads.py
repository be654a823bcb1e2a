"""What `/history` and the web page read of an undo or a redo, against real databases (a
SQLite file and PostgreSQL): the action of the change it took back or put back, so its line
reads as that change's does (an import's undo is no rename); and /undo's and /redo's own
reads of the change they take back, which may be a redo."""

from __future__ import annotations

import dataclasses

from store import Store
from table.actions import IMPORT_ACTION
from table.model import Character, Table
from table.undo import REDO_ACTION, UNDO_ACTION
from tests.store.conftest import Database

CH, GUILD, GM = 501, 22, 33


def _replaced_by(name: str):  # type: ignore[no-untyped-def]
    def step(table: Table) -> tuple[Table, None]:
        return dataclasses.replace(table, characters=(Character(name, GM),)), None

    return step


async def test_an_undo_and_a_redo_read_the_action_they_took_back(db: Database) -> None:
    async with Store.open(db.url) as store:
        await store.apply(CH, GUILD, GM, "character create", _replaced_by("Bo"))
        # An import change as a file carries it (no part of its own: its undo is logged).
        await store.apply(CH, GUILD, GM, IMPORT_ACTION, _replaced_by("Aria"))
        known = await store.newest(CH, 10)
        await store.undo_last(CH, GUILD, GM, True)
        await store.redo_last(CH, GUILD, GM, True)
        again = await store.undo_last(CH, GUILD, GM, True)  # the redo: the import, once more
        assert (again.target.action, again.target.undid) == (REDO_ACTION, IMPORT_ACTION)
        await store.undo_last(CH, GUILD, GM, True)  # Bo's creation
        expected = [
            (UNDO_ACTION, "character create"),
            (UNDO_ACTION, IMPORT_ACTION),
            (REDO_ACTION, IMPORT_ACTION),
            (UNDO_ACTION, IMPORT_ACTION),
            (IMPORT_ACTION, None),
            ("character create", None),
        ]
        assert [(e.action, e.undid) for e in await store.history(CH, 10)] == expected
        # What an open web page reads after the change: the new events in full.
        assert [(e.action, e.undid) for e in await store.newest(CH, 10, known)] == expected


async def test_a_redo_reads_the_action_of_the_change_its_undo_took_back(db: Database) -> None:
    """/redo of an undo that took back a redo: the change it names is that redo, which reads as
    the import it put back."""
    async with Store.open(db.url) as store:
        await store.apply(CH, GUILD, GM, "character create", _replaced_by("Bo"))
        await store.apply(CH, GUILD, GM, IMPORT_ACTION, _replaced_by("Aria"))
        await store.undo_last(CH, GUILD, GM, True)
        await store.redo_last(CH, GUILD, GM, True)
        await store.undo_last(CH, GUILD, GM, True)  # the redo
        redone = await store.redo_last(CH, GUILD, GM, True)
        assert (redone.change.action, redone.change.undid) == (REDO_ACTION, IMPORT_ACTION)
