"""`/clock show|round|pass|set`: the channel's game clock. Only the GM moves it, and only
forward (`set` to a day and time of the game); when it moves, everyone's expired Temporary FP
fades by the time that passed."""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands
from discord.ext import commands

from cogs._options import Minutes
from cogs._reply import reply
from cogs._shared import apply_as, gm_only, read_table
from lang import N_, _, n_
from render.fatigue import clock_embed, report_embed
from rules.gametime import game_time
from table import partyops
from table.model import Table
from table.parts import PARTY
from table.partyops import PartyReport

Rounds = app_commands.Range[int, 1, partyops.ROUNDS_MAX]
Day = app_commands.Range[int, 1, partyops.DAY_MAX]
Time = app_commands.Range[str, 1, 20]  # read by `partyops.parse_time_of_day`


async def _move(
    interaction: discord.Interaction,
    action: str,
    title: str,
    move: Callable[[Table], tuple[Table, PartyReport]],
) -> None:

    def run(table: Table) -> tuple[Table, tuple[PartyReport, int]]:
        new, report = move(table)
        return new, (report, new.settings.round_seconds)

    report, round_seconds = await apply_as(interaction, action, gm_only(run), PARTY)
    embed = report_embed(title, report, round_seconds, quiet=True)
    await reply(interaction, embed=embed)


class Clock(commands.Cog):
    clock = app_commands.Group(
        name="clock",
        description=N_("The channel's game clock: rounds and minutes"),
        guild_only=True,
    )

    @clock.command(
        name="show",
        description=N_("The game clock, running Temporary FP, and who rested alone ahead of it"),
    )
    async def show(self, interaction: discord.Interaction) -> None:
        table = await read_table(interaction, PARTY)
        await reply(interaction, embed=clock_embed(table))

    @clock.command(name="round", description=N_("GM: advance the clock by rounds"))
    @app_commands.describe(count=N_("How many rounds pass (default 1)"))
    async def round(self, interaction: discord.Interaction, count: Rounds = 1) -> None:
        title = n_("{n} round passes", "{n} rounds pass", count)
        await _move(
            interaction, "clock round", title, lambda table: partyops.pass_rounds(table, count)
        )

    @clock.command(
        name="pass", description=N_("GM: let game minutes pass (not resting: see /rest)")
    )
    @app_commands.describe(minutes=N_("How many game minutes pass"))
    async def pass_time(self, interaction: discord.Interaction, minutes: Minutes) -> None:
        title = n_("{n:,} minute passes", "{n:,} minutes pass", minutes)
        await _move(
            interaction, "clock pass", title, lambda table: partyops.pass_minutes(table, minutes)
        )

    @clock.command(
        name="set", description=N_("GM: set the clock to a day and time (it only moves forward)")
    )
    @app_commands.describe(
        day=N_("The game day, from 1 (default: the next time it reads time:)"),
        time=N_("The time of day: 18:00, 6:30 pm (default: as it reads now)"),
    )
    async def set_(
        self, interaction: discord.Interaction, day: Day | None = None, time: Time | None = None
    ) -> None:
        def run(table: Table) -> tuple[Table, tuple[PartyReport, int]]:
            new, report = partyops.set_clock(table, day, time)
            return new, (report, new.settings.round_seconds)

        report, round_seconds = await apply_as(interaction, "clock set", gm_only(run), PARTY)
        title = _("🕰️ The clock is set to {time}", time=game_time(report.clock_after))
        await reply(interaction, embed=report_embed(title, report, round_seconds, quiet=True))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Clock())
