"""Hardened at the edges, through the real client: names that are what they look like, a
channel's caps (refusing growth, never what a table already has), and no control character in
any text a command takes: each refused privately, by its reason, with nothing written."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from table.model import Character, Monster
from table.settings import HISTORY_KEEP_MAX
from table.sheet import CHARACTERS_MAX
from tests.e2e.helpers import refused, seed, snapshot
from tests.e2e.test_forged_e2e import refused_forgery
from tests.localdiscord.attachments import Upload
from tests.localdiscord.commands import INTEGER, STRING
from tests.localdiscord.forge import option
from tests.localdiscord.world import speaking

INVISIBLE = "A name can't contain invisible characters"


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("Aria\u3164", f"{INVISIBLE} (U+1160 here)"),  # a Hangul filler, as NFKC writes it
        ("\u3164", f"{INVISIBLE} (U+1160 here)"),  # the filler alone: "it is ㅤ's turn"
        ("Ar\u034fia", f"{INVISIBLE} (U+034F here)"),  # the combining grapheme joiner
        ("Ar\ufe0fia", f"{INVISIBLE} (U+FE0F here)"),  # a variation selector
        ("\u0301\u0301", "A name must start with a letter or a number"),  # accents alone
        ("Ar \u0301ia", "An accent in a name must sit on a letter or a number"),
    ],
)
async def test_a_name_with_something_unseen_in_it_is_refused(
    env: Any, name: str, said: str
) -> None:
    d = env.discord
    await d.slash("character create", user=d.player, name="Aria")
    text = await refused(env, "character create", d.gm, name=name, owner=d.player2)
    assert said in text


async def test_a_look_alike_of_a_name_here_is_refused_however_it_comes(env: Any) -> None:
    """A Cyrillic а beside a Latin "Aria": as a character, a monster, a turn-order name and a
    rename; the same name typed in full-width letters is the same name, and is taken."""
    d = env.discord
    await d.slash("character create", user=d.player, name="Aria")
    cyrillic = "\u0410ria"
    said = f"'{cyrillic}' looks just like 'Aria', already here"
    assert said in await refused(env, "character create", d.gm, name=cyrillic, owner=d.player2)
    assert said in await refused(
        env, "monster create", d.gm, name=cyrillic, rank=2, armor="unarmored"
    )
    assert said in await refused(env, "init add", d.gm, name=cyrillic, other=True, score="5")
    await d.slash("character create", user=d.player2, name="Bree")
    assert said in await refused(env, "character set", d.player2, name="Bree", new_name=cyrillic)
    taken = await refused(env, "character create", d.gm, name="\uff21ria", owner=d.player2)
    assert "There is already a character named 'Aria'" in taken
    spanish = await refused(env, "character create", speaking(d.gm, "es-ES"), name=cyrillic)
    assert f"'{cyrillic}' se ve igual que 'Aria', que ya está aquí" in spanish


async def test_a_name_is_kept_as_a_keyboard_writes_it(env: Any) -> None:
    d = env.discord
    reply = await d.slash("character create", user=d.player, name="\uff21\uff52\uff49\uff41")
    assert "Created Aria" in reply.text
    assert [c.name for c in (await env.table()).characters] == ["Aria"]


async def test_names_kept_from_before_stay_as_they_are(env: Any) -> None:
    """A name stored before these rules (with a filler in it) still plays: only new names are
    checked."""
    d = env.discord
    await seed(env, Character("Aria\u3164", d.player.id, fl_override=Fraction(20)))
    spent = await d.slash("fatigue spend", user=d.player, amount=2)
    assert "Aria\u3164" in spent.text
    assert (await env.table()).get("Aria\u3164").fatigue.fp == 2


async def test_the_characters_cap_refuses_only_growth(env: Any) -> None:
    """At the cap a new character is refused, naming it; a table already past it (made before
    the cap) keeps playing."""
    d = env.discord
    party = [Character(f"Hero {n}", d.player2.id) for n in range(CHARACTERS_MAX)]
    await seed(env, *party)
    text = await refused(env, "character create", d.player, name="Aria")
    assert f"already has {CHARACTERS_MAX} characters, the most it can keep is {CHARACTERS_MAX}" in (
        text
    )
    # Past the cap, as a table made before it was one may be.
    await seed(env, Character("One Too Many", d.player.id, fl_override=Fraction(20)))
    spent = await d.slash("fatigue spend", user=d.player, amount=1)
    assert "One Too Many" in spent.text
    assert "201 characters" in await refused(env, "character create", d.player, name="Aria")
    assert len((await env.table()).characters) == CHARACTERS_MAX + 1


async def test_the_monsters_cap_refuses_growth_too(env: Any) -> None:
    d = env.discord

    def bestiary(table: Any) -> Any:
        goblins = tuple(
            Monster(f"Goblin {n}", {"rank": 1, "armor": "unarmored"}) for n in range(26)
        )
        return table.with_parts(monsters=goblins), None

    await env.store.apply(d.table.id, d.guild.id, d.gm.id, "test seed", bestiary)
    text = await refused(env, "monster create", d.gm, name="Troll", rank=3, armor="unarmored")
    assert "This channel already has 25 monsters, the most it can keep" in text
    hit = await d.slash("monster hit", user=d.gm, name="Goblin 3", damage=1)
    assert not hit.ephemeral


async def test_a_channel_keeping_more_history_than_the_most_keeps_it(
    env: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """A channel set to keep 50,000 changes before 10,000 was the most reads and plays as it
    did; raising it further is refused by the option's bound, lowering it is not."""
    d = env.discord

    def keeps(table: Any) -> Any:
        return table.relayered({"history_keep": 50_000}), None

    await env.store.apply(d.table.id, d.guild.id, d.gm.id, "settings set", keeps)
    shown = await d.slash("settings show", user=d.player)
    assert "**History kept**: 50,000 latest changes" in shown.text
    await d.slash("character create", user=d.player, name="Aria")
    higher = [option("history_keep", INTEGER, HISTORY_KEEP_MAX + 1)]
    text = await refused_forgery(env, caplog, "settings set", higher)
    assert f"Option `history_keep` must be between 10 and {HISTORY_KEEP_MAX}." in text
    lowered = await d.slash("settings set", user=d.gm, history_keep=5_000)
    assert "→ **5,000 latest changes**" in lowered.text


