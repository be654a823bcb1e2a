"""A reply as the test sees it, and the component-tree helpers that go with it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from tests.localdiscord.commands import CommandLineError


@dataclass(frozen=True)
class Reply:
    """A message as a user sees it, or the choices/modal an interaction was answered with."""

    interaction_id: int
    callback_type: int  # 4 message, 5 deferred, 6 deferred update, 7 update, 8 choices, 9 modal
    message_id: int | None = None
    channel_id: int | None = None
    content: str = ""
    embeds: tuple[dict[str, Any], ...] = ()
    components: tuple[dict[str, Any], ...] = ()
    ephemeral: bool = False
    deferred: bool = False
    followups: tuple[Reply, ...] = ()
    choices: tuple[dict[str, Any], ...] = ()
    modal: dict[str, Any] | None = None
    files: tuple[tuple[str, bytes], ...] = ()  # (filename, content) of each attachment
    attachments: tuple[dict[str, Any], ...] = ()  # as Discord returns them: id, description…
    flags: int = 0  # the message's: ephemeral, Components V2 (its components are its layout)

    @property
    def embed(self) -> dict[str, Any]:
        return self.embeds[0] if self.embeds else {}

    @property
    def text(self) -> str:
        """Everything readable: content, then each embed's author, title, description, fields
        and footer, or a Components V2 message's text displays in order."""
        parts: list[str | None] = [self.content, *self.texts()]
        for e in self.embeds:
            parts += [(e.get("author") or {}).get("name"), e.get("title"), e.get("description")]
            parts += [f"{f.get('name')}: {f.get('value')}" for f in e.get("fields") or []]
            parts.append((e.get("footer") or {}).get("text"))
        return "\n".join(p for p in parts if p)

    def lines(self) -> list[str]:
        """The lines of text as sent, as a phone lays them out one under another: the content's,
        each embed's author, title, description, each field's name and value, footer, and a
        Components V2 message's text displays (a line break starts a new line; a long line
        wraps on a phone, which `len` of each line shows)."""
        parts: list[str] = [self.content, *self.texts()]
        for e in self.embeds:
            parts += [(e.get("author") or {}).get("name") or "", e.get("title") or ""]
            parts.append(e.get("description") or "")
            for f in e.get("fields") or []:
                parts += [str(f.get("name") or ""), str(f.get("value") or "")]
            parts.append((e.get("footer") or {}).get("text") or "")
        return [line for part in parts if part for line in part.split("\n")]

    def texts(self) -> list[str]:
        """A Components V2 message's text displays, top to bottom (its words)."""
        return [c["content"] for c in walk(list(self.components)) if c.get("type") == 10]

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in walk(list(self.components)) if c.get("type") == 2]


def walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for c in components:
        out.append(c)
        out += walk(c.get("components") or [])
        out += walk([c["component"]] if isinstance(c.get("component"), dict) else [])
        out += walk([c["accessory"]] if isinstance(c.get("accessory"), dict) else [])
    return out


# A select menu's component type -> the option type whose values it picks (users, roles…).
SELECT_PICKS = {5: 6, 6: 8, 7: 9, 8: 7}
TEXT_INPUT, STRING_SELECT, TEXT_DISPLAY, LABEL = 4, 3, 10, 18
RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX = 21, 22, 23
Resolve = Callable[[int, Any], str]  # an option type and a value -> its id, put in `resolved`


def picked(
    select: dict[str, Any], values: list[Any], resolve: Resolve, label: str | None = None
) -> list[str]:
    """What a select menu sends for `values`: a string select's values, which must be among its
    options (a user can pick nothing else); the ids of the users, roles or channels picked in
    the others (`resolve` puts them in the interaction's `resolved`). Discord's client lets a
    user pick no fewer than `min_values` and no more than `max_values`."""
    kind = select.get("type")
    _count(select, len(values), 1, 1, select.get("required", True) is not False, label)
    if kind == STRING_SELECT:
        offered = [o.get("value") for o in select.get("options") or []]
        if not all(v in offered for v in values):
            raise CommandLineError(f"{values!r}: the menu offers only {offered!r}")
        return [str(v) for v in values]
    if kind in SELECT_PICKS:
        return [resolve(SELECT_PICKS[kind], v) for v in values]
    raise CommandLineError(f"Component type {kind} is no select menu")


