"""One character's fatigue changed, as `/fatigue` and `/rest` change it: the change in one
transaction and its short reply, with the "Spend 1 more" button (`SpendOne`: the same change,
checks and transaction as `/fatigue spend amount:1`) and "Details" (`FatigueDetails`: the
character's card, privately). The character's card (`/fatigue show`) is here too, with its
Spend 1 (`CardSpend`, which brings the card it sits on up to date) and its Chart (`CardChart`,
the character's fatigue this evening in the card's gallery). Registered by `cogs.fatigue`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self

import discord

from cogs._buttons import NamedButton, TableButton, buttons_view
from cogs._fatigue_chart import draw_chart
from cogs._layout import layout, send_card, show_card
from cogs._pickers import Names, choosing
from cogs._reply import reply
from cogs._several import names_text
from cogs._shared import apply_as, pick_character, read_table
from lang import N_, _
from pictures import Picture
from render.cards import character_card
from render.fatigue import change_embed, fight_round, report_embed
from table import partyops
from table.fatigue_series import SINCE_EVENING
from table.model import Character, Forbidden, Table, check_can_change
from table.parts import PARTY, Parts
from table.partyops import CharacterChange, PartyReport
from table.several import change_each, named_characters

OneChange = Callable[[Table, str], tuple[Table, CharacterChange]]
Done = CharacterChange | PartyReport  # one character's change, or several characters' at once
SPEND_MORE = N_("Spend 1 more")  # a label, translated when shown
SPEND = N_("Spend 1")  # beside a character on a card


async def change_fatigue(
    interaction: discord.Interaction,
    name: Names | None,
    action: str,
    change: OneChange,
    gm_only: str | None = None,
    may: Callable[[Table, bool], None] | None = None,
    several: bool = False,
    parts: Parts = PARTY,
) -> tuple[Done, Table]:
    """Apply `change` to the picked character in one transaction (its owner or the GM only;
    with `gm_only`, the GM alone, and that marked text tells anyone else; `may`, given the table
    and whether the caller is GM, refuses what the channel doesn't allow). With `several`,
    `name` may list characters (`Aria, Bórin`, or a GM's menu's picks): each is changed, all in
    that one transaction. What it did, and the table after it."""
    user_id = interaction.user.id

    def run(table: Table, gm: bool) -> tuple[Table, tuple[Done, Table]]:
        if gm_only is not None and not gm:
            raise Forbidden(_(gm_only))
        if may is not None:
            may(table, gm)
        found: tuple[Character, ...]
        if isinstance(name, tuple):  # chosen in a menu
            found = tuple(table.get(one) for one in name)
        elif several and name:
            found = named_characters(table, name)
        else:
            found = (pick_character(table, name, user_id, gm=gm, several=several),)
        for character in found:
            check_can_change(user_id, gm, character)
        done: Done
        if len(found) > 1:
            new, done = change_each(table, tuple(c.name for c in found), change)
        else:
            new, done = change(table, found[0].name)
        return new, (done, new)

    return await apply_as(interaction, action, run, parts)


async def change_character(
    interaction: discord.Interaction,
    name: Names | None,
    action: str,
    change: OneChange,
    title: Callable[[str], str],
    gm_only: str | None = None,
    spend_more: bool = False,
    may: Callable[[Table, bool], None] | None = None,
    several: Callable[[str], str] | None = None,
) -> None:
    """`change_fatigue`, then the reply: one character's change in three lines (`title` gets
    its name) with its Details button (and, with `spend_more`, "Spend 1 more"); with `several`
    (the title given the names), each character named, a line each. A caller who names nobody
    and has no character in use chooses in a menu (`cogs._pickers`): a player among theirs, a
    GM among everyone's."""

    async def act(interaction: discord.Interaction, name: Names | None) -> None:
        done, after = await change_fatigue(
            interaction, name, action, change, gm_only, may, several is not None
        )
        await reply_change(interaction, done, after, title, several, spend_more)

    await choosing(interaction, act, name)