@pytest.mark.parametrize(
    ("command", "options", "field"),
    [
        ("settings set", [option("init_dice", STRING, "1d10\r+1")], "init_dice"),
        ("roll", [option("dice", STRING, "1d6"), option("label", STRING, "Poison\r")], "label"),
        ("character create", [option("name", STRING, "Aria\u202eX")], "name"),
        (
            "monster create",
            [option("name", STRING, "Tr\x1boll"), option("rank", INTEGER, 2)],
            "name",
        ),
    ],
)
async def test_a_control_character_in_any_text_is_refused_naming_the_option(
    env: Any, caplog: pytest.LogCaptureFixture, command: str, options: list[Any], field: str
) -> None:
    text = await refused_forgery(env, caplog, command, options)
    assert f"Option `{field}` can't contain control characters (U+" in text


async def test_a_control_character_in_a_file_is_refused_by_its_path(env: Any) -> None:
    d = env.discord
    await d.slash("settings set", user=d.gm, init_dice="1d20")
    ((_name, data),) = (await d.slash("export", user=d.gm)).files
    spoiled = data.replace(b'"1d20"', b'"1d20\\r"')  # the settings, and the change to them
    before = await snapshot(env, d.ooc)
    reply = await d.slash("import", user=d.gm, channel=d.ooc, file=Upload("x.json", spoiled))
    assert reply.ephemeral
    assert reply.text == "settings.init_dice: text can't contain control characters (U+000D here)"
    assert await snapshot(env, d.ooc) == before
