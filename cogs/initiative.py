"""`/init add|remove|start|next|prev|show|end`: the turn order of a fight, on the game clock.

Each change is one store transaction over `table.initiative` (so `/undo` and `/history` cover
it). Passing the last combatant moves the channel clock one round by the same step as
`/clock round`. When a monster with unarmored spots ends its turn, the GM alone is offered its
facing in a private follow-up, as `/monster face` sets it (`FaceButton`, which works after a
restart too): the channel's reply says whose turn it is and nothing of spots. When a
character's turn begins, the reply mentions its player, the one user it may ping.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any, Self, TypeVar, cast

import discord
from discord import app_commands
from discord.ext import commands

from cogs._buttons import TableButton, buttons_view
from cogs._reply import reply, update
from cogs._shared import (
    apply_as,
    gm_only,
    offers_nothing_in_outage,
    own_first,
    pick_character,
    read_table,
)
from cogs._sight import change_seen, known_table
from lang import N_, _, n_
from render.fatigue import report_embed
from render.initiative import (
    facing_embed,
    joined_embed,
    mention,
    order_embed,
    turn_text,
    turn_title,
)
from render.monsters import monster_embed
from rules.defense import FACINGS, facing_text
from rules.dice import DieSource
from table import bestiary, initiative
from table.combat import Combatant, Initiative
from table.dice_expr import EXPRESSION_MAX
from table.initiative import Joined, Removal, TurnReport
from table.model import Table
from table.sight import GM_ALONE

Score = app_commands.Range[str, 1, EXPRESSION_MAX]  # a number, or dice: the table reads it
Name = app_commands.Range[str, 1, 100]  # a lookup or a new name: the table checks it
R = TypeVar("R")
GM_INIT = N_("Only the GM runs the initiative (Manage Channels, or the channel's GM role)")


@offers_nothing_in_outage
async def add_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The caller's characters first, then the others, the bestiary's groups (`Goblin` for all
    of `Goblin 1`, `Goblin 2`…) and its monsters (to a player, only those that appeared)."""
    table = known_table(interaction, await read_table(interaction))
    typed = current.casefold()
    characters = own_first(table, interaction.user.id, current)
    groups = bestiary.group_names(table.monsters)
    names = [c.name for c in characters] + [g for g in groups if typed in g.casefold()]
    names += [m.name for m in table.monsters if typed in m.key]
    return [app_commands.Choice(name=n, value=n) for n in names[:25]]


@offers_nothing_in_outage
async def order_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    table = await read_table(interaction)
    typed = current.casefold()
    found = [c.name for c in table.initiative.combatants if typed in c.key]
    return [app_commands.Choice(name=n, value=n) for n in found[:25]]


class FaceButton(TableButton, template=r"tk:face:(?P<facing>[NESW]{1,2}):(?P<name>.*)"):
    """A compass point offered when a monster ends its turn: sets its facing like `/monster
    face` (GM only, checked in the transaction). The name comes last (it may hold colons)."""

    def __init__(self, name: str, facing: str) -> None:
        self.name, self.facing = name, facing
        super().__init__(f"tk:face:{facing}:{name}", facing_text(facing))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        return cls(match["name"], match["facing"])

    async def clicked(self, interaction: discord.Interaction) -> None:
        step = functools.partial(bestiary.face, name=self.name, facing=self.facing)
        turned, _seen = await change_seen(interaction, "monster face", step)
        facing = facing_text(turned.facing)
        title = _("{name} now faces {facing}", name=turned.name, facing=facing)
        # The prompt was the GM's alone: so is its answer (the players see the facing on
        # `/monster show`, never that a spot made it worth asking).
        await update(
            interaction, embed=monster_embed(turned, sight=GM_ALONE, title=title), view=None
        )


def facing_view(report: TurnReport) -> discord.ui.View | None:
    if report.facing is None:
        return None
    name = report.facing.name
    return buttons_view(*(FaceButton(name, facing) for facing in FACINGS))


async def ask_facing(interaction: discord.Interaction, report: TurnReport) -> None:
    """The GM alone is asked the facing of a monster that ended its turn with unarmored
    spots: a private follow-up to the GM who passed the turn (the channel's message says only
    whose turn it is)."""
    view = facing_view(report)
    if view is None or report.facing is None:
        return
    await reply(interaction, embeds=[facing_embed(report.facing)], view=view, private=True)


def pinging(combatant: Combatant | None) -> dict[str, Any]:
    """The reply's content and the one user it may ping when a character's turn begins: its
    player, and nobody else."""
    text = mention(combatant)
    if text is None or combatant is None or combatant.owner_id is None:
        return {}
    return {"content": text, "pinged": cast(discord.abc.Snowflake, _User(str(combatant.owner_id)))}


@dataclass(frozen=True)
class _User:
    """A user allowed to be pinged, its id written as Discord's API spells a snowflake (text):
    `AllowedMentions` sends each user's `id` as it is."""

    id: str


def _and_table(done: tuple[Table, R]) -> tuple[Table, tuple[R, Table]]:
    """A step's result with the table it made, for the reply."""
    return done[0], (done[1], done[0])


