"""`/picture`: a command that answers the way a chart will, loaded only by the reply path's
tests. Its answer is an embed showing an attached PNG (`attachment://chart-<n>.png`, its alt
text in the file's description), more files beside it, and a Redraw button that replaces the
picture in place. Private unless `public:true`; `count` answers send more than one message (the
second and later are follow-ups). It reads the channel's table first, as a chart would, so a
test that holds the store makes it slow enough for the watchdog to defer it."""

from __future__ import annotations

import io
import struct
import zlib
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from cogs._buttons import TableButton, buttons_view
from cogs._reply import private, reply, update
from cogs._shared import CHANNEL_ONLY, read_table


def png(shade: int) -> bytes:
    """A 1×1 grey PNG: a real picture, different for each shade."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)  # 1×1, 8-bit greyscale
    pixels = zlib.compress(bytes([0, shade % 256]))
    chunks = chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + chunks


def alt_text(n: int) -> str:
    return f"Chart {n}: the party's fatigue, one bar per character"


def drawing(n: int, extra: int = 0) -> dict[str, Any]:
    """Drawing `n`: its embed, its picture (and `extra` data files) and its Redraw button."""
    name = f"chart-{n}.png"
    embed = discord.Embed(title=f"Chart {n}").set_image(url=f"attachment://{name}")
    files = [discord.File(io.BytesIO(png(n)), name, description=alt_text(n))]
    for k in range(extra):
        data = io.BytesIO(f"bar,{k}\n".encode())
        files.append(discord.File(data, f"data-{n}-{k}.csv", description=f"Data {k}"))
    return {"embed": embed, "files": files, "view": buttons_view(Redraw(n + 1))}


class Redraw(TableButton, template=r"tk:test:redraw:(?P<n>\d{1,3})"):
    """Replaces the clicked message's picture with drawing `n`."""

    def __init__(self, n: int) -> None:
        self.n = n
        super().__init__(f"tk:test:redraw:{n}", "Redraw")

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        return cls(int(match["n"]))

    async def clicked(self, interaction: discord.Interaction) -> None:
        await read_table(interaction, CHANNEL_ONLY)
        await update(interaction, **drawing(self.n))


class Pictures(commands.Cog):
    @app_commands.command(name="picture", description="A chart, with its alt text")
    @private(lambda options: not options.public)
    @app_commands.guild_only()
    async def picture(
        self,
        interaction: discord.Interaction,
        public: bool = False,
        count: app_commands.Range[int, 1, 3] = 1,
        extra: app_commands.Range[int, 0, 3] = 0,
    ) -> None:
        await read_table(interaction, CHANNEL_ONLY)
        for n in range(count):
            await reply(interaction, **drawing(n, extra))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Pictures())
    bot.add_dynamic_items(Redraw)
