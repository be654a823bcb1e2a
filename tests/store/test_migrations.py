"""Migrations that can't drift: each applied migration is recorded with its file's checksum
(those applied before checksums were kept get them at the first start), and a database one of
whose applied files has changed since is refused at start, in one line, with nothing written."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from store import Store, StoreError
from store.migrate import load_migrations
from tests.store.conftest import Database


async def recorded(db: Database) -> dict[int, tuple[str, str | None]]:
    rows = (await db.dump())["schema_version"]
    return {row[0]: (row[1], row[3]) for row in rows}  # version, name, applied_at, checksum


async def test_each_migration_is_recorded_with_its_file_s_checksum(db: Database) -> None:
    async with Store.open(db.url):
        pass
    files = load_migrations(db.dialect)
    assert await recorded(db) == {m.version: (m.name, m.checksum) for m in files}
    assert len({m.checksum for m in files}) == len(files)  # one per file's text


async def test_migrations_applied_before_checksums_get_them_at_the_first_start(
    db: Database,
) -> None:
    async with Store.open(db.url):
        pass
    await db.execute("ALTER TABLE schema_version DROP COLUMN checksum")  # as older releases left it
    async with Store.open(db.url) as store:
        assert await store.read(1) is not None
    files = load_migrations(db.dialect)
    assert await recorded(db) == {m.version: (m.name, m.checksum) for m in files}


@pytest.mark.parametrize("tampered", ["file", "name"])
async def test_a_migration_changed_since_it_was_applied_stops_the_start(
    db: Database, tampered: str
) -> None:
    async with Store.open(db.url):
        pass
    fatigue = load_migrations(db.dialect)[4]
    assert fatigue.name == "fatigue_time"
    if tampered == "file":  # the record keeps the checksum of the file that was applied
        await db.execute(f"UPDATE schema_version SET checksum = 'abc' WHERE version = {5}")
    else:
        await db.execute(f"UPDATE schema_version SET name = 'fatigue' WHERE version = {5}")
    before = await db.dump()
    with pytest.raises(StoreError) as refused:
        await Store.open(db.url)
    line = str(refused.value)
    assert "\n" not in line
    assert line.startswith(f"store/migrations/{db.dialect}/V5__fatigue_time.sql is not the V5__")
    assert "put back that file as released" in line
    assert await db.dump() == before  # nothing written, nothing applied


async def test_a_file_edited_after_it_was_applied_is_found(db: Database) -> None:
    async with Store.open(db.url) as store:
        files = load_migrations(db.dialect)
        edited = dataclasses.replace(files[2], sql=files[2].sql + "\n-- one more line\n")
        with pytest.raises(StoreError, match=r"V3__undo\.sql is not the V3__undo\.sql"):
            backend: Any = store.backend
            await backend.migrate([*files[:2], edited, *files[3:]])


def test_line_endings_are_no_change() -> None:
    migration = load_migrations("sqlite")[0]
    windows = dataclasses.replace(migration, sql=migration.sql.replace("\n", "\r\n"))
    assert windows.checksum == migration.checksum
    assert dataclasses.replace(migration, sql=migration.sql + " ").checksum != migration.checksum
