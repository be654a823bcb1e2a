"""A reply as plain text, for the sandbox and for reading transcripts: what a user would see."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from tests.localdiscord.reply import Reply, walk

ACTION_ROW, BUTTON, TEXT_INPUT, SECTION, TEXT_DISPLAY, THUMBNAIL = 1, 2, 4, 9, 10, 11
MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER, LABEL, CHECKBOX_GROUP = 12, 13, 14, 17, 18, 22
V2 = 1 << 15  # a message whose components are its layout (Components V2)
BAR = "┃ "  # a container's accent bar, before each of its lines
SELECTS = (3, 5, 6, 7, 8)  # string, user, role, mentionable and channel selects
MENTION = re.compile(r"<(@[!&]?|#)(\d+)>")


def render_reply(reply: Reply, names: Mapping[int, str] | None = None) -> str:
    """The reply and its follow-ups, one block each; lines are not wrapped.

    With `names` (id -> name), mentions read as Discord shows them: @pippa, #table, @Players.
    """
    blocks = [_block(reply), *(_block(f) for f in reply.followups)]
    text = "\n".join(b for b in blocks if b)
    return text if names is None else show_mentions(text, names)


def show_mentions(text: str, names: Mapping[int, str]) -> str:
    def named(match: re.Match[str]) -> str:
        name = names.get(int(match.group(2)))
        return match.group(0) if name is None else ("#" if match.group(1) == "#" else "@") + name

    return MENTION.sub(named, text)


def _block(reply: Reply) -> str:
    if reply.callback_type == 8:
        shown = ", ".join(f"{c.get('name')} ({c.get('value')!r})" for c in reply.choices)
        return f"(choices) {shown or 'none'}"
    if reply.modal is not None:
        return render_form(reply.modal)
    lines = ["(only you can see this)"] if reply.ephemeral else []
    if reply.content:
        lines.append(reply.content)
    if reply.flags & V2:  # the layout is the message: shown in order, pictures where they sit
        lines += _layout(list(reply.components), reply.attachments)
    else:
        for embed in reply.embeds:
            lines += _embed(embed)
        lines += [_attachment(a) for a in reply.attachments]
        controls = _components(list(reply.components))
        if controls:
            lines.append(controls)
    if len(lines) == (1 if reply.ephemeral else 0):
        lines.append("(deferred, no answer yet)" if reply.deferred else "(empty reply)")
    return "\n".join(lines)


def _embed(embed: dict[str, Any]) -> list[str]:
    lines = []
    if author := (embed.get("author") or {}).get("name"):
        lines.append(author)
    if title := embed.get("title"):
        lines.append(f"== {title} ==")
    if description := embed.get("description"):
        lines.append(description)
    for field in embed.get("fields") or []:
        # A multi-line value continues under its name, indented, so fields stay apart.
        value = str(field.get("value", "")).replace("\n", "\n  ")
        lines.append(f"{field.get('name')}: {value}")
    if footer := (embed.get("footer") or {}).get("text"):
        lines.append(f"-- {footer}")
    return lines


def _layout(components: list[dict[str, Any]], attachments: Sequence[dict[str, Any]]) -> list[str]:
    """A Components V2 layout as it reads from top to bottom: a container's lines behind its
    accent bar, a section's accessory beside its first line, a row's buttons on one line, a
    picture as its file (`📎 …`)."""
    lines: list[str] = []
    for c in components:
        kind = c.get("type")
        if kind == CONTAINER:
            lines += [BAR + line for line in _layout(c.get("components") or [], attachments)]
        elif kind == TEXT_DISPLAY:
            lines += str(c.get("content", "")).split("\n")
        elif kind == SECTION:
            texts = _layout(c.get("components") or [], attachments) or [""]
            beside = _layout([c["accessory"]], attachments) if c.get("accessory") else []
            lines += [f"{texts[0]}  {' '.join(beside)}".rstrip(), *texts[1:]]
        elif kind in (ACTION_ROW, BUTTON, *SELECTS):
            lines.append(_components([c]))
        elif kind == SEPARATOR:
            lines.append("──")
        elif kind in (MEDIA_GALLERY, THUMBNAIL, FILE):
            items = c.get("items") or [c]
            lines += [_media(item, attachments) for item in items]
    return lines


def _media(item: dict[str, Any], attachments: Sequence[dict[str, Any]]) -> str:
    url = str((item.get("media") or item.get("file") or {}).get("url", ""))
    name = url.removeprefix("attachment://")
    found = next((a for a in attachments if a.get("filename") == name), None)
    return _attachment(found) if found is not None else f"🖼️ {url}"


def _attachment(attachment: dict[str, Any]) -> str:
    """`📎 table.json (2,345 bytes) · alt: what it shows`: what a user sees of a file before
    opening it."""
    line = f"📎 {attachment.get('filename')} ({attachment.get('size', 0):,} bytes)"
    if description := attachment.get("description"):
        line += f" · alt: {description}"
    return line


def _components(components: list[dict[str, Any]]) -> str:
    shown = []
    for c in walk(components):
        if c.get("type") == BUTTON:
            label = c.get("label") or (c.get("emoji") or {}).get("name") or c.get("custom_id")
            if c.get("url"):
                label = f"{label} -> {c['url']}"
            shown.append(f"[{label}{' (disabled)' if c.get('disabled') else ''}]")
        elif c.get("type") in SELECTS:
            options = "|".join(o.get("label", "") for o in c.get("options") or [])
            shown.append(f"<{c.get('placeholder') or 'select'}{': ' + options if options else ''}>")
    return " ".join(shown)


def render_form(modal: dict[str, Any], filled: Mapping[str, Any] | None = None) -> str:
    """A form as a user sees it: each field under its label, what it holds (`filled` by
    custom_id, else what the form showed in it), a menu's or group's options with the chosen
    ones [in brackets]."""
    filled = filled or {}
    lines = [f"(form) {modal.get('title', '')}"]
    for c in modal.get("components") or []:
        if c.get("type") == LABEL:  # a field with its label above it
            lines.append(_field(str(c.get("label", "")), c["component"], filled))
            if c.get("description"):
                lines.append(f"      {c['description']}")
        elif c.get("type") == TEXT_DISPLAY:
            lines.append(f"  {c.get('content', '')}")
        for field in c.get("components") or []:  # a row holding an older, self-labelled field
            if field.get("type") == TEXT_INPUT:
                shown = field.get("label") or field.get("placeholder") or ""
                lines.append(_field(str(shown), field, filled))
    return "\n".join(lines)


def _field(label: str, field: dict[str, Any], filled: Mapping[str, Any]) -> str:
    required = field.get("required", True) is not False
    if field.get("type") == TEXT_INPUT:
        value = filled.get(field["custom_id"], field.get("value") or "")
        return f"  {label}{' (required)' if required else ''}: {value or '____'}"
    options = field.get("options") or []
    default = [o["value"] for o in options if o.get("default")]
    chosen = filled.get(field.get("custom_id", ""), default)
    chosen = [chosen] if isinstance(chosen, str) else chosen
    many = field.get("type") == CHECKBOX_GROUP or (field.get("max_values") or 1) > 1
    how = "choose any" if many else "choose one"
    shown = " | ".join(
        f"[{o.get('label')}]" if o.get("value") in chosen else str(o.get("label")) for o in options
    )
    return f"  {label} ({'required, ' if required else ''}{how}): {shown}"
