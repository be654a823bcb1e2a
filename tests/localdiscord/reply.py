"""A reply as the test sees it, and the component-tree helpers that go with it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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

    @property
    def embed(self) -> dict[str, Any]:
        return self.embeds[0] if self.embeds else {}

    @property
    def text(self) -> str:
        """Everything readable: content, then each embed's author, title, description, fields
        and footer."""
        parts: list[str | None] = [self.content]
        for e in self.embeds:
            parts += [(e.get("author") or {}).get("name"), e.get("title"), e.get("description")]
            parts += [f"{f.get('name')}: {f.get('value')}" for f in e.get("fields") or []]
            parts.append((e.get("footer") or {}).get("text"))
        return "\n".join(p for p in parts if p)

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


def fill_modal(components: list[dict[str, Any]], values: dict[str, str]) -> list[dict[str, Any]]:
    """The submitted shape of a modal: its rows/labels with each text input's value."""
    out = []
    for c in components:
        if c.get("type") == 4:
            out.append(
                {"type": 4, "custom_id": c["custom_id"], "value": values.get(c["custom_id"], "")}
            )
        elif isinstance(c.get("component"), dict):
            out.append({"type": c["type"], "component": fill_modal([c["component"]], values)[0]})
        else:
            inner = fill_modal(c.get("components") or [], values)
            out.append({"type": c["type"], "components": inner})
    return out
