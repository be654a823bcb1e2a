"""Registered slash commands: finding them, typing option values, parsing a typed command line.

Errors carry the text Discord's client would show (or help with) for the same mistake.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from typing import Any

SUBCOMMAND, GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
ATTACHMENT = 11
TYPE_NAMES = {
    STRING: "text",
    INTEGER: "integer",
    BOOLEAN: "true/false",
    USER: "user",
    CHANNEL: "channel",
    ROLE: "role",
    MENTIONABLE: "user or role",
    NUMBER: "number",
    11: "attachment",
}
MAX_SAFE = 2**53
Resolve = Callable[[int, Any], str]  # (option type, value) -> snowflake, filling `resolved`


def _a(noun: str) -> str:
    return f"an {noun}" if noun[0] in "aeiou" else f"a {noun}"


class CommandLineError(ValueError):
    """A command or option Discord would not send; the message is for the person typing."""


def find_command(
    commands: Sequence[dict[str, Any]], path: str
) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """(top-level command, chain of subcommand group/subcommand defs, leaf) for 'save wsr'."""
    words = path.strip().lstrip("/").split()
    if not words:
        raise CommandLineError("Type a command name after /")
    slash = [c for c in commands if (c.get("type") or 1) == 1]
    top = next((c for c in slash if c["name"] == words[0]), None)
    if top is None:
        close = difflib.get_close_matches(words[0], [c["name"] for c in slash], n=3)
        hint = f" Did you mean {', '.join('/' + n for n in close)}?" if close else ""
        raise CommandLineError(f"Unknown command /{words[0]}.{hint}")
    chain: list[dict[str, Any]] = []
    node = top
    for word in words[1:]:
        subs = [o for o in node.get("options") or [] if o["type"] in (SUBCOMMAND, GROUP)]
        match = next((o for o in subs if o["name"] == word), None)
        if match is None:
            where = " ".join(["/" + top["name"], *(c["name"] for c in chain)])
            names = ", ".join(o["name"] for o in subs) or "none"
            raise CommandLineError(f"{where} has no subcommand {word!r}. Subcommands: {names}")
        chain.append(match)
        node = match
    if any(o["type"] in (SUBCOMMAND, GROUP) for o in node.get("options") or []):
        names = ", ".join(o["name"] for o in node["options"])
        raise CommandLineError(f"/{' '.join(words)} needs a subcommand: {names}")
    return top, chain, node


def describe_options(leaf: dict[str, Any]) -> str:
    parts = []
    for o in leaf.get("options") or []:
        extra = ", required" if o.get("required") else ""
        parts.append(f"{o['name']} ({TYPE_NAMES.get(o['type'], '?')}{extra})")
    return "; ".join(parts) or "none"


def option_def(leaf: dict[str, Any], name: str, where: str) -> dict[str, Any]:
    options = leaf.get("options") or []
    found = next((o for o in options if o["name"] in (name, name.replace("_", "-"))), None)
    if found is None:
        close = difflib.get_close_matches(name, [o["name"] for o in options], n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise CommandLineError(
            f"{where} has no option {name!r}.{hint} Options: {describe_options(leaf)}"
        )
    return found


def typed_value(option: dict[str, Any], value: Any, resolve: Resolve) -> Any:
    """The value as Discord would put it in the interaction, after the checks its client makes."""
    kind, name = option["type"], option["name"]
    wanted = f"Option {name!r} needs {_a(TYPE_NAMES.get(kind, '?'))}, not {value!r}"
    if kind == STRING and not isinstance(value, str):
        raise CommandLineError(wanted)
    if kind == INTEGER and (not isinstance(value, int) or isinstance(value, bool)):
        raise CommandLineError(wanted)
    if kind == NUMBER and (not isinstance(value, int | float) or isinstance(value, bool)):
        raise CommandLineError(wanted)
    if kind == BOOLEAN and not isinstance(value, bool):
        raise CommandLineError(wanted)
    if kind in (USER, CHANNEL, ROLE, MENTIONABLE, ATTACHMENT):
        return resolve(kind, value)
    if kind not in (STRING, INTEGER, NUMBER, BOOLEAN):
        raise CommandLineError(f"Option {name!r}: {TYPE_NAMES.get(kind)} options are not supported")
    _check_limits(option, value)
    return value


def _check_limits(option: dict[str, Any], value: Any) -> None:
    name = option["name"]
    choices = option.get("choices") or []
    if choices and value not in [c["value"] for c in choices]:
        shown = ", ".join(repr(c["value"]) for c in choices)
        raise CommandLineError(f"Option {name!r} must be one of: {shown}")
    if isinstance(value, str):
        low, high = option.get("min_length") or 0, option.get("max_length") or 6000
        if not low <= len(value) <= high:
            raise CommandLineError(f"Option {name!r} must be {low}-{high} characters long")
    elif isinstance(value, int | float) and not isinstance(value, bool):
        low = option.get("min_value", -MAX_SAFE)
        high = option.get("max_value", MAX_SAFE)
        if not low <= value <= high:
            raise CommandLineError(f"Option {name!r} must be between {low} and {high}")


def missing_required(leaf: dict[str, Any], given: Sequence[str], where: str) -> None:
    for o in leaf.get("options") or []:
        if o.get("required") and o["name"] not in given:
            raise CommandLineError(f"{where}: missing required option {o['name']!r}")


def nest(chain: list[dict[str, Any]], leaf_options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Wrap the leaf's options in its subcommand (and group), as interaction data nests them."""
    options = leaf_options
    for node in reversed(chain):
        options = [{"type": node["type"], "name": node["name"], "options": options}]
    return options


