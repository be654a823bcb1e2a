"""Cards: what `/party show`, `/fatigue show`, `/init show` and `/monster show` say as Components
V2 messages (one coloured container, a section per character or combatant with its line of
state). Pure values here; `cogs._cards` lays them out with their buttons.

A page holds at most PAGE_SIZE entries of at most ENTRY_MAX characters, so a card stays within
what Discord takes in one message (40 components, 4,000 characters of text) with its buttons
and a picture: a party of 200 characters, a fight of 25, are pages of one card.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import discord
from discord.utils import escape_markdown

from lang import _, n_, words
from render.common import NEUTRAL, band_colour, fl_text, points
from render.fatigue import (
    BAND_EMOJI,
    board_field,
    clock_footer,
    clock_line,
    fight_round,
    status_parts,
    worst_colour,
)
from render.initiative import DEFEATED_ICON, KIND_ICON, TITLE, TURN, status
from render.monsters import monster_embed
from rules.errors import RulesError
from rules.fatigue import band_name, band_ranges, max_fp
from rules.gametime import game_time
from rules.text import plain
from table.combat import Combatant
from table.initiative import defeated
from table.model import Character, Monster, Table
from table.monster import DEFEATED
from table.sight import Sight

PAGE_SIZE = 10  # entries on a page: 3 components each (section, text, button) of Discord's 40
ENTRY_MAX = 360  # characters of one entry's text: ten of them and a heading within 4,000
HEADING_MAX = 300
MORE = "…"
FIGHT = discord.Colour(0xE74C3C)  # a monster's turn


@dataclass(frozen=True)
class Entry:
    """One character or combatant: its `name` (what its button acts on), its lines of state,
    and whether it has the one action a section's button does (a character with a Fatigue
    Level: Spend 1)."""

    name: str
    text: str
    acts: bool = False


@dataclass(frozen=True)
class Card:
    """A card's words: its colour, heading (title, then a small line of clock and page), one
    entry per character or combatant, and notes under them."""

    colour: discord.Colour
    heading: str
    entries: tuple[Entry, ...] = ()
    notes: str = ""
    page: int = 1
    pages: int = 1


def clipped(text: str, most: int = ENTRY_MAX) -> str:
    return text if len(text) <= most else text[: most - len(MORE)] + MORE


def heading(title: str, small: str = "") -> str:
    """`### Party fatigue` with a line of small text under it (`-# Day 1, 08:15`)."""
    shown = f"### {title}" + (f"\n-# {small}" if small else "")
    return clipped(shown, HEADING_MAX)


def pages_of(count: int) -> int:
    return max(1, math.ceil(count / PAGE_SIZE))


def _page(count: int, page: int, party: bool) -> int:
    """How many pages `count` entries fill; a page past them is refused, saying so."""
    pages = pages_of(count)
    if 1 <= page <= pages:
        return pages
    if party:
        raise RulesError(n_("The party board has {n} page", "The party board has {n} pages", pages))
    raise RulesError(n_("The turn order has {n} page", "The turn order has {n} pages", pages))


def _paged(small: str, page: int, pages: int) -> str:
    if pages == 1:
        return small
    return _("Page {page}/{pages} · {footer}", page=page, pages=pages, footer=small)


# --- the party ----------------------------------------------------------------------------


def party_entry(character: Character, clock: int) -> Entry:
    """A character's name, band and bar, then Temporary FP, caps, VP damage, each a line."""
    name, value = board_field(character, clock, words())
    if not character.in_party:
        name = _("{name} · not in the party", name=name)
    return Entry(character.name, clipped(f"**{name}**\n{value}"), character.fl is not None)


