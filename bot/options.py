"""Every option of an interaction checked against what its command declares to Discord.

Discord's own client enforces the types, ranges, lengths, choices and required options a command
registers; anything else can send an interaction with whatever JSON it likes. So the tree walks
`interaction.data` against the command's own registration (`command.to_dict`, the very JSON
`python -m bot sync` sends) before discord.py transforms a single value: one source for every
limit, never a second list kept by hand.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from bot.contexts import AnyCommand, NotInServer, NotInstalledHere, needs_server
from lang import N_, _, speaking
from table.checks import control_character

log = logging.getLogger(__name__)

SUBCOMMAND, GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)
SAFE_INTEGER = 2**53  # Discord's bound on integer and number options without min/max
STRING_MAX = 6000  # Discord's bound on a string option without max_length
SNOWFLAKE_MAX = 2**64 - 1
_RESOLVED = {
    USER: ("users",),
    CHANNEL: ("channels",),
    ROLE: ("roles",),
    MENTIONABLE: ("users", "roles"),
    ATTACHMENT: ("attachments",),
}
_NOUNS = {
    STRING: N_("text"),
    INTEGER: N_("a whole number"),
    BOOLEAN: N_("true or false"),
    USER: N_("a member"),
    CHANNEL: N_("a channel"),
    ROLE: N_("a role"),
    MENTIONABLE: N_("a member or a role"),
    NUMBER: N_("a number"),
    ATTACHMENT: N_("a file"),
}
A_VALUE = N_("a value")
MALFORMED = N_("That command arrived malformed; nothing was changed.")


class BadOptions(app_commands.AppCommandError):
    """The interaction's options are not what the command declares; str(error) is for the user."""


Refusal = BadOptions | app_commands.NoPrivateMessage | NotInstalledHere


class Declarations:
    """What the tree's commands declare to Discord, and interactions checked against it before
    discord.py reads a single option (a forged payload must not reach a cog)."""

    def __init__(self, tree: app_commands.CommandTree[Any]) -> None:
        self.tree = tree
        # Each command's registration JSON, built once: it is fixed while the bot runs, and
        # building it costs more than checking an interaction against it.
        self._declarations: dict[AnyCommand, dict[str, Any]] = {}

    def of(self, command: AnyCommand) -> dict[str, Any]:
        found = self._declarations.get(command)
        if found is None:
            found = self._declarations[command] = command.to_dict(self.tree)
        return found

    def refusal(self, interaction: discord.Interaction) -> Refusal | None:
        """Why a slash command can't run as sent, or None: its options must fit what it
        declares, and a command that needs a server comes from one that installed the bot
        (`bot.contexts`), whatever the client was told."""
        data: Any = interaction.data
        if not isinstance(data, dict) or data.get("type", 1) != 1:
            return None  # not a slash command: discord.py's own lookup refuses it
        autocomplete = interaction.type is discord.InteractionType.autocomplete
        command = self._declared(data)
        if command is None and isinstance(data.get("name"), str):
            return None  # unknown: discord.py raises CommandNotFound, answered as out of date
        try:
            if command is None:  # discord.py's own lookup would fail on it with a TypeError
                raise BadOptions(_(MALFORMED))
            check_options(self.of(command), data, autocomplete=autocomplete)
        except BadOptions as error:  # a forged payload, or a very stale client
            with speaking(None):  # the log reads in English, whatever the user reads
                reason = self._why(command, data, autocomplete)
            name = str(data.get("name"))[:40]
            log.warning(
                "Refused the options of %r from user %s: %s", name, interaction.user.id, reason
            )
            return error
        # In a server, through the server's own install, not only a user's (asked first: most
        # interactions come so).
        if not interaction.is_guild_integration() and needs_server(_leaf(command, data)):
            return NotInServer() if interaction.guild_id is None else NotInstalledHere()
        return None

    def _declared(self, data: dict[str, Any]) -> AnyCommand | None:
        name = data.get("name")
        if not isinstance(name, str):
            return None
        guild_id = data.get("guild_id")
        if isinstance(guild_id, str) and guild_id.isdigit():
            found = self.tree.get_command(name, guild=discord.Object(int(guild_id)))
            if found is not None and not isinstance(found, app_commands.ContextMenu):
                return found
        found = self.tree.get_command(name)
        return None if isinstance(found, app_commands.ContextMenu) else found

    def _why(self, command: AnyCommand | None, data: dict[str, Any], autocomplete: bool) -> str:
        """Why the options were refused, in the current language (checked again: refusals are
        rare)."""
        try:
            if command is None:
                return _(MALFORMED)
            check_options(self.of(command), data, autocomplete=autocomplete)
        except BadOptions as error:
            return str(error)
        return "?"