class InitiativeCog(commands.Cog, name="Initiative"):
    init = app_commands.Group(
        name="init", description=N_("The turn order of a fight, on the game clock"), guild_only=True
    )

    def __init__(self, rng: DieSource | None = None) -> None:
        # One generator for initiative dice, never the module-level one (tests script it).
        self.rng: DieSource = rng or random.SystemRandom()

    @init.command(
        name="add", description=N_("Add a character, monster or group, at a score or rolled")
    )
    @app_commands.describe(
        name=N_("A character, monster or group here, or any name with other:True (default: yours)"),
        score=N_("Highest acts first: a number or dice, e.g. 1d10+3 (none: the channel's dice)"),
        other=N_("GM: add a name that is neither a character nor a monster here"),
    )
    @app_commands.autocomplete(name=add_autocomplete)
    async def add(
        self,
        interaction: discord.Interaction,
        name: Name | None = None,
        score: Score | None = None,
        other: bool = False,
    ) -> None:
        actor = interaction.user.id

        def step(table: Table, gm: bool) -> tuple[Table, tuple[tuple[Joined, ...], Table]]:
            who = name or pick_character(table, None, actor).name  # default: the caller's own
            joined = initiative.join(
                table, actor_id=actor, is_gm=gm, name=who, score=score, other=other, rng=self.rng
            )
            return _and_table(joined)

        joined, table = await apply_as(interaction, "init add", step)
        await reply(interaction, embed=joined_embed(table, joined))

    @init.command(name="remove", description=N_("GM: take a name out of the initiative"))
    @app_commands.describe(name=N_("Who leaves the fight (on their turn, the turn passes)"))
    @app_commands.autocomplete(name=order_autocomplete)
    async def remove(self, interaction: discord.Interaction, name: Name) -> None:
        def step(table: Table) -> tuple[Table, tuple[Removal, Table]]:
            return _and_table(initiative.remove(table, name))

        removal, table = await apply_as(interaction, "init remove", gm_only(step, GM_INIT))
        title = _("{name} leaves the fight", name=removal.gone.name)
        if removal.passed is None:
            await reply(interaction, embed=order_embed(table, title))
            return
        await self.turn_reply(interaction, table, removal.passed, title)

    @init.command(name="start", description=N_("GM: round 1 begins (the clock does not move)"))
    async def start(self, interaction: discord.Interaction) -> None:
        def step(table: Table) -> tuple[Table, Table]:
            new, _order = initiative.start(table)
            return new, new

        table = await apply_as(interaction, "init start", gm_only(step, GM_INIT))
        current = table.initiative.current
        title = _("⚔️ Round 1 · {name}'s turn", name=current.name if current else "?")
        embed = order_embed(table, title, with_status=False)
        await reply(interaction, embed=embed, **pinging(current))

    @init.command(name="next", description=N_("GM: pass the turn; after the last, a new round"))
    async def next_(self, interaction: discord.Interaction) -> None:
        def step(table: Table) -> tuple[Table, tuple[TurnReport, Table]]:
            return _and_table(initiative.next_turn(table))

        report, table = await apply_as(interaction, "init next", gm_only(step, GM_INIT))
        await self.turn_reply(interaction, table, report)

    @init.command(name="prev", description=N_("GM: back to the turn before (the clock stays)"))
    async def prev(self, interaction: discord.Interaction) -> None:
        def step(table: Table) -> tuple[Table, tuple[TurnReport, Table]]:
            return _and_table(initiative.previous_turn(table))

        report, table = await apply_as(interaction, "init prev", gm_only(step, GM_INIT))
        await self.turn_reply(interaction, table, report)

    @staticmethod
    async def turn_reply(
        interaction: discord.Interaction,
        table: Table,
        report: TurnReport,
        heading: str | None = None,
    ) -> None:
        """A turn passing: whose turn ends and begins, the order, the clock's round if one
        passed, and the facing to choose for a monster that ended its turn."""
        embed = order_embed(table, turn_title(report), with_status=False)
        lines = [heading] if heading else []
        embed.description = "\n".join([*lines, turn_text(report), "", embed.description or ""])
        embeds = [embed]
        if report.new_round is not None:
            one = n_("{n} round passes", "{n} rounds pass", 1)
            passed = report_embed(one, report.new_round, table.settings.round_seconds, quiet=True)
            # The order above already shows the game time, and its title the fight's round.
            embeds.append(passed.remove_footer())
        await reply(interaction, embeds=embeds, **pinging(report.now))
        await ask_facing(interaction, report)

    @init.command(name="show", description=N_("The turn order, whose turn it is and the round"))
    async def show(self, interaction: discord.Interaction) -> None:
        table = await read_table(interaction)
        await reply(interaction, embed=order_embed(table))

    @init.command(name="end", description=N_("GM: end the fight; everyone leaves the order"))
    async def end(self, interaction: discord.Interaction) -> None:
        def step(table: Table) -> tuple[Table, tuple[Initiative, Table]]:
            return _and_table(initiative.end(table))

        was, table = await apply_as(interaction, "init end", gm_only(step, GM_INIT))
        title = (
            n_(
                "⚔️ The fight is over after {n} round",
                "⚔️ The fight is over after {n} rounds",
                was.round,
            )
            if was.running
            else _("⚔️ The fight is over")
        )
        embed = order_embed(table, title)
        embed.description = _("Nobody is in the initiative now; the clock stays where it is.")
        await reply(interaction, embed=embed)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(FaceButton)  # before any click, after every restart
    await bot.add_cog(InitiativeCog())


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(FaceButton)
