"""What the end-to-end tests share: characters, seeding the table channel, snapshots, refusals
and scripted dice. Plain functions of the `env` fixture (`tests/e2e/conftest.py`)."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterable
from dataclasses import replace
from fractions import Fraction
from typing import Any

from rules.fatigue import FatigueState
from table.event import Event
from table.model import Character, Table
from tests.localdiscord.records import COMPONENTS_V2
from tests.localdiscord.reply import Reply, walk

WIDTH = 80  # characters: the longest line a short public reply may send (a phone's screen)
CARD_FIELD = re.compile(r"^\*\*(?P<name>[^*\n]+)\*\*: ", re.MULTILINE)  # a stat block's line
FL = Fraction(20)  # bands of 20: Fresh 0–20 … Exhausted from 61, Shattered from 81; Maximum FP 100


def hero(name: str, owner: Any, fl: Fraction | None = FL, **fatigue: Any) -> Character:
    """A character with a Fatigue Level given directly (FL 20 unless told) and this fatigue."""
    return Character(name, owner.id, fl_override=fl, fatigue=FatigueState(**fatigue))


async def seed(env: Any, *characters: Character, clock: int | None = None, **settings: Any) -> None:
    """Put characters in the table channel (replacing any of the same name), and set the clock
    and settings if given, as the GM in one logged change ("test seed")."""
    channel = env.discord.table

    def put(table: Table) -> tuple[Table, None]:
        if clock is not None:
            table = replace(table, clock=clock)
        table = replace(table, settings=replace(table.settings, **settings))
        for character in characters:
            table = table.with_character(character)
        return table, None

    await env.store.apply(channel.id, channel.guild_id, env.discord.gm.id, "test seed", put)


async def two_of_one_player(env: Any) -> None:
    """Aria and Grusk, the player's (and no active one), and Bo, the second player's."""
    d = env.discord
    await seed(env, hero("Aria", d.player), hero("Grusk", d.player), hero("Bo", d.player2))


async def fatigue_of(env: Any, name: str) -> FatigueState:
    return (await env.table()).get(name).fatigue


async def snapshot(env: Any, channel: Any = None) -> tuple[Table, list[Event]]:
    """The channel's table and its log (the last 100 changes, undo marks included): a refused
    command must leave both as they were. #table unless another `channel` is named."""
    channel = channel or env.discord.table
    return await env.table(channel), await env.store.history(channel.id, limit=100)


async def refused(env: Any, command: str, user: Any, **options: Any) -> str:
    """Run a command that must fail: an ephemeral error, and nothing written or logged."""
    before = await snapshot(env)
    reply = await env.discord.slash(command, user=user, **options)
    assert reply.ephemeral, reply.text
    assert not reply.embeds
    assert await snapshot(env) == before
    return reply.text


def fields(reply: Reply) -> dict[str, str]:
    """An embed's fields by name; a card's (`/monster show`), each `**Name**: value` up to the
    next."""
    if not reply.flags & COMPONENTS_V2:
        return {f["name"]: f["value"] for f in reply.embed.get("fields") or []}
    text = "\n".join(entries(reply))
    marks = list(CARD_FIELD.finditer(text))
    ends = [m.start() for m in marks[1:]] + [len(text)]
    return {m["name"]: text[m.end() : end].rstrip("\n") for m, end in zip(marks, ends, strict=True)}


def heading(reply: Reply) -> tuple[str, str]:
    """A card's title and the small line under it (a clock, a page, a monster card's note)."""
    title, _, small = reply.texts()[0].partition("\n")
    return title.removeprefix("### "), small.removeprefix("-# ")


def gallery(reply: Reply) -> list[str]:
    """The pictures in a card's media gallery, by the links they show."""
    items = [i for c in walk(list(reply.components)) if c["type"] == 12 for i in c["items"]]
    return [item["media"]["url"] for item in items]


class Scripted:
    """Dice that come up as written, in order."""

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        face = self.faces.pop(0)
        assert a <= face <= b
        return face


async def handled(env: Any) -> None:
    """Until every handler the bot was running has ended (each one's outcome counted)."""
    deadline = time.monotonic() + env.discord.timeout
    while env.bot.acks.working:
        assert time.monotonic() < deadline, "a handler never ended"
        await asyncio.sleep(0.01)


async def whispered(d: Any, reply: Reply) -> Reply:
    """The private word that follows a reply (`reply(…, private=True)`: the GM's copy of a public
    reply that left something out), once the bot has sent it."""
    deadline = time.monotonic() + d.timeout
    while not d.latest(reply).followups:
        assert time.monotonic() < deadline, f"no private word followed: {reply.text}"
        await asyncio.sleep(0.01)
    (word,) = d.latest(reply).followups
    assert word.ephemeral, word
    return word


def fits(reply: Reply, most: int) -> list[str]:
    """A short public reply: at most `most` lines as sent (`Reply.lines`), none wider than
    WIDTH characters. Its lines, for the test to read."""
    lines = reply.lines()
    assert not reply.ephemeral, reply.text
    assert len(lines) <= most, f"{len(lines)} lines (at most {most}):\n" + "\n".join(lines)
    wide = [line for line in lines if len(line) > WIDTH]
    assert not wide, f"lines over {WIDTH} characters: {wide}"
    return lines


def accent(reply: Reply) -> int | None:
    """A card's colour: its container's accent."""
    (container,) = [c for c in reply.components if c.get("type") == 17]
    colour: int | None = container.get("accent_color")
    return colour


def entries(reply: Reply) -> list[str]:
    """A card's entries, top to bottom: each section's text (a character or combatant)."""
    return [s["components"][0]["content"] for s in walk(list(reply.components)) if s["type"] == 9]


def beside(reply: Reply) -> dict[str, dict[str, Any]]:
    """Each section's button, by the first line of its text."""
    return {
        s["components"][0]["content"].splitlines()[0]: s["accessory"]
        for s in walk(list(reply.components))
        if s["type"] == 9
    }


def card_ok(reply: Reply, components: int = 40, characters: int = 4000) -> None:
    """A Components V2 message within Discord's limits (the local Discord checks them too)."""
    every = walk(list(reply.components))
    assert reply.flags & COMPONENTS_V2 and not reply.content and not reply.embeds
    assert len(every) <= components, len(every)
    assert sum(len(c.get("content", "")) for c in every if c["type"] == 10) <= characters
