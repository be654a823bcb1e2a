"""The commands' forms through the real client and the local Discord: `/character create` and
`/monster create` with no options, `/character set` with only a name. Each opens, is submitted
into the same change as the typed options, refuses a bad value privately (naming the field and
what it allows, nothing made) with a button that opens it again with what was typed, and that
button after a restart opens it as first opened, saying so. Every body the bot sends is checked
against Discord's description and limits by the local Discord."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from cogs._forms import KEPT, LOST
from cogs._reply import FORM_LATE
from tests.e2e.helpers import hero, refused, seed, snapshot
from tests.localdiscord.forms import by_label, fields
from tests.localdiscord.reply import Reply
from tests.localdiscord.world import speaking

pytestmark = pytest.mark.asyncio

LABEL, TEXT_INPUT, STRING_SELECT, RADIO_GROUP, CHECKBOX_GROUP = 18, 4, 3, 21, 22


async def submit(env: Any, form: Reply, user: Any, **typed: Any) -> Reply:
    """Fill the form by its labels (`level="5"`, `combine="multi"`) and submit it."""
    assert form.modal is not None, form.text
    return await env.discord.submit_modal(form, by_label(form.modal, typed), user=user)


def kinds(form: Reply) -> dict[str, int]:
    """Each field's component type by its label; every field sits in a Label."""
    assert form.modal is not None
    assert all(c["type"] == LABEL for c in form.modal["components"])
    return {label: field["type"] for label, field in fields(form.modal).items()}


def shown(form: Reply) -> dict[str, Any]:
    """What each field shows: a text input's text, the options picked in the others."""
    assert form.modal is not None
    return {
        label: f.get("value") if f["type"] == TEXT_INPUT else _picked(f)
        for label, f in fields(form.modal).items()
    }


def _picked(field: dict[str, Any]) -> list[str]:
    return [o["value"] for o in field.get("options") or [] if o.get("default")]


# --- /character create ------------------------------------------------------------------------


async def test_create_with_no_options_opens_a_form_and_makes_the_character(env: Any) -> None:
    d = env.discord
    form = await d.slash("character create", user=d.player)
    assert form.callback_type == 9 and form.modal is not None
    assert form.modal["title"] == "A new character"
    assert kinds(form) == {
        "Name": TEXT_INPUT,
        "Level": TEXT_INPUT,
        "Classes": TEXT_INPUT,
        "Toughness": TEXT_INPUT,
        "How classes combine": STRING_SELECT,
    }
    made = await submit(
        env, form, d.player, name="Aria", level="5", classes="d10/5 d6/4", toughness="-1",
        combine="multiclass",
    )  # fmt: skip
    assert not made.ephemeral and made.embed["title"] == "Created Aria"
    aria = (await env.table()).get("Aria")
    assert (aria.level, aria.classes, aria.toughness, aria.combine) == (
        5,
        ((10, 5), (6, 4)),
        -1,
        "multi",
    )
    assert aria.owner_id == d.player.id and aria.fl_override is None  # computed, never frozen


async def test_a_bad_value_is_refused_naming_the_field_and_the_form_opens_with_it(
    env: Any,
) -> None:
    d = env.discord
    form = await d.slash("character create", user=d.player)
    before = await snapshot(env)
    refusal = await submit(env, form, d.player, name="Bo", level="999", classes="d8/3")
    assert refusal.ephemeral and refusal.content == f"Level must be between 1 and 100.\n{KEPT}"
    assert await snapshot(env) == before  # nothing made
    (button,) = refusal.buttons()
    assert button["label"] == "Open the form" and button["custom_id"].startswith("tk:form:char:")
    again = await d.click(refusal, "Open the form", user=d.player)
    assert shown(again) == {
        "Name": "Bo", "Level": "999", "Classes": "d8/3", "Toughness": None,
        "How classes combine": [],
    }  # fmt: skip
    made = await submit(env, again, d.player, level="3")
    assert made.embed["title"] == "Created Bo"
    assert (await env.table()).get("Bo").classes == ((8, 3),)


async def test_the_rules_refuse_a_form_as_they_refuse_the_options(env: Any) -> None:
    d = env.discord
    form = await d.slash("character create", user=d.player)
    typed = await d.slash("character create", user=d.player, name="Cy", toughness=9)
    refusal = await submit(env, form, d.player, name="Cy", toughness="9")
    assert typed.ephemeral and refusal.ephemeral
    assert refusal.content.startswith(typed.content)  # the same words: the same check
    words = await submit(env, await d.slash("character create", user=d.player), d.player,
                         name="Cy", level="v")  # fmt: skip
    assert words.content.startswith("Level needs a whole number.")
    assert not (await env.table()).characters


