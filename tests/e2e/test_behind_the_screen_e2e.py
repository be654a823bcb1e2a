"""Behind the GM's screen, through the real client and a local Discord: a monster the GM makes
(or brings from a channel of their own) is the GM's until it appears. `/monster create` answers
the GM alone; nothing a player can reach names it (lists, looks, autocomplete, "did you mean",
`/history`, `/undo` and `/redo` replies) until it enters the initiative, is hit, or the GM shows
it (`/monster appear`, `/monster show public:True`)."""

from __future__ import annotations

from typing import Any

from tests.e2e.helpers import fields, hero, refused, seed, whispered
from tests.e2e.test_pictures_e2e import picture
from tests.localdiscord.records import EPHEMERAL

SCREEN = "behind the GM's screen"


async def prepare(env: Any, name: str = "Cave Troll", **options: Any) -> Any:
    d = env.discord
    return await d.slash(
        "monster create", user=d.gm, name=name, rank=3, armor="heavy", hp=40, **options
    )


def names(reply: Any) -> str:
    return reply.text + "".join(str(c) for c in reply.choices)


async def test_a_prepared_monster_is_named_to_the_gm_alone_until_it_appears(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    made = await prepare(env, spots="back")
    assert made.ephemeral and made.embed["title"] == "Created Cave Troll"
    assert "Behind your screen" in made.embed["description"]
    assert fields(made)["Defense"] == "13"  # the GM's whole block
    seen = [m for m in d.server.messages.values() if not m.flags & EPHEMERAL]
    assert not [m for m in seen if "Troll" in f"{m.content}{m.embeds}"]

    # Nothing a player reaches names it.
    for public in (False, True):
        listed = await d.slash("monster list", user=d.player, public=public)
        assert "Troll" not in listed.text and "None yet" in listed.text
    for typed in ("cave trol", "Troll", "Cave Troll"):
        refusal = await refused(env, "monster show", d.player, name=typed)
        assert "did you mean" not in refusal and "Cave Troll" not in refusal.replace(typed, "")
    for command in ("monster show", "init add"):
        offered = await d.autocomplete(command, "name", "", user=d.player)
        assert all("Troll" not in c["name"] for c in offered), offered
    refusal = await refused(env, "init add", d.player, name="Cave Troll", score="3")
    assert "Cave Troll" not in refusal
    # The GM's own list and suggestions mark it.
    mine = await d.slash("monster list", user=d.gm)
    assert mine.ephemeral and mine.embed["description"].startswith("🔒 **Cave Troll**")
    offered = await d.autocomplete("init add", "name", "tro", user=d.gm)
    assert [c["value"] for c in offered] == ["Cave Troll"]
    gm_guess = await refused(env, "monster show", d.gm, name="cave trol")
    assert "did you mean Cave Troll?" in gm_guess  # the GM's own refusal, private

    # Changes to it answer the GM alone; the log says only that the GM prepared something.
    turned = await d.slash("monster face", user=d.gm, name="Cave Troll", facing="E")
    assert turned.ephemeral and "Cave Troll now faces E" in turned.text
    assert picture(turned, "monster.png")[1].startswith("Cave Troll from above, facing E")
    revealed = await d.slash("monster reveal", user=d.gm, name="Cave Troll", spot="back")
    assert revealed.ephemeral
    for history in (
        await d.slash("history", user=d.gm),
        await d.slash("history", user=d.player, private=True),
    ):
        lines = history.embed["description"].splitlines()
        assert "Troll" not in history.text
        assert all(line.endswith(SCREEN) for line in lines[:3]), lines  # reveal, face, create
    own = await d.slash("history", user=d.gm, private=True)
    assert "monster reveal · monster Cave Troll back spot revealed" in own.text

    # The GM's /undo and /redo say it the same way in the channel, and whole to the GM.
    for command in ("undo", "redo"):
        said = await d.slash(command, user=d.gm)
        assert not said.ephemeral and "Troll" not in said.text and SCREEN in said.text
        copy = await whispered(d, said)
        assert "monster Cave Troll back spot" in copy.text

    # It enters the initiative: from now on, the players see it.
    joined = await d.slash("init add", user=d.gm, name="Cave Troll", score="12")
    assert not joined.ephemeral and "Cave Troll joins the initiative at 12" in joined.text
    assert not (await env.table()).get_monster("Cave Troll").hidden
    listed = await d.slash("monster list", user=d.player)
    assert "**Cave Troll** · facing E · unhurt" in listed.text
    history = await d.slash("history", user=d.player)
    assert (
        "init add · monster Cave Troll appears; initiative: Cave Troll joins (12)"
        in (history.embed["description"].splitlines()[0])
    )


async def test_shown_hit_or_made_to_appear_a_monster_comes_into_sight(env: Any) -> None:
    d = env.discord
    for name in ("Imp", "Bat"):
        await prepare(env, name=name)
    await d.slash("monster create", user=d.gm, name="Goblin", rank=1, armor="light", hp=10, count=2)
    # The GM's public look shows it: it appears, picture and all.
    shown = await d.slash("monster show", user=d.gm, name="Imp", public=True)
    assert not shown.ephemeral and shown.embed["title"] == "Imp"
    assert "Defense" not in fields(shown)  # the channel's look: no numbers
    # A hit is seen.
    hit = await d.slash("monster hit", user=d.gm, name="Bat", damage=20)
    assert not hit.ephemeral and hit.embed["title"] == "Bat is hit"
    # A group appears as one.
    appeared = await d.slash("monster appear", user=d.gm, name="Goblin")
    assert not appeared.ephemeral
    assert appeared.embed["title"] == "👁️ Goblin 1, Goblin 2 appear"
    assert appeared.embed["description"].splitlines() == [
        "**Goblin 1** · facing N · unhurt",
        "**Goblin 2** · facing N · unhurt",
    ]
    assert [m.hidden for m in (await env.table()).monsters] == [False] * 4
    again = await refused(env, "monster appear", d.gm, name="Imp")
    assert "The players can already see Imp" in again
    assert "Only the GM" in await refused(env, "monster appear", d.player, name="Goblin 1")
    history = (await d.slash("history", user=d.player)).embed["description"].splitlines()
    both = "monster appear · monster Goblin 1 appears; monster Goblin 2 appears"
    assert history[0].endswith(both)
    assert "monster hit · monster Bat appears, looks unhurt → hurt" in history[1]
    assert history[2].endswith("monster appear · monster Imp appears")
    # /undo puts it back behind the screen: the channel reads that, unnamed no more.
    undone = await d.slash("undo", user=d.gm)
    assert "monster Goblin 1 back behind the GM's screen" in undone.text
    assert (await env.table()).get_monster("Goblin 2").hidden


async def test_a_monster_is_brought_from_a_gms_own_channel_still_hidden(env: Any) -> None:
    d = env.discord
    notes = d.gm_notes  # hidden from the players; the GM prepares there
    await d.slash(
        "monster create", user=d.gm, channel=notes, name="Wyrm", rank=4, armor="heavy", hp=60
    )
    await d.slash(
        "monster create",
        user=d.gm,
        channel=notes,
        name="Kobold",
        rank=0,
        armor="light",
        hp=4,
        count=2,
    )
    offered = await d.autocomplete("monster bring", "name", "", user=d.gm, **{"from": notes.name})
    assert [c["value"] for c in offered] == ["Kobold", "Kobold 1", "Kobold 2", "Wyrm"]
    brought = await d.slash("monster bring", user=d.gm, name="Wyrm", **{"from": notes.name})
    assert brought.ephemeral and brought.embed["title"] == "Brought Wyrm from #gm-notes"
    assert "Behind your screen" in brought.text
    group = await d.slash("monster bring", user=d.gm, name="kobold", **{"from": notes.name})
    assert "Brought Kobold 1, Kobold 2" in group.text
    table = await env.table()
    assert [(m.name, m.hidden, m.hp) for m in table.monsters] == [
        ("Kobold 1", True, 4),
        ("Kobold 2", True, 4),
        ("Wyrm", True, 60),
    ]
    assert len((await env.table(notes)).monsters) == 3  # the prepared ones stay where they were
    assert "Wyrm" not in (await d.slash("monster list", user=d.player)).text
    assert (await d.slash("history", user=d.player)).embed["description"].startswith("🕒")
    assert "Wyrm" not in (await d.slash("history", user=d.player)).text

    taken = await refused(env, "monster bring", d.gm, name="Wyrm", **{"from": notes.name})
    assert "already a monster named 'Wyrm'" in taken
    same = await refused(env, "monster bring", d.gm, name="Wyrm", **{"from": d.table.name})
    assert "from another channel" in same
    # A player who is GM of #side-table only may not take #table's monsters there.
    await d.slash("monster appear", user=d.gm, name="Wyrm")
    theirs = await d.slash(
        "monster bring", user=d.player, channel=d.side_table, name="Wyrm", **{"from": "table"}
    )
    assert theirs.ephemeral and "Only a GM of #table can bring its monsters" in theirs.text
    assert (await env.table(d.side_table)).monsters == ()
    # Nor bring anything into a channel where they are not the GM.
    assert "Only the GM" in await refused(
        env, "monster bring", d.player, name="Wyrm", **{"from": "side-table"}
    )


async def test_taking_back_a_prepared_monster_is_asked_of_the_gm_alone(env: Any) -> None:
    """/undo of a hidden monster's creation (and /redo of that undo) would take it away: the
    question is the GM's alone, whole, and so is its answer; the channel reads nothing of it."""
    d = env.discord
    await prepare(env)
    public_before = {i for i, m in d.server.messages.items() if not m.flags & EPHEMERAL}
    asked = await d.slash("undo", user=d.gm)
    assert asked.ephemeral and asked.embed["title"] == "↩️ Undo monster create?"
    assert "Cave Troll" in asked.text and SCREEN not in asked.text
    done = await d.click(asked, "Undo", user=d.gm)
    assert done.ephemeral and done.embed["title"] == "↩️ Undone: monster create"
    assert "Cave Troll" in done.text and not d.latest(done).followups
    assert (await env.table()).monsters == ()
    redone = await d.slash("redo", user=d.gm)  # brings it back: asked of nobody
    assert not redone.ephemeral and "Troll" not in redone.text and SCREEN in redone.text
    assert "Cave Troll" in (await whispered(d, redone)).text
    assert (await env.table()).get_monster("Cave Troll").hidden
    public = [m for i, m in d.server.messages.items() if i not in public_before]
    assert not [m for m in public if not m.flags & EPHEMERAL and "Troll" in str(m.embeds)]

    # A monster the players have seen is taken away in front of them, as any change is.
    await d.slash("monster appear", user=d.gm, name="Cave Troll")
    removal = await d.slash("monster remove", user=d.gm, name="Cave Troll")
    await d.click(removal, "Remove", user=d.gm)
    await d.slash("undo", user=d.gm)  # it is back
    asked = await d.slash("redo", user=d.gm)  # would take it away again: asked in the channel
    assert not asked.ephemeral and "Cave Troll" in asked.text


async def test_a_name_brought_is_checked_against_the_names_here(env: Any) -> None:
    """A monster prepared elsewhere whose name looks like a character's here (its first letter
    Cyrillic) is refused as a new name here would be, and nothing is brought."""
    d = env.discord
    await seed(env, hero("Aria", d.player))
    lookalike = "\u0410ria"
    await d.slash(
        "monster create", user=d.gm, channel=d.gm_notes, name=lookalike, rank=0, armor="light"
    )
    options = {"name": lookalike, "from": d.gm_notes.name}
    refusal = await refused(env, "monster bring", d.gm, **options)
    assert f"'{lookalike}' looks just like 'Aria'" in refusal
    assert (await env.table()).monsters == ()
