"""What the GM keeps from the players, through the real client and a local Discord: a public
`/monster hit` tells the channel, while the numbers are hidden, only the square and how hurt the
monster now looks, and the GM alone the damage, the spot and HP; the channel's `monster_stats`
setting (hidden by default) keeps monsters' numbers out of the players' `/monster show` and
`/monster list` (and their pictures); `/monster create` answers the GM alone; the facing prompt
is the GM's alone."""

from __future__ import annotations

import re
from typing import Any

from tests.e2e.helpers import fields, refused, whispered
from tests.e2e.test_pictures_e2e import picture
from tests.localdiscord.reply import Reply
from tests.localdiscord.world import speaking

GM_COPY = "🔒 The GM's copy: only you see it."
NUMBERS_KEPT = "Its numbers are the GM's: this channel keeps monsters' numbers hidden."


async def make_troll(env: Any) -> Reply:
    """Rank 3 Heavy: Defense 13, Evasion modifier −4; its back (square S while it faces N) is
    a hidden unarmored spot, and meets only 6."""
    d = env.discord
    made: Reply = await d.slash(
        "monster create", user=d.gm, name="Troll", rank=3, armor="heavy", hp=40, spots="back"
    )
    return made


def digits(text: str) -> list[str]:
    """The numbers a text shows, besides the compass and the game's words."""
    return re.findall(r"\d+", text)


async def nothing_whispered(d: Any, reply: Reply) -> None:
    assert (await d.settle(reply)).followups == ()


async def test_a_public_hit_into_a_hidden_spot_names_the_spot_to_the_gm_alone(env: Any) -> None:
    d = env.discord
    await make_troll(env)
    hit = await d.slash("monster hit", user=d.gm, name="Troll", damage=20, **{"from": "S"})
    # The channel: the square it came from, and how hurt it now looks; no number at all.
    assert not hit.ephemeral and hit.embed["title"] == "Troll is hit"
    assert hit.embed["description"].splitlines() == ["From square S", "Now hurt"]
    # The GM, privately and after it: what got through, the spot, the Defense it met, and HP.
    mine = await whispered(d, hit)
    assert mine.embed["title"] == "Troll takes 14"  # 20 − ⌊13/2⌋
    assert mine.embed["description"].splitlines() == [
        "From square S: its back, a hidden unarmored spot (half Defense; Hard to Hit: −2 to hit)",
        "Damage 20 − Defense 6 → **14 taken**",
        "HP 40 → 26 / 40",
    ]
    assert mine.embed["footer"]["text"] == GM_COPY
    # An armored spot reads the same to the channel: "From square …" gives nothing away, and a
    # hit that leaves it looking as it did says no more than that, whatever got through.
    armored = await d.slash("monster hit", user=d.gm, name="Troll", damage=10, **{"from": "N"})
    assert armored.embed["description"].splitlines() == ["From square N", "Still hurt"]
    assert armored.embed["title"] == hit.embed["title"]
    copy = (await whispered(d, armored)).text
    assert "its front" in copy and "→ **1 taken** (at least 1)" in copy

    # Once the GM reveals it, the channel is told where a hit went.
    await d.slash("monster reveal", user=d.gm, name="Troll", spot="back")
    known = await d.slash("monster hit", user=d.gm, name="Troll", damage=10, **{"from": "S"})
    assert "From square S: its back, an unarmored spot (half Defense; Hard to Hit" in known.text
    assert "HP" not in known.text  # the numbers stay the GM's: the copy still follows
    assert "HP 25 → 21 / 40" in (await whispered(d, known)).text

    # A channel that shows the numbers sees the Defense and HP; nothing is left to whisper.
    await d.slash("settings set", user=d.gm, monster_stats="shown")
    shown = await d.slash("monster hit", user=d.gm, name="Troll", damage=20, **{"from": "N"})
    assert "Damage 20 − Defense 13 → **7 taken**" in shown.text and "HP 21 → 14 / 40" in shown.text
    await nothing_whispered(d, shown)