def party_card(table: Table, page: int = 1) -> Card:
    """`/party show`: the party first, those kept out of it after; the colour is the worst
    band of the whole party (each line has its band's emoji)."""
    pages = _page(len(table.characters), page, party=True)
    board = sorted(table.characters, key=lambda c: not c.in_party)
    shown = board[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    small = clock_line(table.clock, table.settings.round_seconds, fight_round(table))
    notes = (
        "" if table.characters else _("No characters here yet: make one with `/character create`.")
    )
    return Card(
        colour=worst_colour([(c.fatigue.fp, c.fl) for c in table.characters]),
        heading=heading(_("Party fatigue"), _paged(small, page, pages)),
        entries=tuple(party_entry(c, table.clock) for c in shown),
        notes=notes,
        page=page,
        pages=pages,
    )


def character_card(character: Character, clock: int, fight: int | None = None) -> Card:
    """`/fatigue show`: the bar, FP, Temporary FP, cap and VP damage beside Spend 1, then the
    Fatigue Level, Maximum FP and the bands' ranges."""
    fl = character.require_fl()  # a clear error without one
    state = character.fatigue
    band = band_name(state.fp, fl)
    title = f"{BAND_EMOJI[band]} {escape_markdown(character.name)} — {_(band)}"
    ranges = " · ".join(
        f"{BAND_EMOJI[name]} {_(name)} {points(low, high)}" for name, low, high in band_ranges(fl)
    )
    facts = _("Fatigue Level {fl} · Maximum FP {top}", fl=fl_text(fl), top=max_fp(fl))
    return Card(
        colour=band_colour(band),
        heading=heading(title, clock_footer(clock, fight)),
        entries=(Entry(character.name, clipped("\n".join(status_parts(state, fl, clock))), True),),
        notes=clipped(f"{facts}\n{ranges}"),
    )


# --- the fight ----------------------------------------------------------------------------


def combatant_entry(table: Table, combatant: Combatant, turn: bool) -> Entry:
    """`▶️ 🧑 **Aria** · 15 · 🟡 32/100 FP`: whose turn, the score, and the state the players
    may see (a character's fatigue, how hurt a monster looks); a defeated monster struck
    through. A character with a Fatigue Level has Spend 1 beside it."""
    name = escape_markdown(combatant.name)
    mark = TURN if turn else "⠀ "
    shown = f"**{name}**" if turn else name
    if defeated(table, combatant):
        text = f"{mark} {DEFEATED_ICON} ~~{shown}~~ · {plain(combatant.score)} · {_(DEFEATED)}"
        return Entry(combatant.name, clipped(text))
    parts = [f"{mark} {KIND_ICON[combatant.kind]} {shown}", plain(combatant.score)]
    character = table.find(combatant.name) if combatant.kind == "character" else None
    monster = table.find_monster(combatant.name) if combatant.kind == "monster" else None
    if character is not None and character.fl is not None:
        fp, top = character.fatigue.fp, max_fp(character.fl)
        parts.append(f"{BAND_EMOJI[band_name(fp, character.fl)]} {fp}/{top} FP")
    if monster is not None and monster.wounds is not None:
        parts.append(_(monster.wounds))
    acts = character is not None and character.fl is not None
    return Entry(combatant.name, clipped(" · ".join(parts)), acts)


def order_card(table: Table, page: int = 1) -> Card:
    """`/init show`: whose turn and the round, then the order, highest score first. The
    colour is whose turn it is: a character's band, a monster's red."""
    order = table.initiative
    pages = _page(len(order.combatants), page, party=False)
    small = _paged(f"🕰️ {game_time(table.clock)}", page, pages)
    if not order.combatants:
        empty = _("Nobody is in the initiative. Add them with `/init add name:… score:…`.")
        return Card(NEUTRAL, heading(_(TITLE), small), notes=empty)
    current = order.current
    shown = order.combatants[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    return Card(
        colour=turn_colour(table, current),
        heading=heading(f"{_(TITLE)} · {status(order)}", small),
        entries=tuple(combatant_entry(table, c, c == current) for c in shown),
        page=page,
        pages=pages,
    )


def turn_colour(table: Table, current: Combatant | None) -> discord.Colour:
    if current is None:
        return NEUTRAL
    if current.kind == "monster":
        return FIGHT
    character = table.find(current.name) if current.kind == "character" else None
    if character is None or character.fl is None:
        return NEUTRAL
    return band_colour(band_name(character.fatigue.fp, character.fl))


# --- a monster ----------------------------------------------------------------------------


def monster_card(monster: Monster, sight: Sight) -> Card:
    """`/monster show`: the stat block as this reader may see it (`monster_embed`'s words),
    beside its Picture button."""
    embed = monster_embed(monster, sight=sight)
    lines = [embed.description or ""] if embed.description else []
    lines += [f"**{field.name}**: {field.value}" for field in embed.fields]
    small = embed.footer.text or ""
    colour = embed.colour if isinstance(embed.colour, discord.Colour) else NEUTRAL
    text = clipped("\n".join(lines), 3000)
    return Card(
        colour=colour,
        heading=heading(f"👹 {escape_markdown(monster.name)}", small),
        entries=(Entry(monster.name, text, True),),
    )
