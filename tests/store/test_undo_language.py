"""`/undo`'s refusals are made inside the store's transaction (on aiosqlite's thread for SQLite,
in the task for PostgreSQL) and still read in the language of the interaction that asked: the
retention edge, "nothing to undo" and a player's own-changes rule, in Spanish and in English,
with nothing written either way."""

from __future__ import annotations

import pytest

import lang
import lang.catalogs
from rules.errors import RulesError
from store import Store
from tests.store.conftest import Database
from tests.store.test_store_retention import CH, GM, GUILD, KEEP, PIP, seed, spend

pytestmark = pytest.mark.usefixtures("shipped_catalogs")


async def refusal(store: Store, actor: int, gm: bool, locale: str) -> str:
    with lang.speaking(locale), pytest.raises(RulesError) as caught:
        await store.undo_last(CH, GUILD, actor, gm)
    return str(caught.value)


async def test_the_retention_edge_is_said_in_the_askers_language(db: Database) -> None:
    async with Store.open(db.url) as store:
        await seed(store)
        await spend(store, "Aria", PIP)  # event 2
        await spend(store, "Bo", GM, KEEP)  # 3..12: event 2 falls past what the channel keeps
        before = await db.dump()
        spanish = await refusal(store, PIP, False, "es-ES")
        assert spanish.startswith("No se puede deshacer: gastar fatiga de <@21> a las <t:")
        assert f"sus últimos {KEEP} cambios" in spanish
        assert "`/settings set history_keep:`" in spanish
        english = await refusal(store, PIP, False, "fr")
        assert english.startswith("Can't undo: fatigue spend by <@21> at <t:")
        assert f"(its last {KEEP} changes" in english
        assert await db.dump() == before


async def test_nothing_to_undo_is_said_in_the_askers_language(db: Database) -> None:
    async with Store.open(db.url) as store:
        await seed(store)
        await spend(store, "Bo", GM)
        before = await db.dump()
        spanish = await refusal(store, PIP, False, "es-419")
        assert spanish.startswith("Solo puedes deshacer tus propios cambios")
        assert "el último es gastar fatiga de <@11>" in spanish
        english = await refusal(store, PIP, False, "en-US")
        assert english.startswith("You can only undo your own changes")
        assert await db.dump() == before
