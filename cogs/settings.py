"""`/settings show|set|server`: the table settings (docs/rules.md#02-conventions) of a channel,
and of a whole server: a channel reads its own value, else its server's, else the default."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.translator import described
from cogs._reply import private, reply
from cogs._shared import apply_as, gm_only, read_table
from lang import N_, _
from render.fatigue import clock_line, fight_round
from render.settings import (
    LANGUAGE_CHOICES,
    MONSTER_STATS_CHOICES,
    RESET_CHOICES,
    settings_embed,
)
from rules.errors import RulesError
from table.dice_expr import INIT_DICE_MAX
from table.model import Forbidden, Table
from table.parts import CHANNEL_ONLY, INITIATIVE
from table.settings import (
    HISTORY_KEEP_DEFAULT,
    HISTORY_KEEP_MAX,
    HISTORY_KEEP_MIN,
    SETTING_NAMES,
    ChannelSettings,
)
from table.sheet import SettingsOptions, change_server_settings, change_settings

MANAGE_SERVER = N_("Only members with Manage Server can change the server's settings")
DESCRIBE: dict[str, str | app_commands.locale_str] = {
    "ties": N_("Does a Save Roll that ties the Difficulty fail (the text) or succeed?"),
    "round_seconds": N_("Game seconds in a round (default 60)"),
    "rest_rate": N_("FP removed per minute of rest (default 1)"),
    "break_minutes": N_("Minutes in Take a Break (default 10)"),
    "short_minutes": N_("Minutes in a Short Rest (default 60)"),
    "long_minutes": N_("Minutes in a Long Rest (default 480)"),
    "gm_role": N_("Members with this role are GMs (besides Manage Channels)"),
    "clear_gm_role": N_("Forget this GM role (at a channel: the server's applies, if any)"),
    "history_keep": described(
        N_("How many latest changes /history and /undo keep (default {default:,})"),
        default=HISTORY_KEEP_DEFAULT,
    ),
    "threads": N_("Do a channel's threads play at its table (shared) or keep their own?"),
    "player_rests": N_("Do players rest their own characters, or does the GM grant rests?"),
    "init_dice": N_("Dice rolled for /init add without a score (default 1d10), e.g. 1d20"),
    "monster_stats": N_("Do players see monsters' HP, Defense and Evasion? (default: hidden)"),
    "language": N_("The language of public replies here, whoever types (default: each reader's)"),
    "reset": N_(
        "Forget a value set at this scope (a channel then reads the server's, else default)"
    ),
}
# The choices of `ties:`, `threads:` and `player_rests:` are their Literal values: named in each
# language at sync.
LITERAL_CHOICES = (N_("fail"), N_("succeed"), N_("shared"), N_("own"), N_("allowed"), N_("gm"))
Scope = Literal["set", "server"]
Change = Callable[[Table, SettingsOptions], tuple[Table, tuple[ChannelSettings, ChannelSettings]]]
Changed = tuple[ChannelSettings, ChannelSettings, str | None]  # before, after, the clock line

FIGHT = frozenset({INITIATIVE})
IN_THREAD = N_("Whether threads share the table is set in their channel, not in a thread")


class Settings(commands.Cog):
    settings = app_commands.Group(
        name="settings",
        description=N_("The table's rules settings: this channel's, or the server's"),
        guild_only=True,
    )

    @settings.command(
        name="show",
        description=N_("This channel's settings, and where each comes from"),
    )
    @private()
    async def show(self, interaction: discord.Interaction) -> None:
        table = await read_table(interaction, CHANNEL_ONLY)
        sources = {name: table.source(name) for name in SETTING_NAMES}
        await reply(interaction, embed=settings_embed(table.settings, sources=sources))

    # One callback, two commands: the same options and limits, a channel or the whole server.
    @app_commands.describe(**DESCRIBE)
    @app_commands.choices(
        reset=RESET_CHOICES, monster_stats=MONSTER_STATS_CHOICES, language=LANGUAGE_CHOICES
    )
    async def _change(
        self,
        interaction: discord.Interaction,
        ties: Literal["fail", "succeed"] | None = None,
        round_seconds: int | None = None,
        rest_rate: int | None = None,
        break_minutes: int | None = None,
        short_minutes: int | None = None,
        long_minutes: int | None = None,
        gm_role: discord.Role | None = None,
        clear_gm_role: bool = False,
        history_keep: app_commands.Range[int, HISTORY_KEEP_MIN, HISTORY_KEEP_MAX] | None = None,
        threads: Literal["shared", "own"] | None = None,
        player_rests: Literal["allowed", "gm"] | None = None,
        init_dice: app_commands.Range[str, 1, INIT_DICE_MAX] | None = None,
        monster_stats: str | None = None,
        language: str | None = None,
        reset: str | None = None,
    ) -> None:
        command = interaction.command
        scope: Scope = "server" if command is not None and command.name == "server" else "set"
        if (
            scope == "set"
            and threads is not None
            and isinstance(interaction.channel, discord.Thread)
        ):
            raise RulesError(_(IN_THREAD))
        options = SettingsOptions(
            ties=ties,
            round_seconds=round_seconds,
            rest_rate=rest_rate,
            break_minutes=break_minutes,
            short_minutes=short_minutes,
            long_minutes=long_minutes,
            gm_role_id=None if gm_role is None else gm_role.id,
            clear_gm_role=clear_gm_role,
            history_keep=history_keep,
            threads=threads,
            player_rests=player_rests,
            init_dice=None if init_dice is None else init_dice.strip(),
            monster_stats=monster_stats,
            language=language,
            reset=reset,
        )
        await self.change(interaction, scope, options)

    set_ = settings.command(name="set", description=N_("GM: change this channel's settings"))(
        _change
    )
    server = settings.command(
        name="server", description=N_("Manage Server: change the settings of every channel here")
    )(_change)

    async def change(
        self,
        interaction: discord.Interaction,
        scope: Scope,
        options: SettingsOptions,
    ) -> None:
        """One transaction: who may change it is decided inside it, then the limits (a GM role
        that is @everyone too: `table.settings.check_gm_role`)."""
        manages_server = interaction.permissions.manage_guild
        changer: Change = change_settings if scope == "set" else change_server_settings

        def step(table: Table) -> tuple[Table, Changed]:
            new, (old, changed) = changer(table, options)
            line = None  # the clock line, when this channel's round length changed
            if new.settings.round_seconds != table.settings.round_seconds:
                line = clock_line(new.clock, new.settings.round_seconds, fight_round(new))
            return new, (old, changed, line)

        def server_step(table: Table, gm: bool) -> tuple[Table, Changed]:
            if not manages_server:  # the member's Manage Server, never the channel's GM role
                raise Forbidden(_(MANAGE_SERVER))
            return step(table)

        action = f"settings {scope}"
        checked = gm_only(step) if scope == "set" else server_step
        # The turn order too: a clock line shows the fight's round while one runs.
        before, after, clock = await apply_as(interaction, action, checked, parts=FIGHT)
        scope_name = "channel" if scope == "set" else "server"
        embed = settings_embed(after, changed=before, clock=clock, scope=scope_name)
        await reply(interaction, embed=embed)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Settings())
