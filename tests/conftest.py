"""Fixtures for every test folder: a real PostgreSQL server (one per session) and a fresh
database in it per test. See tests/pg.py for where the server comes from."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import pytest

import lang
from lang.catalogs import load
from tests.pg import Server, Unavailable, postgres_server, throwaway_server


@pytest.fixture
def shipped_catalogs() -> Iterator[None]:
    """The shipped translation catalogs installed, as the bot installs them; afterwards,
    whatever was installed before."""
    before = lang.installed()
    lang.install(load())
    yield
    lang.install(before)


def _serve(opening: contextlib.AbstractContextManager[Server]) -> Iterator[Server]:
    with contextlib.ExitStack() as stack:
        try:
            server = stack.enter_context(opening)
        except Unavailable as why:
            if os.environ.get("TK_REQUIRE_POSTGRES") == "1":
                pytest.fail(f"PostgreSQL is required (TK_REQUIRE_POSTGRES=1) but: {why}")
            pytest.skip(f"PostgreSQL tests skipped: {why}")
        yield server


@pytest.fixture(scope="session")
def postgres() -> Iterator[Server]:
    yield from _serve(postgres_server())


@pytest.fixture
def own_postgres() -> Iterator[Server]:
    """A throwaway server of this test's own, to stop and start (`server.control`), that
    keeps every commit it answered through a crash of its own."""
    yield from _serve(throwaway_server(durable=True))


@pytest.fixture
def postgres_url(postgres: Server) -> Iterator[str]:
    """A new, empty database of its own: postgresql://…/tk_test_…"""
    with postgres.database() as url:
        yield url
