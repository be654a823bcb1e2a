"""Fatigue replies: one character's fatigue, a change with its working, the party board and the
game clock. Pure functions from `table.partyops` results and `table.model` values to embeds."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache

import discord

from lang import _, n_, words
from render.common import FIELD_MAX, TITLE_MAX, band_colour, fit_lines, fl_text, points
from rules.errors import RulesError
from rules.fatigue import BANDS, FatigueState, band_index, band_name, band_ranges, max_fp
from rules.gametime import game_time
from table.model import Character, Table
from table.partyops import CharacterChange, PartyReport

BAND_EMOJI: dict[str, str] = dict(zip(BANDS, ("🟢", "🟡", "🟠", "🔴", "🟣"), strict=True))
NO_BAND_EMOJI = "⚪"  # a character without a Fatigue Level
NO_BAND_COLOUR = discord.Colour.light_grey()
BAR_SEGMENTS = 10
FULL, EMPTY = "▰", "▱"
PAGE_SIZE = 10  # characters on one page of the party board (one field each, 25 at most)


# --- small pieces --------------------------------------------------------------------------


def duration(seconds: int) -> str:
    """`1 h 30 min`, `10 min`, `30 s`: a stretch of game time."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{hours} h" if hours else "", f"{minutes} min" if minutes else ""]
    parts.append(f"{secs} s" if secs or not (hours or minutes) else "")
    return " ".join(p for p in parts if p)


def clock_line(seconds: int, round_seconds: int, fight_round: int | None = None) -> str:
    """`Day 1, 08:15 (60 s rounds)`: the time of day; during a fight, with the fight's round
    (`Day 1, 08:15 · ⚔️ Round 2 (60 s rounds)`), the one round number a reply shows."""
    if fight_round is None:
        return _("{time} ({seconds} s rounds)", time=game_time(seconds), seconds=round_seconds)
    return _(
        "{time} · ⚔️ Round {round} ({seconds} s rounds)",
        time=game_time(seconds),
        round=fight_round,
        seconds=round_seconds,
    )


def fight_round(table: Table) -> int | None:
    """The round of the fight the table's initiative runs, if one does."""
    return table.initiative.round or None


def bar(fp: int, maximum: int) -> str:
    """`▰▰▰▱▱▱▱▱▱▱` for FP out of Maximum: full only at Maximum, empty only at 0."""
    if fp <= 0:
        filled = 0
    elif fp >= maximum:
        filled = BAR_SEGMENTS
    else:
        filled = min(BAR_SEGMENTS - 1, max(1, round(BAR_SEGMENTS * fp / maximum)))
    return FULL * filled + EMPTY * (BAR_SEGMENTS - filled)


def emoji(fp: int, fl: Fraction | None) -> str:
    return NO_BAND_EMOJI if fl is None else BAND_EMOJI[band_name(fp, fl)]


def fp_text(state: FatigueState, top: int) -> str:
    """`12/40 FP` against Maximum FP `top`."""
    if state.fp > top:
        return _("{fp}/{top} FP (over Maximum)", fp=state.fp, top=top)
    return f"{state.fp}/{top} FP"


def temp_text(state: FatigueState, clock: int) -> str | None:
    if not state.temp or state.temp_expires is None:
        return None
    when = game_time(state.temp_expires)
    if state.temp_expires <= clock:
        return _("{temp} Temporary FP (fading since {when})", temp=state.temp, when=when)
    return _("{temp} Temporary FP (until {when})", temp=state.temp, when=when)


def rested_text(state: FatigueState, clock: int) -> str | None:
    """A character who rested alone ahead of the clock: the clock passing up to then won't
    fade or convert their Temporary FP again."""
    if state.settled <= clock:
        return None
    return _("rested alone until {when}", when=game_time(state.settled))


def cap_text(state: FatigueState, fl: Fraction) -> str | None:
    """The cap that holds FP up, and its floor; Shattered's is the higher one."""
    if state.shattered_cap:
        return _("Shattered cap: FP ≥ {floor} until a Short Rest", floor=state.floor(fl))
    if state.exhausted_cap:
        return _("Exhausted cap: FP ≥ {floor} until a Break", floor=state.floor(fl))
    return None


def status_parts(state: FatigueState, fl: Fraction, clock: int) -> list[str]:
    """Everything about a fatigue state worth a line: FP, temp, cap, VP damage."""
    top = max_fp(fl)
    parts = [f"{bar(state.fp, top)} {fp_text(state, top)}"]
    extras = [temp_text(state, clock), cap_text(state, fl), rested_text(state, clock)]
    if state.vp_damage:
        extras.append(_("{vp} VP damage (to apply on the sheet)", vp=state.vp_damage))
    parts += [e for e in extras if e]
    return parts


