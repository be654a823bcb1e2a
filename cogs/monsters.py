"""`/monster create|show|list|appear|bring|remove|face|reveal|hit`, and `/monster-build` anywhere.

A monster the GM makes (or brings from another channel) is behind the GM's screen until it
appears: it enters the initiative, is hit, or the GM shows it (`/monster appear`, `/monster show
public:True`). Until then only the GM's private replies name it (`table.sight`); a change to it
answers the GM alone."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.contexts import anywhere
from bot.permissions import is_gm, is_gm_with
from bot.translator import described
from cogs._buttons import TableButton, buttons_view
from cogs._confirm import CONFIRM_SECONDS, PromptTimers
from cogs._monster_remove import (
    DefeatedRemoveAnswer,
    MonsterRemoveAnswer,
    confirm_clearing,
    confirm_monster_removal,
)
from cogs._options import INIT_BONUS_HELP, InitBonus
from cogs._picture import job, reply_picture
from cogs._reply import private, reply
from cogs._shared import (
    bot_of,
    offers_nothing_in_outage,
    read_table,
    require_gm,
    table_channel_id,
)
from cogs._sight import appear_reply, change_seen, known_table, reader_sight, whisper_gm_copy
from lang import N_, _
from render.monsters import (
    ARMOR_NAMES,
    HIDDEN_MARK,
    armor_name,
    block_embed,
    brought_embed,
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
from rules.errors import RulesError
from table import bestiary
from table.bestiary import MONSTERS_MAX, BuildOptions
from table.model import Forbidden
from table.monster import HP_MAX, Monster
from table.monster_view import monster_view
from table.names import NAME_LIMIT
from table.parts import BESTIARY, CHANNEL_ONLY, EVERYTHING
from table.sight import GM_ALONE, in_sight

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
    """The build options from `/monster-build|create`'s parameters (their `locals()`): each
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
    """The bestiary's monsters: for the GM all, those still behind the screen marked; for a
    player, only those that have appeared."""
    if interaction.guild_id is None:  # no bestiary outside a server
        return []
    table = known_table(interaction, await read_table(interaction, BESTIARY))
    return monster_choices(table.monsters, current)


