"""`/import`: the GM puts a Tablekeeper export into this channel, its history and undo with it;
a channel that has a table is replaced only after a confirmation.

The file is refused by the size its attachment declares before a byte is downloaded, then read,
checked and made into the rows it will be logged as (`exports.reading`) in a worker process
(`cogs._checker`), so the bot's other channels keep their speed meanwhile. A confirmation holds
those rows in memory for its minute (a file is no custom_id): about the file's size, for at
most HELD_MAX prompts at once and one a channel (a newer prompt forgets the older: its buttons
then say so); after a restart it says so and asks for the command again.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.ack import mark_saved
from bot.permissions import is_gm
from cogs._buttons import id_code, id_from_code
from cogs._checker import Checker
from cogs._confirm import ANSWER, CONFIRM_SECONDS, ConfirmButton, PromptTimers, ask
from cogs._reply import private, reply, update
from cogs._shared import GM_ONLY, bot_of, read_table, require_gm, table_channel_id
from exports.document import export_key
from exports.reading import check_size
from lang import N_, _
from render.importing import (
    import_cancelled_embed,
    import_forgotten_embed,
    imported_text,
    replace_embed,
)
from rules.errors import RulesError
from store.import_write import TableThere
from table.imported import Imported
from table.model import Forbidden, Table

HELD_MAX = 8  # prompts whose files are held at once: the oldest is forgotten first


class Pending:
    """What the prompts ask about, by their tokens: the checked file, and its channel."""

    def __init__(self) -> None:
        self._held: OrderedDict[str, tuple[int, Imported]] = OrderedDict()

    def hold(self, token: str, channel_id: int, imported: Imported) -> None:
        for older, (channel, _file) in list(self._held.items()):
            if channel == channel_id:
                del self._held[older]
        self._held[token] = channel_id, imported
        while len(self._held) > HELD_MAX:
            self._held.popitem(last=False)

    def get(self, token: str) -> Imported | None:
        held = self._held.get(token)
        return None if held is None else held[1]

    def forget(self, token: str) -> None:
        self._held.pop(token, None)


def _cog(interaction: discord.Interaction) -> Importing:
    cog = bot_of(interaction).get_cog("Importing")
    assert isinstance(cog, Importing)  # loaded with its command
    return cog


async def _import(
    interaction: discord.Interaction, imported: Imported, replace: tuple[int | None] | None
) -> None:
    """One transaction: the GM test asked of the settings it reads; the reply says what came."""

    def gm(table: Table) -> None:
        if not is_gm(interaction, table.settings):
            raise Forbidden(_(GM_ONLY))

    bot = bot_of(interaction)
    done = await bot.store.import_channel(
        await table_channel_id(interaction),
        interaction.guild_id,
        interaction.user.id,
        imported,
        check=gm,
        replace=replace,
        interaction_id=interaction.id,
        rolls_keep=bot.roll_log.keep,
    )
    mark_saved(interaction, "import")
    text = imported_text(
        done.table, done.changes, done.replaced, done.left_out, done.rolls, done.rolls_left_out
    )
    if replace is None:
        await reply(interaction, text)
    else:
        await update(interaction, content=text, embed=None, view=None)


class ImportAnswer(
    ConfirmButton,
    template=r"tk:import:" + ANSWER + r":(?P<token>[0-9a-z]{1,16}):(?P<newest>[0-9a-z]{0,13})",
):
    """Replace or Cancel on an `/import` prompt: only the GM who asked may click; the channel's
    newest change must still be the one they saw."""

    ONLY_ASKER = N_("Only the GM who asked for this import can confirm or cancel it.")

    def __init__(
        self,
        yes: bool,
        asker_id: int,
        until: str,
        token: str,
        newest: str,
        disabled: bool = False,
    ) -> None:
        self.token, self.newest = token, newest
        label = _("Replace the table")
        suffix = f":{token}:{newest}"
        super().__init__("tk:import", yes, asker_id, until, label, suffix=suffix, disabled=disabled)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        return cls(*cls.parse(match), match["token"], match["newest"])

    async def confirmed(self, interaction: discord.Interaction) -> None:
        # Kept for the prompt's minute, not taken: a second delivery of this click is then
        # refused by the store as applied already, instead of told the file is gone.
        imported = _cog(interaction).pending.get(self.token)
        if imported is None:
            await update(interaction, embed=import_forgotten_embed(), view=None)
            return
        newest = id_from_code(self.newest) if self.newest else None
        await _import(interaction, imported, (newest,))

    def cancelled(self) -> discord.Embed:
        return import_cancelled_embed()

    def expired(self) -> discord.Embed:
        return import_cancelled_embed(timed_out=True)

    async def clicked(self, interaction: discord.Interaction) -> None:
        if interaction.user.id == self.asker_id and not self.yes:
            _cog(interaction).pending.forget(self.token)
        await super().clicked(interaction)


class Importing(commands.Cog):
    def __init__(self) -> None:
        self.timers = PromptTimers()
        self.pending = Pending()
        self.checker = Checker()

    async def cog_unload(self) -> None:
        self.timers.cancel_all()
        await self.checker.close()

    @app_commands.command(
        name="import",
        description=N_("GM: put a Tablekeeper export into this channel (asks before replacing)"),
    )
    @private()
    @app_commands.describe(file=N_("The JSON file /export gave (from this server or another)"))
    @app_commands.guild_only()
    async def import_(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        require_gm(interaction, await read_table(interaction, frozenset()))  # before a download
        check_size(file.size)  # by what Discord declares: a huge file is never fetched
        try:
            data = await file.read()
        except discord.HTTPException:
            raise RulesError(_("Could not download that file from Discord: try again")) from None
        key = export_key(bot_of(interaction).settings.token)
        locale = interaction.locale.value
        imported = await self.checker.check(data, interaction.guild_id, key, locale)
        del data  # only the rows it will be logged as are kept
        try:
            await _import(interaction, imported, None)
        except TableThere as there:
            token = secrets.token_hex(6)
            self.pending.hold(token, there.table.channel_id, imported)
            coming = imported.table(there.table.channel_id, ())
            embed = replace_embed(there.table, there.changes, coming, len(imported.history))
            newest = "" if there.newest is None else id_code(there.newest)
            await ask(
                interaction,
                embed,
                ImportAnswer,
                token,
                newest,
                seconds=CONFIRM_SECONDS,
                timers=self.timers,
            )
            asyncio.get_running_loop().call_later(CONFIRM_SECONDS + 5, self.pending.forget, token)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(ImportAnswer)  # before any click, after restarts
    await bot.add_cog(Importing())


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(ImportAnswer)
