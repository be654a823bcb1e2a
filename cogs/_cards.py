"""The party's card (`/party show`) and the fight's (`/init show`): a section per character or
combatant, Spend 1 beside each character that has a Fatigue Level, and a row of Previous,
Next, Refresh (and the party's Chart, drawn into the card's gallery). Every button keeps
working after a restart: its custom_id carries the page, each click reads the table afresh.
What the cards show anyone may see (`table.sight.players_view`): they are public."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, ClassVar, Self

import discord

from cogs._buttons import FixedButton, TableButton
from cogs._fatigue import CardSpend
from cogs._fatigue_chart import draw_chart
from cogs._layout import layout, send_card, show_card
from cogs._shared import read_table
from lang import N_, _
from pictures import Picture
from render.cards import Card, order_card, pages_of, party_card
from render.charts import chart_caption
from table.fatigue_series import SINCE_EVENING
from table.model import Table
from table.parts import EVERYTHING, PARTY, Parts
from table.sight import players_view

PREVIOUS, NEXT, REFRESH = N_("Previous"), N_("Next"), N_("Refresh")
PAGE = r"(?P<page>\d{1,3})"


def _clamped(page: int, pages: int) -> int:
    """The page asked for, within the pages there are now (the table may have shrunk)."""
    return min(max(page, 1), pages)


def _paging(card: Card, button: type[PageButton]) -> list[TableButton]:
    """Previous and Next when there is more than one page, and Refresh. Each keeps an id of its
    own (ids on one message must differ): page − 1, page + 1, page."""
    page, pages = card.page, card.pages
    turns = []
    if pages > 1:
        turns = [
            button(page - 1, _(PREVIOUS), disabled=page <= 1),
            button(page + 1, _(NEXT), disabled=page >= pages),
        ]
    return [*turns, button(page, _(REFRESH))]


# --- the party ----------------------------------------------------------------------------


def party_view(
    table: Table, page: int, picture: Picture | None = None, caption: str = ""
) -> discord.ui.LayoutView:
    """A page of the party's card; `picture`, the party's chart, in its gallery under its
    `caption`."""
    card = party_card(table, page)
    if caption:
        card = replace(card, notes="\n".join(filter(None, (card.notes, caption))))
    actions = [*_paging(card, PartyPage), PartyCardChart(card.page)]
    return layout(card, lambda entry: PartySpend(card.page, entry.name), actions, picture)


class PageButton(TableButton, template=r"(?!)"):
    """Previous, Next or Refresh on a card: anyone here may page it, as anyone may look. Its
    custom_id is its class's `prefix` and the page a click shows (clamped to the pages there
    are then); a subclass gives `prefix=`, the table's `parts` and `shown`. Never registered."""

    prefix: ClassVar[str] = ""
    parts: ClassVar[Parts] = PARTY

    def __init_subclass__(cls, *, prefix: str, **kwargs: Any) -> None:
        cls.prefix = prefix
        super().__init_subclass__(template=re.escape(prefix) + PAGE, **kwargs)

    def __init__(self, page: int, label: str | None = None, disabled: bool = False) -> None:
        self.page = page
        super().__init__(f"{self.prefix}{page}", label or _(NEXT), disabled=disabled)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        return cls(int(match["page"]), getattr(item, "label", None))

    def shown(self, table: Table) -> discord.ui.LayoutView:
        raise NotImplementedError

    async def clicked(self, interaction: discord.Interaction) -> None:
        await show_card(interaction, self.shown(await read_table(interaction, self.parts)))


class PartyPage(PageButton, prefix="tk:party:page:"):
    """A page of the party's card. (A board sent before cards, an embed, becomes the card.)"""

    def shown(self, table: Table) -> discord.ui.LayoutView:
        return party_view(table, _clamped(self.page, party_pages(table)))


class PagedSpend(CardSpend, template=r"(?!)"):
    """Spend 1 beside a character on a page of a card: its custom_id says which card (its
    class's `key`) and page, then the name. A subclass gives `key=` and `card`. Never
    registered."""

    key: ClassVar[str] = ""

    def __init_subclass__(cls, *, key: str, **kwargs: Any) -> None:
        cls.key = key
        template = r"tk:card:spend:" + re.escape(key) + PAGE + ":(?P<name>.*)"
        super().__init_subclass__(template=template, **kwargs)

    def __init__(self, page: int, name: str) -> None:
        self.page = page
        super().__init__(f"tk:card:spend:{self.key}{page}:{name}", name)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        return cls(int(match["page"]), match["name"])


class PartySpend(PagedSpend, key="p"):
    """Spend 1 beside a character on a page of the party's card."""

    def card(self, table: Table) -> discord.ui.LayoutView:
        return party_view(table, _clamped(self.page, party_pages(table)))


class PartyCardChart(TableButton, template=r"tk:party:chart:" + PAGE):
    """Chart on the party's card: the party's fatigue this evening, drawn into the card's
    gallery, for everyone who sees the card."""

    def __init__(self, page: int) -> None:
        self.page = page
        super().__init__(f"tk:party:chart:{page}", _("Chart"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        return cls(int(match["page"]))

    async def clicked(self, interaction: discord.Interaction) -> None:
        series, picture = await draw_chart(interaction, None, SINCE_EVENING)
        table = await read_table(interaction, PARTY)
        page = _clamped(self.page, party_pages(table))
        view = party_view(table, page, picture, chart_caption(series))
        await show_card(interaction, view, picture)


# --- the fight ----------------------------------------------------------------------------


def order_view(table: Table, page: int) -> discord.ui.LayoutView:
    """A page of the fight's card: the turn order as the players may see it."""
    card = order_card(players_view(table), page)
    actions = _paging(card, InitPage)
    return layout(card, lambda entry: InitSpend(card.page, entry.name), actions)


def party_pages(table: Table) -> int:
    return pages_of(len(table.characters))


def order_pages(table: Table) -> int:
    return pages_of(len(table.initiative.combatants))


class InitPage(PageButton, prefix="tk:init:page:"):
    """A page of the fight's card."""

    parts = EVERYTHING  # the monsters too: how hurt each looks

    def shown(self, table: Table) -> discord.ui.LayoutView:
        return order_view(table, _clamped(self.page, order_pages(table)))


class InitSpend(PagedSpend, key="i"):
    """Spend 1 beside a character on a page of the fight's card."""

    parts = EVERYTHING  # the monsters too: how hurt each looks

    def card(self, table: Table) -> discord.ui.LayoutView:
        return order_view(table, _clamped(self.page, order_pages(table)))


class OrderCard(FixedButton, custom_id="tk:init:order"):
    """ "Turn order" on a turn's reply: the fight's card, to whoever clicks."""

    private = True
    text = N_("Turn order")

    async def clicked(self, interaction: discord.Interaction) -> None:
        await send_card(interaction, order_view(await read_table(interaction, EVERYTHING), 1))


CARD_BUTTONS = (PartyPage, PartySpend, PartyCardChart, InitPage, InitSpend, OrderCard)
