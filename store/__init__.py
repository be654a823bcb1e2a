"""Storage: one `Store` (SQLite by default, PostgreSQL when asked; migrations, one transaction
per change) and its `Event` log."""

from store.codec import restore
from store.errors import AlreadyApplied, StoreError
from store.sqlite import sqlite_path
from store.store import Event, Store

__all__ = ["AlreadyApplied", "Event", "Store", "StoreError", "restore", "sqlite_path"]
