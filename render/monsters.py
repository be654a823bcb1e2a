"""Monster stat blocks, the bestiary list, and hits, as embeds."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from lang import N_, _, n_
from render.common import FAILURE, MIXED, NEUTRAL, TITLE_MAX, fit_lines
from rules.defense import HARD_TO_HIT, ORDERS, MonsterBlock, facing_text, format_modifier
from rules.text import plain
from table.bestiary import MonsterHit, spot_squares
from table.model import Monster
from table.sight import GM_ALONE, Sight

BUILD_FOOTER = N_("Not saved: /monster create keeps a monster in a server channel's bestiary.")
NUMBERS_KEPT = N_("Its numbers are the GM's: this channel keeps monsters' numbers hidden.")
GM_COPY = N_("🔒 The GM's copy: only you see it.")
# Armor levels and monster orders as shown (an order with its Materials: "Heavy 3"); the
# rules name them in lower case.
ARMOR_NAMES = {
    "unarmored": N_("Unarmored"),
    "civilian": N_("Civilian"),
    "light": N_("Light"),
    "medium": N_("Medium"),
    "heavy": N_("Heavy"),
    "extreme": N_("Extreme"),
    "impervious": N_("Impervious"),
}
ORDER_DROPS = {
    "normal": N_("Normal {materials}"),
    "heavy": N_("Heavy {materials}"),
    "miniboss": N_("Miniboss {materials}"),
    "boss": N_("Boss {materials}"),
}


def armor_name(armor: str) -> str:
    return _(ARMOR_NAMES[armor]) if armor in ARMOR_NAMES else armor.title()


def order_drop(order: str) -> str:
    """`Heavy 3`: a monster's order and the Materials it drops."""
    if order not in ORDER_DROPS:
        return f"{order.title()} {ORDERS[order]}"
    return _(ORDER_DROPS[order], materials=ORDERS[order])


# The rules' spot names (`rules.defense.SPOTS`, English keys), marked here where they are shown.
SPOT_NAMES = (
    N_("front"),
    N_("front-right"),
    N_("right"),
    N_("back-right"),
    N_("back"),
    N_("back-left"),
    N_("left"),
    N_("front-left"),
)


def spot_name(spot: str | None) -> str:
    """A spot (`back-left`) in the reader's language."""
    return "?" if spot is None else _(spot)


def armor_text(block: MonsterBlock) -> str:
    """'Heavy, Rank 3' and the trade, if any."""
    text = _("{armor}, Rank {rank}", armor=armor_name(block.armor), rank=block.rank)
    if block.trade:
        text += _(", trade {trade} Defense", trade=format_modifier(block.trade))
    return text


def evasion_text(block: MonsterBlock) -> str:
    """'Set to 0 (Impervious)', 'modifier −2', '12 (Agility 4, modifier −2)', or on Impervious
    with extra armor '−2 (set to 0 by Impervious, extra armor −2)'."""
    if block.evasion_modifier is None:
        if block.extra_evasion:
            extra = format_modifier(block.extra_evasion)
            return _(
                "{evasion} (set to 0 by Impervious, extra armor {extra})",
                evasion=plain(block.evasion or 0),
                extra=extra,
            )
        return _("Set to 0 (Impervious)")
    modifier = format_modifier(block.evasion_modifier)
    if block.evasion is None:
        return _("modifier {modifier}", modifier=modifier)
    return _(
        "{evasion} (Agility {agility}, modifier {modifier})",
        evasion=plain(block.evasion),
        agility=plain(block.agility or 0),
        modifier=modifier,
    )


def hp_text(monster: Monster) -> str:
    if monster.hp is None or monster.hp_max is None:
        return _("not tracked")
    text = f"{plain(monster.hp)} / {monster.hp_max}"
    return _("{hp} — **defeated**", hp=text) if monster.down else text


def drop_text(block: MonsterBlock) -> str:
    """'5 Materials (Heavy 3, +2 for enchantments)'."""
    how = order_drop(block.order)
    if block.enchantments:
        how += _(", +{count} for enchantments", count=len(block.enchantments))
    return _("{materials} Materials ({how})", materials=block.material_drop, how=how)


def hidden_count(count: int) -> str:
    """'1 hidden unarmored spot', '2 hidden unarmored spots'."""
    return n_("{n} hidden unarmored spot", "{n} hidden unarmored spots", count)


