"""Secret rolls' buttons (See the roll, Reveal), registered with the client so they work on
every secret roll's notice, after a restart too; the rolls themselves are made by `/roll` and
`/save` through `cogs._secret`."""

from __future__ import annotations

from discord.ext import commands

from cogs._secret import SecretPeek, SecretReveal


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(SecretPeek, SecretReveal)  # before any click, after every restart


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(SecretPeek, SecretReveal)
