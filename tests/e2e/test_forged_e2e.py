"""Forged option payloads, DMs and threads: what Discord's client would never send reaches the
bot anyway, and the bot checks it against the same declarations Discord was given."""

from __future__ import annotations

import logging
import math
from typing import Any

import pytest

from tests.e2e.helpers import hero, seed
from tests.e2e.rows import sqlite_rows
from tests.localdiscord import forge
from tests.localdiscord.commands import BOOLEAN, INTEGER, NUMBER, STRING, USER
from tests.localdiscord.forge import option
from tests.localdiscord.reply import Reply

IN_A_SERVER = "use this in a server channel"


async def refused_forgery(
    env: Any,
    caplog: pytest.LogCaptureFixture,
    command: str,
    options: list[dict[str, Any]],
    *,
    user: Any = None,
    resolved: dict[str, Any] | None = None,
) -> str:
    """Send forged options: a private error, no row changed anywhere, one warning at most."""
    d = env.discord
    before = sqlite_rows(env.database_url)
    data = forge.command_data(d, command, options, resolved=resolved)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        reply = await forge.send(d, data, user=user or d.gm)
    assert reply.ephemeral and not reply.embeds, reply.text
    assert sqlite_rows(env.database_url) == before
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) <= 1, [r.getMessage() for r in warnings]
    assert not any(r.exc_info for r in caplog.records)
    return reply.content


@pytest.mark.parametrize(
    ("command", "options", "said"),
    [
        # Seen on the old code: applied, or a traceback and "something went wrong".
        ("fatigue spend", [option("amount", INTEGER, 1001)], "between 1 and 1000"),
        (
            "character create",
            [option("name", STRING, "Aria"), option("level", INTEGER, 2**63)],
            "`level`",
        ),
        ("character create", [option("name", INTEGER, 5)], "`name` needs text"),
        ("save tsr", [option("vs", INTEGER, 1_000_000_000), option("level", INTEGER, 5)], "`vs`"),
        (
            "character create",
            [option("name", STRING, "Aria"), option("fatigue_level", NUMBER, math.nan)],
            "`fatigue_level`",
        ),
        (
            "character create",
            [option("name", STRING, "Aria"), option("fatigue_level", NUMBER, math.inf)],
            "`fatigue_level`",
        ),
        # Wrong JSON types, NUL bytes, lengths, choices.
        ("fatigue spend", [option("amount", INTEGER, "3")], "whole number"),
        ("fatigue spend", [option("amount", INTEGER, 2.5)], "whole number"),
        ("fatigue spend", [option("amount", INTEGER, True)], "whole number"),
        ("fatigue spend", [option("amount", INTEGER, None)], "whole number"),
        ("fatigue spend", [option("amount", INTEGER, [1])], "whole number"),
        ("character show", [option("public", BOOLEAN, 1)], "true or false"),
        ("character create", [option("name", STRING, "Ar\x00ia")], "NUL"),
        ("character create", [option("name", STRING, "A" * 10_000)], "characters long"),
        ("character create", [option("name", STRING, "")], "characters long"),
        (
            "character create",
            [option("name", STRING, "Aria"), option("kin_hd", INTEGER, 7)],
            "one of",
        ),
        (
            "character create",
            [option("name", STRING, "Aria"), option("owner", USER, "123")],
            "member",
        ),
        # Shapes: unknown and missing options, unknown subcommands, a value given twice.
        (
            "character create",
            [option("name", STRING, "Aria"), option("hp", INTEGER, 3)],
            "no option `hp`",
        ),
        ("character remove", [], "needs the option `name`"),
        ("fatigue spend", [option("amount", INTEGER, 1), option("amount", INTEGER, 2)], "twice"),
    ],
)
async def test_a_forged_option_is_refused_with_nothing_written(
    env: Any, caplog: pytest.LogCaptureFixture, command: str, options: Any, said: str
) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.gm, fp=5))
    text = await refused_forgery(env, caplog, command, options)
    assert said in text


async def test_an_unknown_subcommand_is_refused(env: Any, caplog: pytest.LogCaptureFixture) -> None:
    d = env.discord
    data = forge.command_data(d, "fatigue spend")
    data["options"] = [{"type": 1, "name": "explode", "options": []}]
    before = sqlite_rows(env.database_url)
    reply = await forge.send(d, data, user=d.gm)
    assert reply.ephemeral and "subcommands" in reply.content
    assert sqlite_rows(env.database_url) == before


@pytest.mark.parametrize("name", [5, None, ["fatigue"]])
async def test_a_command_name_that_is_not_text_is_refused(env: Any, name: Any) -> None:
    d = env.discord
    data = forge.command_data(d, "fatigue spend") | {"name": name}
    reply = await forge.send(d, data, user=d.gm)
    assert reply.ephemeral and "malformed" in reply.content


async def test_a_forged_autocomplete_gets_no_choices(env: Any) -> None:
    d = env.discord
    data = forge.command_data(d, "fatigue spend")
    data["options"][0]["options"] = [
        {"name": "character", "type": STRING, "value": 5, "focused": True}
    ]
    reply = await forge.send(d, data, user=d.gm, kind=4)
    assert reply.callback_type == 8 and reply.choices == ()


