"""What every cog needs: the channel's table, who may act, and picking a character.

A command that changes the channel decides "is the caller the GM?" inside its one store
transaction (`apply_as`), from the settings that transaction loaded: a GM role cleared a moment
earlier can't slip a change through between a separate check and the write."""

from __future__ import annotations

import functools
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands

from bot.ack import ack_of, mark_saved
from bot.contexts import NotInServer
from bot.language import hear
from bot.outages import of as outages_of
from bot.permissions import is_gm
from lang import N_, _
from rules.errors import RulesError
from store.errors import DatabaseOutage
from table.active import WHICH_OF_YOURS, ChooseCharacter, active_character, own_characters
from table.model import Character, Forbidden, Table
from table.parts import CHANNEL_ONLY, EVERYTHING, PARTY, Parts

if TYPE_CHECKING:
    from bot.client import Tablekeeper

R = TypeVar("R")
GmStep = Callable[[Table, bool], tuple[Table, R]]  # (table, caller is GM) -> (new table, result)

GM_ONLY = N_("Only the GM can do that here (Manage Channels, or the channel's GM role)")
NO_CHARACTER = N_(
    "You have no character in this channel yet: make one with `/character create`, "
    "or name one with `character:`"
)
NAME_ONE = N_("Say whose: name a character with `character:`")
WHICH_ONE = N_("Which character?")
WHICH_ONES = N_("Which characters? Choose one or several.")


def bot_of(interaction: discord.Interaction) -> Tablekeeper:
    return interaction.client  # type: ignore[return-value]


async def table_channel_id(interaction: discord.Interaction) -> int:
    """The channel whose table this interaction plays at: a thread plays at its parent
    channel's table (Discord sends the thread's `parent_id` with the interaction: no request
    for it), unless that channel lets its threads keep their own (`/settings set threads:own`)."""
    shared = await _parent_table(interaction, CHANNEL_ONLY)  # its settings say
    return (shared or (interaction.channel_id or 0, None))[0]


async def _parent_table(
    interaction: discord.Interaction, parts: Parts = EVERYTHING
) -> tuple[int, Table] | None:
    """(the parent's id, its table) when this is a thread that plays at its channel's table."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id:
        store = bot_of(interaction).store
        parent = await store.read(channel.parent_id, interaction.guild_id, parts)
        if parent.settings.threads == "shared":
            return channel.parent_id, parent
    return None


async def read_table(interaction: discord.Interaction, parts: Parts = EVERYTHING) -> Table:
    """A snapshot for looking (show, list, rolls, prompts); never decide a write from it.
    `parts`: what besides the channel row the command needs (PARTY, BESTIARY, CHANNEL_ONLY;
    everything unless told), so a command never pays to read what it doesn't show."""
    if interaction.guild_id is None:  # the tree refuses stateful commands; buttons land here
        raise NotInServer()
    shared = await _parent_table(interaction, parts)
    if shared is not None:
        return heard(interaction, shared[1])
    store = bot_of(interaction).store
    table = await store.read(interaction.channel_id or 0, interaction.guild_id, parts)
    return heard(interaction, table)


def heard(interaction: discord.Interaction, table: Table) -> Table:
    """The table read for `interaction`: its language is the reply's from now on, if public
    (`bot.language`: known with the table, no read of its own)."""
    hear(interaction, table.settings.language, ack_of(interaction).private)
    return table


