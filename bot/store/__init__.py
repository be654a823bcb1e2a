"""Storage: one `Store` (SQLite by default, PostgreSQL when asked; migrations, one transaction
per change) and its `Event` log."""

from bot.store.codec import restore
from bot.store.errors import AlreadyApplied, StoreError
from bot.store.sqlite import sqlite_path
from bot.store.store import Event, Store

__all__ = ["AlreadyApplied", "Event", "Store", "StoreError", "restore", "sqlite_path"]
