"""Server-Sent Events as the page's stream carries them (the HTML standard's `text/event-stream`).

A field ends at a CR, an LF or a CR LF (the standard knows all three), so an event's data is
sent a line at a time, split at every one of them: text with a bare CR in it (a setting, a
name) can't end the `data:` line early and start a field or an event of its own. The browser
joins the lines again with LFs."""

from __future__ import annotations

import re

_LINE_END = re.compile(r"\r\n|\r|\n")


def event(name: str, data: str) -> bytes:
    """One event: its name, and its data a line at a time."""
    lines = "".join(f"data: {line}\n" for line in _LINE_END.split(data))
    return f"event: {name}\n{lines}\n".encode()


def retry(ms: int) -> bytes:
    """How soon a browser reconnects a lost stream."""
    return f"retry: {ms}\n\n".encode()


COMMENT = b": still here\n\n"  # a comment: keeps an idle stream open through proxies
