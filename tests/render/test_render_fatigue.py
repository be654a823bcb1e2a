"""render.fatigue: the clock format, the bar, one character, a change, the board, reports."""

from __future__ import annotations

import random
from fractions import Fraction

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from render import fatigue as render
from render.common import DESCRIPTION_MAX, band_colour
from rules.errors import RulesError
from rules.fatigue import FatigueState
from table import partyops
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


def test_character_embed_shows_band_fp_temp_cap_and_vp() -> None:
    bree = character("Bree", fp=65, temp=3, temp_expires=600, exhausted_cap=True, vp_damage=2)
    embed = render.character_embed(bree, clock=60)
    text = embed_text(embed)
    assert embed.title == "🔴 Bree — Exhausted"
    assert embed.colour == band_colour("Exhausted")
    assert "65/100 FP" in text
    assert "3 Temporary FP (until Day 1, 00:10)" in text
    assert "Exhausted cap: FP ≥ 61" in text
    assert "2 VP damage" in text
    assert "Fresh 0–20" in text and "Shattered 81–100" in text
    assert "20.5" in text


def test_character_embed_says_when_temporary_fp_is_fading() -> None:
    text = embed_text(render.character_embed(character("Bree", temp=2, temp_expires=60), 120))
    assert "fading since Day 1, 00:01" in text


def test_character_without_a_fatigue_level() -> None:
    with pytest.raises(RulesError, match="/character set"):
        render.character_embed(character("Nobody", fl=None), 0)


def test_change_embed_lists_the_events_and_before_after() -> None:
    t = table(character("Bree", fp=55, temp=2, temp_expires=600))
    _, change = partyops.spend(t, "Bree", 12)  # 2 absorbed, 55 → 65: into Exhausted
    embed = render.change_embed("Bree spends 12 FP", change, clock=0)
    text = embed_text(embed)
    assert embed.colour == band_colour("Exhausted")
    assert "FP: 55 → **65** / 100" in text
    assert "Band: Tired → Exhausted" in text
    assert "Temporary FP: 2 → 0" in text
    for event in change.events:
        assert event.text in text
    assert any("61" in e.text for e in change.events if e.kind == "cap_set")


def test_change_embed_shows_an_unchanged_count_once() -> None:
    # A rest that leaves VP damage as it was: "VP damage: 1", never "1 → 1".
    t = table(character("Bree", fp=30, vp_damage=1))
    _, change = partyops.recover(t, "Bree", 5)
    text = embed_text(render.change_embed("Bree recovers", change, clock=0))
    assert "VP damage: 1" in text.splitlines()
    assert "1 → 1" not in text


# --- the party board -----------------------------------------------------------------------


def test_board_colour_is_the_worst_band_and_each_line_has_its_emoji() -> None:
    t = table(
        character("Amy", fp=5),
        character("Bree", fp=45),
        character("Cid", fp=25),
        character("Nobody", fl=None),
    )
    embed = render.party_embed(t)
    names = [f.name for f in embed.fields]
    assert names == ["🟢 Amy — Fresh", "🟠 Bree — Tired", "🟡 Cid — Fatigued", "⚪ Nobody"]
    assert embed.colour == band_colour("Tired")
    assert "▰▰▰▰▱▱▱▱▱▱ 45/100 FP" in field_value(embed, 1)
    assert "/character set" in field_value(embed, 3)


def test_board_over_maximum_is_shattered_and_says_so() -> None:
    embed = render.party_embed(table(character("Bree", fp=104, shattered_cap=True, vp_damage=1)))
    assert embed.fields[0].name == "🟣 Bree — Shattered"
    assert "104/100 FP (over Maximum)" in field_value(embed, 0)
    assert "Shattered cap: FP ≥ 81" in field_value(embed, 0)


def test_board_pages() -> None:
    t = table(*(character(f"Hero {i:02}") for i in range(23)))
    first, third = render.party_embed(t, 1), render.party_embed(t, 3)
    assert len(first.fields) == render.PAGE_SIZE
    assert [f.name for f in third.fields] == [
        "🟢 Hero 20 — Fresh",
        "🟢 Hero 21 — Fresh",
        "🟢 Hero 22 — Fresh",
    ]
    assert third.footer.text is not None and third.footer.text.startswith("Page 3/3")
    with pytest.raises(RulesError, match="3 pages"):
        render.party_embed(t, 4)


def test_empty_board() -> None:
    embed = render.party_embed(table())
    assert "/character create" in (embed.description or "")
    assert not embed.fields


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
