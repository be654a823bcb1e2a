"""`bot.message.Message`: one answer in the form each route takes (files as `files` on a new
message, as `attachments` on an edit), with fresh files of the same bytes for every request."""

from __future__ import annotations

import io

import discord
from discord.utils import MISSING

from bot.message import Message


def chart() -> discord.File:
    return discord.File(io.BytesIO(b"png bytes"), "chart.png", description="A bar chart")


def read(files: list[discord.File]) -> list[tuple[str, bytes, str | None]]:
    return [(f.filename, f.fp.read(), f.description) for f in files]


def test_files_are_files_on_a_new_message_and_attachments_on_an_edit() -> None:
    embed = discord.Embed(title="Chart").set_image(url="attachment://chart.png")
    message = Message("Here", embeds=[embed], files=[chart()], view=None)
    new, edited = message.new(), message.edit()
    assert set(new) == {"content", "embeds", "files"}  # a new message takes no None view
    assert read(new["files"]) == [("chart.png", b"png bytes", "A bar chart")]
    assert set(edited) == {"content", "embeds", "attachments", "view"}
    assert edited["view"] is None  # on an edit, None takes the buttons away
    assert read(edited["attachments"]) == [("chart.png", b"png bytes", "A bar chart")]


def test_every_request_gets_the_whole_file_again() -> None:
    message = Message(files=[chart()])
    first = message.edit()["attachments"]
    assert read(first)[0][1] == b"png bytes"  # read to the end, as a request does
    again = message.edit()["attachments"]
    assert again[0] is not first[0]
    assert read(again)[0][1] == b"png bytes"


def test_what_is_not_given_is_not_sent() -> None:
    assert Message().new() == {} and Message().edit() == {}
    cleared = Message(embeds=[], files=[])
    assert cleared.new() == {}  # nothing to send
    assert cleared.edit() == {"embeds": [], "attachments": []}  # an edit clears them
    assert Message(view=MISSING, content=None).edit() == {"content": None}
