"""A character made or changed, as `/character create` and `/character set` do it with typed
options and with their form (`cogs._sheet_form`): one path for both, its checks, its one
transaction and its reply; and the "Raise the class too" button a level raised alone offers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

import discord
from discord import app_commands

from cogs._buttons import TableButton, buttons_view
from cogs._created import reply_created
from cogs._forms import missing
from cogs._options import INIT_BONUS_HELP
from cogs._reply import reply, update
from cogs._shared import apply_as, pick_character
from lang import N_, _
from render.characters import sheet_embed
from render.warning import with_warning
from rules.errors import RulesError
from table.level_check import class_to_raise, new_disagreement, raised_class
from table.model import Character, Table
from table.parts import PARTY
from table.sheet import SheetOptions, change, create, format_classes

BOTS_OWN_NOTHING = N_("Bots can't own characters")
SHEET_DESCRIPTIONS = {
    "level": N_("Character level (sets the SR Bonus)"),
    "fortitude": N_("Fortitude, added to TSR"),
    "wisdom": N_("Wisdom, added to WSR"),
    "kin_tsr": N_("Kin bonus to TSR"),
    "kin_wsr": N_("Kin bonus to WSR"),
    "special_tsr": N_("Special modifier to every TSR (a ring, a blessing), -100 to 100"),
    "special_wsr": N_("Special modifier to every WSR (a ring, a blessing), -100 to 100"),
    "classes": N_("HD size and level per class, e.g. 10:5 or d10/5 d6/6"),
    "combine": N_("How several classes combine"),
    "toughness": N_("Toughness, -5 to 7 (or give constitution instead)"),
    "constitution": N_("Constitution 0-25, turned into Toughness"),
    "base_hd": N_("Base HD like 4+1 (monsters and kin such as Ogres)"),
    "kin_hd": N_("Kin HD size, used when larger than the class's"),
    "fatigue_level": N_("Fatigue Level given directly, e.g. 20.5 (instead of the inputs)"),
    "init_bonus": INIT_BONUS_HELP,
    "party": N_("False: a familiar or NPC, left out of party-wide commands"),
}
COMBINE_CHOICES = [
    app_commands.Choice(name=N_("single class"), value="single"),
    app_commands.Choice(name=N_("multiclass (average HD and levels)"), value="multi"),
    app_commands.Choice(name=N_("dualclass (largest HD, highest level)"), value="dual"),
]


@dataclass(frozen=True)
class Changed:
    """What `/character set` did: the character after, whether anything changed, a warning
    (the level and the class levels disagree), and the HD size of the class to offer to raise
    with a level raised alone."""

    character: Character
    changed: bool
    warning: str | None
    raise_size: int | None


async def create_character(
    interaction: discord.Interaction,
    name: str | None,
    owner: discord.abc.User | None,
    options: SheetOptions,
) -> None:
    """`/character create`, from its options or its form: one change, then who was made
    (the sheet behind its button)."""
    if name is None:
        raise missing("character create", ["name"])
    if owner is not None and owner.bot:
        raise RulesError(_(BOTS_OWN_NOTHING))
    actor_id, owner_id = interaction.user.id, (owner or interaction.user).id

    def step(table: Table, gm: bool) -> tuple[Table, Character]:
        return create(
            table, actor_id=actor_id, is_gm=gm, name=name, owner_id=owner_id, options=options
        )

    # The whole table: a new name is compared with every name in the channel.
    made = await apply_as(interaction, "character create", step)
    await reply_created(interaction, made)


async def set_character(
    interaction: discord.Interaction,
    name: str | None,
    options: SheetOptions,
    new_name: str | None = None,
    owner: discord.abc.User | None = None,
) -> None:
    """`/character set`, from its options or its form: the named character (else the caller's
    own) changed in one transaction, then its sheet, and an offer to raise its class when its
    level alone was raised."""
    if owner is not None and owner.bot:
        raise RulesError(_(BOTS_OWN_NOTHING))
    owner_id = None if owner is None else owner.id
    user_id = interaction.user.id

    def step(before: Table, gm: bool) -> tuple[Table, Changed]:
        old = pick_character(before, name, user_id, gm=gm)  # named, else the caller's own
        after, character = change(before, user_id, gm, old.name, options, new_name, owner_id)
        warning = new_disagreement(old, character)
        size = class_to_raise(old, character, options.classes is not None)
        # The store writes only when the table differs.
        return after, Changed(character, after != before, warning, size)

    done = await apply_as(interaction, "character set", step)
    character = done.character
    title = (
        _("Changed {name}", name=character.name)
        if done.changed
        else _("Nothing changed: {name} was already so", name=character.name)
    )
    embed = with_warning(sheet_embed(character, title=title), done.warning)
    if done.raise_size is None:
        await reply(interaction, embed=embed)
        return
    offer = RaiseClass(character.name, done.raise_size, character.level)
    await reply(interaction, embed=embed, view=buttons_view(offer))


class RaiseClass(
    TableButton, template=r"tk:char:raise:(?P<size>\d{1,3}):(?P<level>\d{1,3}):(?P<name>.*)"
):
    """Offered when `level:` alone was raised above the class levels: raise the highest class
    of that HD size to the new level too (its owner or the GM, checked in the transaction),
    as `/character set classes:` would, logged as a `character set`."""

    def __init__(self, name: str, size: int, level: int) -> None:
        self.name, self.size, self.level = name, size, level
        label = _("Raise the d{size} class to level {level} too", size=size, level=level)
        super().__init__(f"tk:char:raise:{size}:{level}:{name}", label)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> Self:
        return cls(match["name"], int(match["size"]), int(match["level"]))

    async def clicked(self, interaction: discord.Interaction) -> None:
        user_id = interaction.user.id

        def step(before: Table, gm: bool) -> tuple[Table, Character]:
            old = before.get(self.name)
            if old.level != self.level:
                raise RulesError(
                    _(
                        "{name} is level {level} now: nothing raised",
                        name=old.name,
                        level=old.level,
                    )
                )
            classes = format_classes(raised_class(old, self.size))
            return change(before, user_id, gm, old.name, SheetOptions(classes=classes))

        character = await apply_as(interaction, "character set", step, PARTY)
        title = _("Changed {name}", name=character.name)
        await update(interaction, embed=sheet_embed(character, title=title), view=None)