def _count(
    field: dict[str, Any], count: int, low: int, high: int, required: bool, label: str | None
) -> None:
    """As many picks as the field takes (`min_values`..`max_values`, else `low`..`high`); none
    at all is allowed in a field that isn't required."""
    least = field.get("min_values")
    most = field.get("max_values")
    least, most = low if least is None else least, high if most is None else most
    if count == 0 and not required:
        return
    if not least <= count <= most:
        what = label or repr(field.get("custom_id"))
        raise CommandLineError(f"{what} takes {least} to {most} picks, not {count}")


def _defaults(field: dict[str, Any]) -> list[str]:
    return [str(o["value"]) for o in field.get("options") or [] if o.get("default")]


def fill_modal(
    components: list[dict[str, Any]], values: dict[str, Any], resolve: Resolve
) -> list[dict[str, Any]]:
    """The submitted shape of a form, as Discord's client sends it: its rows and labels with
    each text input's value, each select menu's and checkbox group's picks, each radio group's
    choice and each checkbox's state (`values` by custom_id; a field not given keeps what the
    form showed in it). What the client wouldn't let a user submit is refused: a required field
    left empty, text too long or too short, a pick the field doesn't offer, too many or too few."""
    ids = iter(range(1, 1000))  # Discord numbers the components a form doesn't number itself
    return [_filled(c, values, resolve, ids) for c in components]


def _filled(
    c: dict[str, Any],
    values: dict[str, Any],
    resolve: Resolve,
    ids: Iterator[int],
    label: str | None = None,
) -> dict[str, Any]:
    """One component as submitted; a refusal names the field by its `label`, as the client
    shows it, else by its custom_id."""
    kind, custom_id = c.get("type"), str(c.get("custom_id"))
    what = label or repr(custom_id)
    out: dict[str, Any] = {"type": kind, "id": c.get("id") or next(ids)}
    required = c.get("required", True) is not False
    if kind == TEXT_INPUT:
        text = str(values.get(custom_id, c.get("value") or ""))
        least, most = c.get("min_length") or 0, c.get("max_length") or 4000
        if required and not text:
            raise CommandLineError(f"{what} is required")
        if text and not least <= len(text) <= most:
            raise CommandLineError(f"{what} takes {least} to {most} characters: {text!r}")
        return out | {"custom_id": custom_id, "value": text}
    if kind == RADIO_GROUP:
        choice = values.get(custom_id, next(iter(_defaults(c)), None))
        offered = [o.get("value") for o in c.get("options") or []]
        if (choice is None and required) or (choice is not None and choice not in offered):
            raise CommandLineError(f"{what}: choose one of {offered!r}, not {choice!r}")
        return out | {"custom_id": custom_id, "value": choice}
    if kind == CHECKBOX_GROUP:
        checked = list(values.get(custom_id, _defaults(c)))
        offered = [o.get("value") for o in c.get("options") or []]
        if not all(v in offered for v in checked):
            raise CommandLineError(f"{what}: {checked!r} are not all among {offered!r}")
        _count(c, len(checked), 1, len(offered), required, label)
        return out | {"custom_id": custom_id, "values": checked}
    if kind == CHECKBOX:
        return out | {
            "custom_id": custom_id,
            "value": bool(values.get(custom_id, c.get("default"))),
        }
    if "custom_id" in c:  # a select menu
        chosen = picked(c, list(values.get(custom_id, _defaults(c))), resolve, label)
        return out | {"custom_id": custom_id, "values": chosen}
    if kind == TEXT_DISPLAY:
        return out | {"content": c.get("content", "")}
    if isinstance(c.get("component"), dict):  # a label around one field
        inner = _filled(c["component"], values, resolve, ids, c.get("label"))
        return out | {"component": inner}
    return out | {
        "components": [_filled(i, values, resolve, ids) for i in c.get("components") or []]
    }
