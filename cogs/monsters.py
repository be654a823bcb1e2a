"""`/monster build|create|show|list|remove|face|reveal|hit`, and `/monster-build` anywhere."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.contexts import anywhere
from bot.permissions import is_gm
from bot.translator import described
from cogs._buttons import TableButton, buttons_view
from cogs._confirm import CONFIRM_SECONDS, PromptTimers
from cogs._monster_remove import MonsterRemoveAnswer, confirm_monster_removal
from cogs._picture import job, reply_picture
from cogs._reply import private, reply
from cogs._shared import offers_nothing_in_outage, read_table
from cogs._sight import change_seen, reader_sight, whisper_gm_copy
from lang import N_, _
from render.monsters import (
    ARMOR_NAMES,
    armor_name,
    block_embed,
    created_embed,
    hit_embed,
    monster_embed,
    roster_embed,
    spot_name,
)
from rules.defense import (
    AGILITY_RANGE,
    ARMOR_LEVELS,
    DAMAGE_MAX,
    EXTRA_DEFENSE_MAX,
    EXTRA_EVASION_MIN,
    FACINGS,
    MAX_ARMOR_ENCHANTMENTS,
    ORDERS,
    RANKS,
    TRADE_LIMIT,
    facing_text,
)
from store.channel_read import EVERYTHING
from table import bestiary
from table.bestiary import MONSTERS_MAX, BuildOptions
from table.monster import HP_MAX
from table.monster_view import monster_view
from table.names import NAME_LIMIT
from table.parts import BESTIARY
from table.sight import GM_ALONE

# Bounds Discord's client enforces; the rules check the rest with readable errors.
Rank = app_commands.Range[int, RANKS.start, RANKS.stop - 1]
Trade = app_commands.Range[int, -TRADE_LIMIT, TRADE_LIMIT]
Agility = app_commands.Range[int, AGILITY_RANGE.start, AGILITY_RANGE.stop - 1]
ExtraDefense = app_commands.Range[int, 0, EXTRA_DEFENSE_MAX]
ExtraEvasion = app_commands.Range[int, EXTRA_EVASION_MIN, 0]
Hp = app_commands.Range[int, 1, HP_MAX]
Count = app_commands.Range[int, 1, MONSTERS_MAX]
Damage = app_commands.Range[int, 1, DAMAGE_MAX]
NewName = app_commands.Range[str, 1, NAME_LIMIT]
Name = app_commands.Range[str, 1, 100]  # a lookup: an unknown name gets a helpful error
Text = app_commands.Range[str, 1, 100]
# Room for MAX_ARMOR_ENCHANTMENTS Ranks however they are separated ("1, 2, 2"); the rules count.
ArmorEnchantments = app_commands.Range[str, 1, 8 * MAX_ARMOR_ENCHANTMENTS]
Spot = app_commands.Range[str, 1, 20]

# Choice names written out whole, by the rules' value, so each can be translated (a value the
# rules add without a name stops the import). The option's value stays the English word.
ARMOR_CHOICES = [app_commands.Choice(name=ARMOR_NAMES[a], value=a) for a in ARMOR_LEVELS]
_ORDER_NAMES = {
    "normal": N_("Normal (drops {n} Materials + 1 per enchantment)"),
    "heavy": N_("Heavy (drops {n} Materials + 1 per enchantment)"),
    "miniboss": N_("Miniboss (drops {n} Materials + 1 per enchantment)"),
    "boss": N_("Boss (drops {n} Materials + 1 per enchantment)"),
}
ORDER_CHOICES = [
    app_commands.Choice(name=described(_ORDER_NAMES[o], n=n), value=o) for o, n in ORDERS.items()
]
_COMPASS = {
    "N": N_("N (north)"),
    "NE": N_("NE (north-east)"),
    "E": N_("E (east)"),
    "SE": N_("SE (south-east)"),
    "S": N_("S (south)"),
    "SW": N_("SW (south-west)"),
    "W": N_("W (west)"),
    "NW": N_("NW (north-west)"),
}
COMPASS_CHOICES = [app_commands.Choice(name=_COMPASS[f], value=f) for f in FACINGS]
BUILD_DESCRIPTIONS: dict[str, str | app_commands.locale_str] = {
    "rank": N_("The monster's Rank, 0-5"),
    "armor": N_("Armor level: sets Defense (by Rank) and the Evasion modifier"),
    "trade": N_("+k Defense for -k Evasion modifier; negative k trades back"),
    "agility": N_("Agility: shows Evasion as 10 + Agility + modifier"),
    "extra_defense": N_("Extra worn armor's Defense (half counts unless Unarmored)"),
    "extra_evasion": N_("Extra worn armor's Evasion penalty, e.g. -2"),
    "spots": N_("Unarmored spots from its facing, e.g. back, back-left (hidden, Hard to Hit)"),
    "easy_spots": N_("Of those spots, the ones that are not Hard to Hit"),
    "revealed_spots": N_("Of those spots, the ones the players already know (default: none)"),
    "armor_enchantments": described(
        N_("Armor Enchantment Ranks, e.g. 1 2 (at most {most}, each ≤ its Rank)"),
        most=MAX_ARMOR_ENCHANTMENTS,
    ),
    "weapon_enchantments": N_("Weapon Enchantment Ranks, e.g. 2 2 (each ≤ its Rank)"),
    "order": N_("Normal, heavy, miniboss or boss: sets the Material drop"),
}
PUBLIC = N_("Show it to the whole channel (default: only you see it)")


def build_options(given: dict[str, Any]) -> BuildOptions:
    """The build options from `/monster build|create`'s parameters (their `locals()`): each
    command names its options exactly as BuildOptions names its fields."""
    return BuildOptions(**{f.name: given[f.name] for f in dataclasses.fields(BuildOptions)})


async def spots_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=s, value=s) for s in bestiary.spot_suggestions(current)[:25]]


@offers_nothing_in_outage
async def hidden_spot_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The named monster's hidden spots, offered to the GM only: a player's autocomplete must
    not give away where they are."""
    table = await read_table(interaction)
    if not is_gm(interaction, table.settings):
        return []
    name = getattr(interaction.namespace, "name", None)
    monster = table.find_monster(name) if isinstance(name, str) else None
    hidden = [] if monster is None else [s.name for s in monster.block.spots if s.hidden]
    typed = current.strip().lower()
    return [
        app_commands.Choice(name=spot_name(s), value=s)  # shown in the reader's language
        for s in hidden
        if typed in s or typed in spot_name(s).lower()
    ]