def _leaf(command: AnyCommand, data: dict[str, Any]) -> AnyCommand:
    """The subcommand `data` names (already checked against the declaration)."""
    options = data.get("options") or []
    while isinstance(command, app_commands.Group) and options:
        found = command.get_command(options[0]["name"])
        if found is None:
            break
        command, options = found, options[0].get("options") or []
    return command


def check_options(
    declared: Mapping[str, Any], data: Mapping[str, Any], *, autocomplete: bool = False
) -> None:
    """Raise BadOptions unless `data` (an interaction's data) fits the declared command.

    While autocompleting, Discord sends the options filled in so far and the focused one as the
    text typed: required options may be missing and the focused value is unchecked text."""
    resolved = data.get("resolved") or {}
    if not isinstance(resolved, dict):
        raise BadOptions(_(MALFORMED))
    _check_level(declared, data.get("options"), "/" + str(declared["name"]), resolved, autocomplete)


def _check_level(
    node: Mapping[str, Any],
    given: Any,
    where: str,
    resolved: Mapping[str, Any],
    autocomplete: bool,
) -> None:
    given = [] if given is None else given
    if not isinstance(given, list) or not all(isinstance(g, dict) for g in given):
        raise BadOptions(
            _("The options of {where} arrived malformed; nothing was changed.", where=where)
        )
    declared, names, required = _index(node)
    if names:
        sub = declared.get(given[0].get("name")) if len(given) == 1 else None
        if sub is None or sub["type"] != given[0].get("type"):
            raise BadOptions(
                _("{where} needs one of its subcommands: {names}.", where=where, names=names)
            )
        _check_level(sub, given[0].get("options"), f"{where} {sub['name']}", resolved, autocomplete)
        return
    seen: set[str] = set()
    for option in given:
        name = option.get("name")
        found = declared.get(name) if isinstance(name, str) else None
        if found is None:
            shown = _shown(name)
            raise BadOptions(
                _(
                    "{where} has no option {shown}; it may have changed: try again.",
                    where=where,
                    shown=shown,
                )
            )
        if name in seen:
            raise BadOptions(_("Option `{name}` was given twice.", name=name))
        seen.add(name)
        if option.get("type") != found["type"] or "value" not in option:
            raise BadOptions(_needs(name, found["type"]))
        if autocomplete and option.get("focused") is True:
            if not isinstance(option["value"], str) or "\x00" in option["value"]:
                raise BadOptions(_("Option `{name}` needs text while typing.", name=name))
            continue
        _check_value(found, option["value"], resolved)
    if not autocomplete:
        for name in required:
            if name not in seen:
                raise BadOptions(_("{where} needs the option `{name}`.", where=where, name=name))


Index = tuple[dict[str, Mapping[str, Any]], str, tuple[str, ...]]
# Each level of a declaration read once: its options by name, its subcommands' names (empty for
# a command's own options) and its required options. A declaration is never changed once made
# (the tree keeps each command's for the life of the bot), and the index keeps it alive: its id
# can't be taken by another while the index is kept. Bounded: emptied when full.
_INDEXES: dict[int, tuple[Mapping[str, Any], Index]] = {}
INDEXES_KEPT = 1024


def _index(node: Mapping[str, Any]) -> Index:
    """`node`'s level indexed, once: at most 1,024 kept (INDEXES_KEPT), emptied when full."""
    kept = _INDEXES.get(id(node))
    if kept is not None and kept[0] is node:
        return kept[1]
    declared = {o["name"]: o for o in node.get("options") or []}
    subcommands = [o["name"] for o in declared.values() if o["type"] in (SUBCOMMAND, GROUP)]
    required = tuple(name for name, o in declared.items() if o.get("required"))
    index = declared, ", ".join(subcommands), required
    if len(_INDEXES) >= INDEXES_KEPT:
        _INDEXES.clear()
    _INDEXES[id(node)] = (node, index)
    return index


