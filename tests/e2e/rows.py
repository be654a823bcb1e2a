"""Every row of every table in the bot's SQLite file: a refused interaction must leave all of
them as they were, in every channel, not only the one it came from."""

from __future__ import annotations

import sqlite3
from typing import Any


def sqlite_rows(database_url: str) -> dict[str, list[tuple[Any, ...]]]:
    path = database_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        tables = [
            name
            for (name,) in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        return {t: sorted(db.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr) for t in tables}
