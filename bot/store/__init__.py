"""Storage: `Store` (SQLite, migrations, one transaction per change) and its `Event` log."""

from bot.store.codec import restore
from bot.store.sqlite import Event, Store, StoreError, sqlite_path

__all__ = ["Event", "Store", "StoreError", "restore", "sqlite_path"]