_OPTION = re.compile(r"(?:^|\s)([\w-]+):")


def parse_command_line(
    line: str, commands: Sequence[dict[str, Any]], locale: str | None = None
) -> tuple[str, dict[str, Any]]:
    """'/save wsr level:5 vs:7' -> ('save wsr', {'level': 5, 'vs': 7}), checked and typed.

    User, channel and role values stay text (a mention, id or name) for the caller to look up.
    A choice may be given by its name as a client in `locale` shows it (`armor:Pesada`).
    """
    text = line.strip()
    if not text.startswith("/"):
        raise CommandLineError("A command starts with /")
    first = _OPTION.search(text)
    head, rest = (text[: first.start()], text[first.start() :]) if first else (text, "")
    (top, chain, leaf), typed = _command_and_typed(commands, head)
    path = " ".join([top["name"], *(c["name"] for c in chain)])
    where = "/" + path
    matches = list(_OPTION.finditer(rest))
    options: dict[str, Any] = {}
    if typed:  # `/fatigue spend 3`: Discord's client puts it in the first option's box
        leads = leaf.get("options") or []
        if not leads:
            raise CommandLineError(f"{where} takes no options, not {typed!r}")
        options[leads[0]["name"]] = _from_text(leads[0], typed, locale)
        _check_limits(leads[0], options[leads[0]["name"]])
    for index, match in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(rest)
        raw = rest[match.end() : end].strip()
        if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "\"'":
            raw = raw[1:-1]
        option = option_def(leaf, match.group(1), where)
        if option["name"] in options:
            raise CommandLineError(f"Option {option['name']!r} given twice")
        value = _from_text(option, raw, locale)
        if option["type"] in (STRING, INTEGER, NUMBER, BOOLEAN):
            _check_limits(option, value)
        options[option["name"]] = value
    missing_required(leaf, list(options), where)
    return path, options


def _command_and_typed(
    commands: Sequence[dict[str, Any]], head: str
) -> tuple[tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]], str]:
    """The command a head such as '/fatigue spend 3' names, and the text typed after it ('3'):
    the longest run of words that names a whole command; with none, the full head's error."""
    words = head.split()
    for end in range(len(words), 0, -1):
        try:
            return find_command(commands, " ".join(words[:end])), " ".join(words[end:])
        except CommandLineError:
            continue
    return find_command(commands, head), ""


def _leading_word(choice: dict[str, Any], locale: str | None) -> str:
    shown = (choice.get("name_localizations") or {}).get(locale or "", choice["name"])
    return str(shown).split(" (")[0]


def _from_text(option: dict[str, Any], raw: str, locale: str | None = None) -> Any:
    kind, name = option["type"], option["name"]
    choices = option.get("choices") or []
    for choice in choices:
        # Discord's picker shows choice names, localized for the client's language.
        shown = (choice.get("name_localizations") or {}).get(locale or "", choice["name"])
        if raw in (choice["name"], shown):
            return choice["value"]
    # Typing the start of a name and taking the one choice it picks out, as a client's picker
    # allows: `O` for `O (oeste)`, the first word of a name up to its parenthesis.
    leading = [c["value"] for c in choices if _leading_word(c, locale) == raw]
    if len(leading) == 1:
        return leading[0]
    try:
        if kind == INTEGER:
            return int(raw)
        if kind == NUMBER:
            return float(raw)
    except ValueError:
        wanted = f"Option {name!r} needs {_a(TYPE_NAMES[kind])}, not {raw!r}"
        raise CommandLineError(wanted) from None
    if kind == BOOLEAN:
        if raw.lower() not in ("true", "false", "yes", "no"):
            raise CommandLineError(f"Option {name!r} needs true or false, not {raw!r}")
        return raw.lower() in ("true", "yes")
    return raw
