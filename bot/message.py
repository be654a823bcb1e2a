"""What an answer says (text, embeds, files, buttons), in the form each of Discord's routes
takes: a new message (the answer, a follow-up) takes `files`, an edit (a deferral filled in, a
clicked message updated) takes them as `attachments`.

A file is kept as its bytes and made afresh for every request: discord.py reads a file once
and, sent again (a lost response retried), it would go out empty. A picture shows inside an
embed by `attachment://<filename>`, with its alt text in the file's `description`.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord.utils import MISSING

AnyView = discord.ui.View | discord.ui.LayoutView  # buttons and menus, or a V2 layout


@dataclass(frozen=True)
class Upload:
    """A file to attach, kept as bytes."""

    data: bytes
    filename: str
    description: str | None = None
    spoiler: bool = False

    @classmethod
    def of(cls, file: discord.File) -> Upload:
        data = file.fp.read()
        file.close()  # a file discord.py opened from a path is closed; a buffer stays open
        return cls(data, file.filename, file.description, file.spoiler)

    def file(self) -> discord.File:
        return discord.File(
            io.BytesIO(self.data), self.filename, description=self.description, spoiler=self.spoiler
        )


class Message:
    """A field left MISSING is not sent: a new message goes without it, an edited one keeps
    what it showed (None or an empty list clears it: `view=None` takes the buttons away)."""

    def __init__(
        self,
        content: str | None = MISSING,
        *,
        embeds: Sequence[discord.Embed] = MISSING,
        files: Iterable[discord.File] = MISSING,
        view: AnyView | None = MISSING,
        pinged: discord.abc.Snowflake | None = None,
    ) -> None:
        self.content = content
        self.pinged = pinged  # the one user this message may ping; everyone else stays closed
        self.embeds: list[discord.Embed] = MISSING
        self.uploads: list[Upload] = MISSING
        if embeds is not MISSING:
            self.embeds = list(embeds)
        if files is not MISSING:
            self.uploads = [Upload.of(f) for f in files]
        self.view = view

    def new(self) -> dict[str, Any]:
        """Keyword arguments for `send_message` and `followup.send` (which takes no None)."""
        given = self._given(files="files")
        return {k: v for k, v in given.items() if v is not None and v != []}

    def edit(self) -> dict[str, Any]:
        """Keyword arguments for `edit_message` and `edit_original_response`."""
        return self._given(files="attachments")

    def _given(self, files: str) -> dict[str, Any]:
        made = MISSING if self.uploads is MISSING else [u.file() for u in self.uploads]
        fields: dict[str, Any] = {
            "content": self.content,
            "embeds": self.embeds,
            files: made,
            "view": self.view,
        }
        if self.pinged is not None:
            fields["allowed_mentions"] = discord.AllowedMentions(
                everyone=False, roles=False, replied_user=False, users=[self.pinged]
            )
        return {k: v for k, v in fields.items() if v is not MISSING}
