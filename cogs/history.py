"""`/history`, `/undo` and `/redo`: the channel's log of changes, taking the latest one back,
and putting back what an undo took.

Anyone in the channel may read the history; its Previous/Next buttons are `DynamicItem`s whose
custom_id carries the channel and the page (`tk:history:<channel>:<before>`), so they keep
working after a restart. `/undo` and `/redo` are one store transaction each, asked about first
when they would take a character or monster away (`cogs._take_back`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from cogs._buttons import TableButton, buttons_view
from cogs._confirm import CONFIRM_SECONDS, PromptTimers
from cogs._reply import private, reply, update
from cogs._shared import bot_of, table_channel_id
from cogs._sight import reader_sight
from cogs._take_back import TakeBackAnswer, undo_or_ask
from lang import N_, _
from render.history import history_embed
from rules.errors import RulesError
from store import Store
from store.events import HISTORY_PAGE
from table.event import Event
from table.parts import CHANNEL_ONLY
from table.sight import Sight

PAGE_SIZE = HISTORY_PAGE - 1  # and one more read, to know whether any is older
ID_MAX = 2**63 - 1  # SQLite's INTEGER: a larger number in a custom_id is no event anyway
OTHER_CHANNEL = N_("These buttons page another channel's history: use /history here")


@dataclass(frozen=True)
class Page:
    """One page of the log, newest first, and where its buttons lead (`before` values)."""

    events: tuple[Event, ...]
    before: int  # 0 for the newest page, else the events shown are older than this id
    newer: int | None  # the page towards now, None when this is the newest
    older: int | None  # the next page back, None when nothing is older


async def load_page(store: Store, channel_id: int, before: int) -> Page:
    rows = await store.history(channel_id, HISTORY_PAGE, before_id=before or None)
    events = tuple(rows[:PAGE_SIZE])
    older = events[-1].id if len(rows) > PAGE_SIZE else None
    newer = None
    if before:
        anchor = events[0].id if events else before - 1
        ahead = await store.history(channel_id, HISTORY_PAGE, after_id=anchor)
        if ahead:
            # A full page lies ahead: start it just above the tenth; else go back to the newest.
            newer = ahead[1].id + 1 if len(ahead) > PAGE_SIZE else 0
    return Page(events, before, newer, older)


class HistoryButton(TableButton, template=r"tk:history:(?P<channel>\d+):(?P<before>\d+)"):
    """Previous or Next: shows the page of `channel_id`'s log before the event id `before`."""

    def __init__(
        self, channel_id: int, before: int, label: str | None = None, disabled: bool = False
    ) -> None:
        self.channel_id = channel_id
        self.before = before
        custom_id = f"tk:history:{channel_id}:{before}"
        super().__init__(custom_id, label or _("Next"), disabled=disabled)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        label = getattr(item, "label", None)
        return cls(int(match["channel"]), min(int(match["before"]), ID_MAX), label)

    async def clicked(self, interaction: discord.Interaction) -> None:
        if await table_channel_id(interaction) != self.channel_id:
            raise RulesError(_(OTHER_CHANNEL))
        store = bot_of(interaction).store
        page = await load_page(store, self.channel_id, self.before)
        message = interaction.message
        public = message is None or not message.flags.ephemeral
        seen = await history_sight(interaction, self.channel_id, public)
        await update(interaction, **page_message(self.channel_id, page, seen))


def page_view(channel_id: int, page: Page) -> discord.ui.View | None:
    """Previous (towards now) and Next (further back); none at all for an empty page. A
    disabled button still gets a custom_id of its own: ids on one message must differ."""
    if not page.events:
        return None
    previous = page.before if page.newer is None else page.newer
    return buttons_view(
        HistoryButton(channel_id, previous, _("Previous"), disabled=page.newer is None),
        HistoryButton(channel_id, page.events[-1].id, disabled=page.older is None),
    )


async def history_sight(interaction: discord.Interaction, channel_id: int, public: bool) -> Sight:
    """What the history's readers may see of the monsters (their numbers, those still behind
    the GM's screen): the GM reading alone, everything; the channel, no preparation, and the
    numbers by its `monster_stats` setting (`table.sight`)."""
    store = bot_of(interaction).store
    table = await store.read(channel_id, interaction.guild_id, CHANNEL_ONLY)  # its settings
    return reader_sight(interaction, table, public)


def page_message(channel_id: int, page: Page, seen: Sight) -> dict[str, Any]:
    """The embed and (when there is anything to page) the buttons, as send/edit arguments."""
    now = datetime.now(UTC)
    embed = history_embed(
        page.events, now, numbers=seen.numbers, newest=page.before == 0, prepared=seen.prepared
    )
    view = page_view(channel_id, page)
    return {"embed": embed, "view": view} if view is not None else {"embed": embed}


class History(commands.Cog):
    def __init__(self, confirm_seconds: float = CONFIRM_SECONDS) -> None:
        self.confirm_seconds = confirm_seconds  # tests shorten it on the running cog
        self.timers = PromptTimers()

    async def cog_unload(self) -> None:
        self.timers.cancel_all()

    @app_commands.command(
        name="history",
        description=N_("This channel's recent changes, newest first"),
    )
    @private(lambda options: options.private)
    @app_commands.guild_only()
    @app_commands.describe(private=N_("Only you see it (default: the whole channel)"))
    async def history(self, interaction: discord.Interaction, private: bool = False) -> None:
        channel_id = await table_channel_id(interaction)
        page = await load_page(bot_of(interaction).store, channel_id, 0)
        seen = await history_sight(interaction, channel_id, not private)
        await reply(interaction, **page_message(channel_id, page, seen))

    @app_commands.command(
        name="undo",
        description=N_("Undo the channel's last change (players: their own last change)"),
    )
    @app_commands.guild_only()
    async def undo(self, interaction: discord.Interaction) -> None:
        await undo_or_ask(interaction, False, self.confirm_seconds, self.timers)

    @app_commands.command(
        name="redo",
        description=N_("Put back what the last undo took (players: their own last undo)"),
    )
    @app_commands.guild_only()
    async def redo(self, interaction: discord.Interaction) -> None:
        await undo_or_ask(interaction, True, self.confirm_seconds, self.timers)


async def setup(bot: commands.Bot) -> None:
    # before any click can arrive, and after every restart
    bot.add_dynamic_items(HistoryButton, TakeBackAnswer)
    await bot.add_cog(History())


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(HistoryButton, TakeBackAnswer)