def worst_colour(pairs: Sequence[tuple[int, Fraction | None]]) -> discord.Colour:
    """The colour of the worst band among (FP, FL) pairs; grey when nobody has a band."""
    bands = [band_index(fp, fl) for fp, fl in pairs if fl is not None]
    return band_colour(BANDS[max(bands)]) if bands else NO_BAND_COLOUR


# --- one character -------------------------------------------------------------------------


def character_embed(character: Character, clock: int, fight: int | None = None) -> discord.Embed:
    """`/fatigue show`: bar, band, FP, Temporary FP, cap, VP damage and the band ranges."""
    fl = character.require_fl()  # a clear error without one
    state = character.fatigue
    band = band_name(state.fp, fl)
    embed = discord.Embed(
        title=f"{BAND_EMOJI[band]} {character.name} — {_(band)}"[:TITLE_MAX],
        description="\n".join(status_parts(state, fl, clock)),
        colour=band_colour(band),
    )
    embed.add_field(name=_("Fatigue Level"), value=fl_text(fl))
    embed.add_field(name=_("Maximum FP"), value=str(max_fp(fl)))
    ranges = " · ".join(
        f"{BAND_EMOJI[name]} {_(name)} {points(low, high)}" for name, low, high in band_ranges(fl)
    )
    embed.add_field(name=_("Bands"), value=ranges, inline=False)
    embed.set_footer(text=clock_footer(clock, fight))
    return embed


def clock_footer(clock: int, fight: int | None = None) -> str:
    """`Game clock: Day 1, 08:15`; during a fight, with the fight's round."""
    if fight is None:
        return _("Game clock: {time}", time=game_time(clock))
    return _("Game clock: {time} · ⚔️ Round {round}", time=game_time(clock), round=fight)


def _shift(before: int, after: int) -> str:
    """`3 → 5`, or just `3` when it didn't move (as the Band field does)."""
    return str(after) if before == after else f"{before} → {after}"


def change_embed(
    title: str, change: CharacterChange, clock: int, fight: int | None = None
) -> discord.Embed:
    """One character's change: the events that explain it, then where they stand now."""
    fl = change.fl
    if fl is None:  # only a reset has none, and a reset is rendered by `report_embed`
        raise ValueError("a single change needs the character's Fatigue Level")
    before, after = change.before, change.after
    band_before, band_after = band_name(before.fp, fl), band_name(after.fp, fl)
    lines = [f"• {event.text}" for event in change.events] or ["• " + _("Nothing changed")]
    embed = discord.Embed(
        title=f"{BAND_EMOJI[band_after]} {title}"[:TITLE_MAX],
        description=fit_lines(lines),
        colour=band_colour(band_after),
    )
    moved = "" if before.fp == after.fp else f"{before.fp} → "  # "FP 0 → 0" says nothing
    embed.add_field(name="FP", value=f"{moved}**{after.fp}** / {max_fp(fl)}")
    shift = _(band_after) if band_before == band_after else f"{_(band_before)} → {_(band_after)}"
    embed.add_field(name=_("Band"), value=shift)
    if before.temp or after.temp:
        embed.add_field(name=_("Temporary FP"), value=_shift(before.temp, after.temp))
    if before.vp_damage or after.vp_damage:
        embed.add_field(name=_("VP damage"), value=_shift(before.vp_damage, after.vp_damage))
    embed.add_field(name=_("Now"), value="\n".join(status_parts(after, fl, clock)), inline=False)
    embed.set_footer(text=clock_footer(clock, fight))
    return embed


# --- the party -----------------------------------------------------------------------------


# The board is shown again and again with few characters changed in between: each line is
# kept by what it shows (a character is an immutable value, the clock an int) and language.
# What that saves `/party show`: docs/benchmarks.md, "The one kept render".
@lru_cache(maxsize=4096)
def board_field(character: Character, clock: int, language: object) -> tuple[str, str]:
    """A character's field on the board (name, value) in `language`, the current one
    (`lang.words()`: the cache's key, so each language keeps its own). At most 4,096 fields
    are kept, the least recently shown forgotten first."""
    state, fl = character.fatigue, character.fl
    if fl is None:
        return f"{NO_BAND_EMOJI} {character.name}", _("No Fatigue Level yet: `/character set`")
    band = band_name(state.fp, fl)  # once, for its emoji and its name
    name = f"{BAND_EMOJI[band]} {character.name} — {_(band)}"
    return name, "\n".join(status_parts(state, fl, clock))


def page_count(table: Table) -> int:
    return max(1, math.ceil(len(table.characters) / PAGE_SIZE))