def monster_choices(monsters: Sequence[Monster], current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete choices of these monsters whose name holds what was typed; one still behind
    the GM's screen is marked (only the GM is offered one)."""
    typed = current.casefold()
    found = [m for m in monsters if typed in m.key]
    return [
        app_commands.Choice(name=f"{HIDDEN_MARK} {m.name}" if m.hidden else m.name, value=m.name)
        for m in found[:25]
    ]


@offers_nothing_in_outage
async def hidden_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """`/monster appear`: the monsters still behind the screen, and their groups (the GM's)."""
    table = await read_table(interaction, BESTIARY)
    if not is_gm(interaction, table.settings):
        return []
    return group_choices([m for m in table.monsters if m.hidden], current)


def group_choices(monsters: Sequence[Monster], current: str) -> list[app_commands.Choice[str]]:
    """These monsters' groups (`Goblin` for all of `Goblin 1`, `Goblin 2`…), then each of
    them, whose name holds what was typed."""
    typed = current.casefold()
    names = [g for g in bestiary.group_names(monsters) if typed in g.casefold()]
    names += [m.name for m in monsters if typed in m.key]
    return [app_commands.Choice(name=n, value=n) for n in names[:25]]


class PrepChannel(app_commands.Transformer):
    """A text channel of this server, as Discord resolves it for the option (with the user's
    permissions there): where a GM prepared monsters."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.channel

    @property
    def channel_types(self) -> list[discord.ChannelType]:
        return [discord.ChannelType.text, discord.ChannelType.news]

    async def transform(
        self, interaction: discord.Interaction, value: Any, /
    ) -> app_commands.AppCommandChannel:
        if not isinstance(value, app_commands.AppCommandChannel):
            raise app_commands.TransformerError(value, self.type, self)
        return value


def _source_of(interaction: discord.Interaction) -> app_commands.AppCommandChannel | None:
    source = getattr(interaction.namespace, "from", None)
    return source if isinstance(source, app_commands.AppCommandChannel) else None


@offers_nothing_in_outage
async def source_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """`/monster bring`: the monsters of the channel named in `from:`, and their groups, to a
    GM of that channel."""
    source = _source_of(interaction)
    if source is None or interaction.guild_id is None:
        return []
    table = await bot_of(interaction).store.read(source.id, interaction.guild_id, BESTIARY)
    if not is_gm_with(source.permissions, interaction.user, table.settings):
        return []
    return group_choices(table.monsters, current)


class HitAgain(
    TableButton, template=r"tk:hit:(?P<damage>\d{1,6}):(?P<from>[NESW]{0,2}):(?P<name>.*)"
):
    """The "Hit again" button of a `/monster hit` reply: the same damage from the same square,
    GM only (checked inside the transaction, as for the command), said and logged as a hit
    again. The name comes last."""

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
        await hit_and_reply(interaction, self.name, self.damage, self.from_square, again=True)


HIT, HIT_AGAIN = "monster hit", "monster hit again"  # as the log names them


async def hit_and_reply(
    interaction: discord.Interaction,
    name: str,
    damage: int,
    from_square: str | None,
    again: bool = False,
) -> None:
    """`/monster hit` and its "Hit again" button (`again`): one transaction, then a new reply
    for the channel, and the GM's whole copy privately when that left something out (the
    numbers, or the hidden spot it met)."""
    step = functools.partial(bestiary.hit, name=name, damage=damage, from_square=from_square)
    hit, seen = await change_seen(interaction, HIT_AGAIN if again else HIT, step)
    # Another hit on a defeated monster would only say it is defeated.
    button = (
        None if hit.monster.down else buttons_view(HitAgain(hit.monster.name, damage, from_square))
    )
    await reply(interaction, embed=hit_embed(hit, seen, again), view=button)
    if seen.hides_hit(hit.result):
        await whisper_gm_copy(interaction, hit_embed(hit, GM_ALONE, again))


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

    # `/monster-build`, top-level so that it runs anywhere (a DM, a user install): Discord
    # applies contexts to a whole top-level command, and /monster needs a server.
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
    build_anywhere = anywhere(app_commands.command(name="monster-build", description=BUILD)(_build))

    @monster.command(
        name="create", description=N_("GM: keep a monster here, hidden until it appears")
    )
    @private()
    @app_commands.describe(
        name=N_("The monster's name (up to 32 characters)"),
        hp=N_("Its maximum HP, to track damage (optional)"),
        count=N_("How many from this block, numbered after the name"),
        init_bonus=INIT_BONUS_HELP,
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
        init_bonus: InitBonus = 0,
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
            bestiary.create,
            name=name,
            options=options,
            hp_max=hp,
            count=count,
            init_bonus=init_bonus,
        )
        # Everything: a new name is compared with every name in the channel (`table.lookalikes`).
        made, _seen = await change_seen(interaction, "monster create", step, EVERYTHING)
        await reply(interaction, embed=created_embed(made, GM_ALONE))  # the GM's alone

    @monster.command(
        name="appear", description=N_("GM: show the players a monster (or group) kept hidden")
    )
    @app_commands.describe(name=N_("Which monster, or group (Goblin for Goblin 1, 2…)"))
    @app_commands.autocomplete(name=hidden_autocomplete)
    async def appear(self, interaction: discord.Interaction, name: Name) -> None:
        step = functools.partial(bestiary.appear, name=name)
        shown, seen = await change_seen(interaction, "monster appear", step)
        await appear_reply(interaction, shown, seen)

    @monster.command(
        name="bring",
        description=N_("GM: bring a monster (or group) from another channel, hidden"),
    )
    @private()
    @app_commands.describe(
        from_=N_("The channel it was prepared in (you are GM there too)"),
        name=N_("Which monster, or group (Goblin for Goblin 1, 2…)"),
    )
    @app_commands.rename(from_="from")
    @app_commands.autocomplete(name=source_autocomplete)
    async def bring(
        self,
        interaction: discord.Interaction,
        from_: app_commands.Transform[app_commands.AppCommandChannel, PrepChannel],
        name: Name,
    ) -> None:
        require_gm(interaction, await read_table(interaction, CHANNEL_ONLY))  # here, first
        if from_.id in (interaction.channel_id, await table_channel_id(interaction)):
            raise RulesError(_("Bring monsters from another channel: they are here already"))
        source = await bot_of(interaction).store.read(from_.id, interaction.guild_id, BESTIARY)
        if not is_gm_with(from_.permissions, interaction.user, source.settings):
            raise Forbidden(_("Only a GM of #{channel} can bring its monsters", channel=from_.name))
        found = bestiary.members(source, name)
        step = functools.partial(bestiary.bring, monsters=found)
        # Everything: each name brought is compared with every name here (`table.lookalikes`).
        brought, _seen = await change_seen(interaction, "monster bring", step, EVERYTHING)
        await reply(interaction, embed=brought_embed(brought, from_.name))

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
        monster = known_table(interaction, table).get_monster(name)
        if monster.hidden and public:  # the GM shows it to the channel: it appears
            step = functools.partial(bestiary.appear, name=monster.name)
            shown, _seen = await change_seen(interaction, "monster appear", step)
            monster = shown[0]
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
        await reply(interaction, embed=roster_embed(in_sight(table, seen).monsters, seen))

    @monster.command(name="remove", description=N_("GM: remove a monster (asks to confirm)"))
    @private()
    @app_commands.describe(
        name=N_("Which monster"), defeated=N_("Every defeated monster at once (one confirmation)")
    )
    @app_commands.autocomplete(name=monster_autocomplete)
    async def remove(
        self, interaction: discord.Interaction, name: Name | None = None, defeated: bool = False
    ) -> None:
        if defeated == (name is not None):
            raise RulesError(_("Name one monster with `name:`, or clear them with `defeated:True`"))
        if name is None:
            await confirm_clearing(interaction, self.confirm_seconds, self.timers)
            return
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
        seen = GM_ALONE if turned.hidden else seen  # behind the screen: the GM's alone
        facing = facing_text(turned.facing)
        title = _("{name} now faces {facing}", name=turned.name, facing=facing)
        picture = job(interaction, "monster", monster_view(turned, seen))
        embed = monster_embed(turned, sight=seen, title=title)
        await reply_picture(interaction, embed, picture, private=turned.hidden or None)

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
        seen = GM_ALONE if shown.hidden else seen  # behind the screen: the GM's alone
        found = shown.block.spot(spot)
        title = _(
            "{name}: its {spot} spot is revealed", name=shown.name, spot=spot_name(found.name)
        )
        embed = monster_embed(shown, sight=seen, title=title)
        await reply(interaction, embed=embed, private=shown.hidden or None)

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
    # before any click, after every restart
    bot.add_dynamic_items(HitAgain, MonsterRemoveAnswer, DefeatedRemoveAnswer)
    await bot.add_cog(Monsters())


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(HitAgain, MonsterRemoveAnswer, DefeatedRemoveAnswer)
