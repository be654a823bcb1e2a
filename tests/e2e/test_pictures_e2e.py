"""Pictures through the real client and the local Discord: `/party chart` and the board's
"Chart" button, `/save … chart:True` and the "Odds" buttons, the monster from above on
`/monster show` and `/monster face`. Each comes back as a valid multipart message (the local
Discord checks the body against Discord's OpenAPI description) whose embed shows the attached
PNG, with alt text in the attachment's description; what can't be drawn gets a clear private
answer and no image."""

from __future__ import annotations

import io
import re
from typing import Any

from PIL import Image

from tests.e2e.helpers import hero, refused, seed
from tests.localdiscord.reply import Reply
from tests.localdiscord.world import speaking

PNG = b"\x89PNG\r\n\x1a\n"


def picture(reply: Reply, filename: str) -> tuple[Image.Image, str]:
    """The reply's one picture and its alt text, checking the embed shows that very file."""
    assert reply.embed["image"]["url"] == f"attachment://{filename}"
    ((attachment,),) = [reply.attachments]
    assert attachment["filename"] == filename and attachment["content_type"] == "image/png"
    ((name, data),) = reply.files
    assert name == filename and data.startswith(PNG)
    image = Image.open(io.BytesIO(data))
    image.verify()  # a whole, readable PNG
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.width >= 600 and image.height >= 500
    return image, attachment["description"]


async def test_party_chart_shows_the_session_with_alt_text(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player), hero("Bree", d.player2, fl=None), clock=8 * 3600)
    await d.slash("rest long", user=d.gm)
    await d.slash("fatigue spend", user=d.gm, character="Aria", amount=45)
    await d.slash("clock pass", user=d.gm, minutes=30)
    await d.slash("fatigue spend", user=d.gm, character="Aria", amount=5)
    await d.slash("fatigue spend", user=d.gm, character="Aria", amount=9)
    await d.slash("undo", user=d.gm)  # not in the picture

    reply = await d.slash("party chart", user=d.player, since="long_rest")
    assert not reply.ephemeral and "Party fatigue" not in reply.embed["title"]
    assert reply.embed["title"] == "Aria's fatigue"  # the only one with a Fatigue Level
    assert "Not charted" in reply.text and "Bree" in reply.text
    assert "since the last Long Rest" in reply.text and "3 changes" in reply.text
    _, alt = picture(reply, "fatigue.png")
    assert "Now: Aria Tired (50/100 FP)." in alt  # 45 + 5: the undone 9 is not counted
    assert "Day 1, 16:00" in alt  # the Long Rest's end: where the chart begins
    # By default, this evening's play: all of it, the Long Rest inside it included, from the
    # first point shown; the alt text names the span.
    evening = await d.slash("party chart", user=d.player)
    assert "this evening's play" in evening.text and "5 changes" in evening.text
    _, alt = picture(evening, "fatigue.png")
    assert alt.startswith("Fatigue in bands from Day 1, 08:00 to 16:30, this evening's play.")


async def test_the_board_chart_button_and_one_character_since_the_day(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player), hero("Bree", d.player2, fp=30))
    board = await d.slash("party show", user=d.player)
    clicked = await d.click(board, "Chart", user=d.player2)
    assert clicked.ephemeral  # only whoever clicked sees it
    _, alt = picture(clicked, "fatigue.png")
    assert "Aria Fresh (0/100 FP)" in alt and "Bree Fatigued (30/100 FP)" in alt

    one = await d.slash("party chart", user=d.gm, character="Bree", since="day")
    assert one.embed["title"] == "Bree's fatigue" and "since the start of the day" in one.text
    _, alt = picture(one, "fatigue.png")
    assert "Aria" not in alt


