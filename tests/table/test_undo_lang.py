"""/undo's refusals are the table's (table.undo) and speak the reader's language."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import lang
import lang.catalogs
from table.actions import REDO_ACTION, UNDO_ACTION, saved_text
from table.event import Event
from table.model import Forbidden
from table.undo import check_player_may_undo, nothing_to_undo, too_old

pytestmark = pytest.mark.usefixtures("shipped_catalogs")

CHANGE = Event(
    1,
    actor_id=7,
    action="fatigue spend",
    created_at=datetime(2026, 1, 1, tzinfo=UTC),
    before={"characters": {}},
    after={"characters": {}},
)


def test_english_reads_as_written() -> None:
    assert nothing_to_undo(True) == (
        "Nothing left to undo here (/redo puts back what an undo took back)"
    )
    assert too_old(1000, CHANGE) == (
        "Can't undo: fatigue spend by <@7> at <t:1767225600:t> is older than this channel keeps "
        "(its last 1,000 changes; a GM can keep more with `/settings set history_keep:`)"
    )


def test_spanish_keeps_the_numbers_and_the_mention() -> None:
    with lang.speaking("es-ES"):
        text = too_old(1000, CHANGE)
        with pytest.raises(Forbidden) as refused:
            check_player_may_undo(CHANGE, actor_id=8)
    assert text.startswith("No se puede deshacer") and "1,000" in text and "<@7>" in text
    assert "pídeselo al DJ" in str(refused.value)


def test_a_players_refusal_names_their_change_in_spanish() -> None:
    """Their own change, but it moved the game clock too: named as /history names it."""
    clocked = Event(
        2,
        actor_id=8,
        action="clock round",
        created_at=datetime(2026, 1, 1, tzinfo=UTC),
        before={"channel": {"clock": 0}},
        after={"channel": {"clock": 6}},
    )
    with lang.speaking("es-ES"), pytest.raises(Forbidden) as spanish:
        check_player_may_undo(clocked, actor_id=8)
    assert str(spanish.value) == (
        "Solo el DJ puede deshacer tu cambio (reloj: asaltos) de las <t:1767225600:t>: también "
        "cambió el reloj de juego"
    )
    with pytest.raises(Forbidden) as english:
        check_player_may_undo(clocked, actor_id=8)
    assert str(english.value).startswith("Only the GM can undo your clock round at <t:")


def test_a_saved_change_is_named_in_the_readers_language() -> None:
    assert saved_text("fatigue spend") == "fatigue spend"
    assert saved_text(UNDO_ACTION, "fatigue spend") == "undo of fatigue spend"
    assert saved_text(REDO_ACTION, "character create") == "redo of character create"
    assert saved_text("test seed") == "test seed"  # an action this version doesn't know
    with lang.speaking("es-ES"):
        assert saved_text("fatigue spend") == "gastar fatiga"
        assert saved_text(UNDO_ACTION, "fatigue spend") == "deshacer gastar fatiga"
        assert saved_text(REDO_ACTION, "character create") == "rehacer crear personaje"
        assert saved_text(UNDO_ACTION) == "deshacer"