@offers_nothing_in_outage
async def monster_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    if interaction.guild_id is None:  # no bestiary outside a server
        return []
    table = await read_table(interaction, BESTIARY)
    typed = current.casefold()
    found = [m for m in table.monsters if typed in m.key]
    return [app_commands.Choice(name=m.name, value=m.name) for m in found[:25]]


class HitAgain(
    TableButton, template=r"tk:hit:(?P<damage>\d{1,6}):(?P<from>[NESW]{0,2}):(?P<name>.*)"
):
    """The "Hit again" button of a `/monster hit` reply: the same damage from the same square,
    GM only (checked inside the transaction, as for the command). The name comes last."""

    def __init__(self, name: str, damage: int, from_square: str | None) -> None:
        self.name, self.damage, self.from_square = name, damage, from_square
        custom_id = f"tk:hit:{damage}:{from_square or ''}:{name}"
        super().__init__(custom_id, _("Hit again"), style=discord.ButtonStyle.danger)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        return cls(match["name"], int(match["damage"]), match["from"] or None)

    async def clicked(self, interaction: discord.Interaction) -> None:
        await hit_and_reply(interaction, self.name, self.damage, self.from_square)


async def hit_and_reply(
    interaction: discord.Interaction, name: str, damage: int, from_square: str | None
) -> None:
    """`/monster hit` and its "Hit again" button: one transaction, then a new reply for the
    channel, and the GM's whole copy privately when that left something out (the numbers, or
    the hidden spot it met)."""
    step = functools.partial(bestiary.hit, name=name, damage=damage, from_square=from_square)
    hit, seen = await change_seen(interaction, "monster hit", step)
    # Another hit on a defeated monster would only say it is defeated.
    again = (
        None if hit.monster.down else buttons_view(HitAgain(hit.monster.name, damage, from_square))
    )
    await reply(interaction, embed=hit_embed(hit, seen), view=again)
    if seen.hides_hit(hit.result):
        await whisper_gm_copy(interaction, hit_embed(hit, GM_ALONE))


