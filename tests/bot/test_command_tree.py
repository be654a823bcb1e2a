"""Every cog loaded into a Tablekeeper: the command tree as Discord will receive it.

Names, descriptions and option limits are checked on the JSON that `python -m bot sync` sends
(`command.to_dict(tree)`), and that JSON is validated against Discord's OpenAPI description.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.client import COGS, Tablekeeper
from bot.settings import Settings
from bot.tree import PRIVATE_WHEN
from cogs.help import EXAMPLES
from store import Store
from tests.localdiscord.commands import CommandLineError, parse_command_line
from tests.localdiscord.validate import validate_request

REPO = Path(__file__).resolve().parents[2]
NAME = re.compile(r"^[-_\w]{1,32}$")
SUBCOMMAND, GROUP = 1, 2
CHAT_INPUT = 1
PLACEHOLDER = "…"  # what discord.py sends when a description was never written
MAX_OPTIONS = MAX_CHOICES = 25

Payload = dict[str, Any]


async def _payloads(db: Path) -> list[Payload]:
    settings = Settings(token="unused.in.this.test", database_url=f"sqlite:///{db}")
    async with Store.open(settings.database_url) as store:
        bot = Tablekeeper(settings, store, cogs=COGS)  # every cog: none may be left out
        # Loads the cogs as a real start does. No login, so nothing to close (an AutoShardedBot
        # that never connected can't be closed anyway).
        await bot.setup_hook()
        return [command.to_dict(bot.tree) for command in bot.tree.get_commands()]


@pytest.fixture(scope="module")
def payloads(tmp_path_factory: pytest.TempPathFactory) -> list[Payload]:
    return asyncio.run(_payloads(tmp_path_factory.mktemp("tree") / "tree.db"))


@pytest.fixture(scope="module")
def slash(payloads: list[Payload]) -> list[Payload]:
    return [p for p in payloads if (p.get("type") or CHAT_INPUT) == CHAT_INPUT]


def nodes(payload: Payload, path: str = "") -> Iterator[tuple[str, Payload]]:
    """(where, node) for the command, each subcommand group, subcommand and option."""
    where = f"{path} {payload['name']}".strip()
    yield where, payload
    for option in payload.get("options") or []:
        yield from nodes(option, where)


def name_problem(name: Any) -> str | None:
    if not isinstance(name, str) or not NAME.match(name):
        return f"name {name!r} must be 1-32 letters, digits, - or _"
    if name != name.lower():
        return f"name {name!r} must be lowercase"
    return None


def description_problem(description: Any) -> str | None:
    if not isinstance(description, str) or not 1 <= len(description) <= 100:
        return f"description must be 1-100 characters, not {description!r}"
    if description == PLACEHOLDER:
        return "description was never written (discord.py's placeholder '…')"
    return None


def test_every_cog_registers_commands(payloads: list[Payload]) -> None:
    assert COGS, "no cogs found"
    assert len(payloads) >= len(COGS) - 1  # a cog may share a group, but none is empty-handed
    assert "help" in {p["name"] for p in payloads}


def test_names_and_descriptions(slash: list[Payload]) -> None:
    problems = []
    for payload in slash:
        for where, node in nodes(payload):
            found = (name_problem(node.get("name")), description_problem(node.get("description")))
            problems += [f"/{where}: {problem}" for problem in found if problem]
    assert problems == []


def test_option_counts_order_and_limits(slash: list[Payload]) -> None:
    problems = []
    for payload in slash:
        for where, node in nodes(payload):
            options = node.get("options") or []
            if len(options) > MAX_OPTIONS:
                problems.append(f"/{where}: {len(options)} options (max {MAX_OPTIONS})")
            names = [o["name"] for o in options]
            if len(set(names)) != len(names):
                problems.append(f"/{where}: an option name is used twice: {names}")
            plain = [o for o in options if o["type"] not in (SUBCOMMAND, GROUP)]
            if plain and len(plain) != len(options):
                problems.append(f"/{where}: subcommands beside plain options")
            required = [bool(o.get("required")) for o in plain]
            if required != sorted(required, reverse=True):
                problems.append(f"/{where}: required options must come first: {names}")
            problems += [f"/{where}: {p}" for p in _limits(node)]
    assert problems == []


def _limits(node: Payload) -> list[str]:
    problems = []
    choices = node.get("choices") or []
    if len(choices) > MAX_CHOICES:
        problems.append(f"{len(choices)} choices (max {MAX_CHOICES})")
    for choice in choices:
        if not 1 <= len(choice["name"]) <= 100:
            problems.append(f"choice name {choice['name']!r} must be 1-100 characters")
        if isinstance(choice["value"], str) and len(choice["value"]) > 100:
            problems.append(f"choice value {choice['value']!r} is over 100 characters")
    if choices and node.get("autocomplete"):
        problems.append("choices and autocomplete together")
    low, high = node.get("min_value"), node.get("max_value")
    if low is not None and high is not None and low > high:
        problems.append(f"min_value {low} is above max_value {high}")
    low, high = node.get("min_length"), node.get("max_length")
    if (low or 0) > (high if high is not None else 6000) or (high or 0) > 6000:
        problems.append(f"length limits {low}..{high} are impossible (0..6000)")
    return problems


def test_nesting_is_what_discord_allows(slash: list[Payload]) -> None:
    # A command holds groups or subcommands; a group holds subcommands; nothing deeper.
    problems = []
    for payload in slash:
        for group in payload.get("options") or []:
            for inner in group.get("options") or []:
                if group["type"] == GROUP and inner["type"] != SUBCOMMAND:
                    problems.append(f"/{payload['name']} {group['name']}: holds a non-subcommand")
                if group["type"] == SUBCOMMAND and inner["type"] in (SUBCOMMAND, GROUP):
                    problems.append(f"/{payload['name']} {group['name']}: nested too deep")
    assert problems == []


def test_context_menus_are_named(payloads: list[Payload]) -> None:
    menus = [p for p in payloads if (p.get("type") or CHAT_INPUT) != CHAT_INPUT]
    assert [p["name"] for p in menus if not 1 <= len(p["name"]) <= 32] == []


def test_payload_is_what_discords_api_accepts(payloads: list[Payload]) -> None:
    # The very request `python -m bot sync` makes: PUT the whole list of global commands.
    assert validate_request("PUT", "/applications/1/commands", payloads) == []


def test_validation_would_catch_a_bad_command(payloads: list[Payload]) -> None:
    # The check above can fail: an upper-case name and a missing description are refused.
    broken = [*payloads, {"name": "Bad", "description": "", "type": 1}]
    problems = validate_request("PUT", "/applications/1/commands", broken)
    assert any("'Bad'" in p for p in problems)
    assert any("needs a description" in p for p in problems)


def test_help_examples_are_valid_command_lines(payloads: list[Payload]) -> None:
    registered = [{**p, "id": "1"} for p in payloads]
    problems = []
    for name, line in EXAMPLES.items():
        try:
            path, _ = parse_command_line(line, registered)
        except CommandLineError as error:
            problems.append(f"{name}: {line!r}: {error}")
            continue
        if path != name:
            problems.append(f"{name}: the example runs /{path} instead")
    assert problems == []


def test_every_command_a_user_can_run_has_a_help_example(slash: list[Payload]) -> None:
    def runnable(node: Payload) -> bool:  # a top-level command or subcommand, not a group
        subs = [o for o in node.get("options") or [] if o.get("type") in (1, 2)]
        return node.get("type", 1) in (1,) and not subs

    leaves = {where for p in slash for where, node in nodes(p) if runnable(node)}
    assert sorted(leaves - EXAMPLES.keys()) == []


def test_readme_lists_every_command(slash: list[Payload]) -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    found = re.search(r"^## Commands\b(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    assert found is not None, "README.md needs a '## Commands' section"
    section = found.group(1)
    missing = [p["name"] for p in slash if not re.search(rf"/{p['name']}\b", section)]
    assert missing == []


def test_the_checks_themselves_flag_bad_values() -> None:
    assert name_problem("save") is None and name_problem("kin_wsr") is None
    assert name_problem("Save") and name_problem("two words") and name_problem("x" * 33)
    assert description_problem("Roll a save") is None
    assert description_problem("") and description_problem("x" * 101)
    assert description_problem(PLACEHOLDER)
    many = [{"name": str(n), "value": n} for n in range(26)]
    assert _limits({"choices": many}) == ["26 choices (max 25)"]
    assert _limits({"min_value": 5, "max_value": 1}) == ["min_value 5 is above max_value 1"]
    assert _limits({"choices": many[:2], "min_value": 1, "max_value": 5}) == []


async def _leaves(db: Path) -> list[Any]:
    settings = Settings(token="unused.in.this.test", database_url=f"sqlite:///{db}")
    async with Store.open(settings.database_url) as store:
        bot = Tablekeeper(settings, store, cogs=COGS)
        await bot.setup_hook()
        return [c for c in bot.tree.walk_commands() if not hasattr(c, "walk_commands")]


class Options(dict[str, Any]):
    """What a privacy predicate reads: options by name, None for one not given (as
    `app_commands.Namespace`)."""

    def __getattr__(self, name: str) -> Any:
        return self.get(name)


def declared(command: Any, **options: Any) -> bool:
    when = getattr(command.callback, PRIVATE_WHEN, False)
    return bool(when(Options(options)) if callable(when) else when)


def test_private_replies_are_declared_so_a_deferral_matches_them(tmp_path: Path) -> None:
    """A deferral is made before the reply exists, from the command's declaration
    (`@private(…)`): a command with a `public` option is private unless it is given, one with
    a `private` option private when it is given."""
    for command in asyncio.run(_leaves(tmp_path / "tree.db")):
        options = {p.name for p in command.parameters}
        where = f"/{command.qualified_name}"
        if "public" in options:
            assert declared(command) and declared(command, public=False), where
            assert not declared(command, public=True), where
        elif "private" in options:
            assert not declared(command) and not declared(command, private=False), where
            assert declared(command, private=True), where
