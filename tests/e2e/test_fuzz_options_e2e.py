"""Every command and every option, walked from the commands the bot itself registers, driven
through the real client and the local Discord with values at, just past and far past each
declared limit and of every wrong JSON type.

Every interaction must be answered, and every answer is valid against Discord's OpenAPI
description (the local Discord checks each body and fails the test otherwise). A value past a
limit, a wrong type, a missing required option, an unknown option or subcommand must be refused
privately with every row of the database unchanged and at most one warning logged for it.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.e2e.helpers import hero, seed
from tests.e2e.rows import sqlite_rows
from tests.localdiscord import forge
from tests.localdiscord.commands import (
    BOOLEAN,
    GROUP,
    INTEGER,
    NUMBER,
    STRING,
    SUBCOMMAND,
    USER,
)
from tests.localdiscord.payloads import Resolver
from tests.localdiscord.reply import Reply

SAFE = 2**53  # Discord's bound on numbers without a declared one
TEXT_MAX = 6000  # ... and on text without a declared max_length
WRONG_JSON: dict[str, Any] = {
    "text": "7",
    "integer": 7,
    "float": 7.5,
    "boolean": True,
    "null": None,
    "list": [7],
    "object": {"value": 7},
}
ACCEPTS = {
    STRING: {"text"},
    INTEGER: {"integer"},
    NUMBER: {"integer", "float"},
    BOOLEAN: {"boolean"},
}
AT_ONCE = 16  # interactions in flight together


@dataclass
class Case:
    path: str  # "fatigue spend"
    options: list[dict[str, Any]]
    refused: bool
    why: str
    resolved: dict[str, Any] = field(default_factory=dict)
    raw_data: dict[str, Any] | None = None  # a malformed shape, sent as is


def leaves(commands: list[dict[str, Any]]) -> Iterator[tuple[str, dict[str, Any]]]:
    """('save tsr', its definition) for every command a user can run."""

    def walk(path: str, node: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
        subs = [o for o in node.get("options") or [] if o["type"] in (SUBCOMMAND, GROUP)]
        if not subs:
            yield path, node
        for sub in subs:
            yield from walk(f"{path} {sub['name']}", sub)

    for command in commands:
        if (command.get("type") or 1) == 1:
            yield from walk(command["name"], command)


def limits(option: dict[str, Any]) -> tuple[list[Any], list[Any]]:
    """(values within the declared limits, at them; values past them, just and far)."""
    kind = option["type"]
    if option.get("choices"):
        values = [c["value"] for c in option["choices"]]
        outside = max(values) + 1 if kind in (INTEGER, NUMBER) else "not-a-choice"
        return [values[0], values[-1]], [outside]
    if kind in (INTEGER, NUMBER):
        low, high = option.get("min_value", -SAFE), option.get("max_value", SAFE)
        step = 1 if kind == INTEGER else 0.001
        past = [low - step, high + step, low - 10**6, high + 10**6, 2**63, -(2**63) - 1, 10**400]
        if kind == NUMBER:
            past += [math.nan, math.inf, -math.inf, 1e308]
        return [low, high], past
    if kind == STRING:
        low, high = option.get("min_length", 0), option.get("max_length", TEXT_MAX)
        past = ["A" * (high + 1), "A" * max(10 * high, 20_000), "Ar\x00ia", "\ud800"]
        if low > 0:
            past.append("A" * (low - 1))
        return ["A" * max(low, 1), "A" * high], past
    return [True, False] if kind == BOOLEAN else [], []


def wrong_types(kind: int) -> list[Any]:
    accepted = ACCEPTS.get(kind, set())
    return [value for name, value in WRONG_JSON.items() if name not in accepted]


class Cases:
    def __init__(self, discord_: Any) -> None:
        self.d = discord_
        self.resolver = Resolver(discord_.world, discord_.table)
        self.player_id = self.resolver(USER, discord_.player)  # fills resolved once

    def fine(self, option: dict[str, Any]) -> Any:
        """A value any declaration of this option takes (for the options not under test)."""
        kind = option["type"]
        if option.get("choices"):
            return option["choices"][0]["value"]
        if kind == USER:
            return self.player_id
        if kind == BOOLEAN:
            return True
        if kind == STRING:
            low, high = option.get("min_length", 0), option.get("max_length", TEXT_MAX)
            return "Aria" if low <= 4 <= high else "A" * max(low, 1)
        low, high = option.get("min_value", -SAFE), option.get("max_value", SAFE)
        return min(max(1, low), high)

    def required(self, leaf: dict[str, Any], but: str | None = None) -> list[dict[str, Any]]:
        return [
            forge.option(o["name"], o["type"], self.fine(o))
            for o in leaf.get("options") or []
            if o.get("required") and o["name"] != but
        ]

    def case(
        self,
        path: str,
        leaf: dict[str, Any],
        option: dict[str, Any],
        value: Any,
        *,
        refused: bool,
        why: str,
    ) -> Case:
        options = [
            *self.required(leaf, but=option["name"]),
            forge.option(option["name"], option["type"], value),
        ]
        return Case(path, options, refused, why, self.resolver.resolved)

    def all(self, commands: list[dict[str, Any]]) -> list[Case]:
        cases: list[Case] = []
        for path, leaf in leaves(commands):
            base = self.required(leaf)
            cases.append(
                Case(path, base, False, "the required options only", self.resolver.resolved)
            )
            for option in leaf.get("options") or []:
                within, past = limits(option)
                if option["type"] == USER:
                    within = [self.player_id]
                    past = [str(2**64 + 5), "not-a-snowflake", "1234"]  # unresolved
                for value in within:
                    cases.append(
                        self.case(path, leaf, option, value, refused=False, why="at a limit")
                    )
                for value in past:
                    cases.append(
                        self.case(path, leaf, option, value, refused=True, why="past a limit")
                    )
                for value in wrong_types(option["type"]):
                    cases.append(
                        self.case(path, leaf, option, value, refused=True, why="wrong type")
                    )
                if option.get("required"):
                    missing = self.required(leaf, but=option["name"])
                    cases.append(
                        Case(path, missing, True, "missing required", self.resolver.resolved)
                    )
            cases.append(
                Case(path, [*base, forge.option("zzz", STRING, "x")], True, "unknown option")
            )
            if leaf.get("options"):
                first = leaf["options"][0]
                twice = [*self.required(leaf, but=first["name"])] + [
                    forge.option(first["name"], first["type"], self.fine(first))
                ] * 2
                cases.append(Case(path, twice, True, "an option twice", self.resolver.resolved))
        for command in commands:
            subs = [o for o in command.get("options") or [] if o["type"] in (SUBCOMMAND, GROUP)]
            if subs:
                data = {
                    "id": command["id"],
                    "name": command["name"],
                    "type": 1,
                    "options": [{"type": SUBCOMMAND, "name": "zzz", "options": []}],
                }
                cases.append(Case(command["name"], [], True, "unknown subcommand", raw_data=data))
        return cases


async def run(env: Any, case: Case, channel: Any = None) -> Reply:
    d = env.discord
    if case.raw_data is not None:
        data = case.raw_data
    else:
        data = forge.command_data(d, case.path, case.options, resolved=case.resolved or None)
    return await forge.send(d, data, user=d.gm, channel=channel)


def shown(case: Case) -> str:
    values = ", ".join(f"{o['name']}={str(o.get('value'))[:20]!r}" for o in case.options)
    return f"/{case.path} ({case.why}): {values}"


async def test_every_option_at_and_past_its_limits(
    env: Any, caplog: pytest.LogCaptureFixture
) -> None:
    d = env.discord
    await seed(env, hero("Aria", d.gm, fp=5))
    cases = Cases(d).all(d.commands())
    refused = [c for c in cases if c.refused]
    within = [c for c in cases if not c.refused]
    assert len(refused) > 500 and len(within) > 100  # the walk found every command

    # Refused ones first, in batches; not one row may change, in any channel.
    caplog.set_level(logging.WARNING)
    for start in range(0, len(refused), AT_ONCE):
        batch = refused[start : start + AT_ONCE]
        before = sqlite_rows(env.database_url)
        replies = await asyncio.gather(*(run(env, case) for case in batch))
        for case, reply in zip(batch, replies, strict=True):
            assert reply.ephemeral and not reply.embeds, (shown(case), reply.text)
        assert sqlite_rows(env.database_url) == before, [shown(c) for c in batch]
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) <= len(refused)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [
        r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR
    ]

    # Within the limits: whatever the outcome (done, or a polite refusal), it is answered.
    for start in range(0, len(within), AT_ONCE):
        batch = within[start : start + AT_ONCE]
        await asyncio.gather(*(run(env, case) for case in batch))
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [
        r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR
    ]


async def test_every_command_from_a_dm_and_a_thread(env: Any) -> None:
    d = env.discord
    thread = d.scene  # a thread of #table
    cases = [c for c in Cases(d).all(d.commands()) if c.why == "the required options only"]
    before = sqlite_rows(env.database_url)
    for case in cases:  # a DM has no table: nothing is ever written from one
        reply = await run(env, case, channel=forge.IN_DM)
        if "server channel" in reply.content:
            assert reply.ephemeral, shown(case)
        assert sqlite_rows(env.database_url) == before, shown(case)
    for start in range(0, len(cases), AT_ONCE):
        await asyncio.gather(
            *(run(env, case, channel=thread) for case in cases[start : start + AT_ONCE])
        )


async def test_every_autocomplete_with_any_focused_value(env: Any) -> None:
    """While typing, Discord sends the focused option as text; forged, it may be anything:
    always answered with choices (none, for nonsense)."""
    d = env.discord
    helper = Cases(d)
    typed: list[Any] = ["", "A", "A" * 7000, "Ar\x00ia", *WRONG_JSON.values()]
    sent = []
    for path, leaf in leaves(d.commands()):
        for option in leaf.get("options") or []:
            if not option.get("autocomplete"):
                continue
            for value in typed:
                others = helper.required(leaf, but=option["name"])
                focused = {**forge.option(option["name"], option["type"], value), "focused": True}
                data = forge.command_data(
                    d, path, [*others, focused], resolved=helper.resolver.resolved
                )
                for channel in (d.table, forge.IN_DM):
                    sent.append(forge.send(d, data, user=d.gm, channel=channel, kind=4))
    assert len(sent) > 50
    for start in range(0, len(sent), AT_ONCE):
        for reply in await asyncio.gather(*sent[start : start + AT_ONCE]):
            assert reply.callback_type == 8