def _check_value(
    option: Mapping[str, Any], value: Any, resolved: Mapping[str, Any], label: str | None = None
) -> None:
    """Refuse `value` unless it fits the declared `option`; a refusal names it as an option,
    or by `label` (a form's field that stands for it)."""
    kind, name = option["type"], option["name"]
    # Every option of every command passes here: a refusal's words are made only to refuse.
    if kind == STRING:
        if not isinstance(value, str):
            raise BadOptions(_needs(name, kind, label))
        _check_text(option, value, label)
    elif kind in (INTEGER, NUMBER):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise BadOptions(_needs(name, kind, label))
        if kind == INTEGER and not isinstance(value, int):
            raise BadOptions(_needs(name, kind, label))
        if isinstance(value, float) and not math.isfinite(value):  # an int is always finite
            raise BadOptions(_needs(name, kind, label))
        low = option.get("min_value", -SAFE_INTEGER)
        high = option.get("max_value", SAFE_INTEGER)
        if not low <= value <= high:
            raise BadOptions(
                _(
                    "{option} must be between {low} and {high}.",
                    option=_subject(name, label),
                    low=_number(low),
                    high=_number(high),
                )
            )
    elif kind == BOOLEAN:
        if not isinstance(value, bool):
            raise BadOptions(_needs(name, kind, label))
    elif kind in _RESOLVED:
        if not _is_snowflake(value) or not any(
            isinstance(resolved.get(key), dict) and value in resolved[key]
            for key in _RESOLVED[kind]
        ):
            raise BadOptions(_needs(name, kind, label))
    else:  # a type this bot never declares
        raise BadOptions(_needs(name, kind, label))
    choices = option.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        shown = ", ".join(_(str(c["name"])) for c in choices)  # as the client shows them
        raise BadOptions(
            _("{option} must be one of: {shown}.", option=_subject(name, label), shown=shown)
        )


def _check_text(option: Mapping[str, Any], value: str, label: str | None = None) -> None:
    name = option["name"]
    if "\x00" in value:
        raise BadOptions(_("{option} can't contain a NUL character.", option=_subject(name, label)))
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: JSON can carry it, UTF-8 (and SQL) can't
        raise BadOptions(
            _("{option} contains characters that aren't text.", option=_subject(name, label))
        ) from None
    control = control_character(value)  # Discord's own client never sends one
    if control is not None:
        raise BadOptions(
            _(
                "{option} can't contain control characters ({code} here).",
                option=_subject(name, label),
                code=control,
            )
        )
    low, high = option.get("min_length", 0), option.get("max_length", STRING_MAX)
    if not low <= len(value) <= high:
        if low > 0:
            raise BadOptions(
                _(
                    "{option} must be {low} to {high} characters long.",
                    option=_subject(name, label),
                    low=low,
                    high=high,
                )
            )
        raise BadOptions(
            _(
                "{option} must be at most {high} characters long.",
                option=_subject(name, label),
                high=high,
            )
        )


def check_fields(
    declared: Mapping[str, Any], fields: Mapping[str, tuple[str, str]]
) -> dict[str, Any]:
    """A form's fields as the options they stand for, checked as those options are: `declared`
    is the command's declaration (`Declarations.of`), `fields` each option's field as (its
    label, the text filled in). Each text is read as its option's type (a number typed as
    text) and checked by that option's declared limits, a refusal naming the field by its
    label; a blank field is left out, as an option not given."""
    options = _index(declared)[0]
    values: dict[str, Any] = {}
    for name, (label, text) in fields.items():
        text = text.strip()
        if text:
            option = options[name]
            value = _read(option, text, label)
            _check_value(option, value, {}, label)
            values[name] = value
    return values


def _read(option: Mapping[str, Any], text: str, label: str) -> Any:
    """A field's text as its option's type: a whole number, a number, or the text itself."""
    kind = option["type"]
    if kind == STRING:
        return text
    number = text.replace("\u2212", "-").replace(",", ".")  # a phone's minus sign, a comma
    if kind == INTEGER and re.fullmatch(r"[+-]?\d{1,16}", number):
        return int(number)
    if kind == NUMBER and re.fullmatch(r"[+-]?(\d{1,16}(\.\d{0,16})?|\.\d{1,16})", number):
        return float(number)
    raise BadOptions(_needs(option["name"], kind, label))


def _needs(name: str, kind: Any, label: str | None = None) -> str:
    """ "Option `amount` needs a whole number." for an option given the wrong type."""
    noun = _(_NOUNS.get(kind, A_VALUE))
    return _("{option} needs {noun}.", option=_subject(name, label), noun=noun)


def _subject(name: str, label: str | None) -> str:
    """What a refusal calls an option: "Option `amount`", or the label of the form's field
    that stands for it."""
    return label if label is not None else _("Option `{name}`", name=name)


def _is_snowflake(value: Any) -> bool:
    return (
        isinstance(value, str)
        and value.isascii()
        and value.isdigit()
        and len(value) <= 20
        and int(value) <= SNOWFLAKE_MAX
    )


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _shown(name: Any) -> str:
    if isinstance(name, str) and name.isascii() and name.replace("_", "").isalnum():
        return f"`{name[:32]}`"
    return _("by that name")
