"""Replying with a picture: drawn off the event loop by the bot's painter, attached as a PNG
with its alt text as the file's description, and shown inside the reply's embed."""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from cogs._reply import reply
from cogs._shared import bot_of
from lang import spoken
from pictures import Picture
from pictures.painter import Job
from render.charts import with_picture


def job(interaction: discord.Interaction, kind: str, data: Any) -> Job:
    """A picture of `kind` from its series, in the language of the words around it (the
    reader's, or a public reply's table's: `bot.language`)."""
    return Job(kind, data, spoken())


async def reply_picture(
    interaction: discord.Interaction,
    embed: discord.Embed,
    picture_job: Job,
    *,
    private: bool | None = None,
    view: discord.ui.View | None = None,
) -> None:
    """Draw the picture (the watchdog defers the interaction if that takes long), then reply
    with the embed showing it: private as declared, unless `private` says (a button's picture
    to the clicker alone)."""
    picture = await bot_of(interaction).painter.draw(picture_job)
    await send_picture(interaction, embed, picture, private=private, view=view)


async def paint_built(
    interaction: discord.Interaction, read: Callable[[], Awaitable[Job]]
) -> tuple[Any, Picture]:
    """A picture whose series comes as a Recipe: `read` makes the job once it is this
    picture's turn (`Painter.turn`); the worker builds the series, draws it and sends both."""
    painter = bot_of(interaction).painter
    async with painter.turn():
        return await painter.paint(await read())


async def send_picture(
    interaction: discord.Interaction,
    embed: discord.Embed,
    picture: Picture,
    *,
    private: bool | None = None,
    view: discord.ui.View | None = None,
) -> None:
    """The reply: the PNG attached, with its alt text as the file's description."""
    file = discord.File(io.BytesIO(picture.png), picture.filename, description=picture.alt)
    embeds = [with_picture(embed, picture.filename)]
    await reply(interaction, embeds=embeds, files=[file], view=view, private=private)
