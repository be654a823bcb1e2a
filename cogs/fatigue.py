"""`/fatigue spend|recover|temp|clear_vp|show`: one character's Fatigue Points.

Players change their own characters, the GM anyone's. Removing FP directly (`recover`) and
granting Temporary FP (`temp`, which lowers FP first) are the GM's alone
(docs/rules.md#37-recovery-and-rests); players rest it off (`/rest ... character:`) where the
channel lets them.
VP damage is a tally the GM applies on the sheet: only the GM's `clear_vp` (or `/party reset`)
clears it (docs/rules.md#33-gaining-fp-and-vp-damage).
`/fatigue show` and `/fatigue spend` replies carry a button that spends 1 FP more on the same
character (`SpendOne`): the same change, checks and transaction as `/fatigue spend amount:1`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from cogs._buttons import TableButton, buttons_view
from cogs._reply import reply
from cogs._several import characters_autocomplete, names_text
from cogs._shared import PARTY, apply_as, character_autocomplete, pick_character, read_table
from lang import N_, _
from render.fatigue import change_embed, character_embed, fight_round, report_embed
from rules.fatigue import FP_AT_ONCE_MAX, MINUTES_MAX
from table import partyops
from table.model import Forbidden, Table, check_can_change
from table.partyops import CharacterChange, PartyReport
from table.several import change_each, named_characters

Amount = app_commands.Range[int, 1, FP_AT_ONCE_MAX]
Minutes = app_commands.Range[int, 1, MINUTES_MAX]
CHARACTER_HELP = N_("Whose fatigue (default: your character here)")
CHARACTERS_HELP = N_("Whose fatigue; several at once: Aria, Bórin (default: your character here)")
RECOVER_IS_GMS = N_("Only the GM can remove FP directly; rest it off with `/rest` and `character:`")
CLEAR_VP_IS_GMS = N_("Only the GM can clear VP damage, once it is applied to the character sheet")
TEMP_IS_GMS = N_("Only the GM can grant Temporary FP: lowering FP is an effect the GM grants")
OneChange = Callable[[Table, str], tuple[Table, CharacterChange]]
Done = CharacterChange | PartyReport  # one character's change, or several characters' at once
SPEND_ONE, SPEND_MORE = N_("Spend 1 FP"), N_("Spend 1 more")  # labels, translated when shown


async def change_character(
    interaction: discord.Interaction,
    name: str | None,
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
    With `several` (the title given the names), `name` may list characters (`Aria, Bórin`):
    each is changed, all in that one transaction, and the reply shows each."""
    user_id = interaction.user.id

    def run(table: Table, gm: bool) -> tuple[Table, tuple[Done, Table]]:
        if gm_only is not None and not gm:
            raise Forbidden(_(gm_only))
        if may is not None:
            may(table, gm)
        if several is not None and name:
            found = named_characters(table, name)
        else:
            found = (pick_character(table, name, user_id),)
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


class Fatigue(commands.Cog):
    fatigue = app_commands.Group(
        name="fatigue", description=N_("Spend, recover and show a character's FP"), guild_only=True
    )

    @fatigue.command(name="spend", description=N_("An action costs FP: Temporary FP absorbs first"))
    @app_commands.describe(amount=N_("FP the action costs (default 1)"), character=CHARACTERS_HELP)
    @app_commands.autocomplete(character=characters_autocomplete)
    async def spend(
        self, interaction: discord.Interaction, amount: Amount = 1, character: str | None = None
    ) -> None:
        await spend_fp(interaction, amount, character)

    @fatigue.command(name="recover", description=N_("GM: remove FP directly (a cap's floor holds)"))
    @app_commands.describe(amount=N_("FP to remove (default 1)"), character=CHARACTERS_HELP)
    @app_commands.autocomplete(character=characters_autocomplete)
    async def recover(
        self, interaction: discord.Interaction, amount: Amount = 1, character: str | None = None
    ) -> None:
        await change_character(
            interaction,
            character,
            "fatigue recover",
            lambda table, name: partyops.recover(table, name, amount),
            lambda name: _("{name} recovers up to {amount} FP", name=name, amount=amount),
            gm_only=RECOVER_IS_GMS,
            several=lambda names: _(
                "{names} recover up to {amount} FP", names=names, amount=amount
            ),
        )

    @fatigue.command(
        name="temp", description=N_("GM: grant Temporary FP: lowers FP first, then pools")
    )
    @app_commands.describe(
        amount=N_("Temporary FP granted"),
        minutes=N_("How long it lasts in game minutes (default 10)"),
        character=CHARACTERS_HELP,
    )
    @app_commands.autocomplete(character=characters_autocomplete)
    async def temp(
        self,
        interaction: discord.Interaction,
        amount: Amount,
        minutes: Minutes | None = None,
        character: str | None = None,
    ) -> None:
        await change_character(
            interaction,
            character,
            "fatigue temp",
            lambda table, name: partyops.temp(table, name, amount, minutes),
            lambda name: _("{name} gains {amount} Temporary FP", name=name, amount=amount),
            gm_only=TEMP_IS_GMS,
            several=lambda names: _(
                "{names} gain {amount} Temporary FP each", names=names, amount=amount
            ),
        )

    @fatigue.command(
        name="clear_vp",
        description=N_(
            "GM: clear the VP damage tally once applied to the sheet (no rest clears it)"
        ),
    )
    @app_commands.describe(character=CHARACTERS_HELP)
    @app_commands.autocomplete(character=characters_autocomplete)
    async def clear_vp(
        self, interaction: discord.Interaction, character: str | None = None
    ) -> None:
        await change_character(
            interaction,
            character,
            "fatigue clear_vp",
            partyops.clear_vp,
            lambda name: _("{name}'s VP damage tally is cleared", name=name),
            gm_only=CLEAR_VP_IS_GMS,
            several=lambda names: _("VP damage tallies cleared: {names}", names=names),
        )

    @fatigue.command(name="show", description=N_("A character's FP, band, caps and Temporary FP"))
    @app_commands.describe(character=CHARACTER_HELP)
    @app_commands.autocomplete(character=character_autocomplete)
    async def show(self, interaction: discord.Interaction, character: str | None = None) -> None:
        table = await read_table(interaction, PARTY)
        found = pick_character(table, character, interaction.user.id)
        view = buttons_view(SpendOne(found.name, SPEND_ONE))
        embed = character_embed(found, table.clock, fight_round(table))
        await reply(interaction, embed=embed, view=view)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(SpendOne)  # before any click, and after every restart
    await bot.add_cog(Fatigue())


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(SpendOne)
