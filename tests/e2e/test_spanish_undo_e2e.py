"""A Spanish member's `/undo`: its refusals, and the notice that an undo was saved when its reply
could not be shown, name the change as `/history` does, in Spanish (never the command name the
log keeps in English); the same member in English reads the English."""

from __future__ import annotations

from typing import Any

import pytest

from bot.tree import SAVED
from tests.e2e.helpers import hero, refused, seed
from tests.e2e.test_lang_refusals_e2e import SPANISH, assert_spanish, spanish
from tests.e2e.test_reply_faults_e2e import CALLBACK
from tests.localdiscord.world import speaking


async def lost_gm_role(env: Any, command: str, **options: Any) -> None:
    """The member with the GM role makes a change as GM, then the GM takes the role away: the
    change is theirs, but they undo it now as a player."""
    d = env.discord
    await d.slash("settings set", user=d.gm, gm_role=d.guild.role("GM"))
    await d.slash(command, user=d.named_gm, **options)
    await d.slash("settings set", user=d.gm, clear_gm_role=True)


@pytest.mark.parametrize(
    ("command", "options", "spanish_action", "touched"),
    [
        ("clock round", {"count": 1}, "reloj: asaltos", "también cambió el reloj de juego"),
        ("fatigue spend", {"character": "Bree", "amount": 2}, "gastar fatiga", "afectó a Bree"),
    ],
)
async def test_undoing_ones_own_change_as_a_player_names_it_in_spanish(
    env: Any, command: str, options: dict[str, Any], spanish_action: str, touched: str
) -> None:
    """Their change moved the clock, or changed another player's character: only the GM may
    undo it, and the refusal names it as /history does."""
    d = env.discord
    await seed(env, hero("Bree", d.player, fp=10))
    await lost_gm_role(env, command, **options)
    text = await refused(env, "undo", speaking(d.named_gm, SPANISH))
    assert text.startswith(f"Solo el DJ puede deshacer tu cambio ({spanish_action}) de las <t:")
    assert touched in text and command not in text
    assert_spanish(text)
    english = await refused(env, "undo", d.named_gm)
    assert english.startswith(f"Only the GM can undo your {command} at <t:")


async def test_an_undo_saved_without_its_reply_is_named_in_spanish(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    await d.slash("fatigue spend", user=d.player, amount=3)
    d.server.faults.fail(CALLBACK, status=400)  # Discord turns the undo's answer away
    reply = await d.slash("undo", user=speaking(d.player, SPANISH))
    assert reply.ephemeral
    assert reply.text == spanish(SAVED, what="deshacer gastar fatiga")
    assert_spanish(reply.text)
    assert (await env.table()).get("Aria").fatigue.fp == 0  # the undo was saved
