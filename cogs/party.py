"""`/party show|spend|reset`: the channel's fatigue board, and GM changes to everyone at once."""

from __future__ import annotations

import logging
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from cogs._buttons import TableButton, buttons_view
from cogs._confirm import ANSWER, CONFIRM_SECONDS, ConfirmButton, PromptTimers, ask
from cogs._fatigue_chart import CHART_OPTIONS, SINCE_CHOICES, PartyChart, chart_reply
from cogs._options import Amount
from cogs._reply import reply, update
from cogs._shared import apply_as, character_autocomplete, gm_only, read_table, require_gm
from lang import N_, _
from render.confirm import reset_cancelled_embed, reset_expired_embed
from render.fatigue import page_count, party_embed, report_embed
from table import partyops
from table.fatigue_series import SINCE_EVENING
from table.model import Table
from table.parts import PARTY
from table.partyops import PartyReport

log = logging.getLogger(__name__)

PAGES_MAX = 100
RESET_NAMES = 10  # names the reset prompt lists before "and N more"


class PartyResetAnswer(ConfirmButton, template=r"tk:party:reset:" + ANSWER):
    """Reset everyone or Cancel on a `/party reset` prompt; only the GM who asked may click."""

    ONLY_ASKER = N_("Only the GM who asked for this reset can confirm or cancel it.")

    def __init__(self, yes: bool, asker_id: int, until: str, disabled: bool = False) -> None:
        label = _("Reset everyone")
        super().__init__("tk:party:reset", yes, asker_id, until, label, disabled=disabled)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        return cls(*cls.parse(match))

    async def confirmed(self, interaction: discord.Interaction) -> None:
        def run(table: Table) -> tuple[Table, tuple[PartyReport, int]]:
            new, report = partyops.party_reset(table)
            return new, (report, new.settings.round_seconds)

        # Asked again at the click: the GM role may have been taken away since the prompt.
        report, round_seconds = await apply_as(interaction, "party reset", gm_only(run), PARTY)
        title = _("Party reset: everyone is fresh")
        embed = report_embed(title, report, round_seconds, reset=True)
        await update(interaction, embed=embed, view=None)

    def cancelled(self) -> discord.Embed:
        return reset_cancelled_embed()

    def expired(self) -> discord.Embed:
        return reset_expired_embed()


class PartyPage(TableButton, template=r"tk:party:page:(?P<page>\d{1,3})"):
    """Previous or Next on the party board: anyone here may page it, as anyone may look."""

    def __init__(self, page: int, label: str | None = None, disabled: bool = False) -> None:
        self.page = page
        super().__init__(f"tk:party:page:{page}", label or _("Next"), disabled=disabled)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        return cls(int(match["page"]), getattr(item, "label", None))

    async def clicked(self, interaction: discord.Interaction) -> None:
        table = await read_table(interaction, PARTY)
        pages = page_count(table)
        page = min(max(self.page, 1), pages)  # the party may have shrunk since
        embed = party_embed(table, page)
        await update(interaction, embed=embed, view=page_view(page, pages))


def page_view(page: int, pages: int) -> discord.ui.View:
    """ "Chart", and Previous and Next when the board has more than one page. Each button keeps
    an id of its own even when disabled (ids on one message must differ): page − 1 and + 1."""
    if pages <= 1:
        return buttons_view(PartyChart())
    return buttons_view(
        PartyPage(page - 1, _("Previous"), disabled=page <= 1),
        PartyPage(page + 1, _("Next"), disabled=page >= pages),
        PartyChart(),
    )


class Party(commands.Cog):
    party = app_commands.Group(
        name="party",
        description=N_("The channel's fatigue board and party-wide FP"),
        guild_only=True,
    )

    def __init__(self) -> None:
        self.timers = PromptTimers()

    async def cog_unload(self) -> None:
        self.timers.cancel_all()

    @party.command(name="show", description=N_("Every character's FP, band, caps and Temporary FP"))
    @app_commands.describe(page=N_("Page of the board (10 characters a page)"))
    async def show(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1, PAGES_MAX] = 1
    ) -> None:
        table = await read_table(interaction, PARTY)
        embed = party_embed(table, page)
        await reply(interaction, embed=embed, view=page_view(page, page_count(table)))

    @party.command(name="chart", description=N_("The party's fatigue over game time, as a chart"))
    @app_commands.describe(**CHART_OPTIONS)
    @app_commands.choices(since=SINCE_CHOICES)
    @app_commands.autocomplete(character=character_autocomplete)
    async def chart(
        self,
        interaction: discord.Interaction,
        character: str | None = None,
        since: str = SINCE_EVENING,
    ) -> None:
        await chart_reply(interaction, character, since)

    @party.command(name="spend", description=N_("GM: everyone here takes an action costing FP"))
    @app_commands.describe(amount=N_("FP the action costs each character (default 1)"))
    async def spend(self, interaction: discord.Interaction, amount: Amount = 1) -> None:

        def run(table: Table) -> tuple[Table, tuple[PartyReport, int]]:
            new, report = partyops.party_spend(table, amount)
            return new, (report, new.settings.round_seconds)

        report, round_seconds = await apply_as(interaction, "party spend", gm_only(run), PARTY)
        title = _("The party spends {amount} FP each", amount=amount)
        embed = report_embed(title, report, round_seconds)
        await reply(interaction, embed=embed)

    @party.command(
        name="reset", description=N_("GM: everyone's fatigue back to fresh (asks first)")
    )
    async def reset(self, interaction: discord.Interaction) -> None:
        table = await read_table(interaction, PARTY)
        require_gm(interaction, table)  # refuse now, not at the click (which asks again)
        partyops.require_characters(table)
        shown = [c.name for c in table.characters[:RESET_NAMES]]
        if len(table.characters) > RESET_NAMES:  # a few names say "this party"; 40 are a wall
            shown.append(_("and {count} more", count=len(table.characters) - RESET_NAMES))
        names = ", ".join(shown)
        embed = discord.Embed(
            title=_("Reset the whole party's fatigue?"),
            description=_(
                "FP, Temporary FP, caps and VP damage go back to 0 for: {names}", names=names
            ),
            colour=discord.Colour.red(),
        )
        await ask(interaction, embed, PartyResetAnswer, seconds=CONFIRM_SECONDS, timers=self.timers)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(
        PartyPage, PartyChart, PartyResetAnswer
    )  # before any click, after restarts
    await bot.add_cog(Party())


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(PartyPage, PartyChart, PartyResetAnswer)
