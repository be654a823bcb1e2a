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
    """'Set to 0 (Impervious)', 'modifier −2', or '12 (Agility 4, modifier −2)'."""
    if block.evasion_modifier is None:
        return "Set to 0 (Impervious)"
    modifier = format_modifier(block.evasion_modifier)
    if block.evasion is None:
        return f"modifier {modifier}"
    return f"{plain(block.evasion)} (Agility {plain(block.agility or 0)}, modifier {modifier})"


def hp_text(monster: Monster) -> str:
    if monster.hp is None or monster.hp_max is None:
        return "not tracked"
    text = f"{plain(monster.hp)} / {monster.hp_max}"
    return f"{text} — **down**" if monster.down else text


def drop_text(block: MonsterBlock) -> str:
    """'5 Materials (Heavy 3, +2 for enchantments)'."""
    how = f"{block.order.title()} {ORDERS[block.order]}"
    if block.enchantments:
        how += f", +{len(block.enchantments)} for enchantments"
    return f"{block.material_drop} Materials ({how})"


def _spot_lines(block: MonsterBlock, facing: str | None) -> list[str]:
    if facing is None:
        return [f"{spot} — {HARD_TO_HIT}" for spot in block.spots]
    squares = spot_squares(block, facing)
    return [f"{spot} (square {squares[spot]}) — {HARD_TO_HIT}" for spot in block.spots]


def block_embed(
    block: MonsterBlock, *, title: str, monster: Monster | None = None
) -> discord.Embed:
    """The stat block; with a bestiary monster, its HP, facing and where its spots are now."""
    embed = discord.Embed(title=title[:256], colour=MIXED if block.warnings else NEUTRAL)
    embed.add_field(name="Defense", value=str(block.defense))
    embed.add_field(name="Evasion", value=evasion_text(block))
    embed.add_field(name="Armor", value=armor_text(block))
    if monster is not None:
        embed.add_field(name="HP", value=hp_text(monster))
        embed.add_field(name="Facing", value=monster.facing)
    if block.spots:
        lines = _spot_lines(block, None if monster is None else monster.facing)
        lines.append("Hits there meet only half Defense.")
        embed.add_field(name="Partial armor: unarmored spots", value="\n".join(lines), inline=False)
    if block.enchantments:
        ranks = ", ".join(f"Rank {rank}" for rank in block.enchantments)
        embed.add_field(name="Enchantments", value=ranks, inline=False)
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


def monster_embed(monster: Monster, *, title: str | None = None) -> discord.Embed:
    return block_embed(monster.block, title=title or monster.name, monster=monster)


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
    lines = []
    if hit.hp_before is not None and hit.hp_before <= 0:  # still counted: overkill may matter
        lines.append(f"**Already down** before this hit (HP {plain(hit.hp_before)})")
    if hit.from_square is not None:
        where = f"From square {hit.from_square}: its {result.spot}"
        if result.unarmored_spot:
            where += f", an unarmored spot (half Defense; {HARD_TO_HIT})"
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