def _spot_lines(block: MonsterBlock, facing: str | None, show_hidden: bool) -> list[str]:
    """One line per spot a reader may see; hidden spots only as a count unless `show_hidden`
    ('1 hidden unarmored spot' alone, '1 more, hidden' after spots already named)."""
    squares = {} if facing is None else spot_squares(block, facing)
    lines = []
    for spot in block.spots:
        if spot.hidden and not show_hidden:
            continue
        name = spot_name(spot.name)
        if facing is not None:
            name = _("{spot} (square {square})", spot=name, square=facing_text(squares[spot.name]))
        line = name
        if spot.hard_to_hit:
            line += f" — {_(HARD_TO_HIT)}"
        if spot.hidden:
            line += _(" — hidden from the players")
        lines.append(line)
    if block.hidden_spots and not show_hidden:
        more = _("{count} more, hidden", count=block.hidden_spots)
        lines.append(more if lines else hidden_count(block.hidden_spots))
    return lines


def _spots_field(
    embed: discord.Embed, block: MonsterBlock, facing: str | None, show_hidden: bool
) -> None:
    """The unarmored spots a reader may see, and what a hit there meets."""
    if not block.spots:
        return
    lines = _spot_lines(block, facing, show_hidden)
    # The field's name heads its value: only named spots need 'unarmored spots' above them.
    named = show_hidden or block.hidden_spots < len(block.spots)
    name = _("Partial armor: unarmored spots") if named else _("Partial armor")
    lines.append(_("Hits there meet only half Defense."))
    embed.add_field(name=name, value="\n".join(lines), inline=False)


def _enchantment_text(block: MonsterBlock) -> str:
    """'Armor: Rank 1, Rank 2 · Weapons: Rank 2'."""
    parts = []
    on = ((N_("Armor"), block.armor_enchantments), (N_("Weapons"), block.weapon_enchantments))
    for where, ranks in on:
        if ranks:
            parts.append(f"{_(where)}: " + ", ".join(f"Rank {rank}" for rank in ranks))
    return " · ".join(parts)


def block_embed(
    block: MonsterBlock,
    *,
    title: str,
    monster: Monster | None = None,
    show_hidden: bool = False,
) -> discord.Embed:
    """The stat block; with a bestiary monster, its HP, facing and where its spots are now.

    Hidden unarmored spots appear only as a count unless `show_hidden` (a reply only the GM,
    or whoever built an unsaved block, sees)."""
    embed = discord.Embed(title=title[:TITLE_MAX], colour=MIXED if block.warnings else NEUTRAL)
    embed.add_field(name=_("Defense"), value=str(block.defense))
    embed.add_field(name=_("Evasion"), value=evasion_text(block))
    embed.add_field(name=_("Armor"), value=armor_text(block))
    if monster is not None:
        embed.add_field(name="HP", value=hp_text(monster))
        embed.add_field(name=_("Facing"), value=facing_text(monster.facing))
    _spots_field(embed, block, None if monster is None else monster.facing, show_hidden)
    if block.enchantments:
        embed.add_field(name=_("Enchantments"), value=_enchantment_text(block), inline=False)
    embed.add_field(name=_("Material drop"), value=drop_text(block), inline=False)
    if block.notes:
        embed.add_field(name=_("Notes"), value="\n".join(block.notes), inline=False)
    if block.warnings:
        embed.add_field(
            name=_("Warnings"), value="\n".join(f"⚠️ {w}" for w in block.warnings), inline=False
        )
    if monster is None:
        embed.set_footer(text=_(BUILD_FOOTER))
    return embed


def monster_embed(monster: Monster, *, sight: Sight, title: str | None = None) -> discord.Embed:
    """A bestiary monster as this reader may see it: its whole stat block when the numbers are
    theirs to see, else its facing, the spots they know of and how hurt it looks."""
    title = title or monster.name
    if sight.numbers:
        return block_embed(
            monster.block, title=title, monster=monster, show_hidden=sight.hidden_spots
        )
    embed = discord.Embed(title=title[:TITLE_MAX], colour=NEUTRAL)
    if monster.wounds is not None:
        embed.add_field(name=_("Condition"), value=_(monster.wounds))
    embed.add_field(name=_("Facing"), value=monster.facing)
    _spots_field(embed, monster.block, monster.facing, sight.hidden_spots)
    return embed.set_footer(text=_(NUMBERS_KEPT))