async def reply_change(
    interaction: discord.Interaction,
    done: Done,
    after: Table,
    title: Callable[[str], str],
    several: Callable[[str], str] | None = None,
    spend_more: bool = False,
    private: bool | None = None,
) -> None:
    if isinstance(done, PartyReport):  # several characters were named
        names = names_text([c.name for c in done.changes])
        title_of = several or title
        embed = report_embed(title_of(names), done, after.settings.round_seconds)
        await reply(interaction, embed=embed, private=private)
        return
    embed = change_embed(title(done.name), done, after.clock, fight_round(after))
    more = [SpendOne(done.name, SPEND_MORE)] if spend_more else []
    view = buttons_view(*more, FatigueDetails(done.name))
    await reply(interaction, embed=embed, view=view, private=private)


def spend_step(amount: int) -> OneChange:
    return lambda table, found: partyops.spend(table, found, amount)


def spend_title(amount: int) -> Callable[[str], str]:
    return lambda found: _("{name} spends {amount} FP", name=found, amount=amount)


async def spend_fp(interaction: discord.Interaction, amount: int, name: str | None) -> None:
    """`/fatigue spend` and its buttons: the same change, checks and reply."""
    await change_character(
        interaction,
        name,
        "fatigue spend",
        spend_step(amount),
        spend_title(amount),
        spend_more=True,
        several=lambda names: _("{names} spend {amount} FP", names=names, amount=amount),
    )


class SpendOne(TableButton, template=r"tk:fp:spend1:(?P<name>.*)"):
    """The "Spend 1 more" button of the named character (older replies' "Spend 1 FP"): its owner
    or the GM (checked in the transaction, as for the command). The name comes last: it may hold
    any text."""

    def __init__(self, name: str, label: str = SPEND_MORE) -> None:
        self.name = name
        super().__init__(f"tk:fp:spend1:{name}", _(label))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        return cls(match["name"], getattr(item, "label", None) or SPEND_MORE)

    async def clicked(self, interaction: discord.Interaction) -> None:
        await spend_fp(interaction, 1, self.name)


# --- a character's card --------------------------------------------------------------------


def character_view(
    table: Table, name: str, picture: Picture | None = None
) -> discord.ui.LayoutView:
    """`/fatigue show`'s card: Spend 1 beside the character's state, Chart below (the chart,
    once drawn, in its gallery)."""
    character = table.get(name)
    card = character_card(character, table.clock, fight_round(table))
    return layout(
        card, lambda entry: CharacterSpend(entry.name), [CardChart(character.name)], picture
    )


class CardSpend(TableButton, template=r"(?!)"):
    """Spend 1 beside a character on a card: the same change as `/fatigue spend amount:1`, by
    its owner or the GM; the card it sits on is brought up to date (`card`), and the channel
    reads the spend. Each card has its own (the custom_id says which card, and its page); the
    name comes last. This base is never registered."""

    parts: Parts = PARTY  # what the card needs of the table

    def __init__(self, custom_id: str, name: str) -> None:
        self.name = name
        super().__init__(custom_id, _(SPEND))

    def card(self, table: Table) -> discord.ui.LayoutView:
        raise NotImplementedError

    async def clicked(self, interaction: discord.Interaction) -> None:
        step, action = spend_step(1), "fatigue spend"
        done, after = await change_fatigue(interaction, self.name, action, step, parts=self.parts)
        await show_card(interaction, self.card(after))
        await reply_change(interaction, done, after, spend_title(1), spend_more=True, private=False)


class CharacterSpend(CardSpend, template=r"tk:card:spend:f:(?P<name>.*)"):
    """Spend 1 on a character's own card (`/fatigue show`)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"tk:card:spend:f:{name}", name)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        return cls(match["name"])

    def card(self, table: Table) -> discord.ui.LayoutView:
        return character_view(table, self.name)


class FatigueDetails(NamedButton, prefix="tk:fp:card:"):
    """ "Details" on a change's reply: the character's card as it stands, to whoever clicks."""

    private = True
    text = N_("Details")

    async def clicked(self, interaction: discord.Interaction) -> None:
        table = await read_table(interaction, PARTY)
        await send_card(interaction, character_view(table, self.name))


class CardChart(NamedButton, prefix="tk:fp:chart:"):
    """Chart on a character's card: this evening's fatigue of that character, drawn into the
    card's gallery (the card's own reader sees it: the channel's on a public card)."""

    text = N_("Chart")

    async def clicked(self, interaction: discord.Interaction) -> None:
        table = await read_table(interaction, PARTY)
        character = table.get(self.name)
        _series, picture = await draw_chart(interaction, character.name, SINCE_EVENING)
        await show_card(interaction, character_view(table, character.name, picture), picture)