async def test_the_form_after_a_restart_opens_empty_and_says_why(env: Any) -> None:
    d = env.discord
    form = await d.slash("character create", user=d.player)
    refusal = await submit(env, form, d.player, name="Bo", level="0")
    await env.restart()
    again = await d.click(refusal, "Open the form", user=d.player)
    assert again.callback_type == 9 and shown(again)["Name"] is None
    first = again.modal["components"][0] if again.modal else {}
    assert first["label"] == "Name" and first["description"] == LOST
    made = await submit(env, again, d.player, name="Bo", level="2")
    assert made.embed["title"] == "Created Bo"


async def test_another_user_never_gets_what_was_typed(env: Any) -> None:
    d = env.discord
    refusal = await submit(env, await d.slash("character create", user=d.player), d.player,
                           name="Secret", level="0")  # fmt: skip
    theirs = await d.click(refusal, "Open the form", user=d.player2)  # a forged click
    assert theirs.callback_type == 9 and shown(theirs)["Name"] is None


async def test_typed_options_work_as_before_and_missing_ones_are_named(env: Any) -> None:
    d = env.discord
    made = await d.slash("character create", user=d.player, name="Cy", level=3, classes="10:3")
    assert made.embed["title"] == "Created Cy" and not made.ephemeral
    text = await refused(env, "character create", d.player, level=3)
    assert text == "`/character create` needs `name` too, or no options at all to fill in a form"


async def test_the_forms_speak_the_readers_language(env: Any) -> None:
    """Spanish words fit Discord's limits too (the local Discord checks every form)."""
    d = env.discord
    player, gm = speaking(d.player, "es-ES"), speaking(d.gm, "es-ES")
    form = await d.slash("character create", user=player)
    assert form.modal is not None and form.modal["title"] == "Un personaje nuevo"
    assert list(kinds(form)) == [
        "Nombre", "Nivel", "Clases", "Dureza", "Cómo se combinan las clases",
    ]  # fmt: skip
    refusal = await submit(env, form, player, nombre="Bo", nivel="0")
    assert refusal.content.startswith("Nivel debe estar entre 1 y 100.")
    await env.restart()
    again = await d.click(refusal, "Abrir el formulario", user=player)
    assert again.modal is not None and again.modal["components"][0]["description"].startswith(
        "Lo que escribiste se perdió"
    )
    monster = await d.slash("monster create", user=gm)
    assert monster.modal is not None and monster.modal["title"] == "Un monstruo nuevo"
    made = await submit(env, monster, gm, nombre="Trol", rank="2", armadura="Ligera")
    assert made.ephemeral and made.embed["title"] == "Creado: Trol"


# --- /character set ---------------------------------------------------------------------------


async def test_set_with_only_a_name_opens_the_form_filled_and_never_freezes_the_level(
    env: Any,
) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Aria", level=4, classes="d10/4")
    form = await d.slash("character set", user=d.player, name="aria")
    assert form.modal is not None and form.modal["title"] == "Change Aria"
    assert shown(form) == {
        "Name": "Aria", "Level": "4", "Classes": "d10/4", "Toughness": "0",
        "How classes combine": ["single"],
    }  # fmt: skip
    same = await submit(env, form, d.player)  # sent back as shown
    assert same.embed["title"] == "Nothing changed: Aria was already so"
    assert (await env.table()).get("Aria").fl_override is None
    form = await d.slash("character set", user=d.player, name="Aria")
    changed = await submit(env, form, d.player, name="Arya", level="5", classes="d10/5")
    assert changed.embed["title"] == "Changed Arya" and not changed.ephemeral
    arya = (await env.table()).get("Arya")
    assert (arya.level, arya.classes, arya.fl_override) == (5, ((10, 5),), None)


async def test_set_alone_opens_the_callers_own_and_an_emptied_field_is_cleared(env: Any) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Aria", classes="d10/4")
    form = await d.slash("character set", user=d.player)  # no name: the player's only one
    assert form.modal is not None and form.modal["title"] == "Change Aria"
    await submit(env, form, d.player, classes="")
    assert (await env.table()).get("Aria").classes == ()