BEHIND_SCREEN_NOTE = N_(
    "🔒 Behind your screen: the players see nothing of it until it appears "
    "(`/monster appear`, `/init add`, a hit, or `/monster show public:True`)."
)


def created_embed(made: Sequence[Monster], sight: Sight) -> discord.Embed:
    """`/monster create`, which the GM alone reads: the name(s), the stat block if this reader
    may see its numbers, and that it stays behind the GM's screen until it appears."""
    title = _("Created {name}", name=", ".join(m.name for m in made))
    if sight.numbers:
        embed = monster_embed(made[0], sight=sight, title=title)
    else:
        embed = discord.Embed(title=title[:TITLE_MAX], colour=NEUTRAL)
    if any(m.hidden for m in made):
        embed.description = _(BEHIND_SCREEN_NOTE)
    return embed


def brought_embed(brought: Sequence[Monster], source: str) -> discord.Embed:
    """`/monster bring`, which the GM alone reads: what came from which channel, hidden."""
    names = ", ".join(m.name for m in brought)
    embed = discord.Embed(
        title=_("Brought {names} from #{channel}", names=names, channel=source)[:TITLE_MAX],
        description="\n".join(roster_line(m, GM_ALONE) for m in brought)
        + "\n\n"
        + _(BEHIND_SCREEN_NOTE),
        colour=NEUTRAL,
    )
    return embed


def appeared_embed(shown: Sequence[Monster], sight: Sight) -> discord.Embed:
    """`/monster appear` of a group: who comes into sight, as the channel sees them."""
    names = ", ".join(m.name for m in shown)
    return discord.Embed(
        title=_("👁️ {names} appear", names=names)[:TITLE_MAX],
        description=fit_lines([roster_line(m, sight) for m in shown]),
        colour=NEUTRAL,
    )


def gm_copy(embed: discord.Embed) -> discord.Embed:
    """The GM's private copy of a public reply that left something out."""
    return embed.set_footer(text=_(GM_COPY))


HIDDEN_MARK = "🔒"  # a monster behind the GM's screen, in the GM's own lists


def roster_line(monster: Monster, sight: Sight) -> str:
    name = f"**{monster.name}**"
    if monster.hidden and sight.prepared:
        name = f"{HIDDEN_MARK} {name}"
    if not sight.numbers:
        parts = [name, _("facing {facing}", facing=facing_text(monster.facing))]
        if monster.wounds is not None:
            parts.append(_(monster.wounds))
        return " · ".join(parts)
    block = monster.block
    parts = [
        name,
        armor_text(block),
        _("Defense {defense}", defense=block.defense),
        _("facing {facing}", facing=facing_text(monster.facing)),
    ]
    if monster.hp is not None:
        parts.append(f"HP {hp_text(monster)}")
    return " · ".join(parts)


def roster_embed(monsters: Sequence[Monster], sight: Sight) -> discord.Embed:
    """The bestiary as this reader may see it (the GM alone: the hidden ones too, marked)."""
    embed = discord.Embed(title=_("Monsters in this channel"), colour=NEUTRAL)
    if not monsters:
        embed.description = _("None yet: the GM adds them with `/monster create`.")
    else:
        embed.description = fit_lines([roster_line(m, sight) for m in monsters])
    if monsters and not sight.numbers:
        embed.set_footer(text=_(NUMBERS_KEPT))
    elif any(m.hidden for m in monsters):
        embed.set_footer(text=_("🔒 Behind your screen: the players don't see it yet."))
    return embed


def confirm_clear_embed(defeated: Sequence[Monster]) -> discord.Embed:
    """`/monster remove defeated:True` asks once for all of them."""
    return discord.Embed(
        title=n_(
            "Remove {n} defeated monster?", "Remove all {n} defeated monsters?", len(defeated)
        )[:TITLE_MAX],
        description=_(
            "{names}: out of the bestiary and the turn order. `/undo` brings them back.",
            names=", ".join(m.name for m in defeated),
        ),
        colour=discord.Colour(0x95A5A6),
    )


def cleared_embed(gone: Sequence[Monster]) -> discord.Embed:
    return discord.Embed(
        title=_("Removed the defeated: {names}", names=", ".join(m.name for m in gone))[:TITLE_MAX],
        colour=NEUTRAL,
    )