async def test_players_see_no_numbers_while_they_are_hidden_and_do_once_shown(env: Any) -> None:
    d = env.discord
    made = await make_troll(env)
    # /monster create: the GM alone, privately, with the numbers and spots; nothing follows.
    assert made.ephemeral and made.embed["title"] == "Created Troll"
    mine = fields(made)
    assert mine["Defense"] == "13" and mine["HP"] == "40 / 40"
    assert mine["Partial armor: unarmored spots"].startswith(
        "back (square S) — Hard to Hit: −2 to hit — hidden from the players"
    )
    await nothing_whispered(d, made)
    await d.slash("monster hit", user=d.gm, name="Troll", damage=30)  # 30 − 13: 17 taken

    # A player's look: the name, facing, spots as a count, and how hurt it looks.
    looked = await d.slash("monster show", user=d.player, name="Troll")
    assert looked.ephemeral and looked.embed["title"] == "Troll"
    assert fields(looked) == {
        "Condition": "hurt",
        "Facing": "N",
        "Partial armor": "1 hidden unarmored spot\nHits there meet only half Defense.",
    }
    assert looked.embed["footer"]["text"] == NUMBERS_KEPT
    _image, alt = picture(looked, "monster.png")  # the picture tells no more than the text
    assert alt == (
        "Troll from above, facing N. Every square meets its full Defense. It is hurt. "
        "Hidden unarmored spots not shown: 1."
    )
    listed = await d.slash("monster list", user=d.player2, public=True)
    assert not listed.ephemeral
    assert listed.embed["description"] == "**Troll** · facing N · hurt"
    # The GM's own public look is the channel's; the private one has everything.
    public = await d.slash("monster show", user=d.gm, name="Troll", public=True)
    assert not public.ephemeral and fields(public) == fields(looked)
    private = fields(await d.slash("monster show", user=d.gm, name="Troll"))
    assert private["Defense"] == "13" and private["HP"] == "23 / 40"
    assert "13" in (await d.slash("monster list", user=d.gm)).embed["description"]
    face = await d.slash("monster face", user=d.gm, name="Troll", facing="E")  # a public reply
    assert fields(face)["Facing"] == "E" and "Defense" not in fields(face)
    assert picture(face, "monster.png")[1] == alt.replace("facing N", "facing E")

    # The GM shows the numbers: the players see them, in the text and the picture.
    changed = await d.slash("settings set", user=d.gm, monster_stats="shown")
    assert (
        "**Monster numbers**: hidden from the players → **shown to the players**"
        in changed.embed["description"]
    )
    looked = await d.slash("monster show", user=d.player, name="Troll")
    assert fields(looked)["Defense"] == "13" and fields(looked)["HP"] == "23 / 40"
    assert "Evasion" in fields(looked) and "Condition" not in fields(looked)
    assert "Every square meets its full Defense of 13." in picture(looked, "monster.png")[1]
    listed = await d.slash("monster list", user=d.player)
    assert listed.embed["description"].startswith("**Troll** · Heavy, Rank 3 · Defense 13")
    # A creation with nothing hidden is answered once, in full.
    goblin = await d.slash("monster create", user=d.gm, name="Goblin", rank=0, armor="light")
    assert fields(goblin)["Defense"] == "2"
    await nothing_whispered(d, goblin)

    # Only the GM changes it; /settings show and /history say it, and /undo takes it back.
    assert "Only the GM" in await refused(env, "settings set", d.player, monster_stats="hidden")
    settings = (await d.slash("settings show", user=d.player)).embed["description"]
    assert "**Monster numbers**: shown to the players · *set here*" in settings
    history = (await d.slash("history", user=d.player)).embed["description"]
    assert "settings: monster numbers hidden from the players → shown to the players" in history
    asked = await d.slash("undo", user=d.gm)  # the Goblin: taking a monster away asks first
    await d.click(asked, "Undo", user=d.gm)
    await d.slash("undo", user=d.gm)  # the setting
    assert (await env.table()).settings.monster_stats == "hidden"
    assert "Defense" not in fields(await d.slash("monster show", user=d.player, name="Troll"))


async def test_the_facing_prompt_is_the_gms_alone(env: Any) -> None:
    """When a monster with unarmored spots ends its turn, the channel reads whose turn it is
    and nothing of spots (no buttons, the same words as for a monster without any); the GM
    alone is asked its facing, privately, and the answer stays private too."""
    d = env.discord
    await make_troll(env)
    await d.slash("monster create", user=d.gm, name="Bat", rank=0, armor="light")
    for name, score in (("Troll", "18"), ("Bat", "12")):
        await d.slash("init add", user=d.gm, name=name, score=score)
    await d.slash("init add", user=d.gm, name="Bandit", score="3", other=True)
    await d.slash("init start", user=d.gm)
    troll_done = await d.slash("init next", user=d.gm)
    assert not troll_done.ephemeral and troll_done.buttons() == []
    assert "Bat's turn" in troll_done.embed["title"]
    assert "facing" not in troll_done.text and "spot" not in troll_done.text
    bat_done = await d.slash("init next", user=d.gm)  # the Bat has no spot: no question
    await nothing_whispered(d, bat_done)
    shown = troll_done.text.replace("Troll's turn ends", "X").replace("Bat's turn", "Y")
    said = bat_done.text.replace("Bat's turn ends", "X").replace("Bandit's turn", "Y")
    assert shown.splitlines()[:2] == said.splitlines()[:2]  # the same words, spots or not
    asked = await whispered(d, troll_done)
    assert asked.ephemeral and "Troll ends its turn facing N" in asked.text
    assert [b["label"] for b in asked.buttons()] == ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    turned = await d.click(asked, "E", user=d.gm)
    assert turned.ephemeral and "Troll now faces E" in turned.text and turned.buttons() == []
    assert fields(turned)["Defense"] == "13"  # the GM's own copy: everything
    assert (await env.table()).get_monster("Troll").facing == "E"


