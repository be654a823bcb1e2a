"""Monster stat blocks, the bestiary list, and hits, as embeds."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.render.common import FAILURE, MIXED, NEUTRAL, plain
from rules.defense import HARD_TO_HIT, ORDERS, MonsterBlock, format_modifier
from table.bestiary import MonsterHit, spot_squares
from table.model import Monster

BUILD_FOOTER = "Not saved: /monster create keeps a monster in this channel."


def armor_text(block: MonsterBlock) -> str:
    """'Heavy, Rank 3' and the trade, if any."""
    text = f"{block.armor.title()}, Rank {block.rank}"
    if block.trade:
        text += f", trade {format_modifier(block.trade)} Defense"
    return text


def evasion_text(block: MonsterBlock) -> str:
    """'Set to 0 (Impervious)', 'modifier −2', '12 (Agility 4, modifier −2)', or on Impervious
    with extra armor '−2 (set to 0 by Impervious, extra armor −2)'."""
    if block.evasion_modifier is None:
        if block.extra_evasion:
            extra = format_modifier(block.extra_evasion)
            return f"{plain(block.evasion or 0)} (set to 0 by Impervious, extra armor {extra})"
        return "Set to 0 (Impervious)"
    modifier = format_modifier(block.evasion_modifier)
    if block.evasion is None:
        return f"modifier {modifier}"
    return f"{plain(block.evasion)} (Agility {plain(block.agility or 0)}, modifier {modifier})"


def hp_text(monster: Monster) -> str:
    if monster.hp is None or monster.hp_max is None:
        return "not tracked"
    text = f"{plain(monster.hp)} / {monster.hp_max}"
    return f"{text} — **defeated**" if monster.down else text


def drop_text(block: MonsterBlock) -> str:
    """'5 Materials (Heavy 3, +2 for enchantments)'."""
    how = f"{block.order.title()} {ORDERS[block.order]}"
    if block.enchantments:
        how += f", +{len(block.enchantments)} for enchantments"
    return f"{block.material_drop} Materials ({how})"


def hidden_count(count: int) -> str:
    """'1 hidden unarmored spot', '2 hidden unarmored spots'."""
    return f"{count} hidden unarmored spot{'' if count == 1 else 's'}"


def _spot_lines(block: MonsterBlock, facing: str | None, show_hidden: bool) -> list[str]:
    """One line per spot a reader may see; hidden spots only as a count unless `show_hidden`
    ('1 hidden unarmored spot' alone, '1 more, hidden' after spots already named)."""
    squares = {} if facing is None else spot_squares(block, facing)
    lines = []
    for spot in block.spots:
        if spot.hidden and not show_hidden:
            continue
        line = spot.name if facing is None else f"{spot.name} (square {squares[spot.name]})"
        if spot.hard_to_hit:
            line += f" — {HARD_TO_HIT}"
        if spot.hidden:
            line += " — hidden from the players"
        lines.append(line)
    if block.hidden_spots and not show_hidden:
        lines.append(
            f"{block.hidden_spots} more, hidden" if lines else hidden_count(block.hidden_spots)
        )
    return lines


def _enchantment_text(block: MonsterBlock) -> str:
    """'Armor: Rank 1, Rank 2 · Weapons: Rank 2'."""
    parts = []
    on = (("Armor", block.armor_enchantments), ("Weapons", block.weapon_enchantments))
    for where, ranks in on:
        if ranks:
            parts.append(f"{where}: " + ", ".join(f"Rank {rank}" for rank in ranks))
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
    embed = discord.Embed(title=title[:256], colour=MIXED if block.warnings else NEUTRAL)
    embed.add_field(name="Defense", value=str(block.defense))
    embed.add_field(name="Evasion", value=evasion_text(block))
    embed.add_field(name="Armor", value=armor_text(block))
    if monster is not None:
        embed.add_field(name="HP", value=hp_text(monster))
        embed.add_field(name="Facing", value=monster.facing)
    if block.spots:
        lines = _spot_lines(block, None if monster is None else monster.facing, show_hidden)
        # The field's name heads its value: only named spots need 'unarmored spots' above them.
        named = show_hidden or block.hidden_spots < len(block.spots)
        name = "Partial armor: unarmored spots" if named else "Partial armor"
        lines.append("Hits there meet only half Defense.")
        embed.add_field(name=name, value="\n".join(lines), inline=False)
    if block.enchantments:
        embed.add_field(name="Enchantments", value=_enchantment_text(block), inline=False)
    embed.add_field(name="Material drop", value=drop_text(block), inline=False)
    if block.notes:
        embed.add_field(name="Notes", value="\n".join(block.notes), inline=False)
    if block.warnings:
        embed.add_field(
            name="Warnings", value="\n".join(f"⚠️ {w}" for w in block.warnings), inline=False
        )
    if monster is None:
        embed.set_footer(text=BUILD_FOOTER)
    return embed


def monster_embed(
    monster: Monster, *, title: str | None = None, show_hidden: bool = False
) -> discord.Embed:
    return block_embed(
        monster.block, title=title or monster.name, monster=monster, show_hidden=show_hidden
    )


def roster_line(monster: Monster) -> str:
    block = monster.block
    parts = [
        f"**{monster.name}**",
        armor_text(block),
        f"Defense {block.defense}",
        f"facing {monster.facing}",
    ]
    if monster.hp is not None:
        parts.append(f"HP {hp_text(monster)}")
    return " · ".join(parts)


def roster_embed(monsters: Sequence[Monster]) -> discord.Embed:
    embed = discord.Embed(title="Monsters in this channel", colour=NEUTRAL)
    if not monsters:
        embed.description = "None yet: the GM adds them with `/monster create`."
    else:
        embed.description = "\n".join(roster_line(m) for m in monsters)[:4096]
    return embed


def confirm_remove_embed(monster: Monster) -> discord.Embed:
    hp = f"HP {hp_text(monster)} · " if monster.hp_max is not None else ""
    return discord.Embed(
        title=f"Remove {monster.name}?"[:256],
        description=f"{hp}facing {monster.facing}. `/undo` brings it back.",
        colour=discord.Colour(0x95A5A6),  # grey, as a character's removal
    )


def removed_embed(monster: Monster) -> discord.Embed:
    return discord.Embed(title=f"Removed {monster.name}"[:256], colour=NEUTRAL)


def hit_embed(hit: MonsterHit) -> discord.Embed:
    """What the attack dealt, the Defense it met (half on an unarmored spot), and HP left."""
    result, monster = hit.result, hit.monster
    if hit.already_defeated:
        return discord.Embed(
            title=f"{monster.name} is already defeated"[:256],
            description=f"HP {hp_text(monster)}: a further hit changes nothing "
            f"(it would have taken {result.taken}).",
            colour=FAILURE,
        )
    lines = []
    if hit.from_square is not None:
        where = f"From square {hit.from_square}: its {result.spot}"
        if result.unarmored_spot:
            hidden = "a hidden unarmored spot" if result.hidden_spot else "an unarmored spot"
            hard = f"; {HARD_TO_HIT}" if result.hard_to_hit else ""
            where += f", {hidden} (half Defense{hard})"
        lines.append(where)
    floor = " (at least 1)" if result.damage <= result.defense_applied else ""
    lines.append(
        f"Damage {result.damage} − Defense {result.defense_applied} → "
        f"**{result.taken} taken**{floor}"
    )
    if hit.hp_before is not None and monster.hp is not None:
        lines.append(f"HP {plain(hit.hp_before)} → {hp_text(monster)}")
    else:
        lines.append("HP not tracked")
    return discord.Embed(
        title=f"{monster.name} takes {result.taken}"[:256],
        description="\n".join(lines),
        colour=FAILURE if monster.down else NEUTRAL,
    )