def party_embed(table: Table, page: int = 1) -> discord.Embed:
    """The channel's board: a field per character, PAGE_SIZE to a page. The colour is the worst
    band in the whole party (one embed has one colour; each line has its band's emoji)."""
    pages = page_count(table)
    if not 1 <= page <= pages:
        raise RulesError(n_("The party board has {n} page", "The party board has {n} pages", pages))
    fs = table.settings
    # Each Fatigue Level worked out once, for the colour and for the character's line.
    with_fl = [(c, c.fl) for c in table.characters]
    embed = discord.Embed(
        title=_("Party fatigue"),
        colour=worst_colour([(c.fatigue.fp, fl) for c, fl in with_fl]),
    )
    if not table.characters:
        embed.description = _("No characters here yet: make one with `/character create`.")
    # The party first; those kept out of it (a familiar, an NPC) after it, marked so.
    board = sorted(table.characters, key=lambda c: not c.in_party)
    for character in board[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]:
        name, value = board_field(character, table.clock, words())
        if not character.in_party:
            name = _("{name} · not in the party", name=name)
        embed.add_field(name=name, value=value, inline=False)
    footer = clock_line(table.clock, fs.round_seconds, fight_round(table))
    if pages > 1:
        footer = _("Page {page}/{pages} · {footer}", page=page, pages=pages, footer=footer)
    embed.set_footer(text=footer)
    return embed


def _reset_text(change: CharacterChange) -> str:
    was = change.before
    if replace(was, settled=0) == FatigueState():
        return _("already fresh")
    parts = [f"FP {was.fp} → 0"] if was.fp else []  # "FP 0 → 0" says nothing
    if was.temp:
        parts.append(_("Temporary FP {temp} → 0", temp=was.temp))
    if was.exhausted_cap or was.shattered_cap:
        parts.append(_("caps cleared"))
    if was.vp_damage:
        parts.append(_("VP damage {vp} → 0", vp=was.vp_damage))
    return ", ".join(parts)


def report_line(change: CharacterChange, reset: bool = False) -> str:
    """`🟡 **Bree** FP 3 → 5 (+2); Now Fatigued (was Fresh) at 25 FP`."""
    mark = emoji(change.after.fp, change.fl)
    if reset:
        what = _reset_text(change)
    elif change.events:
        what = "; ".join(event.text for event in change.events)
    else:
        what = _("no change")
    return f"{mark} **{change.name}** {what}"


def report_embed(
    title: str,
    report: PartyReport,
    round_seconds: int,
    *,
    reset: bool = False,
    quiet: bool = False,
) -> discord.Embed:
    """A change to everyone: the clock if it moved, then a line per character. `quiet` leaves
    out characters nothing happened to (time passing touches only Temporary FP)."""
    lines: list[str] = []
    if report.seconds:
        lines.append(
            f"🕰️ {game_time(report.clock_before)} → **{game_time(report.clock_after)}** "
            f"(+{duration(report.seconds)})"
        )
    changes = [c for c in report.changes if not quiet or c.events]
    lines += [report_line(c, reset) for c in changes]
    if quiet and not changes:
        lines.append(_("No Temporary FP faded; nobody's fatigue changed."))
    if report.skipped:
        names = ", ".join(report.skipped)
        lines.append(_("⚪ No Fatigue Level, left alone: {names}", names=names))
    embed = discord.Embed(
        title=title[:TITLE_MAX],
        description=fit_lines(lines),
        colour=worst_colour([(c.after.fp, c.fl) for c in report.changes]),
    )
    embed.set_footer(text=clock_line(report.clock_after, round_seconds, report.fight_round))
    return embed


def clock_embed(table: Table) -> discord.Embed:
    """`/clock show`: the game clock and who has Temporary FP running."""
    embed = discord.Embed(
        title=f"🕰️ {game_time(table.clock)}",
        description=clock_line(table.clock, table.settings.round_seconds, fight_round(table)),
        colour=worst_colour([(c.fatigue.fp, c.fl) for c in table.characters]),
    )
    running = [
        f"{emoji(c.fatigue.fp, c.fl)} **{c.name}** {text}"
        for c in table.characters
        if (text := temp_text(c.fatigue, table.clock))
    ]
    if running:
        embed.add_field(name=_("Temporary FP"), value=fit_lines(running, FIELD_MAX), inline=False)
    ahead = [
        f"{emoji(c.fatigue.fp, c.fl)} **{c.name}** {text}"
        for c in table.characters
        if (text := rested_text(c.fatigue, table.clock))
    ]
    if ahead:  # the clock passing up to then changes nothing of theirs
        embed.add_field(
            name=_("Ahead of the clock"), value=fit_lines(ahead, FIELD_MAX), inline=False
        )
    return embed