async def test_what_cannot_be_charted_is_said_privately(env: Any) -> None:
    d = env.discord
    assert "no characters" in await refused(env, "party chart", d.player)
    await seed(env, hero("Bree", d.player2, fl=None))
    assert "Nobody here has a Fatigue Level" in await refused(env, "party chart", d.player)
    text = await refused(env, "party chart", d.player, character="Bree")
    assert "Bree has no Fatigue Level" in text
    await seed(env, hero("Aria", d.player))
    await d.slash("settings set", user=d.gm, history_keep=10)
    for _ in range(12):  # the channel's first changes are no longer kept
        await d.slash("fatigue spend", user=d.player, character="Aria")
    await d.slash("rest short", user=d.gm)  # a trim comes every 50th change: not needed here
    text = await refused(env, "party chart", d.player, since="long_rest")
    assert "no Long Rest in the history this channel keeps (its latest 10 changes)" in text
    reply = await d.slash("party chart", user=d.player, since="all")
    _, alt = picture(reply, "fatigue.png")
    assert "Short Rest" in alt


async def test_a_chart_refused_in_the_worker_speaks_the_readers_language(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Bree", d.player2, fl=None))  # the worker finds nobody to chart
    spanish = speaking(d.player, "es-ES")
    assert "Aquí nadie tiene todavía Nivel de Fatiga" in await refused(env, "party chart", spanish)
    assert "Nobody here has a Fatigue Level" in await refused(env, "party chart", d.player)


async def test_save_chart_and_the_odds_buttons(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player), hero("Bree", d.player2))
    await d.slash("character set", user=d.player, name="Aria", level=5, wisdom=10)
    save = await d.slash("save wsr", user=d.player, vs=7, chart=True)
    assert not save.ephemeral and "Chance before the roll" in save.text
    _, alt = picture(save, "odds.png")
    printed = re.search(r"(\d+(?:\.\d+)?%) to succeed", save.text)
    assert printed is not None  # the picture marks the very chance the reply prints
    assert f"{printed[1]} at Attack Level 7, the difficulty rolled (85)" in alt

    odds = await d.click(save, "Odds", user=d.player2)  # anyone may look, privately
    assert odds.ephemeral and odds.embed["title"] == "Odds: Aria"
    _, alt = picture(odds, "odds.png")
    assert "Aria: " in alt and "at Attack Level 7" in alt

    party = await d.slash("save party", user=d.gm, kind="wsr", spell=130)
    clicked = await d.click(party, "Odds", user=d.player)
    _, alt = picture(clicked, "odds.png")
    assert "Spell Casting total" in alt and "Aria:" in alt and "Bree:" in alt

    await d.slash("character set", user=d.gm, name="Aria", new_name="Ari")  # the button's is gone
    gone = await d.click(save, "Odds", user=d.player)
    assert gone.ephemeral and not gone.files and "Aria" in gone.text
    assert "secret" in await refused(
        env, "save wsr", d.player, level=3, vs=7, secret=True, chart=True
    )


async def test_the_monster_from_above(env: Any) -> None:
    d = env.discord
    await d.slash(
        "monster create",
        user=d.gm,
        name="Troll",
        rank=3,
        armor="heavy",
        spots="back, left",
        revealed_spots="back",
    )
    mine = await d.slash("monster show", user=d.gm, name="Troll")  # the GM's private copy
    assert mine.ephemeral
    _, alt = picture(mine, "monster.png")
    assert "Troll from above, facing N." in alt
    assert "S (its back, Hard to Hit)" in alt and "W (its left, Hard to Hit, hidden)" in alt
    hidden = await d.slash("monster face", user=d.gm, name="Troll", facing="S")
    assert hidden.ephemeral  # behind the GM's screen: the GM's picture alone
    assert "Troll from above, facing S." in picture(hidden, "monster.png")[1]

    await d.slash("monster appear", user=d.gm, name="Troll")
    turned = await d.slash("monster face", user=d.gm, name="Troll", facing="E")
    assert not turned.ephemeral  # the channel's copy: the hidden spot is not drawn
    _, alt = picture(turned, "monster.png")
    assert "facing E" in alt and "W (its back, Hard to Hit)" in alt and "its left" not in alt
    assert "Hidden unarmored spots not shown: 1." in alt

    public = await d.slash("monster show", user=d.player, name="Troll", public=True)
    _, alt = picture(public, "monster.png")
    assert "its left" not in alt and "S (its back" not in alt  # it faces E now
    assert "no monster" in (await refused(env, "monster show", d.player, name="Ogre")).lower()
