"""What the local Discord remembers: messages the bot made and interactions it was sent."""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field
from typing import Any

from tests.localdiscord.attachments import UPLOAD, stored_attachment
from tests.localdiscord.world import TIMESTAMP, User, user_payload

EPHEMERAL = 64
LOADING = 128
COMPONENTS_V2 = 1 << 15  # its components are a layout (containers, sections, text)
MESSAGE_FIELDS = ("content", "embeds", "components", "flags", "attachments", "poll")


_USER_MENTION = re.compile(r"<@!?(\d+)>")


def pinged(content: str, allowed: dict[str, Any] | None) -> tuple[int, ...]:
    """The users a new message's content notifies: every one it mentions by Discord's default,
    else those `allowed_mentions` lets through (its `users` list, or "users" in `parse`)."""
    mentioned = [int(found) for found in _USER_MENTION.findall(content)]
    if allowed is None or "users" in (allowed.get("parse") or []):
        return tuple(mentioned)
    let = {int(user) for user in allowed.get("users") or []}
    return tuple(user for user in mentioned if user in let)


@dataclass
class MessageRecord:
    id: int
    channel_id: int
    author: User
    interaction_id: int | None = None
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    edits: int = 0
    # As last sent; None means Discord's default, which pings everyone the content mentions.
    allowed_mentions: dict[str, Any] | None = None
    attachments: list[dict[str, Any]] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)  # filename -> uploaded content
    # Who was notified: only a message's creation pings, never an edit (a deferral filled in,
    # or the first follow-up that fills it, included), and never a private message.
    pinged: tuple[int, ...] = ()

    def created(self, body: dict[str, Any]) -> None:
        """The message as created from `body`, and who its content pinged."""
        self.apply(body)
        if not self.flags & (EPHEMERAL | LOADING):
            self.pinged = pinged(self.content, self.allowed_mentions)

    def apply(self, body: dict[str, Any]) -> None:
        """Take the fields a create or edit body sets (null empties one, as Discord takes it);
        the rest keep their value."""
        for key, empty in (("content", ""), ("embeds", []), ("components", [])):
            if key in body:
                setattr(self, key, empty if body[key] is None else body[key])
        if body.get("allowed_mentions") is not None:
            self.allowed_mentions = body["allowed_mentions"]
        if body.get("flags") is not None:
            self.flags = (self.flags & (EPHEMERAL | LOADING | COMPONENTS_V2)) | body["flags"]
        if body.get("attachments") is not None:
            self._attach(body["attachments"])

    def _attach(self, entries: list[dict[str, Any]]) -> None:
        """New uploads are stored; existing attachments named by id stay; the rest go."""
        kept = {a["id"]: a for a in self.attachments}
        self.attachments = [
            stored_attachment(e, self.files) if UPLOAD in e else kept[str(e.get("id"))]
            for e in entries
            if UPLOAD in e or str(e.get("id")) in kept
        ]

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": user_payload(self.author),
            "content": self.content,
            "timestamp": TIMESTAMP,
            "edited_timestamp": TIMESTAMP if self.edits else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self.attachments,
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": 20 if self.interaction_id else 0,  # CHAT_INPUT_COMMAND reply
            "flags": self.flags,
            "webhook_id": str(self.author.id) if self.interaction_id else None,
            "application_id": str(self.author.id) if self.interaction_id else None,
        }


@dataclass
class InteractionRecord:
    id: int
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete, 5 modal submit
    payload: dict[str, Any]
    sent_at: float = field(default_factory=time.monotonic)
    callback_type: int | None = None
    callback_data: dict[str, Any] | None = None
    answered_at: float | None = None
    original_id: int | None = None  # the message @original names
    original_filled: bool = False  # a deferral's loading message got its content
    original_deleted: bool = False  # the bot deleted it (then a follow-up carries the answer)
    followup_ids: list[int] = field(default_factory=list)
    noted_late: bool = False  # already reported as unanswered
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def touch(self) -> None:
        self.changed.set()
