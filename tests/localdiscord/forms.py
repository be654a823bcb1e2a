"""A form's fields as a person reads them: by the label above each, a choice by the words it
shows. For the tests and the sandbox (`:fill name=Aria level=5`), which fill forms by what a
user sees rather than by custom_ids."""

from __future__ import annotations

from typing import Any

from tests.localdiscord.commands import CommandLineError
from tests.localdiscord.reply import CHECKBOX, LABEL, RADIO_GROUP, TEXT_INPUT, walk


def fields(modal: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each field of a form by its label: a Label's component, or an older text input in a row
    (which carries its own label)."""
    found: dict[str, dict[str, Any]] = {}
    for c in walk(list(modal.get("components") or [])):
        if c.get("type") == LABEL:
            found[str(c.get("label"))] = c["component"]
        elif c.get("type") == TEXT_INPUT and c.get("label"):
            found[str(c["label"])] = c
    return found


def field_named(modal: dict[str, Any], key: str) -> tuple[str, dict[str, Any]]:
    """The field whose label is `key` (any case), else the one a word of whose label starts
    with it: `name`, `level`, `combine` for "How classes combine"."""
    found = fields(modal)
    typed = key.casefold().strip()
    exact = [label for label in found if label.casefold() == typed]
    near = [label for label in found if any(w.startswith(typed) for w in label.casefold().split())]
    match = exact or near
    if len(match) != 1:
        shown = ", ".join(found)
        why = "matches several" if match else "matches no field"
        raise CommandLineError(f"{key!r} {why}; the form has: {shown}")
    return match[0], found[match[0]]


def choice_values(field: dict[str, Any], typed: Any) -> list[str]:
    """The option values `typed` picks: each by what the option shows or its value (any case),
    or the start of what it shows; text lists several with commas."""
    options = field.get("options") or []
    wanted = typed if isinstance(typed, list) else _pieces(str(typed), options)
    values = []
    for want in wanted:
        key = str(want).casefold().strip()
        found = [o for o in options if key in _names(o)]
        found = found or [o for o in options if str(o.get("label")).casefold().startswith(key)]
        if len(found) != 1:
            shown = " | ".join(str(o.get("label")) for o in options)
            raise CommandLineError(f"{want!r} is not offered; choose among: {shown}")
        values.append(str(found[0]["value"]))
    return values


def _names(option: dict[str, Any]) -> tuple[str, str]:
    return str(option.get("label")).casefold(), str(option.get("value")).casefold()


def _pieces(text: str, options: list[dict[str, Any]]) -> list[str]:
    """`back, back-left` → two picks; an option whose words hold a comma stays whole."""
    whole = [o for o in options if text.casefold().strip() in _names(o)]
    return [text] if whole or "," not in text else [p for p in text.split(",") if p.strip()]


def by_label(modal: dict[str, Any], typed: dict[str, Any]) -> dict[str, Any]:
    """What `LocalDiscord.submit_modal` takes (values by custom_id) from values by label."""
    values: dict[str, Any] = {}
    for key, value in typed.items():
        _label, field = field_named(modal, key)
        kind = field.get("type")
        if kind == TEXT_INPUT:
            values[field["custom_id"]] = str(value)
        elif kind == CHECKBOX:
            values[field["custom_id"]] = str(value).casefold() in ("true", "yes", "1", "x")
        else:
            picks = choice_values(field, value)
            if kind == RADIO_GROUP and len(picks) != 1:
                raise CommandLineError(f"{key!r} takes one choice, not {len(picks)}")
            values[field["custom_id"]] = picks[0] if kind == RADIO_GROUP else picks
    return values