class Monsters(commands.Cog):
    monster = app_commands.Group(
        name="monster",
        description=N_("Monster Defense & Armor, and this channel's monsters"),
        guild_only=True,
    )

    confirm_seconds = CONFIRM_SECONDS  # tests shorten it on the running cog

    def __init__(self) -> None:
        self.timers = PromptTimers()

    async def cog_unload(self) -> None:
        self.timers.cancel_all()

    # One callback, two commands: `/monster build` beside the channel's bestiary, and the
    # top-level `/monster-build` that runs anywhere (a DM, a user install): Discord applies
    # contexts to a whole top-level command, and the rest of /monster needs a server.
    @app_commands.describe(public=PUBLIC, **BUILD_DESCRIPTIONS)
    @app_commands.choices(armor=ARMOR_CHOICES, order=ORDER_CHOICES)
    @app_commands.autocomplete(
        spots=spots_autocomplete, easy_spots=spots_autocomplete, revealed_spots=spots_autocomplete
    )
    @private(lambda options: not options.public)
    async def _build(
        self,
        interaction: discord.Interaction,
        rank: Rank,
        armor: str,
        trade: Trade = 0,
        agility: Agility | None = None,
        extra_defense: ExtraDefense = 0,
        extra_evasion: ExtraEvasion = 0,
        spots: Text | None = None,
        easy_spots: Text | None = None,
        revealed_spots: Text | None = None,
        armor_enchantments: ArmorEnchantments | None = None,
        weapon_enchantments: Text | None = None,
        order: str = "normal",
        public: bool = False,
    ) -> None:
        options = build_options(locals())
        block = bestiary.build(options)
        title = _("Rank {rank} {armor} monster", rank=block.rank, armor=armor_name(block.armor))
        # Unsaved and private: whoever built it sees its hidden spots; in public, a count.
        embed = block_embed(block, title=title, show_hidden=not public)
        await reply(interaction, embed=embed)  # private unless public, as declared

    BUILD = N_("A monster's stat block from its Rank and armor")
    build = monster.command(name="build", description=BUILD)(_build)
    build_anywhere = anywhere(app_commands.command(name="monster-build", description=BUILD)(_build))

    @monster.command(name="create", description=N_("GM: keep a monster in this channel"))
    @app_commands.describe(
        name=N_("The monster's name (up to 32 characters)"),
        hp=N_("Its maximum HP, to track damage (optional)"),
        count=N_(
            "How many from this block, numbered after the name, each with its own HP and facing"
        ),
        **BUILD_DESCRIPTIONS,
    )
    @app_commands.choices(armor=ARMOR_CHOICES, order=ORDER_CHOICES)
    @app_commands.autocomplete(
        spots=spots_autocomplete, easy_spots=spots_autocomplete, revealed_spots=spots_autocomplete
    )
    async def create(
        self,
        interaction: discord.Interaction,
        name: NewName,
        rank: Rank,
        armor: str,
        hp: Hp | None = None,
        count: Count = 1,
        trade: Trade = 0,
        agility: Agility | None = None,
        extra_defense: ExtraDefense = 0,
        extra_evasion: ExtraEvasion = 0,
        spots: Text | None = None,
        easy_spots: Text | None = None,
        revealed_spots: Text | None = None,
        armor_enchantments: ArmorEnchantments | None = None,
        weapon_enchantments: Text | None = None,
        order: str = "normal",
    ) -> None:
        options = build_options(locals())
        step = functools.partial(
            bestiary.create, name=name, options=options, hp_max=hp, count=count
        )
        # Everything: a new name is compared with every name in the channel (`table.lookalikes`).
        made, seen = await change_seen(interaction, "monster create", step, EVERYTHING)
        await reply(interaction, embed=created_embed(made, seen))
        if seen.hides_block(made[0]):  # the numbers, the hidden spots: the GM's alone
            await whisper_gm_copy(interaction, created_embed(made, GM_ALONE))

    @monster.command(
        name="show",
        description=N_("A monster's stat block, HP and facing"),
    )
    @private(lambda options: not options.public)
    @app_commands.describe(name=N_("Which monster"), public=PUBLIC)
    @app_commands.autocomplete(name=monster_autocomplete)
    async def show(
        self, interaction: discord.Interaction, name: Name, public: bool = False
    ) -> None:
        table = await read_table(interaction, BESTIARY)
        monster = table.get_monster(name)
        seen = reader_sight(interaction, table, public)  # the text and the picture alike
        picture = job(interaction, "monster", monster_view(monster, seen))
        # Private unless public, as declared.
        await reply_picture(interaction, monster_embed(monster, sight=seen), picture)

    @monster.command(name="list", description=N_("This channel's monsters"))
    @private(lambda options: not options.public)
    @app_commands.describe(public=PUBLIC)
    async def list_(self, interaction: discord.Interaction, public: bool = False) -> None:
        table = await read_table(interaction, BESTIARY)
        seen = reader_sight(interaction, table, public)
        await reply(interaction, embed=roster_embed(table.monsters, seen))

    @monster.command(name="remove", description=N_("GM: remove a monster (asks to confirm)"))
    @private()
    @app_commands.describe(name=N_("Which monster"))
    @app_commands.autocomplete(name=monster_autocomplete)
    async def remove(self, interaction: discord.Interaction, name: Name) -> None:
        await confirm_monster_removal(interaction, name, self.confirm_seconds, self.timers)

    @monster.command(name="face", description=N_("GM: turn a monster (moves its unarmored spots)"))
    @app_commands.describe(
        name=N_("Which monster"), facing=N_("The compass direction it now faces")
    )
    @app_commands.choices(facing=COMPASS_CHOICES)
    @app_commands.autocomplete(name=monster_autocomplete)
    async def face(self, interaction: discord.Interaction, name: Name, facing: str) -> None:
        step = functools.partial(bestiary.face, name=name, facing=facing)
        turned, seen = await change_seen(interaction, "monster face", step)
        facing = facing_text(turned.facing)
        title = _("{name} now faces {facing}", name=turned.name, facing=facing)
        picture = job(interaction, "monster", monster_view(turned, seen))
        await reply_picture(interaction, monster_embed(turned, sight=seen, title=title), picture)

    @monster.command(
        name="reveal", description=N_("GM: show the players one hidden unarmored spot")
    )
    @app_commands.describe(
        name=N_("Which monster"), spot=N_("Which of its hidden spots, e.g. back")
    )
    @app_commands.autocomplete(name=monster_autocomplete, spot=hidden_spot_autocomplete)
    async def reveal(self, interaction: discord.Interaction, name: Name, spot: Spot) -> None:
        step = functools.partial(bestiary.reveal, name=name, spot=spot)
        shown, seen = await change_seen(interaction, "monster reveal", step)
        found = shown.block.spot(spot)
        title = _(
            "{name}: its {spot} spot is revealed", name=shown.name, spot=spot_name(found.name)
        )
        await reply(interaction, embed=monster_embed(shown, sight=seen, title=title))

    @monster.command(name="hit", description=N_("GM: a hit on a monster: damage after its Defense"))
    @app_commands.describe(
        name=N_("Which monster"),
        damage=N_("The attack's damage, before Defense"),
        from_=N_("The square the attack comes from (or passes through)"),
    )
    @app_commands.rename(from_="from")
    @app_commands.choices(from_=COMPASS_CHOICES)
    @app_commands.autocomplete(name=monster_autocomplete)
    async def hit(
        self,
        interaction: discord.Interaction,
        name: Name,
        damage: Damage,
        from_: str | None = None,
    ) -> None:
        await hit_and_reply(interaction, name, damage, from_)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(HitAgain, MonsterRemoveAnswer)  # before any click, after every restart
    await bot.add_cog(Monsters())


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(HitAgain, MonsterRemoveAnswer)
