"""One character's fatigue changed, as `/fatigue` and `/rest` change it: the change in one
transaction, its reply, and the "Spend 1 more" button (`SpendOne`, registered by
`cogs.fatigue`): the same change, checks and transaction as `/fatigue spend amount:1`."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Self

import discord

from cogs._buttons import TableButton, buttons_view
from cogs._pickers import Names, choosing
from cogs._reply import reply
from cogs._several import names_text
from cogs._shared import apply_as, pick_character
from lang import N_, _
from render.fatigue import change_embed, fight_round, report_embed
from table import partyops
from table.model import Character, Forbidden, Table, check_can_change
from table.parts import PARTY
from table.partyops import CharacterChange, PartyReport
from table.several import change_each, named_characters

OneChange = Callable[[Table, str], tuple[Table, CharacterChange]]
Done = CharacterChange | PartyReport  # one character's change, or several characters' at once
SPEND_ONE, SPEND_MORE = N_("Spend 1 FP"), N_("Spend 1 more")  # labels, translated when shown


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
    """Apply `change` to the picked character in one transaction (its owner or the GM only;
    with `gm_only`, the GM alone, and that marked text tells anyone else; `may`, given the table
    and whether the caller is GM, refuses what the channel doesn't allow), then reply with the
    work (and, with `spend_more`, a "Spend 1 more" button). `title` gets the character's name.
    With `several` (the title given the names), `name` may list characters (`Aria, Bórin`, or
    a GM's menu's picks): each is changed, all in that one transaction, and the reply shows
    each. A caller who names nobody and has no character in use chooses in a menu
    (`cogs._pickers`): a player among theirs, a GM among everyone's."""
    act = functools.partial(
        _change_character,
        action=action,
        change=change,
        title=title,
        gm_only=gm_only,
        spend_more=spend_more,
        may=may,
        several=several,
    )
    await choosing(interaction, act, name)


async def _change_character(
    interaction: discord.Interaction,
    name: Names | None,
    *,
    action: str,
    change: OneChange,
    title: Callable[[str], str],
    gm_only: str | None,
    spend_more: bool,
    may: Callable[[Table, bool], None] | None,
    several: Callable[[str], str] | None,
) -> None:
    user_id = interaction.user.id

    def run(table: Table, gm: bool) -> tuple[Table, tuple[Done, Table]]:
        if gm_only is not None and not gm:
            raise Forbidden(_(gm_only))
        if may is not None:
            may(table, gm)
        found: tuple[Character, ...]
        if isinstance(name, tuple):  # chosen in a menu
            found = tuple(table.get(one) for one in name)
        elif several is not None and name:
            found = named_characters(table, name)
        else:
            found = (pick_character(table, name, user_id, gm=gm, several=several is not None),)
        for character in found:
            check_can_change(user_id, gm, character)
        done: Done
        if len(found) > 1:
            new, done = change_each(table, tuple(c.name for c in found), change)
        else:
            new, done = change(table, found[0].name)
        return new, (done, new)

    done, after = await apply_as(interaction, action, run, PARTY)
    if isinstance(done, PartyReport):  # several characters were named
        names = names_text([c.name for c in done.changes])
        title_of = several or title
        embed = report_embed(title_of(names), done, after.settings.round_seconds)
        await reply(interaction, embed=embed)
        return
    embed = change_embed(title(done.name), done, after.clock, fight_round(after))
    if spend_more:
        view = buttons_view(SpendOne(done.name, SPEND_MORE))
        await reply(interaction, embed=embed, view=view)
    else:
        await reply(interaction, embed=embed)


async def spend_fp(interaction: discord.Interaction, amount: int, name: str | None) -> None:
    """`/fatigue spend` and its buttons: the same change, checks and reply."""
    await change_character(
        interaction,
        name,
        "fatigue spend",
        lambda table, found: partyops.spend(table, found, amount),
        lambda found: _("{name} spends {amount} FP", name=found, amount=amount),
        spend_more=True,
        several=lambda names: _("{names} spend {amount} FP", names=names, amount=amount),
    )


class SpendOne(TableButton, template=r"tk:fp:spend1:(?P<name>.*)"):
    """The "Spend 1 FP" / "Spend 1 more" button of the named character: its owner or the GM
    (checked in the transaction, as for the command). The name comes last: it may hold any text."""

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
