"""`bot.ack._args`: a message's arguments for each request (files as `files` on a new message,
as `attachments` on an edit), every request reading the whole of each file again."""

from __future__ import annotations

import io

import discord

from bot.ack import _args


def chart() -> discord.File:
    return discord.File(io.BytesIO(b"png bytes"), "chart.png", description="A bar chart")


def read(files: list[discord.File]) -> list[tuple[str, bytes, str | None]]:
    return [(f.filename, f.fp.read(), f.description) for f in files]


def test_files_are_files_on_a_new_message_and_attachments_on_an_edit() -> None:
    message = {"content": "Here", "files": [chart()], "view": None}
    new = _args(message)
    assert set(new) == {"content", "files", "view"}
    assert read(new["files"]) == [("chart.png", b"png bytes", "A bar chart")]
    edited = _args(message, edit=True)
    assert set(edited) == {"content", "attachments", "view"}
    assert edited["view"] is None  # on an edit, None takes the buttons away
    assert read(edited["attachments"]) == [("chart.png", b"png bytes", "A bar chart")]


def test_every_request_reads_the_whole_file_again() -> None:
    message = {"files": [chart()]}
    assert read(_args(message)["files"])[0][1] == b"png bytes"  # read to the end, as sent
    assert read(_args(message)["files"])[0][1] == b"png bytes"  # a lost request sent again
