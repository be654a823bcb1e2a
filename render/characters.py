"""Character replies: the full sheet, the channel's roster, and removal."""

from __future__ import annotations

from fractions import Fraction

import discord

from lang import N_, _
from render.common import NEUTRAL, TITLE_MAX, band_colour, fit_lines, fl_text, points
from rules.fatigue import band_name, band_ranges, max_fp
from rules.gametime import game_time
from rules.saves import sr_bonus
from rules.text import signed
from table.model import Character, Table
from table.sheet import format_classes

REMOVED = discord.Colour(0x95A5A6)  # grey: gone
COMBINE_NAMES = {
    "single": N_("single class"),
    "multi": N_("multiclass"),
    "dual": N_("dualclass"),
}


def save_bonus(character: Character, stat: int, kin: int, special: int = 0) -> tuple[int, str]:
    """(total, `Level 5 +25 · stat +10 · kin −5 · special +5`) for one save."""
    level = sr_bonus(character.level)
    text = _(
        "Level {level} {level_bonus} · stat {stat} · kin {kin}",
        level=character.level,
        level_bonus=signed(level),
        stat=signed(stat),
        kin=signed(kin),
    )
    if special:
        text += _(" · special {special}", special=signed(special))
    return level + stat + kin + special, text


def _fatigue_inputs(character: Character) -> str:
    parts = []
    if character.classes:
        parts.append(
            _(
                "Classes {classes} ({combine})",
                classes=format_classes(character.classes),
                combine=_(COMBINE_NAMES[character.combine]),
            )
        )
    else:
        parts.append(_("No classes"))
    parts.append(_("Toughness {toughness}", toughness=signed(character.toughness)))
    if character.base_hd is not None:
        parts.append(_("Base HD {hd}", hd=character.base_hd))
    if character.kin_hd_size is not None:
        parts.append(_("Kin HD d{size}", size=character.kin_hd_size))
    return " · ".join(parts)


def _fl_line(character: Character) -> str:
    computed = character.computed_fl()
    if character.fl_override is not None:
        shown = fl_text(character.fl_override)
        if computed is None:
            return _("**{fl}**, set directly", fl=shown)
        return _(
            "**{fl}**, set directly (from classes: {computed})",
            fl=shown,
            computed=fl_text(computed),
        )
    if computed is not None:
        return f"**{fl_text(computed)}**"
    return _("none yet: give classes or a Fatigue Level with `/character set`")


def _fatigue_state(character: Character, fl: Fraction) -> str:
    state = character.fatigue
    lines = [f"FP **{state.fp}** / {max_fp(fl)} — **{_(band_name(state.fp, fl))}**"]
    if state.temp:
        until = game_time(state.temp_expires or 0)
        lines.append(_("Temporary FP {temp} (until {when})", temp=state.temp, when=until))
    caps = [
        _(name)
        for name, on in (
            (N_("Exhausted"), state.exhausted_cap),
            (N_("Shattered"), state.shattered_cap),
        )
        if on
    ]
    if caps:
        lines.append(
            _(
                "Cap: {caps} (FP can't drop below {floor})",
                caps=_(" and ").join(caps),
                floor=state.floor(fl),
            )
        )
    if state.vp_damage:
        lines.append(
            _(
                "VP damage from fatigue: {vp} (apply it to Vitality; the GM clears "
                "the tally with `/fatigue clear_vp`)",
                vp=state.vp_damage,
            )
        )
    return "\n".join(lines)


def _played_by(character: Character) -> str:
    return _(
        "Level {level} · played by <@{owner}>", level=character.level, owner=character.owner_id
    )


def _table_notes(character: Character) -> list[str]:
    """What the sheet says of the character at the table: its initiative bonus, and being
    kept out of the party."""
    notes = []
    if character.init_bonus:
        notes.append(_("Initiative bonus {bonus}", bonus=signed(character.init_bonus)))
    if not character.in_party:
        notes.append(_("Not in the party: party-wide commands leave it out"))
    return notes


def sheet_embed(character: Character, title: str | None = None) -> discord.Embed:
    """The whole sheet: level and owner, stats, save bonuses, Fatigue Level, bands and state."""
    fl = character.fl
    colour = band_colour(band_name(character.fatigue.fp, fl)) if fl is not None else NEUTRAL
    embed = discord.Embed(
        title=(title or character.name)[:TITLE_MAX],
        description="\n".join([_played_by(character), *_table_notes(character)]),
        colour=colour,
    )
    embed.add_field(
        name=_("Stats"),
        value=_(
            "Fortitude {fortitude} · Wisdom {wisdom}\n"
            "Kin TSR {kin_tsr} · Kin WSR {kin_wsr}\n"
            "Special TSR {special_tsr} · Special WSR {special_wsr}",
            fortitude=signed(character.fortitude),
            wisdom=signed(character.wisdom),
            kin_tsr=signed(character.kin_tsr),
            kin_wsr=signed(character.kin_wsr),
            special_tsr=signed(character.special_tsr),
            special_wsr=signed(character.special_wsr),
        ),
        inline=False,
    )
    for name, stat, kin, special in (
        (N_("TSR bonus"), character.fortitude, character.kin_tsr, character.special_tsr),
        (N_("WSR bonus"), character.wisdom, character.kin_wsr, character.special_wsr),
    ):
        total, pieces = save_bonus(character, stat, kin, special)
        embed.add_field(name=_(name), value=f"**{signed(total)}** ({pieces})", inline=False)
    embed.add_field(name=_("Fatigue Level"), value=_fl_line(character), inline=False)
    embed.add_field(name=_("Fatigue inputs"), value=_fatigue_inputs(character), inline=False)
    if fl is not None:
        bands = " · ".join(f"{_(n)} {points(low, high)}" for n, low, high in band_ranges(fl))
        embed.add_field(name=_("Bands"), value=bands, inline=False)
        embed.add_field(name=_("Fatigue"), value=_fatigue_state(character, fl), inline=False)
    return embed


def roster_line(character: Character) -> str:
    fl = character.fl
    fatigue = f" · FL {fl_text(fl)}" if fl is not None else _(" · no FL")
    if not character.in_party:
        fatigue += " · " + _("not in the party")
    return _(
        "**{name}** — level {level} · <@{owner}>{fatigue}",
        name=character.name,
        level=character.level,
        owner=character.owner_id,
        fatigue=fatigue,
    )


def roster_embed(table: Table) -> discord.Embed:
    """Every character in the channel with owner and level."""
    count = len(table.characters)
    embed = discord.Embed(title=_("Characters here ({count})", count=count), colour=NEUTRAL)
    if not table.characters:
        embed.description = _("None yet: make one with `/character create`.")
    else:
        embed.description = fit_lines([roster_line(c) for c in table.characters])
    return embed


def confirm_remove_embed(character: Character) -> discord.Embed:
    return discord.Embed(
        title=_("Remove {name}?", name=character.name)[:TITLE_MAX],
        description=_(
            "{played_by}, FP {fp}. `/undo` brings it back.",
            played_by=_played_by(character),
            fp=character.fatigue.fp,
        ),
        colour=REMOVED,
    )


def removed_embed(character: Character) -> discord.Embed:
    return discord.Embed(title=_("Removed {name}", name=character.name)[:TITLE_MAX], colour=REMOVED)
