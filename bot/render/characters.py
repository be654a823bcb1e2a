"""Character replies: the full sheet, the channel's roster, and removal."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import discord

from bot.render.common import MINUS, NEUTRAL, band_colour, plain, points, signed
from rules.fatigue import band_name, band_ranges, max_fp
from rules.gametime import game_time
from rules.saves import sr_bonus
from table.model import Character, Table
from table.sheet import format_classes

DESCRIPTION_MAX = 4096
TITLE_MAX = 256
REMOVED = discord.Colour(0x95A5A6)  # grey: gone
COMBINE_NAMES = {"single": "single class", "multi": "multiclass", "dual": "dualclass"}


def fl_text(fl: Fraction) -> str:
    """`20`, `20.5`, `61/3 (≈20.33)`: exact, as a decimal when it has a short one."""
    if fl.denominator == 1:
        return plain(fl.numerator)
    for places in (1, 2, 3):
        if (fl * 10**places).denominator == 1:  # a short decimal: the float prints it exactly
            return f"{float(fl):.{places}f}".replace("-", MINUS)
    return f"{fl.numerator}/{fl.denominator} (≈{float(fl):.2f})".replace("-", MINUS)


def save_bonus(character: Character, stat: int, kin: int, special: int = 0) -> tuple[int, str]:
    """(total, `Level 5 +25 · stat +10 · kin −5 · special +5`) for one save."""
    level = sr_bonus(character.level)
    text = f"Level {character.level} {signed(level)} · stat {signed(stat)} · kin {signed(kin)}"
    if special:
        text += f" · special {signed(special)}"
    return level + stat + kin + special, text


def _fatigue_inputs(character: Character) -> str:
    parts = []
    if character.classes:
        parts.append(
            f"Classes {format_classes(character.classes)} ({COMBINE_NAMES[character.combine]})"
        )
    else:
        parts.append("No classes")
    parts.append(f"Toughness {signed(character.toughness)}")
    if character.base_hd is not None:
        parts.append(f"Base HD {character.base_hd}")
    if character.kin_hd_size is not None:
        parts.append(f"Kin HD d{character.kin_hd_size}")
    return " · ".join(parts)


def _fl_line(character: Character) -> str:
    computed = character.computed_fl()
    if character.fl_override is not None:
        from_inputs = f" (from classes: {fl_text(computed)})" if computed is not None else ""
        return f"**{fl_text(character.fl_override)}**, set directly{from_inputs}"
    if computed is not None:
        return f"**{fl_text(computed)}**"
    return "none yet: give classes or a Fatigue Level with `/character set`"


def _fatigue_state(character: Character, fl: Fraction) -> str:
    state = character.fatigue
    lines = [f"FP **{state.fp}** / {max_fp(fl)} — **{band_name(state.fp, fl)}**"]
    if state.temp:
        lines.append(f"Temporary FP {state.temp} (until {game_time(state.temp_expires or 0)})")
    caps = [
        name
        for name, on in (("Exhausted", state.exhausted_cap), ("Shattered", state.shattered_cap))
        if on
    ]
    if caps:
        lines.append(f"Cap: {' and '.join(caps)} (FP can't drop below {state.floor(fl)})")
    if state.vp_damage:
        lines.append(
            f"VP damage from fatigue: {state.vp_damage} (apply it to Vitality; the GM clears "
            "the tally with `/fatigue clear_vp`)"
        )
    return "\n".join(lines)


def sheet_embed(character: Character, title: str | None = None) -> discord.Embed:
    """The whole sheet: level and owner, stats, save bonuses, Fatigue Level, bands and state."""
    fl = character.fl
    colour = band_colour(band_name(character.fatigue.fp, fl)) if fl is not None else NEUTRAL
    embed = discord.Embed(
        title=(title or character.name)[:TITLE_MAX],
        description=f"Level {character.level} · played by <@{character.owner_id}>",
        colour=colour,
    )
    embed.add_field(
        name="Stats",
        value=f"Fortitude {signed(character.fortitude)} · Wisdom {signed(character.wisdom)}\n"
        f"Kin TSR {signed(character.kin_tsr)} · Kin WSR {signed(character.kin_wsr)}\n"
        f"Special TSR {signed(character.special_tsr)} · "
        f"Special WSR {signed(character.special_wsr)}",
        inline=False,
    )
    for name, stat, kin, special in (
        ("TSR bonus", character.fortitude, character.kin_tsr, character.special_tsr),
        ("WSR bonus", character.wisdom, character.kin_wsr, character.special_wsr),
    ):
        total, pieces = save_bonus(character, stat, kin, special)
        embed.add_field(name=name, value=f"**{signed(total)}** ({pieces})", inline=False)
    embed.add_field(name="Fatigue Level", value=_fl_line(character), inline=False)
    embed.add_field(name="Fatigue inputs", value=_fatigue_inputs(character), inline=False)
    if fl is not None:
        bands = " · ".join(f"{n} {points(low, high)}" for n, low, high in band_ranges(fl))
        embed.add_field(name="Bands", value=bands, inline=False)
        embed.add_field(name="Fatigue", value=_fatigue_state(character, fl), inline=False)
    return embed


def roster_line(character: Character) -> str:
    fl = character.fl
    fatigue = f" · FL {fl_text(fl)}" if fl is not None else " · no FL"
    return f"**{character.name}** — level {character.level} · <@{character.owner_id}>{fatigue}"


def _fit_lines(lines: Sequence[str], limit: int = DESCRIPTION_MAX) -> str:
    """As many lines as fit in `limit`, then "…and N more" for the rest."""
    text = ""
    for index, line in enumerate(lines):
        left = len(lines) - index - 1
        tail = f"\n…and {left} more" if left else ""
        if len(text) + len(line) + 1 + len(tail) > limit:
            return text + f"\n…and {len(lines) - index} more"
        text += ("\n" if text else "") + line
    return text


def roster_embed(table: Table) -> discord.Embed:
    """Every character in the channel with owner and level."""
    count = len(table.characters)
    embed = discord.Embed(title=f"Characters here ({count})", colour=NEUTRAL)
    if not table.characters:
        embed.description = "None yet: make one with `/character create`."
    else:
        embed.description = _fit_lines([roster_line(c) for c in table.characters])
    return embed


def confirm_remove_embed(character: Character) -> discord.Embed:
    return discord.Embed(
        title=f"Remove {character.name}?"[:TITLE_MAX],
        description=f"Level {character.level} · played by <@{character.owner_id}>, "
        f"FP {character.fatigue.fp}. `/undo` brings it back.",
        colour=REMOVED,
    )


def removed_embed(character: Character) -> discord.Embed:
    return discord.Embed(title=f"Removed {character.name}"[:TITLE_MAX], colour=REMOVED)


def cancelled_embed(
    name: str, timed_out: bool = False, command: str = "/character remove"
) -> discord.Embed:
    """A removal prompt answered Cancel, or left past its minute (then: how to ask again)."""
    text = "Cancelled: nothing was removed."
    if timed_out:
        text = (
            f"No answer within a minute: nothing was removed. To remove it, run `{command}` again."
        )
    return discord.Embed(title=f"Kept {name}"[:TITLE_MAX], description=text)
