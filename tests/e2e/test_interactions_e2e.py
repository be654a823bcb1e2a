"""Forms, menus, views and Components V2 cards through the real client and the local Discord,
dispatched by discord.py itself (tests/e2e/forms_cog.py): each handler reads and writes the
store; a form submitted after a restart, a view clicked after one, and a stale or forged `tk:`
click are answered politely, once; a slow handler is never also answered as unclaimed, and a
bare discord.py view or form is left to answer by itself."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.unclaimed import FORM_GONE, MENU_GONE, UNKNOWN_CLICK
from bot.watchdog import WATCHDOG
from cogs._reply import FORM_LATE
from tests.e2e.conftest import Env, running_env
from tests.e2e.helpers import hero, seed, snapshot
from tests.localdiscord import forge
from tests.localdiscord.payloads import interaction_payload
from tests.localdiscord.records import COMPONENTS_V2, InteractionRecord
from tests.localdiscord.reply import Reply, walk


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    async with running_env(f"sqlite:///{tmp_path / 'tk.db'}", "tests.e2e.forms_cog") as e:
        yield e


def callbacks(env: Env, reply: Reply) -> tuple[int | None, int]:
    """The callback type the reply's interaction was answered with, and how many callbacks the
    bot sent for it (a second one is what Discord refuses with 40060)."""
    rec = env.discord.server.interactions[reply.interaction_id]
    sent = env.discord.requests.count(f"POST /interactions/{rec.id}/{rec.token}/callback")
    return rec.callback_type, sent


def fields(form: Reply) -> dict[str, str]:
    """A form's fields by label: a text input's custom_id (its own label), or the custom_id of
    the select menu in a labelled field."""
    found = {}
    for c in walk(list(form.modal["components"]) if form.modal else []):
        if c.get("type") == 4:
            found[c["label"]] = c["custom_id"]
        elif c.get("type") == 18:
            found[c["label"]] = c["component"]["custom_id"]
    return found


async def test_a_command_with_no_options_opens_a_form_whose_submission_is_saved(env: Env) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    form = await d.slash("form", user=d.player)
    assert form.callback_type == 9 and form.modal is not None
    assert form.modal["custom_id"].startswith("tk:form:")
    ids = fields(form)
    filled = {ids["Name"]: "Bree", ids["Level"]: "4", ids["Toughness"]: ["2"]}
    done = await d.submit_modal(form, filled, user=d.player)
    assert done.text == "Made Bree, level 4: 2 in the party"
    assert not done.ephemeral  # the form declares its answer public
    bree = (await env.table()).get("Bree")
    assert (bree.level, bree.owner_id, bree.toughness) == (4, d.player.id, 2)
    assert (await d.slash("form", user=d.player, name="Cy", level=2)).text.startswith("Made Cy")


async def test_a_bad_value_in_a_form_is_refused_privately_and_changes_nothing(env: Env) -> None:
    d = env.discord
    form = await d.slash("form", user=d.player)
    before = await snapshot(env)
    ids = fields(form)
    refused = await d.submit_modal(form, {ids["Name"]: "Bree", ids["Level"]: "999"}, user=d.player)
    assert refused.ephemeral and "Level must be a whole number from 1 to 20" in refused.text
    assert await snapshot(env) == before


async def test_a_form_submitted_after_a_restart_is_answered_and_changes_nothing(env: Env) -> None:
    d = env.discord
    form = await d.slash("form", user=d.player)
    await env.restart()  # discord.py drops a submission it holds no live form for
    before = await snapshot(env)
    ids = fields(form)
    late = await d.submit_modal(form, {ids["Name"]: "Bree", ids["Level"]: "4"}, user=d.player)
    assert late.ephemeral and late.content == FORM_GONE
    assert await snapshot(env) == before


async def test_a_form_that_reads_first_opens_at_once_when_the_read_is_quick(env: Env) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    form = await d.slash("form_edit", user=d.player, name="Aria")
    assert form.callback_type == 9 and form.modal is not None
    (level,) = [c for c in walk(list(form.modal["components"])) if c.get("type") == 4]
    assert level["value"] == "1"  # filled in with what is stored
    done = await d.submit_modal(form, {level["custom_id"]: "7"}, user=d.player)
    assert done.ephemeral and done.text == "Aria is level 7"  # a form's answer is private
    assert (await env.table()).get("Aria").level == 7


async def test_a_slow_read_answers_with_a_button_that_opens_the_form(env: Env) -> None:
    """Discord shows no form after a deferral: a read not done in the watchdog's time gets a
    private "Open the form" button instead, which opens the form once it is read."""
    d = env.discord
    await seed(env, hero("Aria", d.player))
    cog = env.bot.get_cog("Forms")
    cog.gate.clear()  # type: ignore[union-attr]
    late = await d.slash("form_edit", user=d.player, name="Aria")
    assert late.callback_type == 4 and late.ephemeral and late.content == FORM_LATE
    assert [b["label"] for b in late.buttons()] == ["Open the form"]
    assert late.buttons()[0]["custom_id"].startswith("tk:")
    cog.gate.set()  # type: ignore[union-attr]
    form = await d.click(late, "Open the form", user=d.player)
    assert form.callback_type == 9
    done = await d.submit_modal(form, {fields(form)["Level"]: "9"}, user=d.player)
    assert done.ephemeral and done.text == "Aria is level 9"
    assert (await env.table()).get("Aria").level == 9


async def test_a_menu_of_characters_makes_the_one_chosen_active(env: Env) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player), hero("Grusk", d.player), hero("Bo", d.player2))
    menu = await d.slash("pick", user=d.player)
    ids = [c["custom_id"] for c in walk(list(menu.components)) if "custom_id" in c]
    assert len(ids) == 2 and all(i.startswith("tk:") for i in ids)
    chosen = await d.click(menu, "Which character", user=d.player, values=["Grusk"])
    assert chosen.content == "Grusk is active" and not chosen.components
    assert [c.name for c in (await env.table()).characters if c.active] == ["Grusk"]


async def test_a_menu_of_members_reads_whom_it_names(env: Env) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player), hero("Bo", d.player2), hero("Cy", d.player2))
    menu = await d.slash("pick", user=d.player)
    said = await d.click(menu, "Whose characters", user=d.player, values=[d.player2])
    (word,) = said.followups or (said,)
    assert word.ephemeral and word.content.endswith("plays 2 here")


async def test_a_view_clicked_after_a_restart_is_answered_and_changes_nothing(env: Env) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player), hero("Grusk", d.player))
    menu = await d.slash("pick", user=d.player)
    await env.restart()
    before = await snapshot(env)
    stale = await d.click(menu, "Which character", user=d.player, values=["Grusk"])
    assert stale.ephemeral and stale.content == MENU_GONE
    assert await snapshot(env) == before


async def test_a_components_v2_card_is_clicked_and_redrawn(env: Env) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player), hero("Bo", d.player2))
    card = await d.slash("card", user=d.player)
    message = d.server.messages[card.message_id or 0]
    assert message.flags & COMPONENTS_V2 and not card.content and not card.embeds
    assert "**Aria** FP 0" in [c.get("content") for c in walk(list(card.components))]
    after = await d.click(card, "Spend 1 (Bo)", user=d.player2)
    assert after.message_id == card.message_id
    assert "**Bo** FP 1" in [c.get("content") for c in walk(list(after.components))]
    assert (await env.table()).get("Bo").fatigue.fp == 1
    await env.restart()  # its restart-proof button, inside the layout, still works
    spent = await d.click(d.latest(after), "Spend 1 more", user=d.player)
    assert "Aria spends 1 FP" in spent.text
    assert (await env.table()).get("Aria").fatigue.fp == 1


async def test_a_slow_handler_is_deferred_and_never_answered_as_unclaimed(env: Env) -> None:
    d = env.discord
    view = await d.slash("slow", user=d.player)
    done = await d.click(view, "Slowly", user=d.player)  # 1.6 s: past the watchdog
    assert callbacks(env, done) == (6, 1)  # the watchdog's silent update, nothing else
    assert [f.text for f in done.followups] == ["done, slowly"]
    assert all(UNKNOWN_CLICK not in m.content for m in d.server.messages.values())


async def test_a_bare_discord_py_view_and_form_are_left_to_answer_themselves(env: Env) -> None:
    d = env.discord
    plain = await d.slash("plain", user=d.player)
    assert not any(c.get("custom_id", "").startswith("tk:") for c in walk(list(plain.components)))
    chosen = await d.click(plain, "Level", user=d.player, values=["2"])  # 1.6 s, undeferred
    assert callbacks(env, chosen) == (4, 1) and chosen.content == "Level 2 chosen"
    form = await d.click(plain, "Form", user=d.player)
    made = await d.submit_modal(form, {fields(form)["Level"]: "3"}, user=d.player)
    assert made.text == "Made Plain, level 3: 1 in the party"
    await asyncio.sleep(WATCHDOG + 0.2)
    d.assert_clean()  # each answered once: no second answer, no "no longer does anything"
    assert all(UNKNOWN_CLICK not in m.content for m in d.server.messages.values())


async def test_a_forged_click_without_the_bots_prefix_is_not_the_bots_to_answer(env: Env) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    shown = await d.slash("fatigue show", user=d.player)
    forge.plant_button(d, shown, "not-ours")
    message = d.server.messages[shown.message_id or 0].payload()
    data = {"custom_id": "not-ours", "component_type": 2}
    payload = interaction_payload(d.world, 3, d.player, d.table, data, message)
    rec = InteractionRecord(int(payload["id"]), payload["token"], 3, payload)
    d.server.interactions[rec.id] = rec
    await d.server.gateway.dispatch("INTERACTION_CREATE", payload)
    await asyncio.sleep(WATCHDOG + 0.3)  # long past any answer of the bot's
    assert rec.callback_type is None and not rec.followup_ids
    rec.noted_late = True  # left unanswered on purpose: a plain view's, as far as we know
