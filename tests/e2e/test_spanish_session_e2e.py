"""A whole session in Spanish: a GM and a player whose Discord is in Spanish (es-ES), in a
server whose `guild_locale` is en-US, run every command, click every confirm prompt and trip
common mistakes. Every reply (content, embeds, buttons, choices) reads Spanish: no English word
but the game's own terms (TSR, WSR, FP, Rank…), command and option names, and names the users
chose. The same session in English is the control: it must find the English words."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.english import english_words, reply_text
from tests.localdiscord.reply import Reply
from tests.localdiscord.world import speaking

pytestmark = pytest.mark.asyncio

# (who, typed line): the GM sets up, the player plays, the GM runs the fight and the rests.
SESSION = [
    ("player", "/help"),
    ("player", "/help command:save"),
    ("player", "/about"),
    ("player", "/save wsr level:5 vs:7"),
    ("player", "/save tsr level:3 dc:60"),
    ("player", "/roll"),
    ("player", "/roll mod:25"),
    ("player", "/roll dice:2d6+3"),
    ("player", "/roll dice:1d20+2 label:Sneak past"),
    ("player", "/roll mod:10 secret:true"),
    ("player", "/save tsr level:4 vs:3 secret:true"),
    ("player", "/monster-build rank:2 armor:light spots:back"),
    ("player", "/character create name:Aria level:5 wisdom:10 constitution:17 classes:d10/5"),
    ("player", "/character show name:Aria"),
    ("player", "/character list"),
    ("player", "/character set name:Aria level:6"),
    ("player", "/save wsr vs:7"),
    ("gm", "/fatigue temp character:Aria amount:2"),
    ("player", "/fatigue spend character:Aria amount:3"),
    ("player", "/fatigue show character:Aria"),
    ("player", "/party show"),
    ("player", "/history"),
    ("player", "/undo"),
    ("player", "/settings show"),
    ("player", "/party show page:1"),
    ("player", "/monster-build rank:3 armor:heavy trade:2"),
    ("gm", "/character create name:Borin level:4 constitution:15 classes:d8/4"),
    ("gm", "/party spend amount:4"),
    ("gm", "/fatigue recover character:Borin amount:1"),
    ("gm", "/fatigue clear_vp character:Borin"),
    ("gm", "/save party kind:tsr vs:5"),
    ("gm", "/rest break"),
    ("gm", "/rest short character:Aria"),
    ("gm", "/rest minutes minutes:10"),
    ("gm", "/rest long"),
    ("gm", "/clock show"),
    ("gm", "/clock round"),
    ("gm", "/clock pass minutes:5"),
    ("gm", "/monster create name:Troll rank:3 armor:heavy hp:40 spots:back"),
    ("gm", "/monster show name:Troll"),
    ("gm", "/monster list"),
    ("gm", "/monster face name:Troll facing:S"),
    ("gm", "/monster reveal name:Troll spot:back"),
    ("gm", "/monster hit name:Troll damage:18 from:N"),
    ("player", "/init add name:Aria score:15"),
    ("gm", "/init add name:Troll score:12"),
    ("gm", "/init show"),
    ("gm", "/init start"),
    ("gm", "/init next"),
    ("gm", "/init remove name:Troll"),
    ("gm", "/init end"),
    ("gm", "/settings set ties:succeed"),
    ("gm", "/settings server round_seconds:30"),
    ("gm", "/history private:true"),
    ("gm", "/history"),
    ("gm", "/undo"),
    ("gm", "/export"),
    # mistakes: each a polite refusal
    ("player", "/fatigue recover character:Aria amount:1"),
    ("player", "/character set name:Borin level:2"),
    ("player", "/fatigue spend character:Nobody"),
    ("player", "/save wsr level:5 vs:99"),
    ("player", "/roll dice:2d6+"),
    ("gm", "/monster hit name:Nobody damage:5 from:N"),
]
PROMPTS = [  # (who, line, which button: 0 goes ahead, 1 cancels)
    ("gm", "/monster remove name:Troll", 0),
    ("player", "/character remove name:Aria", 1),
    ("gm", "/party reset", 0),
]
NAMES = ("Aria", "Borin", "Troll", "Nobody", "gandra", "pippa", "Moria Table")


def readable(reply: Reply) -> str:
    """Everything a user reads: the text, button labels, follow-ups, offered choices."""
    return "\n".join([reply_text(reply), *(c.get("name", "") for c in reply.choices)])


async def play(env: Any, locale: str) -> list[tuple[str, str]]:
    """The session as each user read it: (what they did, what they read)."""
    d = env.discord
    users = {"gm": speaking(d.gm, locale), "player": speaking(d.player, locale)}
    said = []
    for who, line in SESSION:
        said.append((line, readable(await d.type(line, user=users[who]))))
    for who, line, button in PROMPTS:
        prompt = await d.type(line, user=users[who])
        said.append((line, readable(prompt)))
        clicked = await d.click(prompt, prompt.buttons()[button]["custom_id"], user=users[who])
        said.append((f"{line}, button {button}", readable(clicked)))
    for option in ("character",):
        choices = await d.autocomplete("fatigue spend", option, "", user=users["gm"])
        said.append((f"autocomplete {option}", "\n".join(c["name"] for c in choices)))
    return said


async def test_a_whole_session_reads_spanish_to_a_spanish_client(env: Any) -> None:
    said = await play(env, "es-ES")
    english = {line: words for line, text in said if (words := english_words(text, NAMES))}
    assert not english, "\n".join(f"{line}: {words}" for line, words in english.items())
    assert all(text.strip() for _line, text in said[:-1]), "every step was answered"


async def test_the_same_session_in_english_is_found_english(env: Any) -> None:
    """The control: the check finds English where it is, in nearly every reply."""
    said = await play(env, "en-US")
    found = [line for line, text in said if english_words(text, NAMES)]
    assert len(found) >= len(said) * 0.8, [line for line, _text in said if line not in found]


async def test_a_spanish_player_rolls_in_dms_and_through_their_own_install(env: Any) -> None:
    """The bot's DM, a group DM (a user install) and a server through the user's own install:
    the stateless commands answer in Spanish; a table command refuses in Spanish, naming a
    server channel, and writes nothing."""
    d = env.discord
    player = speaking(d.player, "es-ES")
    friends = d.group_dm(player, speaking(d.player2, "es-ES"))
    lines = [
        "/save wsr level:5 vs:7",
        "/roll dice:2d6+1",
        "/monster-build rank:2 armor:light spots:back",
        "/help",
        "/about",
    ]
    for place in (d.dm(player), friends):
        for line in lines:
            reply = await d.type(line, user=player, channel=place)
            assert reply.text and not english_words(readable(reply), NAMES), (place.where, line)
        refused = await d.slash("fatigue spend", user=player, channel=place, offered=False)
        assert refused.ephemeral and "servidor" in refused.text, refused.text
        assert not english_words(readable(refused), NAMES)
    installed = await d.slash("roll", user=player, user_install=True, dice="1d6")
    assert installed.text and not english_words(readable(installed), NAMES)
    assert (await env.table()).characters == ()  # nothing was written anywhere
