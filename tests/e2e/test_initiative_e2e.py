"""`/init` through the real client and a local Discord: the order (highest first, ties by the
initiative bonus, then a roll-off), whose turn and the round, the clock moving exactly one round
per new round by `/clock round`'s own step, the facing offered to the GM alone when a monster
with unarmored spots ends its turn, who may do what, undo and history, bad input, and all of it
across a restart."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest

from cogs.initiative import GM_INIT
from rules.defense import FACINGS
from table.initiative import NOBODY, NOT_RUNNING, PLAYERS_ADD_OWN
from tests.e2e.helpers import Scripted, hero, refused, seed, snapshot, whispered
from tests.e2e.test_ack_e2e import store_held
from tests.localdiscord.reply import Reply

pytestmark = pytest.mark.asyncio


def order(reply: Reply) -> list[str]:
    """The names in the order shown, the one whose turn it is marked with `>`."""
    lines = (reply.embed.get("description") or "").splitlines()
    out = []
    for line in lines:
        if " · " not in line or line.startswith(("Round", "⚖️")):
            continue
        name = " ".join(line.split(" · ")[0].split()[2:]).strip("*~")  # after mark and icon
        down = "†" if line.endswith("defeated") else ""
        out.append((">" if line.startswith("▶️") else "") + name + down)
    return out


async def fight(env: Any) -> None:
    """Aria (pippa's), Borin (perrin's), a Troll with a spot at its back, and a Goblin."""
    d = env.discord
    await seed(
        env,
        replace(hero("Aria", d.player, fp=10, temp=5, temp_expires=0), init_bonus=2),
        hero("Borin", d.player2),
    )
    await d.slash("monster create", user=d.gm, name="Troll", rank=3, armor="heavy", spots="back")
    await d.slash("init add", user=d.gm, name="troll", score="18")
    await d.slash("init add", user=d.gm, name="Goblin boss", score="15", other=True)
    await d.slash("init add", user=d.player, name="Aria", score="15")  # before him: her bonus
    await d.slash("init add", user=d.player2, name="Borin", score="-3")


async def test_a_round_of_initiative_moves_the_clock_one_round(env: Any) -> None:
    d = env.discord
    await fight(env)
    shown = await d.slash("init show", user=d.player)
    assert order(shown) == ["Troll", "Aria", "Goblin boss", "Borin"]
    assert "Not started" in shown.text
    clock = (await env.table()).clock

    started = await d.slash("init start", user=d.gm)
    assert "Round 1" in started.text and order(started)[0] == ">Troll"
    assert (await env.table()).clock == clock  # starting moves no time

    troll_done = await d.slash("init next", user=d.gm)
    assert "Aria's turn" in troll_done.embed["title"]
    assert troll_done.buttons() == [] and "facing" not in troll_done.text  # the GM's alone:
    assert [b["label"] for b in (await whispered(d, troll_done)).buttons()] == list(FACINGS)
    for _ in range(2):
        passed = await d.slash("init next", user=d.gm)
        assert not passed.buttons()  # a character or a plain name: no facing to choose
    assert (await env.table()).clock == clock

    new_round = await d.slash("init next", user=d.gm)  # Borin was last: round 2
    assert "Round 2 begins" in new_round.embed["title"] and "Troll's turn" in new_round.text
    assert "1 round passes" in new_round.text
    # One round number in the reply, the fight's: not the clock's own count beside it.
    assert re.findall(r"round (\d+)", new_round.text, re.IGNORECASE) == ["2"]
    table = await env.table()
    assert table.clock == clock + table.settings.round_seconds  # exactly one round
    aria = table.get("Aria").fatigue
    assert (aria.fp, aria.temp) == (9, 4)  # expired Temporary FP faded once, as /clock round
    shown = await d.slash("init show", user=d.player2)
    assert "Round 2" in shown.text and order(shown)[0] == ">Troll"


async def test_the_facing_choice_turns_the_monster_for_the_gm_only(env: Any) -> None:
    d = env.discord
    await fight(env)
    await d.slash("init start", user=d.gm)
    asked = await whispered(d, await d.slash("init next", user=d.gm))
    before = await snapshot(env)
    player = await d.click(asked, "SE", user=d.player)  # a forged click: the prompt is the GM's
    assert player.ephemeral and "Only the GM" in player.content
    assert await snapshot(env) == before
    turned = await d.click(asked, "SE", user=d.gm)
    assert turned.ephemeral and "Troll now faces SE" in turned.text
    assert (await env.table()).get_monster("Troll").facing == "SE"


async def test_who_may_do_what(env: Any) -> None:
    d = env.discord
    await fight(env)
    assert PLAYERS_ADD_OWN in await refused(env, "init add", d.player, name="Troll", score="3")
    assert PLAYERS_ADD_OWN in await refused(env, "init add", d.player, name="Borin", score="3")
    assert PLAYERS_ADD_OWN in await refused(env, "init add", d.player, name="Ghost", score="3")
    ghost = await refused(env, "init add", d.player, name="Ghost", score="3", other=True)
    assert PLAYERS_ADD_OWN in ghost
    for command in ("init start", "init next", "init end"):
        assert GM_INIT in await refused(env, command, d.player)
    assert GM_INIT in await refused(env, "init remove", d.player, name="Aria")
    dupe = await refused(env, "init add", d.gm, name="aria", score="2")
    assert "already in the initiative" in dupe


async def test_a_name_that_matches_nothing_is_offered_the_close_one(env: Any) -> None:
    d = env.discord
    await d.slash("monster create", user=d.gm, name="Cave Troll", rank=3, armor="heavy", hp=30)
    typo = await refused(env, "init add", d.gm, name="Troll", score="5")
    assert "No character or monster named 'Troll' here: did you mean Cave Troll?" in typo
    assert "other:True" in typo
    added = await d.slash("init add", user=d.gm, name="Cave Troll", score="5")
    assert "Cave Troll joins the initiative at 5" in added.text
    assert [c.kind for c in (await env.table()).initiative.combatants] == ["monster"]
    hireling = await d.slash("init add", user=d.gm, name="Hireling", score="2", other=True)
    assert order(hireling) == ["Cave Troll", "Hireling"]


async def test_bad_input_changes_nothing(env: Any) -> None:
    d = env.discord
    for score in ("1001", "-1001", "1d6+1000"):
        too_far = await refused(env, "init add", d.gm, name="Orc", score=score, other=True)
        assert "must be between −1000 and 1000" in too_far
    assert "can't read `2d` as dice" in await refused(
        env, "init add", d.gm, name="Orc", score="2d", other=True
    )
    assert "needs a score" in await refused(env, "init add", d.gm, name="Orc", other=True)
    assert NOBODY in await refused(env, "init start", d.gm)
    assert NOT_RUNNING in await refused(env, "init next", d.gm)
    assert "no initiative to end" in await refused(env, "init end", d.gm)
    await fight(env)
    assert NOT_RUNNING in await refused(env, "init next", d.gm)  # added, not started
    unknown = await refused(env, "init remove", d.gm, name="Smaug")
    assert "No 'Smaug' in the initiative" in unknown and "Troll" in unknown
    await d.slash("init start", user=d.gm)
    assert "already running" in await refused(env, "init start", d.gm)


async def test_end_undo_and_history(env: Any) -> None:
    d = env.discord
    await fight(env)
    await d.slash("init start", user=d.gm)
    await d.slash("init next", user=d.gm)
    left = await d.slash("init remove", user=d.gm, name="Goblin boss")
    assert order(left) == ["Troll", ">Aria", "Borin"]
    clock = (await env.table()).clock
    ended = await d.slash("init end", user=d.gm)
    assert "The fight is over after 1 round" in ended.text
    shown = await d.slash("init show", user=d.player)
    assert order(shown) == [] and "Nobody is in the initiative" in shown.text
    assert NOT_RUNNING in await refused(env, "init next", d.gm)
    assert (await env.table()).clock == clock

    undone = await d.slash("undo", user=d.gm)
    assert "init end" in undone.text
    back = await d.slash("init show", user=d.player)
    assert order(back) == ["Troll", ">Aria", "Borin"] and "Round 1" in back.text
    history = await d.slash("history", user=d.player)
    for words in ("init add", "Aria joins (15)", "Goblin boss leaves", "started, round 1"):
        assert words in history.text, words
    assert "initiative ended" in history.text


async def test_the_initiative_survives_a_restart(env: Any) -> None:
    d = env.discord
    await fight(env)
    await d.slash("init start", user=d.gm)
    asked = await whispered(d, await d.slash("init next", user=d.gm))
    await env.restart()
    shown = await d.slash("init show", user=d.player)
    assert "Round 1" in shown.text and order(shown)[1] == ">Aria"
    turned = await d.click(asked, "W", user=d.gm)  # the facing buttons too
    assert "Troll now faces W" in turned.text
    passed = await d.slash("init next", user=d.gm)
    assert "Goblin boss's turn" in passed.embed["title"]


async def test_names_are_suggested(env: Any) -> None:
    d = env.discord
    await fight(env)
    offered = await d.autocomplete("init add", "name", "", user=d.player)
    assert [c["name"] for c in offered] == ["Aria", "Borin", "Troll"]  # own first, then monsters
    leaving = await d.autocomplete("init remove", "name", "bo", user=d.gm)
    assert [c["name"] for c in leaving] == ["Goblin boss", "Borin"]


async def test_a_player_may_undo_adding_their_own_character(env: Any) -> None:
    d = env.discord
    await fight(env)
    await d.slash("init start", user=d.gm)
    await d.slash("init remove", user=d.gm, name="Aria")
    await d.slash("init add", user=d.player, name="Aria", score="20")  # back in, at the top
    undone = await d.slash("undo", user=d.player)
    assert "init add" in undone.text
    shown = await d.slash("init show", user=d.player)
    assert order(shown) == [">Troll", "Goblin boss", "Borin"]  # still the Troll's turn
    # Their first add is older than others' changes to the order: those come first.
    again = await refused(env, "undo", d.player)
    assert "also touched the initiative" in again


async def test_a_character_renamed_mid_fight_keeps_its_place(env: Any) -> None:
    d = env.discord
    await fight(env)
    await d.slash("init start", user=d.gm)
    await d.slash("init next", user=d.gm)  # Aria's turn
    await d.slash("character set", user=d.player, name="Aria", new_name="Arya")
    shown = await d.slash("init show", user=d.player)
    assert order(shown) == ["Troll", ">Arya", "Goblin boss", "Borin"]
    history = await d.slash("history", user=d.player)
    line = next(x for x in history.embed["description"].splitlines() if "character set" in x)
    assert "Arya renamed from Aria" in line and "joins" not in line and "leaves" not in line
    await d.slash("undo", user=d.player)  # their own rename, as before the fight
    shown = await d.slash("init show", user=d.player)
    assert order(shown) == ["Troll", ">Aria", "Goblin boss", "Borin"]


async def test_a_defeated_monster_is_passed_over_and_leaves_at_any_time(env: Any) -> None:
    d = env.discord
    await fight(env)
    await d.slash("monster create", user=d.gm, name="Imp", rank=1, armor="light", hp=10)
    await d.slash("init add", user=d.gm, name="Imp", score="16")
    await d.slash("init start", user=d.gm)
    await d.slash("init next", user=d.gm)  # the Troll's turn ends: the Imp's begins
    hit = await d.slash("monster hit", user=d.gm, name="Imp", damage=40)
    assert "defeated" in hit.text and "passes over it" in hit.text
    shown = await d.slash("init show", user=d.player)
    assert order(shown) == ["Troll", ">Imp†", "Aria", "Goblin boss", "Borin"]
    imp_done = await d.slash("init next", user=d.gm)  # defeated on its turn: no facing asked
    assert (await d.settle(imp_done)).followups == () and "Aria's turn" in imp_done.embed["title"]
    for _ in range(3):
        passed = await d.slash("init next", user=d.gm)
    assert "Round 2 begins" in passed.embed["title"] and "Troll's turn" in passed.text
    troll_done = await d.slash("init next", user=d.gm)  # round 2 passes over the Imp
    assert "Aria's turn" in troll_done.embed["title"] and "passed over: Imp" in troll_done.text
    assert [b["label"] for b in (await whispered(d, troll_done)).buttons()] == list(FACINGS)
    await d.slash("init remove", user=d.gm, name="Imp")  # at any time
    left = await d.slash("init remove", user=d.gm, name="Aria")  # on her turn: it passes
    assert "Aria leaves the fight" in left.text and "Goblin boss's turn" in left.embed["title"]
    assert order(left) == ["Troll", ">Goblin boss", "Borin"]
    undone = await d.slash("undo", user=d.gm)
    assert "init remove" in undone.text
    back = await d.slash("init show", user=d.player)
    assert order(back) == ["Troll", ">Aria", "Goblin boss", "Borin"]
    history = await d.slash("history", user=d.player)
    assert "Imp leaves" in history.text


async def test_a_score_may_be_rolled_or_left_to_the_channels_dice(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player), hero("Borin", d.player2))
    await d.slash("monster create", user=d.gm, name="Troll", rank=3, armor="heavy")
    dice = Scripted([7, 4, 19])
    env.bot.get_cog("Initiative").rng = dice
    rolled = await d.slash("init add", user=d.player, name="Aria", score="1d10+3")
    assert "Aria joins the initiative at 10" in rolled.text and "1d10 (7) + 3" in rolled.text
    default = await d.slash("init add", user=d.gm, name="Troll")  # the channel's 1d10
    assert "Troll joins the initiative at 4" in default.text and "1d10 (4)" in default.text
    await d.slash("settings set", user=d.gm, init_dice="1d20")
    shown = await d.slash("settings show", user=d.gm)
    assert "Initiative dice**: 1d20" in shown.text
    own = await d.slash("init add", user=d.player2, name="Borin")
    assert "Borin joins the initiative at 19" in own.text and "1d20 (19)" in own.text
    assert not dice.faces
    assert order(own) == ["Borin", "Aria", "Troll"]
    bad = await d.slash("settings set", user=d.gm, init_dice="d")
    assert bad.ephemeral and "as dice" in bad.text
    undone = await d.slash("undo", user=d.player2)
    assert "init add" in undone.text
    history = await d.slash("history", user=d.gm)
    assert "Troll joins (4)" in history.text and "1d10 → 1d20" in history.text


async def test_a_group_of_monsters_joins_and_shows_how_hurt_not_how_many_hp(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    made = await d.slash(
        "monster create", user=d.gm, name="Goblin", rank=1, armor="light", hp=10, count=3
    )
    assert "Created Goblin 1, Goblin 2, Goblin 3" in made.text
    offered = await d.autocomplete("init add", "name", "gob", user=d.gm)
    assert [c["name"] for c in offered] == ["Goblin", "Goblin 1", "Goblin 2", "Goblin 3"]
    # Goblins 1 and 2 tie at 9 (no bonus): a roll-off, 40 and 70, puts Goblin 2 first.
    env.bot.get_cog("Initiative").rng = Scripted([9, 9, 40, 70, 2])
    joined = await d.slash("init add", user=d.gm, name="goblin")
    assert "Goblin 1, Goblin 2, Goblin 3 join the initiative" in joined.text
    assert "Goblin 3: 1d10 (2)" in joined.text
    assert (
        "⚖️ Tied at 9: Goblin 2 (bonus +0, roll-off 70) · Goblin 1 (bonus +0, roll-off 40)"
        in joined.text
    )
    assert order(joined) == ["Goblin 2", "Goblin 1", "Goblin 3"]
    await d.slash("init add", user=d.player, name="Aria", score="5")
    again = await refused(env, "init add", d.gm, name="Goblin")
    assert "Every one of Goblin is already in the initiative or defeated" in again
    await d.slash("monster hit", user=d.gm, name="Goblin 1", damage=6)  # Defense 4: 2 taken
    await d.slash("monster hit", user=d.gm, name="Goblin 2", damage=9)  # 5 taken: half left
    await d.slash("monster hit", user=d.gm, name="Goblin 3", damage=30)
    shown = await d.slash("init show", user=d.player)
    lines = [line for line in shown.embed["description"].splitlines() if "Goblin" in line]
    # In turn order: Goblin 2 (the roll-off's winner), Goblin 1, Goblin 3.
    assert [line.split(" · ", 2)[-1] for line in lines] == ["badly hurt", "hurt", "defeated"]
    assert "/ 10" not in shown.text and "HP" not in shown.text  # no numbers to the players
    table = await env.table()
    assert [(m.name, m.hp) for m in table.monsters] == [
        ("Goblin 1", 8),
        ("Goblin 2", 5),
        ("Goblin 3", -16),
    ]
    await d.slash("monster face", user=d.gm, name="Goblin 2", facing="E")
    faces = [m.facing for m in (await env.table()).monsters]
    assert faces == ["N", "E", "N"]  # each its own facing


async def test_during_a_fight_every_clock_shows_the_fights_round(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player), clock=480 * 60)  # the clock's own round 481
    await d.slash("init add", user=d.player, name="Aria", score="5")
    await d.slash("init add", user=d.gm, name="Orc", score="3", other=True)
    outside = await d.slash("clock show", user=d.player)
    assert "Day 1, 08:00 (60 s rounds)" in outside.text and "481" not in outside.text
    await d.slash("init start", user=d.gm)
    await d.slash("init next", user=d.gm)
    round_two = await d.slash("init next", user=d.gm)
    assert "Round 2 begins" in round_two.embed["title"]
    replies = [
        await d.slash("clock show", user=d.player),
        await d.slash("party show", user=d.player),
        await d.slash("fatigue spend", user=d.player, amount=1),
        await d.slash("fatigue show", user=d.player),
        await d.slash("clock pass", user=d.gm, minutes=1),
    ]
    for shown in replies:
        assert "⚔️ Round 2" in shown.text, shown.text
        numbers = re.findall(r"round (\d+)", shown.text, re.IGNORECASE)
        assert numbers == ["2"], shown.text
    await d.slash("init end", user=d.gm)
    after = await d.slash("clock show", user=d.player)
    assert "Round" not in after.text and "Day 1, 08:02 (60 s rounds)" in after.text


async def test_prev_takes_a_slip_back_and_the_player_whose_turn_begins_is_pinged(
    env: Any,
) -> None:
    d = env.discord
    await fight(env)
    started = await d.slash("init start", user=d.gm)
    assert started.content is None or "<@" not in started.content  # the Troll's: nobody
    aria = await d.slash("init next", user=d.gm)
    assert aria.content == f"<@{d.player.id}>, it is Aria's turn"
    message = d.server.messages[aria.message_id]
    assert message.allowed_mentions is not None
    assert message.allowed_mentions.get("users") == [str(d.player.id)]
    assert not message.allowed_mentions.get("parse")  # @everyone and roles stay closed
    assert GM_INIT in await refused(env, "init prev", d.player)
    await d.slash("init next", user=d.gm)
    await d.slash("init next", user=d.gm)  # Borin's turn
    clock = (await env.table()).clock
    round_two = await d.slash("init next", user=d.gm)  # a slip: round 2, the clock moves
    assert "Round 2 begins" in round_two.embed["title"]
    moved = (await env.table()).clock
    assert moved == clock + 60
    back = await d.slash("init prev", user=d.gm)
    assert "Round 1 · back to Borin's turn" in back.embed["title"]
    assert "the clock stays" in back.text
    assert back.content == f"<@{d.player2.id}>, it is Borin's turn"
    assert order(back)[-1] == ">Borin" and (await env.table()).clock == moved
    again = await d.slash("init next", user=d.gm)  # round 2 once more: its step was taken
    assert "Round 2 · Troll's turn" in again.embed["title"] and "round passes" not in again.text
    assert (await env.table()).clock == moved
    undone = await d.slash("undo", user=d.gm)
    assert "init next" in undone.text
    history = await d.slash("history", user=d.player)
    assert "init prev" in history.text and "round 1: Borin's turn" in history.text
    first = await d.slash("init prev", user=d.gm)  # back to round 1 (the undo took next away)
    assert "back to Goblin boss's turn" in first.embed["title"]


@pytest.mark.parametrize("slow", [False, True], ids=["answer", "deferred"])
async def test_the_player_whose_turn_begins_is_notified_however_the_answer_goes(
    env: Any, slow: bool
) -> None:
    """Discord notifies a mention only when a message is created: a deferral's "thinking…"
    filled in is an edit, so a slow answer that pings is sent anew, in place of it."""
    d = env.discord
    await fight(env)
    await d.slash("init start", user=d.gm)
    async with store_held(env, 1.6 if slow else 0):
        aria = await d.slash("init next", user=d.gm)
    assert aria.content == f"<@{d.player.id}>, it is Aria's turn"
    message = d.server.messages[aria.message_id]
    assert message.pinged == (d.player.id,)
    record = d.server.interactions[aria.interaction_id]
    assert record.callback_type == (5 if slow else 4)
    shown = [m for m in d.server.messages.values() if m.interaction_id == aria.interaction_id]
    assert shown == [message]  # the "thinking…" went; one answer stays
