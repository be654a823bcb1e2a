"""A refusal from the table, raised inside the store's write transaction, reaches a player
whose Discord speaks Spanish in Spanish, and an English player in English, through the real
client and the local Discord; nothing is written either way."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from rules.errors import RulesError
from store.backend import Body
from tests.e2e.helpers import hero, seed, snapshot
from tests.localdiscord.world import speaking


@contextlib.contextmanager
def refusals_in_write_transactions(env: Any) -> Iterator[list[str]]:
    """The text of every RulesError a write transaction's body raises."""
    backend = env.store.backend
    original = backend.write
    seen: list[str] = []

    async def write(channel_id: int, body: Body[Any]) -> Any:
        async def watched(tx: Any) -> Any:
            try:
                return await body(tx)
            except RulesError as error:
                seen.append(str(error))
                raise

        return await original(channel_id, watched)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(backend, "write", write)
        yield seen


async def test_a_refusal_inside_the_transaction_speaks_each_users_language(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player), hero("Odo", d.player2, fl=None))
    before = await snapshot(env)
    spanish_player = speaking(d.player, "es-ES")
    with refusals_in_write_transactions(env) as seen:
        unknown_es = await d.slash("fatigue spend", user=spanish_player, character="Bilbo")
        unknown_en = await d.slash("fatigue spend", user=d.player, character="Bilbo")
        no_fl_es = await d.slash("fatigue spend", user=speaking(d.player2, "es-419"), amount=3)
        no_fl_en = await d.slash("fatigue spend", user=d.player2, amount=3)

    spanish_unknown = "No hay ningún personaje llamado 'Bilbo' en este canal; aquí hay: Bree, Odo"
    assert unknown_es.ephemeral and spanish_unknown in unknown_es.content
    assert "No character named" not in unknown_es.content
    assert unknown_en.ephemeral
    assert "No character named 'Bilbo' in this channel; here: Bree, Odo" in unknown_en.content

    assert (
        no_fl_es.ephemeral
        and (
            "Odo aún no tiene Nivel de Fatiga: dale uno con "
            "`/character set name:Odo fatigue_level:…` o sus clases"
        )
        in no_fl_es.content
    )
    assert no_fl_en.ephemeral and "Odo has no Fatigue Level yet" in no_fl_en.content

    # Each refusal was made by the transaction's body, in its user's words.
    assert seen == [
        spanish_unknown,
        "No character named 'Bilbo' in this channel; here: Bree, Odo",
        no_fl_es.content.strip(),
        no_fl_en.content.strip(),
    ]
    assert await snapshot(env) == before


async def test_a_spanish_spend_reports_its_fatigue_events_in_spanish(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=55))
    reply = await d.slash("fatigue spend", user=speaking(d.player, "es-ES"), amount=10)
    assert not reply.ephemeral
    assert "FP 55 → **65** / 100 · Cansado → Agotado" in reply.text
    assert "Tope de Agotado: FP ≥ 61 hasta una Pausa" in reply.text
    english = await d.slash("fatigue spend", user=d.player, amount=1)
    assert "FP 65 → **66** / 100 · Exhausted" in english.text and "Agotado" not in english.text