async def apply_as(
    interaction: discord.Interaction, action: str, fn: GmStep[R], parts: Parts = EVERYTHING
) -> R:
    """One transaction: `fn` gets the table and whether the caller is GM by THAT table's
    settings. A refusal raised in `fn` rolls it back and the error handler shows it. The change
    is logged with the interaction's id, so a second delivery of it writes nothing (the store
    raises AlreadyApplied); once committed, the interaction remembers it (the error handler
    must not say "nothing was changed" if the reply then fails). `parts` as for `read_table`:
    `fn` sees, and may change, only those."""
    if interaction.guild_id is None:  # a channel's rows always belong to a server
        raise NotInServer()

    def step(table: Table) -> tuple[Table, R]:
        done = fn(heard(interaction, table), is_gm(interaction, table.settings))
        heard(interaction, done[0])  # a change of the table's language speaks the new one
        return done

    channel_id = await table_channel_id(interaction)
    result = await bot_of(interaction).store.apply(
        channel_id,
        interaction.guild_id,
        interaction.user.id,
        action,
        step,
        parts,
        interaction_id=interaction.id,
    )
    mark_saved(interaction, action)
    return result


def gm_only(fn: Callable[[Table], tuple[Table, R]], refusal: str = GM_ONLY) -> GmStep[R]:
    """A step for `apply_as` that only the GM may take; anyone else gets `refusal` (a marked
    constant, translated when it is said)."""

    def step(table: Table, gm: bool) -> tuple[Table, R]:
        if not gm:
            raise Forbidden(_(refusal))
        return fn(table)

    return step


def require_gm(interaction: discord.Interaction, table: Table) -> None:
    """Refuse a non-GM by a table already read: for GM-only looks and prompts, not writes."""
    if not is_gm(interaction, table.settings):
        raise Forbidden(_(GM_ONLY))


def pick_character(
    table: Table, name: str | None, user_id: int, *, gm: bool = False, several: bool = False
) -> Character:
    """The named character, else the caller's active one (`table.active`). Without one, the
    caller chooses (`ChooseCharacter`): a player among their characters; a GM (`gm`) with none
    of their own, or choosing for a command that takes `several`, among everyone's."""
    if name:
        return table.get(name)
    found = active_character(table, user_id)
    if found is not None:
        return found
    own = own_characters(table, user_id)
    if gm and table.characters and (several or not own):
        everyone = own + [c for c in table.characters if c.owner_id != user_id]
        everyone.sort(key=lambda c: not c.in_party)  # the party first, each in its order
        raise ChooseCharacter(
            _(NAME_ONE),
            _(WHICH_ONES) if several else _(WHICH_ONE),
            [c.name for c in everyone],
            several,
        )
    if not own:
        raise RulesError(_(NO_CHARACTER))
    names = ", ".join(c.name for c in own[:5])
    raise ChooseCharacter(
        _(
            "You have several characters here ({names}): name one with `character:`, or choose "
            "the one your commands use with `/character use`",
            names=names,
        ),
        _(WHICH_OF_YOURS),
        [c.name for c in own],
        several=False,
    )


Choices = list[app_commands.Choice[str]]
Autocomplete = Callable[[discord.Interaction, str], Coroutine[Any, Any, Choices]]


def offers_nothing_in_outage(autocomplete: Autocomplete) -> Autocomplete:
    """An autocomplete that reads the table offers no choices while the database is out (the
    command, once sent, says why); the outage is noted, not logged at every keystroke."""

    @functools.wraps(autocomplete)
    async def offer(interaction: discord.Interaction, current: str) -> Choices:
        try:
            return await autocomplete(interaction, current)
        except DatabaseOutage as error:
            if (outages := outages_of(interaction)) is not None:
                outages.noticed(error)
            return []

    return offer


@offers_nothing_in_outage
async def character_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The channel's characters, the caller's own first, filtered by what was typed."""
    if interaction.guild_id is None:  # `/save` runs in DMs too, where no character lives
        return []
    table = await read_table(interaction, PARTY)
    found = own_first(table, interaction.user.id, current)
    return [app_commands.Choice(name=c.name, value=c.name) for c in found[:25]]


def own_first(table: Table, user_id: int, current: str) -> list[Character]:
    """The characters whose name holds what was typed, the user's own first."""
    typed = current.casefold()
    return sorted(
        (c for c in table.characters if typed in c.key),
        key=lambda c: (c.owner_id != user_id, c.key),
    )
