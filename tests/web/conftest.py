"""The web page's tests run on a SQLite file and on PostgreSQL, as the store's do."""

from tests.store.conftest import db

__all__ = ["db"]