async def test_a_server_may_show_the_numbers_for_its_channels(env: Any) -> None:
    d = env.discord
    await make_troll(env)
    await d.slash("monster appear", user=d.gm, name="Troll")
    await d.slash("settings server", user=d.owner, monster_stats="shown")
    looked = await d.slash("monster show", user=d.player, name="Troll")
    assert fields(looked)["Defense"] == "13"
    await d.slash("settings set", user=d.gm, monster_stats="hidden")  # the channel's own first
    assert "Defense" not in fields(await d.slash("monster show", user=d.player, name="Troll"))


async def test_help_names_the_setting_in_english_and_spanish(env: Any) -> None:
    d = env.discord
    pages = [
        (await d.slash("help", user=u, options={"command": "settings set"})).text
        for u in (d.player, speaking(d.player, "es-ES"))
    ]
    english, spanish = pages
    assert "`monster_stats` — Do players see monsters' HP, Defense and Evasion?" in english
    assert "`monster_stats` — ¿Ven los jugadores los HP, la Defensa y la Evasión" in spanish
    assert all("monster_stats:shown`" in page for page in pages)  # the example


async def test_history_and_undo_keep_the_numbers_from_the_channel(env: Any) -> None:
    """The log says a hit in the words the reader may see: how hurt the monster looks to the
    channel (and to a player reading alone), its HP to the GM reading alone."""
    d = env.discord
    await make_troll(env)
    await d.slash("monster hit", user=d.gm, name="Troll", damage=30)  # 40 → 23: hurt
    public = await d.slash("history", user=d.gm)
    assert not public.ephemeral
    latest = public.embed["description"].splitlines()[0]
    # The hit shows it to the players, who see how hurt it looks.
    assert latest.endswith("· monster hit · monster Troll appears, looks unhurt → hurt"), latest
    player = await d.slash("history", user=d.player, private=True)
    assert player.ephemeral and player.embed["description"] == public.embed["description"]
    mine = await d.slash("history", user=d.gm, private=True)
    assert mine.embed["description"].splitlines()[0].endswith("· monster Troll appears, HP 40 → 23")
    undone = await d.slash("undo", user=d.gm)  # public: the channel's words again
    assert (
        "monster Troll back behind the GM's screen, looks hurt → unhurt"
        in undone.embed["description"]
    )
    assert "HP" not in undone.embed["description"]
    # Shown to the players, the numbers are in everyone's log.
    await d.slash("settings set", user=d.gm, monster_stats="shown")
    again = await d.slash("history", user=d.player)
    assert "monster Troll back behind the GM's screen, HP 23 → 40" in again.embed["description"]


async def test_a_hit_the_table_sees_nothing_of_says_what_happened(env: Any) -> None:
    """A hit that leaves the monster looking as it did reads as a hit in /history and /undo
    (not "changed"), still without a number; "Hit again" says it repeats the hit, and /history
    and /undo name it so."""
    d = env.discord
    await make_troll(env)
    await d.slash("monster appear", user=d.gm, name="Troll")
    first = await d.slash("monster hit", user=d.gm, name="Troll", damage=20)  # 40 → 33: hurt
    again = await d.click(first, "Hit again", user=d.gm)  # 33 → 26: still hurt
    assert again.embed["title"] == "🔁 Hit again: Troll is hit"
    assert again.embed["description"] == "Still hurt"
    copy = await whispered(d, again)
    assert copy.embed["title"] == "🔁 Hit again: Troll takes 7" and "HP 33 → 26 / 40" in copy.text
    latest = (await d.slash("history", user=d.player)).embed["description"].splitlines()[0]
    assert latest.endswith("· monster hit again · monster Troll hit, still looks hurt"), latest
    assert "changed" not in latest
    undone = await d.slash("undo", user=d.gm)
    assert undone.embed["title"] == "↩️ Undone: monster hit again"
    assert "monster Troll hit taken back, still looks hurt" in undone.text
    assert (await env.table()).get_monster("Troll").hp == 33
