"""The words the page shares with the bot's replies: a change as `/history` says it, a
character's Temporary FP, cap and rest as `/party show` says them, and how hurt a monster looks
as `/init show` says it, in plain text.

The replies' words are written for Discord (render/): names escaped for its markdown, players
and roles as mentions (`<@123>`). The page shows them as plain text, which its templates
escape for HTML: the markdown escapes come off (each name's every backslash was doubled, so
this gives back exactly what was typed), and a mention becomes a word, never an id. This is
the one module of the page that reads render/ (which imports discord for its embeds)."""

from __future__ import annotations

import re

from lang import _
from render.changes import event_action, event_parts
from render.fatigue import cap_text, rested_text, temp_text
from table.actions import action_text
from table.event import Event

__all__ = ["cap_text", "change_text", "plain", "rested_text", "temp_text"]

_ESCAPED = re.compile(r"\\(.)", re.DOTALL)
_PLAYER = re.compile(r"<@!?\d+>")
_ROLE = re.compile(r"<@&\d+>")


def plain(text: str) -> str:
    """Discord's markup off a reply's words: markdown escapes undone, mentions as words."""
    text = _ROLE.sub(lambda _match: _("a role"), text)
    text = _PLAYER.sub(lambda _match: _("a player"), text)
    return _ESCAPED.sub(r"\1", text)


def change_text(event: Event, numbers: bool) -> tuple[str, str]:
    """What a logged change was and what it did: (`fatigue spend`, `Aria FP 18 → 21 …`);
    `numbers`: whether the page may show the monsters' numbers (`table.sight`)."""
    action = event_action(event)  # the page is the players': no preparation of the GM's
    if action != action_text(event.action):
        return action, ""
    parts = event_parts(event, numbers=numbers)
    what = "; ".join(plain(part) for part in parts) or _("no visible change")
    return action, what
