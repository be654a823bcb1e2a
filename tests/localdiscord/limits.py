"""Limits Discord enforces that its OpenAPI description does not express.

Each check names the Discord error a real request would get. The description already holds a
section to one accessory (a button or a thumbnail) beside one to three text displays, a row to
five items and a container to forty; what it leaves out is here: the Components V2 flag with
content or embeds, 40 components and 4,000 characters of text in a whole message, a select
menu alone in its row, five rows in a message without the flag, and five fields in a form.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

LOCALIZED = ("name_localizations", "description_localizations")
COMPONENTS_V2 = 1 << 15  # the message flag
ACTION_ROW, BUTTON, STRING_SELECT, SECTION, TEXT_DISPLAY = 1, 2, 3, 9, 10
RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX = 21, 22, 23
LABELLED_ONLY = (RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX)  # allowed in a form only inside a Label
ROWS_MAX = 5  # action rows in a message without the Components V2 flag
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
SUBCOMMANDS = (1, 2)
MESSAGE_CREATES = ("/webhooks/{webhook_id}/{webhook_token}",)
MESSAGE_EDITS = (
    "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
    "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
)


def extra_checks(template: str, body: Any) -> list[str]:
    if not isinstance(body, dict | list):
        return []
    if template.endswith("/commands") and isinstance(body, list):
        return _command_list(body)
    if template.endswith("/commands") or template.endswith("/commands/{command_id}"):
        return _command(body, "") if isinstance(body, dict) else []
    if template.endswith("/callback") and isinstance(body, dict):
        data = body.get("data") or {}
        if body.get("type") in (4, 7) and isinstance(data, dict):
            return _message(data, create=body.get("type") == 4)
        if body.get("type") == 9 and isinstance(data, dict):
            return _modal(data)
        return []
    if template in MESSAGE_CREATES + MESSAGE_EDITS and isinstance(body, dict):
        return _message(body, create=template in MESSAGE_CREATES)
    return []


def _command_list(commands: list[Any]) -> list[str]:
    problems = []
    names = [(c.get("type") or 1, c.get("name")) for c in commands if isinstance(c, dict)]
    for kind, name in sorted(set(names)):
        if names.count((kind, name)) > 1:
            problems.append(
                f"command name {name!r} used twice (APPLICATION_COMMANDS_DUPLICATE_NAME)"
            )
    if sum(1 for kind, _ in names if kind == 1) > 100:
        problems.append("more than 100 slash commands (Discord's limit)")
    for index, command in enumerate(commands):
        if isinstance(command, dict):
            problems += _command(command, f"[{index}]")
    return problems


def _command(command: dict[str, Any], where: str) -> list[str]:
    if (command.get("type") or 1) != 1:
        return []
    problems = []
    name = command.get("name", "")
    if not _valid_name(name):
        problems.append(f"{where}.name: {name!r} must be 1-32 lowercase letters, digits, - or _")
    if not command.get("description"):  # the spec lets it be empty or null
        problems.append(f"{where}.description: a slash command needs a description")
    problems += _localizations(command, where)
    problems += _options(command.get("options") or [], f"{where}.options")
    if (size := _characters(command)) > 4000:
        problems.append(
            f"{where}: names, descriptions and choices total {size} characters (max 4000, "
            "counting each field's longest localization)"
        )
    return problems


@cache
def _locales() -> frozenset[str]:
    """The locales Discord takes as localization keys (the spec's AvailableLocalesEnum)."""
    from tests.localdiscord.validate import spec  # validate imports this module

    return frozenset(
        c["const"] for c in spec()["components"]["schemas"]["AvailableLocalesEnum"]["oneOf"]
    )


def _localizations(node: dict[str, Any], where: str, *, named: bool = True) -> list[str]:
    """Keys must be locales Discord has (the spec types them as any string): Discord answers
    an unknown one with 50035 Invalid Form Body. A localized name obeys the name rules."""
    problems = []
    for field in LOCALIZED:
        found = node.get(field) or {}
        if not isinstance(found, dict):
            continue
        for locale in sorted(set(found) - _locales(), key=str):
            problems.append(f"{where}.{field}: {locale!r} is not a locale Discord knows (50035)")
        if field == "name_localizations" and named:  # a command's or option's, not a choice's
            for locale, name in sorted(found.items()):
                if not _valid_name(name):
                    problems.append(f"{where}.{field}.{locale}: {name!r} is not a valid name")
    return problems


def _options(options: list[Any], where: str) -> list[str]:
    problems = []
    names = [o.get("name") for o in options if isinstance(o, dict)]
    for name in sorted(set(names), key=str):
        if names.count(name) > 1:
            problems.append(f"{where}: option name {name!r} used twice")
    kinds = {o.get("type") in SUBCOMMANDS for o in options if isinstance(o, dict)}
    if len(kinds) > 1:
        problems.append(f"{where}: subcommands cannot sit beside plain options")
    seen_optional = False
    for index, option in enumerate(options):
        if not isinstance(option, dict):
            continue
        here = f"{where}[{index}]"
        if not _valid_name(option.get("name", "")):
            problems.append(f"{here}.name: {option.get('name')!r} must be lowercase, - or _")
        if option.get("required") and seen_optional:
            problems.append(f"{here}: required options must come before optional ones")
        seen_optional |= not option.get("required") and option.get("type") not in SUBCOMMANDS
        if option.get("autocomplete") and option.get("choices"):
            problems.append(f"{here}: autocomplete and choices cannot both be set")
        problems += _localizations(option, here)
        for number, choice in enumerate(option.get("choices") or []):
            if isinstance(choice, dict):
                problems += _localizations(choice, f"{here}.choices[{number}]", named=False)
        problems += _options(option.get("options") or [], f"{here}.options")
    return problems


def _valid_name(name: Any) -> bool:
    return isinstance(name, str) and bool(COMMAND_NAME.match(name)) and name == name.lower()


def _longest(node: dict[str, Any], field: str) -> int:
    """A field's length as Discord counts it toward the size limit: its longest localization,
    the default included."""
    found = node.get(f"{field}_localizations") or {}
    texts = [node.get(field) or "", *(found.values() if isinstance(found, dict) else ())]
    return max(len(t) for t in texts if isinstance(t, str))


def _characters(node: dict[str, Any]) -> int:
    total = _longest(node, "name") + _longest(node, "description")
    total += sum(
        len(str(c.get("value", ""))) + _longest(c, "name")
        for c in node.get("choices") or []
        if isinstance(c, dict)
    )
    return total + sum(_characters(o) for o in node.get("options") or [] if isinstance(o, dict))


def _message(message: dict[str, Any], *, create: bool) -> list[str]:
    problems = []
    embeds = [e for e in message.get("embeds") or [] if isinstance(e, dict)]
    size = sum(_embed_characters(e) for e in embeds)
    if size > 6000:
        problems.append(f"embeds total {size} characters (max 6000 per message)")
    ids = _custom_ids(message.get("components") or [])
    for custom_id in sorted(set(ids)):
        if ids.count(custom_id) > 1:
            problems.append(f"components: custom_id {custom_id!r} used twice in one message")
    selects = [c for c in _every(message.get("components") or []) if c.get("type") == STRING_SELECT]
    problems += [p for select in selects for p in _picks(select)]
    empty = not any(message.get(k) for k in ("content", "embeds", "components", "attachments"))
    if create and empty and not message.get("poll"):
        problems.append("Cannot send an empty message (50006)")
    return problems + _layout(message)


def _layout(message: dict[str, Any]) -> list[str]:
    """Components V2 (the IS_COMPONENTS_V2 flag): no content or embeds beside them, at most 40
    components in all and 4,000 characters of text; without the flag, only rows of buttons and
    menus."""
    components = [c for c in message.get("components") or [] if isinstance(c, dict)]
    problems = _rows(_every(components))
    if not (message.get("flags") or 0) & COMPONENTS_V2:
        if any(c.get("type") != ACTION_ROW for c in components):
            problems.append("components: layout components need the IS_COMPONENTS_V2 flag (50035)")
        if len(components) > ROWS_MAX:
            problems.append(f"components: {len(components)} rows (max {ROWS_MAX} without V2)")
        return problems
    if message.get("content") or message.get("embeds"):
        problems.append("IS_COMPONENTS_V2: a message can't have content or embeds (50035)")
    every = _every(components)
    if len(every) > 40:
        problems.append(f"components: {len(every)} in all (max 40 with IS_COMPONENTS_V2)")
    text = sum(len(str(c.get("content") or "")) for c in every if c.get("type") == TEXT_DISPLAY)
    if text > 4000:
        problems.append(f"components: {text} characters of text (max 4000)")
    return problems


def _rows(every: list[dict[str, Any]]) -> list[str]:
    """A select menu fills its row alone; a row holds buttons or one select, never both."""
    problems = []
    for component in every:
        if component.get("type") != ACTION_ROW:
            continue
        kinds = [c.get("type") for c in component.get("components") or [] if isinstance(c, dict)]
        if any(k != BUTTON for k in kinds) and len(kinds) > 1:
            problems.append(f"components: a select menu shares its row with {len(kinds) - 1}")
    return problems


def _every(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component of a tree, nested ones and a section's accessory included."""
    found = []
    for component in components:
        found.append(component)
        inner = [*(component.get("components") or [])]
        inner += [component[k] for k in ("accessory", "component") if component.get(k)]
        found += _every([c for c in inner if isinstance(c, dict)])
    return found


def _modal(modal: dict[str, Any]) -> list[str]:
    """A form: at most five components; radio groups, checkbox groups and checkboxes only
    inside a Label; each field's picks possible (`_picks`)."""
    components = [c for c in modal.get("components") or [] if isinstance(c, dict)]
    problems = [f"modal: {len(components)} components (max 5)"] if len(components) > 5 else []
    labelled = [c["component"] for c in components if isinstance(c.get("component"), dict)]
    for c in _every(components):
        if c.get("type") in LABELLED_ONLY and not any(c is inner for inner in labelled):
            problems.append(f"modal: component type {c['type']} outside a Label (50035)")
        if c.get("type") in (STRING_SELECT, CHECKBOX_GROUP, RADIO_GROUP):
            problems += _picks(c)
        if c.get("type") == STRING_SELECT and c.get("disabled"):
            problems.append(f"modal: select {c.get('custom_id')!r} disabled (not in a form, 50035)")
    return problems


def _picks(field: dict[str, Any]) -> list[str]:
    """A select menu's or a group's picks must be possible: `min_values` up to `max_values`, no
    more than it has options (Discord's default for a checkbox group), defaults no more than
    it takes (one, in a radio group); a group that takes none must not be required."""
    where, kind = f"component {field.get('custom_id')!r}", field.get("type")
    options = [o for o in field.get("options") or [] if isinstance(o, dict)]
    defaults = sum(1 for o in options if o.get("default"))
    if kind == RADIO_GROUP:
        return [f"{where}: {defaults} options chosen by default (max 1)"] if defaults > 1 else []
    least = field.get("min_values")
    most = field.get("max_values")
    least = 1 if least is None else least
    most = (len(options) if kind == CHECKBOX_GROUP else 1) if most is None else most
    problems = []
    if not least <= most <= len(options):
        problems.append(f"{where}: {least} to {most} picks of {len(options)} options (50035)")
    if defaults > most:
        problems.append(f"{where}: {defaults} options chosen by default (max {most})")
    if kind == CHECKBOX_GROUP and least == 0 and field.get("required", True) is not False:
        problems.append(f"{where}: min_values 0 needs required false (50035)")
    return problems


def _embed_characters(embed: dict[str, Any]) -> int:
    parts = [embed.get("title"), embed.get("description")]
    parts += [(embed.get("footer") or {}).get("text"), (embed.get("author") or {}).get("name")]
    for field in embed.get("fields") or []:
        parts += [field.get("name"), field.get("value")]
    return sum(len(p) for p in parts if isinstance(p, str))


def _custom_ids(components: list[Any]) -> list[str]:
    ids = []
    for component in components:
        if isinstance(component, dict):
            if isinstance(component.get("custom_id"), str):
                ids.append(component["custom_id"])
            ids += _custom_ids(component.get("components") or [])
            if isinstance(component.get("accessory"), dict):
                ids += _custom_ids([component["accessory"]])
    return ids