def confirm_remove_embed(monster: Monster) -> discord.Embed:
    hp = f"HP {hp_text(monster)} · " if monster.hp_max is not None else ""
    return discord.Embed(
        title=_("Remove {name}?", name=monster.name)[:TITLE_MAX],
        description=_(
            "{hp}facing {facing}. `/undo` brings it back.",
            hp=hp,
            facing=facing_text(monster.facing),
        ),
        colour=discord.Colour(0x95A5A6),  # grey, as a character's removal
    )


def removed_embed(monster: Monster) -> discord.Embed:
    return discord.Embed(title=_("Removed {name}", name=monster.name)[:TITLE_MAX], colour=NEUTRAL)


def _where(hit: MonsterHit, sight: Sight) -> str | None:
    """'From square S: its back, an unarmored spot (half Defense)'. The spot is named only to
    a reader who may know what it is: for the channel, a spot it knows to be unarmored; an armored
    one and a hidden one both read 'From square S', so neither gives the other away."""
    result = hit.result
    if hit.from_square is None:
        return None
    if not sight.hidden_spots and not (result.unarmored_spot and not result.hidden_spot):
        return _("From square {square}", square=facing_text(hit.from_square))
    where = _(
        "From square {square}: its {spot}",
        square=facing_text(hit.from_square),
        spot=spot_name(result.spot),
    )
    if result.unarmored_spot:
        hidden = _("a hidden unarmored spot") if result.hidden_spot else _("an unarmored spot")
        hard = f"; {_(HARD_TO_HIT)}" if result.hard_to_hit else ""
        where += _(", {hidden} (half Defense{hard})", hidden=hidden, hard=hard)
    return where


_HIT_TITLES = {
    (False, True): N_("{name} takes {taken}"),
    (False, False): N_("{name} is hit"),
    (True, True): N_("🔁 Hit again: {name} takes {taken}"),
    (True, False): N_("🔁 Hit again: {name} is hit"),
}


def hit_embed(hit: MonsterHit, sight: Sight, again: bool = False) -> discord.Embed:
    """What the attack dealt, the Defense it met (half on an unarmored spot), and HP left, to a
    reader who may see the numbers (the Defense not even then when it would give a hidden spot
    away). To one who may not: the square it came from and how hurt the monster now looks, no
    number at all, so a hit that changes nothing they can see reads the same whether Defense
    absorbed it or not. `again`: the "Hit again" button repeated the hit before."""
    result, monster = hit.result, hit.monster
    if hit.already_defeated:
        if sight.numbers:
            changes = _(
                "HP {hp}: a further hit changes nothing (it would have taken {taken}).",
                hp=hp_text(monster),
                taken=result.taken,
            )
        else:
            changes = _("It is defeated: a further hit changes nothing.")
        return discord.Embed(
            title=_("{name} is already defeated", name=monster.name)[:TITLE_MAX],
            description=changes,
            colour=FAILURE,
        )
    lines = [] if (where := _where(hit, sight)) is None else [where]
    secret_spot = result.hidden_spot and not sight.hidden_spots
    if sight.numbers and not secret_spot:
        floor = _(" (at least 1)") if result.damage <= result.defense_applied else ""
        lines.append(
            _(
                "Damage {damage} − Defense {defense} → **{taken} taken**{floor}",
                damage=result.damage,
                defense=result.defense_applied,
                taken=result.taken,
                floor=floor,
            )
        )
    elif sight.numbers:
        lines.append(
            _("Damage {damage} → **{taken} taken**", damage=result.damage, taken=result.taken)
        )
    if hit.hp_before is None or monster.hp is None:
        lines.append(_("HP not tracked"))
    elif sight.numbers:
        lines.append(f"HP {plain(hit.hp_before)} → {hp_text(monster)}")
    elif monster.wounds is not None:
        now = _(monster.wounds)
        lines.append(
            _("Still {wounds}", wounds=now)
            if monster.wounds == hit.looked
            else _("Now {wounds}", wounds=now)
        )
    if monster.down and hit.in_fight:
        lines.append(_("💀 Out of the fight: the turn order passes over it."))
    title = _(_HIT_TITLES[again, sight.numbers], name=monster.name, taken=result.taken)
    return discord.Embed(
        title=title[:TITLE_MAX],
        description="\n".join(lines),
        colour=FAILURE if monster.down else NEUTRAL,
    )
