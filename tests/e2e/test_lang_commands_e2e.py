"""Command descriptions in Spanish as the local Discord holds them after `sync` (the real
client's `tree.sync()`, its request checked against Discord's OpenAPI description and limits),
and interactions from a Spanish client still fitting what the bot declared: a localized choice
name shown in the picker arrives as the same English value."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import discord

import lang
from bot.translator import in_language
from cogs.help import EXAMPLES
from cogs.saves import Saves
from table.model import ChannelSettings
from tests.localdiscord.commands import parse_command_line
from tests.localdiscord.server import without_localizations
from tests.localdiscord.world import speaking

SPANISH = {"es-ES", "es-419"}


def nodes(node: dict[str, Any], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    where = f"{path} {node['name']}".strip()
    yield where, node
    for option in node.get("options") or []:
        yield from nodes(option, where)


async def test_sync_registers_spanish_descriptions_for_every_command_and_option(env: Any) -> None:
    registered = env.discord.server.commands[None]  # what the bot's sync PUT, as Discord keeps it
    assert {c["name"] for c in registered} >= {"save", "help", "monster", "settings"}
    missing = [
        f"/{where}: {sorted(node.get('description_localizations') or {})}"
        for command in registered
        for where, node in nodes(command)
        if not set(node.get("description_localizations") or {}) >= SPANISH
    ]
    assert missing == []
    assert env.discord.violations == []  # nothing Discord would have refused in that request


async def test_the_registered_spanish_is_the_catalogs(env: Any) -> None:
    save = env.discord.synced("save")
    group = Saves.save
    wsr = next(o for o in save["options"] if o["name"] == "wsr")
    level = next(o for o in wsr["options"] if o["name"] == "level")
    with lang.speaking("es-ES"):
        assert save["description_localizations"]["es-ES"] == in_language(group.description)
        leaf = group.get_command("wsr")
        assert isinstance(leaf, discord.app_commands.Command)
        assert wsr["description_localizations"]["es-419"] == in_language(leaf.description)
        assert level["description_localizations"]["es-ES"] == in_language(
            leaf._params["level"].description
        )
    assert save["description"] == group.description  # English stays the default
    assert save["description_localizations"]["es-ES"] != save["description"]


async def test_choices_are_registered_with_spanish_names(env: Any) -> None:
    build = env.discord.synced("monster-build")
    armor = next(o for o in build["options"] if o["name"] == "armor")
    names = {c["value"]: c["name_localizations"] for c in armor["choices"]}
    assert set(names["heavy"]) >= SPANISH
    with lang.speaking("es-419"):
        assert names["heavy"]["es-419"] == lang._("Heavy")
    assert names["heavy"]["es-419"] != "Heavy"


async def test_listing_commands_leaves_localizations_out_unless_asked(env: Any) -> None:
    fetched = await env.bot.tree.fetch_commands()  # GET without with_localizations
    assert fetched and all(c.description_localizations == {} for c in fetched)
    route = discord.http.Route(
        "GET", "/applications/{application_id}/commands", application_id=env.bot.application_id
    )
    full = await env.bot.http.request(route, params={"with_localizations": "true"})
    assert all(set(c["description_localizations"]) >= SPANISH for c in full)


async def test_a_spanish_client_picking_localized_choices_is_accepted(env: Any) -> None:
    d = env.discord
    gm = speaking(d.gm, "es-ES")
    with lang.speaking("es-ES"):
        succeed, shared = lang._("succeed"), lang._("shared")
    reply = await d.type(f"/settings set ties:{succeed} threads:{shared}", user=gm)
    assert not reply.ephemeral, reply.text  # not refused as options the command doesn't declare
    expected = dataclasses.replace(ChannelSettings(), ties="succeed", threads="shared")
    assert (await env.table()).settings == expected


async def test_a_spanish_monster_build_with_picked_choices_runs(env: Any) -> None:
    d = env.discord
    player = speaking(d.player, "es-419")
    with lang.speaking("es-419"):
        heavy, boss = (
            lang._("Heavy"),
            lang._("Boss (drops {n} Materials + 1 per enchantment)", n=10),
        )
    spanish = await d.type(f"/monster-build rank:3 armor:{heavy} order:{boss}", user=player)
    english = await d.type("/monster-build rank:3 armor:heavy order:boss", user=d.player)
    assert spanish.embeds and spanish.ephemeral, spanish.text  # the stat block, not a refusal
    # The same block in either language: the Spanish names arrived as `heavy` and `boss`.
    assert re.findall(r"\d+", spanish.text) == re.findall(r"\d+", english.text)


async def test_every_help_example_runs_as_typed_by_a_spanish_client(env: Any) -> None:
    """Option names stay English, so the examples `/help` shows a Spanish user are still
    command lines their client accepts (the parser refuses unknown options and choices)."""
    registered = env.discord.commands()
    for name, line in EXAMPLES.items():
        path, _options = parse_command_line(line, registered, "es-ES")
        assert path == name


async def test_the_declaration_the_bot_checks_is_what_discord_registered(env: Any) -> None:
    """The tree checks each interaction's options against `command.to_dict` (English, no
    localizations: `bot/options.py`); Discord holds the same commands with localizations added,
    so whatever a Spanish client sends from them fits the declaration."""
    registered = {c["name"]: c for c in env.discord.server.commands[None]}
    server_fields = {"id", "application_id", "version"}
    for command in env.bot.tree.get_commands():
        held = without_localizations(registered[command.name])
        held = {k: v for k, v in held.items() if k not in server_fields}
        declared = env.bot.tree.declarations.of(command)
        assert {k: held[k] for k in declared} == declared, command.name
