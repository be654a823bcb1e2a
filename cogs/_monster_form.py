"""`/monster create` by options or by its form (opened with no options): name, Rank (a radio
group), armor (a menu), HP, and its unarmored spots (a checkbox group); the count, easy and
revealed spots and the rest stay options. Both make the monsters the same way
(`create_monsters`), behind the GM's screen: the form, like the command, answers the GM alone."""

from __future__ import annotations

import functools
from typing import Any

import discord

from cogs._forms import DRAFT_CODE, CommandForm, FormAgain, Raw, require
from cogs._reply import reply
from cogs._shared import read_table, require_gm
from cogs._sight import change_seen
from lang import N_, _
from render.monsters import ARMOR_NAMES, created_embed, spot_name
from rules.defense import ARMOR_LEVELS, RANKS, SPOTS
from table import bestiary
from table.bestiary import BuildOptions
from table.monster import HP_MAX
from table.names import NAME_LIMIT
from table.parts import CHANNEL_ONLY, EVERYTHING
from table.sight import GM_ALONE

NEEDED = ("name", "rank", "armor")  # what `/monster create` can't do without
HP_HELP = N_("Its maximum HP, to track damage (optional)")
SPOTS_HELP = N_("From its facing: hidden from the players, Hard to Hit")


async def create_monsters(
    interaction: discord.Interaction,
    given: set[str],
    name: str | None,
    options: BuildOptions | None,
    hp: int | None = None,
    count: int = 1,
    init_bonus: int = 0,
) -> None:
    """`/monster create`, from its options or its form: `given` names the options it had (a
    build needs a name, a Rank and an armor); the monster, or `count` of them, made hidden, and
    the reply to the GM alone."""
    require("monster create", given, NEEDED)
    assert name is not None and options is not None
    step = functools.partial(
        bestiary.create, name=name, options=options, hp_max=hp, count=count, init_bonus=init_bonus
    )
    # Everything: a new name is compared with every name in the channel (`table.lookalikes`).
    made, _seen = await change_seen(interaction, "monster create", step, EVERYTHING)
    await reply(interaction, embed=created_embed(made, GM_ALONE))  # the GM's alone


class MonsterForm(CommandForm):
    """A new monster, answered privately (as `/monster create` is declared)."""

    def __init__(self, raw: Raw, *, lost: bool = False) -> None:
        super().__init__("monster create", _("A new monster"), lost=lost)
        self.text("name", _("Name"), raw, max_length=NAME_LIMIT, required=True)
        ranks = [(str(rank), str(rank)) for rank in RANKS]
        self.choice("rank", _("Rank"), ranks, raw, kind=discord.ui.RadioGroup, required=True)
        armors = [(_(ARMOR_NAMES[armor]), armor) for armor in ARMOR_LEVELS]
        self.choice("armor", _("Armor"), armors, raw, required=True)
        self.text("hp", _("HP"), raw, max_length=len(str(HP_MAX)), description=_(HP_HELP))
        spots = [(spot_name(spot), spot) for spot in SPOTS]
        kind = discord.ui.CheckboxGroup
        self.choice("spots", _("Unarmored spots"), spots, raw, kind=kind, description=_(SPOTS_HELP))

    async def submitted(self, interaction: discord.Interaction, options: dict[str, Any]) -> None:
        build = None
        if "rank" in options and "armor" in options:
            build = BuildOptions(options["rank"], options["armor"], spots=options.get("spots"))
        name, hp = options.get("name"), options.get("hp")
        await create_monsters(interaction, set(options), name, build, hp)

    def again(self, code: str) -> FormAgain:
        return MonsterAgain(code)


async def monster_form(interaction: discord.Interaction) -> MonsterForm:
    """The form, for a GM: one by the channel's GM role is known only once its settings are
    read (Manage Channels is known at once: no read, the form opens straight away)."""
    if not (interaction.permissions.manage_channels):
        require_gm(interaction, await read_table(interaction, CHANNEL_ONLY))
    return MonsterForm({})


class MonsterAgain(FormAgain, template=r"tk:form:monster:" + DRAFT_CODE):
    PREFIX = "tk:form:monster"

    def form(self, interaction: discord.Interaction, raw: Raw | None) -> MonsterForm:
        return MonsterForm(raw or {}, lost=raw is None)
