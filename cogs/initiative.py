"""`/init add|remove|start|next|show|end`: the turn order of a fight, on the game clock.

Each change is one store transaction over `table.initiative` (so `/undo` and `/history` cover
it). Passing the last combatant moves the channel clock one round by the same step as
`/clock round`. When a monster with unarmored spots ends its turn, the reply offers the GM its
facing, as `/monster face` sets it (`FaceButton`, which works after a restart too).
"""

from __future__ import annotations

import functools
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.translator import described
from cogs._buttons import TableButton, buttons_view
from cogs._reply import reply
from cogs._shared import apply_as, gm_only, own_first, read_table
from lang import N_, _, n_
from render.fatigue import report_embed
from render.initiative import order_embed, turn_text, turn_title
from render.monsters import monster_embed
from rules.defense import FACINGS
from table import bestiary, initiative
from table.combat import SCORE_LIMIT, Combatant, Initiative
from table.initiative import TurnReport
from table.model import Table

Score = app_commands.Range[int, -SCORE_LIMIT, SCORE_LIMIT]
Name = app_commands.Range[str, 1, 100]  # a lookup or a new name: the table checks it
GM_INIT = N_("Only the GM runs the initiative (Manage Channels, or the channel's GM role)")


async def add_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The caller's characters first, then the others and the bestiary's monsters."""
    table = await read_table(interaction)
    characters = own_first(table, interaction.user.id, current)
    monsters = [m for m in table.monsters if current.casefold() in m.key]
    names = [c.name for c in characters] + [m.name for m in monsters]
    return [app_commands.Choice(name=n, value=n) for n in names[:25]]


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
        super().__init__(f"tk:face:{facing}:{name}", facing)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        return cls(match["name"], match["facing"])

    async def clicked(self, interaction: discord.Interaction) -> None:
        step = functools.partial(bestiary.face, name=self.name, facing=self.facing)
        turned = await apply_as(interaction, "monster face", lambda t, gm: step(t, is_gm=gm))
        title = _("{name} now faces {facing}", name=turned.name, facing=turned.facing)
        await reply(interaction, embed=monster_embed(turned, title=title))


def facing_view(report: TurnReport) -> discord.ui.View | None:
    if report.facing is None:
        return None
    name = report.facing.name
    return buttons_view(*(FaceButton(name, facing) for facing in FACINGS))


class InitiativeCog(commands.Cog, name="Initiative"):
    init = app_commands.Group(
        name="init", description=N_("The turn order of a fight, on the game clock"), guild_only=True
    )

    @init.command(
        name="add", description=N_("Add a character, a monster or any name, with a score")
    )
    @app_commands.describe(
        name=N_("A character or monster here (suggested), or any name (GM)"),
        score=described(
            N_("Initiative score, highest acts first (-{limit} to {limit})"), limit=SCORE_LIMIT
        ),
    )
    @app_commands.autocomplete(name=add_autocomplete)
    async def add(self, interaction: discord.Interaction, name: Name, score: Score) -> None:
        actor = interaction.user.id

        def step(table: Table, gm: bool) -> tuple[Table, tuple[Combatant, Initiative, int]]:
            new, added = initiative.add(table, actor_id=actor, is_gm=gm, name=name, score=score)
            return new, (added, new.initiative, new.clock)

        added, order, clock = await apply_as(interaction, "init add", step)
        title = _("{name} joins the initiative at {score}", name=added.name, score=added.score)
        await reply(interaction, embed=order_embed(order, clock, title))

    @init.command(name="remove", description=N_("GM: take a name out of the initiative"))
    @app_commands.describe(name=N_("Who leaves the fight"))
    @app_commands.autocomplete(name=order_autocomplete)
    async def remove(self, interaction: discord.Interaction, name: Name) -> None:
        def step(table: Table) -> tuple[Table, tuple[Combatant, Initiative, int]]:
            new, gone = initiative.remove(table, name)
            return new, (gone, new.initiative, new.clock)

        gone, order, clock = await apply_as(interaction, "init remove", gm_only(step, GM_INIT))
        title = _("{name} leaves the fight", name=gone.name)
        await reply(interaction, embed=order_embed(order, clock, title))

    @init.command(name="start", description=N_("GM: round 1 begins (the clock does not move)"))
    async def start(self, interaction: discord.Interaction) -> None:
        def step(table: Table) -> tuple[Table, tuple[Initiative, int]]:
            new, order = initiative.start(table)
            return new, (order, new.clock)

        order, clock = await apply_as(interaction, "init start", gm_only(step, GM_INIT))
        current = order.current
        title = _("⚔️ Round 1 · {name}'s turn", name=current.name if current else "?")
        await reply(interaction, embed=order_embed(order, clock, title, with_status=False))

    @init.command(name="next", description=N_("GM: pass the turn; after the last, a new round"))
    async def next_(self, interaction: discord.Interaction) -> None:
        def step(table: Table) -> tuple[Table, tuple[TurnReport, Initiative, int, int]]:
            new, report = initiative.next_turn(table)
            return new, (report, new.initiative, new.clock, new.settings.round_seconds)

        report, order, clock, round_seconds = await apply_as(
            interaction, "init next", gm_only(step, GM_INIT)
        )
        embed = order_embed(order, clock, turn_title(report), with_status=False)
        embed.description = f"{turn_text(report)}\n\n{embed.description}"
        embeds = [embed]
        if report.new_round is not None:
            one = n_("{n} round passes", "{n} rounds pass", 1)
            passed = report_embed(one, report.new_round, round_seconds, quiet=True)
            # The clock's own round count ("round 496") beside the fight's round misleads; the
            # order above already shows the game time.
            embeds.append(passed.remove_footer())
        await reply(interaction, embeds=embeds, view=facing_view(report))

    @init.command(name="show", description=N_("The turn order, whose turn it is and the round"))
    async def show(self, interaction: discord.Interaction) -> None:
        table = await read_table(interaction)
        await reply(interaction, embed=order_embed(table.initiative, table.clock))

    @init.command(name="end", description=N_("GM: end the fight; everyone leaves the order"))
    async def end(self, interaction: discord.Interaction) -> None:
        def step(table: Table) -> tuple[Table, tuple[Initiative, int]]:
            new, was = initiative.end(table)
            return new, (was, new.clock)

        was, clock = await apply_as(interaction, "init end", gm_only(step, GM_INIT))
        title = (
            n_(
                "⚔️ The fight is over after {n} round",
                "⚔️ The fight is over after {n} rounds",
                was.round,
            )
            if was.running
            else _("⚔️ The fight is over")
        )
        embed = order_embed(Initiative(), clock, title)
        embed.description = _("Nobody is in the initiative now; the clock stays where it is.")
        await reply(interaction, embed=embed)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(FaceButton)  # before any click, after every restart
    await bot.add_cog(InitiativeCog())


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(FaceButton)
