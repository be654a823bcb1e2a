"""Storage: one `Store` (SQLite by default, PostgreSQL when asked; migrations, one transaction
per change, an event log)."""

from store.errors import AlreadyApplied, StoreError
from store.store import Store

__all__ = ["AlreadyApplied", "Store", "StoreError"]
