"""A reply as the test sees it, and the component-tree helpers that go with it."""

from __future__ import annotations

from collections.abc import Callable
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
TEXT_INPUT, STRING_SELECT = 4, 3
Resolve = Callable[[int, Any], str]  # an option type and a value -> its id, put in `resolved`


def picked(select: dict[str, Any], values: list[Any], resolve: Resolve) -> list[str]:
    """What a select menu sends for `values`: a string select's values, which must be among its
    options (a user can pick nothing else); the ids of the users, roles or channels picked in
    the others (`resolve` puts them in the interaction's `resolved`)."""
    kind = select.get("type")
    if kind == STRING_SELECT:
        offered = [o.get("value") for o in select.get("options") or []]
        if not all(v in offered for v in values):
            raise CommandLineError(f"{values!r}: the menu offers only {offered!r}")
        return [str(v) for v in values]
    if kind in SELECT_PICKS:
        return [resolve(SELECT_PICKS[kind], v) for v in values]
    raise CommandLineError(f"Component type {kind} is no select menu")


def fill_modal(
    components: list[dict[str, Any]], values: dict[str, Any], resolve: Resolve
) -> list[dict[str, Any]]:
    """The submitted shape of a form: its rows and labels with each text input's value and each
    select menu's picks (`values` by custom_id)."""
    out: list[dict[str, Any]] = []
    for c in components:
        if c.get("type") == TEXT_INPUT:
            out.append(
                {"type": 4, "custom_id": c["custom_id"], "value": values.get(c["custom_id"], "")}
            )
        elif "custom_id" in c:  # a select menu
            chosen = picked(c, list(values.get(c["custom_id"], [])), resolve)
            out.append({"type": c["type"], "custom_id": c["custom_id"], "values": chosen})
        elif isinstance(c.get("component"), dict):  # a label around one field
            inner = fill_modal([c["component"]], values, resolve)[0]
            out.append({"type": c["type"], "component": inner})
        else:
            inner_rows = fill_modal(c.get("components") or [], values, resolve)
            out.append({"type": c["type"], "components": inner_rows})
    return out
