"""render.fatigue and render.cards: the clock format, the bar, a character's card, a change in
three lines, the party's card, reports."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from render import cards
from render import fatigue as render
from render.common import DESCRIPTION_MAX, NEUTRAL, band_colour
from rules.errors import RulesError
from rules.fatigue import FatigueState
from table import partyops
from table.combat import Combatant, Initiative
from table.model import ChannelSettings, Character, Table

OGRE_FL = Fraction(41, 2)  # bands of 20, Maximum FP 100


def character(name: str, fl: Fraction | None = OGRE_FL, **fatigue: object) -> Character:
    return Character(name, 7, fl_override=fl, fatigue=FatigueState(**fatigue))  # type: ignore[arg-type]


def table(*characters: Character, clock: int = 0, round_seconds: int = 60) -> Table:
    settings = ChannelSettings(round_seconds=round_seconds)
    return Table(1, 2, clock=clock, settings=settings, characters=characters)


def embed_text(embed: object) -> str:
    data = embed.to_dict()  # type: ignore[attr-defined]
    parts = [data.get("title", ""), data.get("description", "")]
    parts += [f"{f['name']}: {f['value']}" for f in data.get("fields", [])]
    parts.append(data.get("footer", {}).get("text", ""))
    return "\n".join(parts)


def field_value(embed: discord.Embed, index: int) -> str:
    value = embed.fields[index].value
    assert value is not None, f"field {index} has no value"
    return value


# --- small pieces --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (0, "Day 1, 00:00"),
        (8 * 3600 + 15 * 60, "Day 1, 08:15"),
        (24 * 3600, "Day 2, 00:00"),
        (2 * 86400 + 23 * 3600 + 59 * 60 + 6, "Day 3, 23:59:06"),
    ],
)
def test_game_time(seconds: int, shown: str) -> None:
    assert render.game_time(seconds) == shown


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [(30, "30 s"), (600, "10 min"), (5400, "1 h 30 min"), (3606, "1 h 6 s"), (0, "0 s")],
)
def test_duration(seconds: int, shown: str) -> None:
    assert render.duration(seconds) == shown


def test_clock_line_shows_the_time_of_day_and_only_a_fights_round() -> None:
    assert render.clock_line(0, 60) == "Day 1, 00:00 (60 s rounds)"
    assert render.clock_line(125, 60) == "Day 1, 00:02:05 (60 s rounds)"
    # during a fight, the fight's round: the one round number a reply shows
    assert render.clock_line(31_800, 6, 2) == "Day 1, 08:50 · ⚔️ Round 2 (6 s rounds)"
    assert render.clock_footer(60, 3) == "Game clock: Day 1, 00:01 · ⚔️ Round 3"


def test_a_character_ahead_of_the_clock_says_until_when_it_rested() -> None:
    state = FatigueState(fp=5, settled=600)
    assert "rested alone until Day 1, 00:10" in render.status_parts(state, Fraction(20), 60)
    assert not any("rested" in p for p in render.status_parts(state, Fraction(20), 600))


@pytest.mark.parametrize(
    ("fp", "filled"), [(0, 0), (1, 1), (30, 3), (50, 5), (99, 9), (100, 10), (140, 10)]
)
def test_bar_scales_to_maximum(fp: int, filled: int) -> None:
    assert render.bar(fp, 100) == "▰" * filled + "▱" * (10 - filled)


@given(st.integers(0, 2**32))
def test_bar_is_full_only_at_maximum_and_empty_only_at_zero(seed: int) -> None:
    rng = random.Random(seed)
    maximum = rng.randint(5, 500)
    fp = rng.randint(0, 2 * maximum)
    shown = render.bar(fp, maximum)
    assert len(shown) == render.BAR_SEGMENTS
    assert (shown.count("▰") == render.BAR_SEGMENTS) == (fp >= maximum)
    assert (shown.count("▰") == 0) == (fp == 0)


# --- one character -------------------------------------------------------------------------


def card_text(card: cards.Card) -> str:
    return "\n".join([card.heading, *(e.text for e in card.entries), card.notes])


def test_a_characters_card_shows_band_fp_temp_cap_and_vp() -> None:
    bree = character("Bree", fp=65, temp=3, temp_expires=600, exhausted_cap=True, vp_damage=2)
    card = cards.character_card(bree, clock=60)
    text = card_text(card)
    assert card.heading.startswith("### 🔴 Bree — Exhausted\n-# Game clock: Day 1, 00:01")
    assert card.colour == band_colour("Exhausted")
    (entry,) = card.entries
    assert entry.acts and entry.name == "Bree"  # Spend 1 beside it
    assert "65/100 FP" in entry.text
    assert "3 Temporary FP (until Day 1, 00:10)" in entry.text
    assert "Exhausted cap: FP ≥ 61" in entry.text
    assert "2 VP damage" in entry.text
    assert "Fresh 0–20" in text and "Shattered 81–100" in text
    assert "Fatigue Level 20.5 · Maximum FP 100" in card.notes


def test_a_characters_card_says_when_temporary_fp_is_fading() -> None:
    card = cards.character_card(character("Bree", temp=2, temp_expires=60), 120)
    assert "fading since Day 1, 00:01" in card_text(card)


def test_character_without_a_fatigue_level() -> None:
    with pytest.raises(RulesError, match="/character set"):
        cards.character_card(character("Nobody", fl=None), 0)


def lines(embed: discord.Embed) -> list[str]:
    return [embed.title or "", *(embed.description or "").splitlines()]


def test_a_spend_is_three_lines_who_fp_with_the_band_and_the_cap_it_set() -> None:
    t = table(character("Bree", fp=55, temp=2, temp_expires=600))
    _, change = partyops.spend(t, "Bree", 12)  # 2 absorbed, 55 → 65: into Exhausted
    embed = render.change_embed("Bree spends 12 FP", change, clock=0)
    assert embed.colour == band_colour("Exhausted")
    assert lines(embed) == [
        "🔴 Bree spends 12 FP",
        "FP 55 → **65** / 100 · Tired → Exhausted · Temporary FP 2 → 0",
        "Exhausted cap: FP ≥ 61 until a Break",
    ]
    assert not embed.fields


def test_a_spend_with_nothing_more_to_say_is_two_lines() -> None:
    _, change = partyops.spend(table(character("Bree", fp=5)), "Bree", 1)
    assert lines(render.change_embed("Bree spends 1 FP", change, 0)) == [
        "🟢 Bree spends 1 FP",
        "FP 5 → **6** / 100 · Fresh",
    ]


def test_a_spend_over_maximum_says_the_vp_damage() -> None:
    t = table(character("Bree", fp=100, shattered_cap=True, exhausted_cap=True, vp_damage=1))
    _, change = partyops.spend(t, "Bree", 3)
    assert lines(render.change_embed("Bree spends 3 FP", change, 0))[2:] == [
        "+1 VP damage (2 to apply on the sheet)"
    ]


def test_a_recovery_the_cap_holds_says_the_cap() -> None:
    t = table(character("Bree", fp=62, exhausted_cap=True))
    _, change = partyops.recover(t, "Bree", 5)  # 62 → 61: the cap's floor
    assert lines(render.change_embed("Bree recovers", change, clock=0)) == [
        "🔴 Bree recovers",
        "FP 62 → **61** / 100 · Exhausted",
        "Exhausted cap: FP ≥ 61 until a Break",
    ]


# --- the party's card ----------------------------------------------------------------------


def test_the_party_card_is_in_the_worst_bands_colour_and_each_line_has_its_emoji() -> None:
    t = table(
        character("Amy", fp=5),
        character("Bree", fp=45),
        character("Cid", fp=25),
        character("Nobody", fl=None),
    )
    card = cards.party_card(t)
    heads = [e.text.splitlines()[0] for e in card.entries]
    assert heads == [
        "**🟢 Amy — Fresh**",
        "**🟠 Bree — Tired**",
        "**🟡 Cid — Fatigued**",
        "**⚪ Nobody**",
    ]
    assert [e.acts for e in card.entries] == [True, True, True, False]  # Spend 1 needs an FL
    assert card.colour == band_colour("Tired")
    assert "▰▰▰▰▱▱▱▱▱▱ 45/100 FP" in card.entries[1].text
    assert "/character set" in card.entries[3].text


def test_the_party_card_over_maximum_is_shattered_and_says_so() -> None:
    card = cards.party_card(table(character("Bree", fp=104, shattered_cap=True, vp_damage=1)))
    (entry,) = card.entries
    assert entry.text.startswith("**🟣 Bree — Shattered**")
    assert "104/100 FP (over Maximum)" in entry.text
    assert "Shattered cap: FP ≥ 81" in entry.text


def test_the_party_card_pages() -> None:
    t = table(*(character(f"Hero {i:02}") for i in range(23)))
    first, third = cards.party_card(t, 1), cards.party_card(t, 3)
    assert len(first.entries) == cards.PAGE_SIZE and (first.page, first.pages) == (1, 3)
    assert [e.name for e in third.entries] == ["Hero 20", "Hero 21", "Hero 22"]
    assert "-# Page 3/3 · Day 1, 00:00" in third.heading
    with pytest.raises(RulesError, match="3 pages"):
        cards.party_card(t, 4)


def test_an_empty_party_card() -> None:
    card = cards.party_card(table())
    assert "/character create" in card.notes
    assert not card.entries


def test_an_entry_never_passes_its_share_of_a_cards_characters() -> None:
    long = character("A" * 40, fp=104, temp=99, temp_expires=10**6, shattered_cap=True)
    text = cards.party_entry(long, 0).text
    assert len(text) <= cards.ENTRY_MAX
    assert cards.clipped("x" * 500).endswith("…") and len(cards.clipped("x" * 500)) == 360


# --- reports -------------------------------------------------------------------------------


def test_clock_report_lists_only_characters_something_happened_to() -> None:
    t = table(character("Bree", fp=10, temp=5, temp_expires=0), character("Odo", fp=3))
    _, report = partyops.pass_rounds(t, 2)
    embed = render.report_embed("2 rounds pass", report, 60, quiet=True)
    text = embed_text(embed)
    assert "Day 1, 00:00 → **Day 1, 00:02** (+2 min)" in text
    assert "**Bree**" in text and "**Odo**" not in text
    _, calm = partyops.pass_rounds(table(character("Odo")), 1)
    assert "nobody's fatigue changed" in embed_text(render.report_embed("x", calm, 60, quiet=True))


def test_reset_report_says_what_was_cleared() -> None:
    t = table(
        character("Bree", fp=70, temp=1, temp_expires=5, exhausted_cap=True, vp_damage=3),
        character("Odo"),
    )
    _, report = partyops.party_reset(t)
    text = embed_text(render.report_embed("Reset", report, 60, reset=True))
    assert "**Bree** FP 70 → 0, Temporary FP 1 → 0, caps cleared, VP damage 3 → 0" in text
    assert "**Odo** already fresh" in text


def test_reset_report_leaves_out_an_fp_that_was_already_zero() -> None:
    t = table(character("Bree", temp=4, temp_expires=600, vp_damage=1))
    _, report = partyops.party_reset(t)
    text = embed_text(render.report_embed("Reset", report, 60, reset=True))
    assert "**Bree** Temporary FP 4 → 0, VP damage 1 → 0" in text
    assert "FP 0 → 0" not in text


def test_report_names_the_skipped() -> None:
    _, report = partyops.party_spend(table(character("Bree"), character("Nobody", fl=None)), 1)
    assert "left alone: Nobody" in embed_text(render.report_embed("Spend", report, 60))


def test_a_long_report_stays_inside_discord_limits() -> None:
    t = table(*(character(f"A very long hero name number {i:03}", fp=60) for i in range(60)))
    _, report = partyops.party_spend(t, 30)
    embed = render.report_embed("Spend", report, 60)
    assert len(embed.description or "") <= DESCRIPTION_MAX
    assert (embed.description or "").endswith("more")


def test_clock_embed_lists_running_temporary_fp() -> None:
    t = table(character("Bree", temp=2, temp_expires=900), character("Odo"), clock=300)
    embed = render.clock_embed(t)
    assert embed.title == "🕰️ Day 1, 00:05"
    assert [f.name for f in embed.fields] == ["Temporary FP"]
    assert "Bree" in field_value(embed, 0) and "until Day 1, 00:15" in field_value(embed, 0)
    assert "Odo" not in field_value(embed, 0)


def test_the_fight_card_is_in_the_colour_of_whose_turn_it_is() -> None:
    t = table(character("Aria", fp=45), character("Nobody", fl=None))
    order = (
        Combatant("Aria", 20, 0, "character", 7),
        Combatant("Goblin", 15, 1, "monster"),
        Combatant("Nobody", 10, 2, "character", 7),
    )
    colours = [
        cards.order_card(replace(t, initiative=Initiative(order, round=1, turn=turn))).colour
        for turn in range(3)
    ]
    assert colours == [band_colour("Tired"), cards.FIGHT, NEUTRAL]  # a monster's turn: red
    assert cards.order_card(replace(t, initiative=Initiative(order))).colour == NEUTRAL
