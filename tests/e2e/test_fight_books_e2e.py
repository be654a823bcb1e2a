"""The fight keeps its own books, through the real client and a local Discord: a group joins
with its living members only; a stored initiative bonus (characters and monsters) is added to
the channel's dice, each member of a group rolling its own; ties go by the bonus, then by a
roll-off kept with the order (undo and redo bring the same order back); `/monster remove
defeated:True` clears the defeated after one confirmation."""

from __future__ import annotations

from typing import Any

from tests.e2e.helpers import Scripted, hero, refused, seed
from tests.e2e.test_initiative_e2e import order


async def test_bonuses_are_rolled_with_the_dice_and_break_ties_then_a_kept_roll_off(
    env: Any,
) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player), hero("Bórin", d.player2))
    await d.slash("character set", user=d.player, name="Aria", init_bonus=3)
    made = await d.slash(
        "monster create",
        user=d.gm,
        name="Goblin",
        rank=1,
        armor="light",
        hp=10,
        count=3,
        init_bonus=1,
    )
    assert made.ephemeral
    dice = Scripted([4, 6, 6, 55, 20, 6, 7])
    env.bot.get_cog("Initiative").rng = dice
    aria = await d.slash("init add", user=d.player)  # her own: 1d10 (4) + 3
    assert "Aria joins the initiative at 7" in aria.text and "1d10 (4) + 3" in aria.text
    goblins = await d.slash("init add", user=d.gm, name="Goblin")  # each 1d10 + 1
    # Goblin 1 rolls 6+1, Goblin 2 6+1 (a tie at score and bonus: roll-offs 55 and 20),
    # Goblin 3 6+1 (ties them both: its roll-off 7). Aria's 7 has the higher bonus.
    assert "Goblin 1: 1d10 (6) + 1" in goblins.text
    assert (
        "⚖️ Tied at 7: Aria (bonus +3) · Goblin 1 (bonus +1, roll-off 55) · "
        "Goblin 2 (bonus +1, roll-off 20) · Goblin 3 (bonus +1, roll-off 7)" in goblins.text
    )
    assert not dice.faces
    expected = ["Aria", "Goblin 1", "Goblin 2", "Goblin 3"]
    assert order(goblins) == expected
    # The roll-offs are kept: the order reads the same after a restart, an undo and a redo.
    await env.restart()
    assert order(await d.slash("init show", user=d.player)) == expected
    await d.slash("init add", user=d.player2, name="Bórin", score="7")  # no bonus: last of 7s
    assert order(await d.slash("init show", user=d.player))[-1] == "Bórin"
    await d.slash("undo", user=d.player2)
    await d.slash("redo", user=d.player2)
    assert order(await d.slash("init show", user=d.player)) == [*expected, "Bórin"]
    sheet = await d.slash("character show", user=d.player)
    assert "Initiative bonus +3" in sheet.text
    history = (await d.slash("history", user=d.player)).embed["description"]
    assert "Aria initiative bonus 0 → 3" in history


async def test_a_group_joins_with_its_living_members_only(env: Any) -> None:
    d = env.discord
    await d.slash("monster create", user=d.gm, name="Kobold", rank=0, armor="light", hp=4, count=3)
    await d.slash("monster hit", user=d.gm, name="Kobold 2", damage=20)  # defeated
    env.bot.get_cog("Initiative").rng = Scripted([5, 3])
    joined = await d.slash("init add", user=d.gm, name="kobold")
    assert "Kobold 1, Kobold 3 join the initiative" in joined.text and "Kobold 2" not in joined.text
    assert [c.name for c in (await env.table()).initiative.combatants] == ["Kobold 1", "Kobold 3"]
    again = await refused(env, "init add", d.gm, name="Kobold")
    assert "Every one of Kobold is already in the initiative or defeated" in again
    # Named on its own, the GM may still add a defeated one deliberately.
    added = await d.slash("init add", user=d.gm, name="Kobold 2", score="1")
    assert "Kobold 2 joins the initiative at 1" in added.text


async def test_the_defeated_are_cleared_after_one_confirmation(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    await d.slash("monster create", user=d.gm, name="Orc", rank=1, armor="light", hp=5, count=3)
    await d.slash("monster create", user=d.gm, name="Ogre", rank=2, armor="medium", hp=30)
    for name, score in (("Orc 1", "9"), ("Orc 2", "8"), ("Aria", "7"), ("Ogre", "6")):
        await d.slash("init add", user=d.gm, name=name, score=score)
    await d.slash("init start", user=d.gm)
    for name in ("Orc 1", "Orc 2", "Orc 3"):
        await d.slash("monster hit", user=d.gm, name=name, damage=30)
    assert "Only the GM" in await refused(env, "monster remove", d.player, defeated=True)
    menu = await d.slash("monster remove", user=d.gm)  # nothing named: a menu of them all
    assert menu.ephemeral and menu.content == (
        "Which monsters? Choose one or several, then Remove.\n"
        "`defeated:True` removes the 3 defeated at once."
    )
    asked = await d.slash("monster remove", user=d.gm, defeated=True)
    assert asked.ephemeral and asked.embed["title"] == "Remove all 3 defeated monsters?"
    assert asked.embed["description"].startswith("Orc 1, Orc 2, Orc 3: out of the bestiary")
    assert [b["label"] for b in asked.buttons()] == ["Remove", "Cancel"]
    done = await d.click(asked, "Remove", user=d.gm)
    assert done.embed["title"] == "Removed the defeated: Orc 1, Orc 2, Orc 3"
    # Orc 1 fell on its own turn: the turn passed on, as /init remove passes it.
    assert "Orc 1's turn ends" in done.embed["description"]
    table = await env.table()
    assert [m.name for m in table.monsters] == ["Ogre"]
    assert [c.name for c in table.initiative.combatants] == ["Aria", "Ogre"]
    assert table.initiative.current is not None and table.initiative.current.name == "Aria"
    history = await env.store.history(d.table.id, limit=1)
    assert history[0].action == "monster remove defeated"  # named as the GM asked
    assert "No monster here is defeated" in await refused(
        env, "monster remove", d.gm, defeated=True
    )
    # One change: one /undo brings all three back, in the order as they were.
    back = await d.slash("undo", user=d.gm)  # bringing back asks nothing
    assert back.embed["title"] == "↩️ Undone: monster remove defeated"
    assert "monster Orc 3 brought back" in back.text
    table = await env.table()
    assert [m.name for m in table.monsters] == ["Ogre", "Orc 1", "Orc 2", "Orc 3"]
    assert [c.name for c in table.initiative.combatants] == ["Orc 1", "Orc 2", "Aria", "Ogre"]
