"""`/help` through the real client: it lists what Discord has registered, nothing else."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.help import EXAMPLES


def registered(env: Any) -> list[dict[str, Any]]:
    """The slash commands as Discord holds them (what the bot synced), not as the bot says."""
    return [c for c in env.discord.commands() if (c.get("type") or 1) == 1]


def leaf_names(command: dict[str, Any], prefix: str = "") -> list[str]:
    name = f"{prefix}{command['name']}"
    subs = [o for o in command.get("options") or [] if o["type"] in (1, 2)]
    if not subs:
        return [name]
    return [leaf for sub in subs for leaf in leaf_names(sub, name + " ")]


async def test_help_lists_every_registered_command(env: Any) -> None:
    d = env.discord
    reply = await d.slash("help", user=d.player)
    assert reply.ephemeral
    assert "docs/rules.md" in reply.text  # the footer points to the rules reference
    commands = registered(env)
    assert commands
    for command in commands:
        assert f"/{command['name']}" in reply.text
        for leaf in leaf_names(command):
            assert f"`/{leaf}` — " in reply.text


async def test_every_example_names_a_registered_command(env: Any) -> None:
    leaves = {leaf for command in registered(env) for leaf in leaf_names(command)}
    for name, example in EXAMPLES.items():
        if name.split()[0] in {c["name"] for c in registered(env)}:
            assert name in leaves, name
            assert example.startswith(f"/{name}"), example


async def test_details_of_one_command_show_its_options_and_example(env: Any) -> None:
    d = env.discord
    reply = await d.slash("help", user=d.player, options={"command": "character create"})
    assert reply.ephemeral and reply.embed["title"] == "/character create"
    assert "`name` — " in reply.text and "`constitution`" in reply.text
    assert EXAMPLES["character create"] in reply.text
    assert "Form or menu: With no options, a form: its name, level" in reply.text
    monster = await d.slash("help", user=d.player, options={"command": "monster-build"})
    assert "`rank` (required)" in monster.text  # still required where no form stands in


async def test_details_of_a_group_list_its_subcommands(env: Any) -> None:
    d = env.discord
    reply = await d.slash("help", user=d.player, options={"command": "/settings"})
    assert "`/settings show`" in reply.text and "`/settings set`" in reply.text


async def test_an_unknown_command_is_a_private_error(env: Any) -> None:
    d = env.discord
    reply = await d.slash("help", user=d.player, options={"command": "teleport"})
    assert reply.ephemeral and not reply.embeds
    assert "no command /teleport" in reply.text


@pytest.mark.parametrize(("typed", "offered"), [("char", "character create"), ("sett", "settings")])
async def test_autocomplete_offers_command_names(env: Any, typed: str, offered: str) -> None:
    d = env.discord
    choices = await d.autocomplete("help", "command", typed, user=d.player)
    values = [c["value"] for c in choices]
    assert offered in values and all(typed in v for v in values)


async def test_clock_show_help_says_it_lists_who_rested_ahead(env: Any) -> None:
    # README: /clock show lists running Temporary FP and who rested alone ahead of the clock.
    reply = await env.discord.slash(
        "help", user=env.discord.player, options={"command": "clock show"}
    )
    assert "Temporary FP" in reply.text and "rested alone ahead" in reply.text