async def test_the_limits_checked_are_the_declared_ones(env: Any) -> None:
    """At the declared limits a command runs; one past them it is refused."""
    d = env.discord
    await seed(env, hero("Aria", d.player))
    spend = forge.command_data(d, "fatigue spend", [option("amount", INTEGER, 1000)])
    done = await forge.send(d, spend, user=d.player)
    assert "spends 1000 FP" in done.text
    assert (await env.table()).get("Aria").fatigue.fp == 1000


# --- DMs and threads ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("character create", [option("name", STRING, "Aria")]),
        ("fatigue spend", [option("amount", INTEGER, 2)]),
        ("party show", []),
        ("clock round", []),
        ("settings set", [option("ties", STRING, "succeed")]),
        ("undo", []),
        ("save party", [option("kind", STRING, "wsr"), option("vs", INTEGER, 3)]),
        ("save tsr", [option("vs", INTEGER, 3)]),  # no numbers: it needs a character
    ],
)
async def test_a_stateful_command_in_a_dm_is_refused(
    env: Any, command: str, options: list[dict[str, Any]]
) -> None:
    d = env.discord
    before = sqlite_rows(env.database_url)
    reply = await forge.send(
        d, forge.command_data(d, command, options), user=d.player, channel=forge.IN_DM
    )
    assert reply.ephemeral and IN_A_SERVER in reply.content.lower()
    assert sqlite_rows(env.database_url) == before


@pytest.mark.parametrize(
    ("command", "options", "shows"),
    [
        ("roll", [option("mod", INTEGER, 5)], "d100"),
        ("save wsr", [option("level", INTEGER, 5), option("dc", INTEGER, 80)], "Difficulty"),
        (
            "monster-build",
            [option("rank", INTEGER, 3), option("armor", STRING, "heavy")],
            "Defense",
        ),
        ("help", [], "/roll"),  # in a DM, /help lists what works there
    ],
)
async def test_a_stateless_command_works_in_a_dm(
    env: Any, command: str, options: list[dict[str, Any]], shows: str
) -> None:
    d = env.discord
    before = sqlite_rows(env.database_url)
    reply = await forge.send(
        d, forge.command_data(d, command, options), user=d.player, channel=forge.IN_DM
    )
    assert shows in reply.text, reply.text
    assert sqlite_rows(env.database_url) == before


async def test_a_save_rolled_in_a_dm_rolls_again_there(env: Any) -> None:
    d = env.discord
    data = forge.command_data(
        d, "save tsr", [option("level", INTEGER, 3), option("vs", INTEGER, 2)]
    )
    first = await forge.send(d, data, user=d.player, channel=forge.IN_DM)
    again = await forge.click_id(d, first.buttons()[0]["custom_id"], first, user=d.player)
    assert "Difficulty" in again.text


async def test_a_forged_button_in_a_dm_changes_nothing(env: Any) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.player))
    shown = await d.slash("fatigue show", user=d.player)
    before = sqlite_rows(env.database_url)
    custom_id = shown.buttons()[0]["custom_id"]
    reply = await forge.click_id(d, custom_id, shown, user=d.player, channel=forge.IN_DM)
    assert reply.ephemeral and IN_A_SERVER in reply.content.lower()
    assert sqlite_rows(env.database_url) == before


async def test_a_forged_payload_from_a_thread_plays_at_its_channels_table(env: Any) -> None:
    """A thread plays at its channel's table (unless told otherwise): the rows written from
    it belong to that channel and its server, and its buttons work there too."""
    d = env.discord
    data = forge.command_data(
        d, "character create", [option("name", STRING, "Wren"), option("fatigue_level", NUMBER, 20)]
    )
    made: Reply = await forge.send(d, data, user=d.player, channel=d.scene)
    assert "Created Wren" in made.text
    assert (await env.table()).get("Wren").owner_id == d.player.id
    shown = await forge.send(
        d, forge.command_data(d, "fatigue show", []), user=d.player, channel=d.scene
    )
    assert shown.buttons(), shown
    spent = await d.settle(
        await forge.click_id(d, shown.buttons()[0]["custom_id"], shown, user=d.player)
    )
    assert "1/100 FP" in spent.text  # the card brought up to date; the channel reads the spend
    assert "Wren spends 1 FP" in spent.followups[0].text
    assert (await env.table()).get("Wren").fatigue.fp == 1
    rows = sqlite_rows(env.database_url)
    assert [r for r in rows["channels"] if r[0] == d.table.id and d.guild.id in r]
    too_many = forge.command_data(d, "fatigue spend", [option("amount", INTEGER, 1001)])
    before = sqlite_rows(env.database_url)
    refused = await forge.send(d, too_many, user=d.player, channel=d.scene)
    assert refused.ephemeral and "between 1 and 1000" in refused.content
    assert sqlite_rows(env.database_url) == before
