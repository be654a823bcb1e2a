"""Character sheets and settings from command options (table.sheet), and their replies."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from render.characters import roster_embed, sheet_embed
from render.common import fl_text
from render.settings import settings_embed
from rules.errors import RulesError
from rules.fatigue import FatigueState
from table import sheet
from table.model import ChannelSettings, Character, Forbidden, Table
from table.names import clean_name
from table.sheet import SettingsOptions, SheetOptions

GM, PIPPA, PERRIN = 100, 200, 300
# docs/rules.md#31-fatigue-level's worked example: a Fighter 5 / Thief 6 multiclass Ogre (kin d8,
# Base HD 4+1) with Constitution 17: FL 8 + 3 + 5.5 + 4 = 20.5.
OGRE = SheetOptions(classes="d10/5 d6/6", combine="multi", constitution=17, base_hd="4+1", kin_hd=8)


def table_with(*characters: Character) -> Table:
    return Table(channel_id=1, guild_id=2, characters=characters)


def made(name: str = "Grok", owner: int = PIPPA, options: SheetOptions = OGRE) -> Character:
    return sheet.new_character(name, owner, options)


# --- names --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("Bórin", "Bórin"),
        ("  Mary-Jane   O'Neil ", "Mary-Jane O'Neil"),
        ("Zoë (the Bold)", "Zoë (the Bold)"),
        ("x" * 32, "x" * 32),
        ("7th Son", "7th Son"),
        ("Nguye\u0302\u0303n", "Nguy\u1ec5n"),  # ễ typed as e and two accents: one letter
        ("\uff21\uff52\uff49\uff41", "Aria"),  # fullwidth, as a phone's keyboard may type it
        ("\U0001d400ria", "Aria"),  # a mathematical bold A
    ],
)
def test_names_are_kept_with_spaces_squeezed(typed: str, kept: str) -> None:
    assert clean_name(typed, "character") == kept


@pytest.mark.parametrize(
    "typed",
    [
        "@everyone",
        "Bo`rin",
        "Bo\nrin",
        "**Bold**",
        "<@123>",
        "a|b",
        "x" * 33,
        "   ",
        "-Dash",
        "a\u200bb",
        "Z" + "\u0336" * 31,  # Zalgo: one letter under a tower of marks
    ],
)
def test_names_that_ping_format_or_overflow_are_refused(typed: str) -> None:
    with pytest.raises(RulesError):
        clean_name(typed, "character")


def test_zalgo_is_refused_with_a_reason() -> None:
    with pytest.raises(RulesError, match="more than 3 accents on one letter"):
        clean_name("Za\u0336\u0337\u0338\u0335lgo", "monster")


def test_a_refused_name_says_what_is_allowed() -> None:
    with pytest.raises(RulesError, match="letters, numbers") as error:
        clean_name("Bo`rin", "character")
    assert "'`'" in str(error.value)


# --- classes ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed",
    ["10:5 6:6", "d10/5 d6/6", "d10/5, d6/6", "D10 5 d6 6", "d10 lvl 5 & d6 level 6", "10@5;6@6"],
)
def test_classes_are_read_in_many_spellings(typed: str) -> None:
    assert sheet.parse_classes(typed) == ((10, 5), (6, 6))


@pytest.mark.parametrize("typed", ["d10", "d10 d6/6", "fighter 5", "", "10:5 6", "10:0", "10:5:3"])
def test_bad_classes_explain_the_format(typed: str) -> None:
    with pytest.raises(RulesError) as error:
        sheet.parse_classes(typed)
    assert "10:5" in str(error.value) or "between 1" in str(error.value)


def test_at_most_five_classes() -> None:
    assert len(sheet.parse_classes("4:1 6:1 8:1 10:1 12:1")) == 5
    with pytest.raises(RulesError, match="at most 5"):
        sheet.parse_classes("4:1 6:1 8:1 10:1 12:1 20:1")


@given(st.integers(min_value=0, max_value=2**32))
def test_written_classes_read_back_the_same(seed: int) -> None:
    rng = random.Random(seed)
    classes = tuple(
        (rng.choice((4, 6, 8, 10, 12, 20)), rng.randint(1, 100)) for _ in range(rng.randint(1, 5))
    )
    assert sheet.parse_classes(sheet.format_classes(classes)) == classes


def test_fatigue_level_numbers_stay_exact() -> None:
    assert sheet.parse_fl(20.5) == Fraction(41, 2)
    assert sheet.parse_fl(20.3) == Fraction(203, 10)
    assert sheet.parse_fl(12) == 12
    for bad in (0, -1.5, 1001, True):
        with pytest.raises(RulesError):
            sheet.parse_fl(bad)


# --- making characters --------------------------------------------------------------------


def test_the_worked_example_comes_out_at_fl_20_5() -> None:
    grok = made()
    assert grok.fl == Fraction(41, 2)
    assert grok.toughness == 3  # Constitution 17
    assert grok.level == 6  # no level given: the highest class level


def test_a_given_level_wins_and_stats_are_kept() -> None:
    grok = made(options=dataclasses.replace(OGRE, level=9, fortitude=-5, kin_wsr=10))
    assert (grok.level, grok.fortitude, grok.kin_wsr, grok.wisdom) == (9, -5, 10, 0)


def test_a_character_without_fatigue_inputs_has_no_fl() -> None:
    assert made(options=SheetOptions(level=3)).fl is None
    assert made(options=SheetOptions(fatigue_level=20.5)).fl == Fraction(41, 2)


def test_toughness_and_constitution_together_are_refused() -> None:
    with pytest.raises(RulesError, match="not both"):
        made(options=SheetOptions(classes="10:5", toughness=1, constitution=12))


def test_several_classes_need_to_say_how_they_combine() -> None:
    with pytest.raises(RulesError, match="combine"):
        made(options=SheetOptions(classes="10:5 6:6"))
    assert made(options=SheetOptions(classes="10:5")).combine == "single"


def test_combine_without_classes_is_kept_for_the_classes_given_later() -> None:
    # Kept on purpose: `/character set classes:…` later uses it instead of asking again.
    early = table_with(made(options=SheetOptions(combine="dual")))
    assert early.get("Grok").combine == "dual" and early.get("Grok").classes == ()
    _, later = sheet.change(early, PIPPA, False, "Grok", SheetOptions(classes="10:5 6:6"))
    assert later.combine == "dual" and later.fl == 10 + 6  # largest HD (d10), highest level (6)
    for combine in ("multi", "dual"):  # with one class it can mean nothing: refused
        with pytest.raises(RulesError, match="two or more classes"):
            made(options=SheetOptions(classes="10:5", combine=combine))


def test_bad_fatigue_inputs_are_refused_with_the_rules_words() -> None:
    with pytest.raises(RulesError, match="d4"):
        made(options=SheetOptions(classes="7:5"))  # no d7
    with pytest.raises(RulesError, match="4\\+1"):
        made(options=SheetOptions(classes="10:5", base_hd="four"))


def test_players_create_their_own_and_the_gm_anyones() -> None:
    table, grok = sheet.create(table_with(), PIPPA, False, "Grok", PIPPA, OGRE)
    assert table.characters == (grok,) and grok.owner_id == PIPPA
    table, _ = sheet.create(table, GM, True, "Aria", PERRIN, SheetOptions(level=2))
    assert table.get("aria").owner_id == PERRIN
    with pytest.raises(Forbidden):
        sheet.create(table, PIPPA, False, "Sneak", PERRIN, SheetOptions())


@pytest.mark.parametrize("again", ["Grok", "GROK", "  grok "])
def test_duplicate_names_are_refused_whatever_the_case(again: str) -> None:
    table, _ = sheet.create(table_with(), PIPPA, False, "Grok", PIPPA, OGRE)
    with pytest.raises(RulesError, match="already a character named 'Grok'"):
        sheet.create(table, GM, True, again, PERRIN, SheetOptions())


# --- changing characters ------------------------------------------------------------------

SETTABLE = {
    "level": (1, 50),
    "fortitude": (-20, 20),
    "wisdom": (-20, 20),
    "kin_tsr": (-20, 20),
    "kin_wsr": (-20, 20),
    "special_tsr": (-100, 100),
    "special_wsr": (-100, 100),
    "toughness": (-5, 7),
}


@given(st.integers(min_value=0, max_value=2**32))
def test_set_changes_only_the_options_given(seed: int) -> None:
    rng = random.Random(seed)
    grok = made()
    chosen = rng.sample(sorted(SETTABLE), rng.randint(1, len(SETTABLE)))
    values: dict[str, Any] = {name: rng.randint(*SETTABLE[name]) for name in chosen}
    table, new = sheet.change(table_with(grok), PIPPA, False, "grok", SheetOptions(**values))
    for field in dataclasses.fields(Character):
        expected = values.get(field.name, getattr(grok, field.name))
        assert getattr(new, field.name) == expected, field.name
    assert table.characters == (new,)


def test_set_needs_at_least_one_option() -> None:
    with pytest.raises(RulesError, match="at least one"):
        sheet.change(table_with(made()), PIPPA, False, "Grok", SheetOptions())


def test_players_change_only_their_own_characters() -> None:
    table = table_with(made())
    with pytest.raises(Forbidden):
        sheet.change(table, PERRIN, False, "Grok", SheetOptions(level=2))
    _, changed = sheet.change(table, GM, True, "Grok", SheetOptions(level=2))
    assert changed.level == 2 and changed.owner_id == PIPPA


def test_only_the_gm_gives_a_character_away() -> None:
    table = table_with(made())
    with pytest.raises(Forbidden):
        sheet.change(table, PIPPA, False, "Grok", SheetOptions(), owner_id=PERRIN)
    _, given_away = sheet.change(table, GM, True, "Grok", SheetOptions(), owner_id=PERRIN)
    assert given_away.owner_id == PERRIN


def test_renaming_keeps_the_sheet_and_refuses_a_taken_name() -> None:
    grok = dataclasses.replace(made(), fatigue=FatigueState(fp=12))
    table = table_with(grok, made("Aria"))
    table, renamed = sheet.change(table, PIPPA, False, "Grok", SheetOptions(), new_name="Grak")
    assert table.find("Grok") is None and table.get("Grak") == renamed
    assert renamed.fatigue.fp == 12 and renamed.fl == grok.fl
    with pytest.raises(RulesError, match="already"):
        sheet.change(table, PIPPA, False, "Grak", SheetOptions(), new_name="ARIA")
    _, recased = sheet.change(table, PIPPA, False, "Grak", SheetOptions(), new_name="GRAK")
    assert recased.name == "GRAK"


def test_new_classes_keep_multi_or_dual_and_one_class_is_single() -> None:
    table = table_with(made())
    _, more = sheet.change(table, PIPPA, False, "Grok", SheetOptions(classes="10:7 6:6"))
    assert more.combine == "multi" and more.classes == ((10, 7), (6, 6))
    _, one = sheet.change(table, PIPPA, False, "Grok", SheetOptions(classes="d12/3"))
    assert one.combine == "single" and one.classes == ((12, 3),)
    single = table_with(made(options=SheetOptions(classes="10:5")))
    with pytest.raises(RulesError, match="combine"):
        sheet.change(single, PIPPA, False, "Grok", SheetOptions(classes="10:5 6:6"))


def test_clearing_goes_back_to_the_inputs() -> None:
    table = table_with(made(options=dataclasses.replace(OGRE, fatigue_level=30)))
    assert table.get("Grok").fl == 30
    _, back = sheet.change(table, PIPPA, False, "Grok", SheetOptions(clear="fatigue_level"))
    assert back.fl == Fraction(41, 2)
    _, no_kin = sheet.change(table, PIPPA, False, "Grok", SheetOptions(clear="kin_hd"))
    assert no_kin.kin_hd_size is None
    with pytest.raises(RulesError, match="set and cleared"):
        sheet.change(table, PIPPA, False, "Grok", SheetOptions(base_hd="2", clear="base_hd"))


def test_clearing_the_classes_of_a_single_class_character() -> None:
    # A single-class sheet once failed here, asking how zero classes combine.
    table = table_with(made(options=SheetOptions(classes="10:5", fatigue_level=12)))
    _, cleared = sheet.change(table, PIPPA, False, "Grok", SheetOptions(clear="classes"))
    assert cleared.classes == ()
    assert cleared.computed_fl() is None
    assert cleared.fl == 12


def test_remove_is_for_the_owner_or_the_gm() -> None:
    table = table_with(made(), made("Aria", owner=PERRIN))
    with pytest.raises(Forbidden):
        sheet.remove(table, PIPPA, False, "Aria")
    after, gone = sheet.remove(table, PIPPA, False, "grok")
    assert gone.name == "Grok" and [c.name for c in after.characters] == ["Aria"]
    after, _ = sheet.remove(table, GM, True, "Aria")
    assert [c.name for c in after.characters] == ["Grok"]
    with pytest.raises(RulesError, match="No character named"):
        sheet.remove(after, GM, True, "Aria")


# --- settings -----------------------------------------------------------------------------


def test_settings_change_only_what_is_given() -> None:
    table = table_with()
    after, (old, new) = sheet.change_settings(table, SettingsOptions(ties="succeed", rest_rate=3))
    assert old == ChannelSettings()
    assert new == dataclasses.replace(ChannelSettings(), ties="succeed", rest_rate=3)
    assert after.settings == new


def test_gm_role_is_set_and_cleared() -> None:
    table, _ = sheet.change_settings(table_with(), SettingsOptions(gm_role_id=555))
    assert table.settings.gm_role_id == 555
    table, _ = sheet.change_settings(table, SettingsOptions(clear_gm_role=True))
    assert table.settings.gm_role_id is None
    with pytest.raises(RulesError, match="not both"):
        sheet.change_settings(table, SettingsOptions(gm_role_id=5, clear_gm_role=True))


@pytest.mark.parametrize(
    "options",
    [
        SettingsOptions(),
        SettingsOptions(round_seconds=0),
        SettingsOptions(rest_rate=-1),
        SettingsOptions(long_minutes=10**9),
        SettingsOptions(ties="maybe"),
    ],
)
def test_bad_or_empty_settings_are_refused(options: SettingsOptions) -> None:
    with pytest.raises(RulesError):
        sheet.change_settings(table_with(), options)


# --- replies ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fl", "text"),
    [(Fraction(20), "20"), (Fraction(41, 2), "20.5"), (Fraction(83, 4), "20.75"),
     (Fraction(61, 3), "61/3 (≈20.33)"), (Fraction(46, 3), "46/3 (≈15.33)")],
)  # fmt: skip
def test_fl_is_shown_exactly(fl: Fraction, text: str) -> None:
    assert fl_text(fl) == text


def _embed_text(embed: object) -> str:
    data = embed.to_dict()  # type: ignore[attr-defined]
    parts = [data.get("title", ""), data.get("description", "")]
    parts += [f"{f['name']}\n{f['value']}" for f in data.get("fields", [])]
    return "\n".join(parts)


def test_the_sheet_shows_saves_fl_bands_and_state() -> None:
    # Level 6: SR Bonus 5·6 = 30; TSR = 30 + Fortitude 10 + kin 5 = 45; WSR = 30 − 5 + 0 = 25.
    options = dataclasses.replace(OGRE, level=6, fortitude=10, kin_tsr=5, wisdom=-5)
    grok = dataclasses.replace(
        made(options=options),
        fatigue=FatigueState(fp=63, temp=2, temp_expires=600, exhausted_cap=True, vp_damage=1),
    )
    text = _embed_text(sheet_embed(grok))
    assert "**+45**" in text and "**+25**" in text
    assert "**20.5**" in text
    assert "Fresh 0–20 · Fatigued 21–40 · Tired 41–60 · Exhausted 61–80 · Shattered 81–100" in text
    assert "FP **63** / 100 — **Exhausted**" in text
    assert "Temporary FP 2 (until Day 1, 00:10)" in text
    assert "can't drop below 61" in text
    assert "VP damage from fatigue: 1" in text
    assert f"<@{PIPPA}>" in text


def test_a_sheet_without_fl_points_at_character_set() -> None:
    text = _embed_text(sheet_embed(made(options=SheetOptions(level=2))))
    assert "/character set" in text and "Bands" not in text


def test_the_roster_lists_everyone_and_fits_discord() -> None:
    few = table_with(made(), made("Aria", owner=PERRIN, options=SheetOptions(level=4)))
    text = _embed_text(roster_embed(few))
    assert "**Aria** — level 4" in text and f"<@{PERRIN}>" in text
    assert "**Grok** — level 6" in text and "FL 20.5" in text
    many = table_with(*(made(f"Hero number {i:03}", options=SheetOptions()) for i in range(200)))
    description = roster_embed(many).description or ""
    assert len(description) <= 4096 and description.endswith("more")


def test_settings_reply_marks_what_changed() -> None:
    old = ChannelSettings()
    new = dataclasses.replace(old, round_seconds=6, gm_role_id=777)
    text = _embed_text(settings_embed(new, changed=old))
    assert "**Round length**: 60 s → **6 s**" in text
    assert "<@&777>" in text and "Rest rate" not in text  # only what changed


def test_the_sheet_shows_special_modifiers_as_their_own_piece_of_each_save() -> None:
    # Level 6: 30; TSR = 30 + Fortitude 10 + kin 5 + special 7 = 52; WSR = 30 − 5 + 0 − 4 = 21.
    options = dataclasses.replace(
        OGRE, level=6, fortitude=10, kin_tsr=5, wisdom=-5, special_tsr=7, special_wsr=-4
    )
    text = _embed_text(sheet_embed(made(options=options)))
    assert "Special TSR +7 · Special WSR −4" in text
    assert "**+52** (Level 6 +30 · stat +10 · kin +5 · special +7)" in text
    assert "**+21** (Level 6 +30 · stat −5 · kin +0 · special −4)" in text


@given(value=st.integers(-1000, 1000), which=st.sampled_from(["special_tsr", "special_wsr"]))
def test_special_modifiers_are_kept_within_100_either_way(value: int, which: str) -> None:
    grok = made()
    options = SheetOptions(**{which: value})  # type: ignore[arg-type]
    if -100 <= value <= 100:
        _, new = sheet.change(table_with(grok), PIPPA, False, "grok", options)
        assert getattr(new, which) == value
        return
    kind = "TSR" if which == "special_tsr" else "WSR"
    with pytest.raises(RulesError, match=f"{kind} special modifier must be between −100 and 100"):
        sheet.change(table_with(grok), PIPPA, False, "grok", options)
