"""Discord's limit on the words of one slash command, counted as Discord counts them, so that
`python -m bot sync` refuses a tree Discord would refuse (50035, and no command registered),
naming the command and by how much.

Discord allows 4,000 characters a command: the name, description and choices (names and
values) of the command, its subcommands and options, each field counted at its longest
localization (the English default included)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

COMMAND_CHARACTERS_MAX = 4000


class CommandsTooLarge(Exception):
    """A command's words pass Discord's limit: nothing is registered."""


def _longest(node: dict[str, Any], field: str) -> int:
    localized = node.get(f"{field}_localizations") or {}
    texts = [node.get(field) or "", *localized.values()]
    return max(len(text) for text in texts)


def characters(node: dict[str, Any]) -> int:
    """A command's (or option's) characters toward the limit, its options' included."""
    total = _longest(node, "name") + _longest(node, "description")
    total += sum(
        len(str(choice.get("value", ""))) + _longest(choice, "name")
        for choice in node.get("choices") or ()
    )
    return total + sum(characters(option) for option in node.get("options") or ())


def check_sizes(payloads: Iterable[dict[str, Any]]) -> None:
    """Refuse, naming each, the slash commands whose words pass Discord's limit."""
    over = [
        f"/{payload['name']} has {size:,} ({size - COMMAND_CHARACTERS_MAX:,} too many)"
        for payload in payloads
        if (payload.get("type") or 1) == 1
        and (size := characters(payload)) > COMMAND_CHARACTERS_MAX
    ]
    if over:
        raise CommandsTooLarge(
            f"Not synced: Discord allows {COMMAND_CHARACTERS_MAX:,} characters of names, "
            f"descriptions and choices a command (each at its longest language), and "
            + "; ".join(over)
            + ". Shorten its descriptions or split it, then sync again."
        )