async def test_set_form_is_refused_at_once_to_whoever_may_not_change_it(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Odo", d.player2))
    text = await refused(env, "character set", d.player, name="Odo")
    assert "your own" in text


async def test_set_form_reopened_after_a_restart_reads_the_character_again(env: Any) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Aria", level=4)
    form = await d.slash("character set", user=d.player, name="Aria")
    refusal = await submit(env, form, d.player, level="101")
    assert refusal.content.startswith("Level must be between 1 and 100.")
    assert refusal.buttons()[0]["custom_id"].startswith("tk:form:sheet:")
    await env.restart()
    again = await d.click(refusal, "Open the form", user=d.player)
    assert shown(again)["Level"] == "4"  # as stored: what was typed is gone
    assert again.modal is not None and again.modal["components"][0]["description"] == LOST


async def test_a_slow_read_offers_the_form_behind_a_button(
    env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Aria", level=4)
    gate = asyncio.Event()
    slow = held(env.store.read, gate)
    monkeypatch.setattr(env.store, "read", slow)
    late = await d.slash("character set", user=d.player, name="Aria")
    assert late.ephemeral and late.content == FORM_LATE
    gate.set()
    form = await d.click(late, "Open the form", user=d.player)
    assert form.callback_type == 9 and shown(form)["Level"] == "4"


def held(read: Callable[..., Awaitable[Any]], gate: asyncio.Event) -> Callable[..., Any]:
    """`read` that waits for `gate`, as a slow disk would."""

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await gate.wait()
        return await read(*args, **kwargs)

    return slow


# --- /monster create --------------------------------------------------------------------------


async def test_the_monster_form_makes_a_hidden_monster_for_the_gm_alone(env: Any) -> None:
    d = env.discord
    form = await d.slash("monster create", user=d.gm)
    assert form.modal is not None and form.modal["title"] == "A new monster"
    assert kinds(form) == {
        "Name": TEXT_INPUT,
        "Rank": RADIO_GROUP,
        "Armor": STRING_SELECT,
        "HP": TEXT_INPUT,
        "Unarmored spots": CHECKBOX_GROUP,
    }
    made = await submit(
        env, form, d.gm, name="Troll", rank="3", armor="Heavy", hp="40", spots="back, back-left"
    )
    assert made.ephemeral and made.embed["title"] == "Created Troll"
    public = [m for m in d.server.messages.values() if not m.flags & 64]
    assert not public  # behind the GM's screen: the channel saw nothing
    troll = (await env.table()).get_monster("Troll")
    assert troll.hidden and troll.hp_max == 40 and troll.block.rank == 3
    assert troll.block.armor == "heavy"
    assert sorted(troll.block.spot_names) == ["back", "back-left"]


async def test_the_monster_form_refuses_a_bad_hp_and_after_a_restart_opens_empty(
    env: Any,
) -> None:
    d = env.discord
    form = await d.slash("monster create", user=d.gm)
    before = await snapshot(env)
    refusal = await submit(env, form, d.gm, name="Troll", rank="3", armor="Heavy", hp="0")
    assert refusal.ephemeral and refusal.content.startswith("HP must be between 1 and ")
    assert await snapshot(env) == before
    again = await d.click(refusal, "Open the form", user=d.gm)
    assert shown(again)["Rank"] == ["3"] and shown(again)["HP"] == "0"
    await env.restart()
    empty = await d.click(refusal, "Open the form", user=d.gm)
    assert shown(empty)["Rank"] == [] and shown(empty)["Name"] is None
    assert empty.modal is not None and empty.modal["components"][0]["description"] == LOST


async def test_monster_options_work_as_before_and_missing_ones_are_named(env: Any) -> None:
    d = env.discord
    text = await refused(env, "monster create", d.gm, name="Troll")
    assert text == (
        "`/monster create` needs `rank` and `armor` too, or no options at all to fill in a form"
    )
    made = await d.slash("monster create", user=d.gm, name="Goblin", rank=1, armor="light", count=2)
    assert made.ephemeral and made.embed["title"] == "Created Goblin 1, Goblin 2"


async def test_a_player_is_refused_the_monster_form_and_a_gm_by_role_gets_it(env: Any) -> None:
    d = env.discord
    await seed(env, gm_role_id=d.guild.role("GM").id)
    text = await refused(env, "monster create", d.player)
    assert text.startswith("Only the GM")
    form = await d.slash("monster create", user=d.named_gm)  # read first: the role's settings
    assert form.callback_type == 9
