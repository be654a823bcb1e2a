"""table.savecalc: a character's stored numbers fill in what the options leave out."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import OpenEndedRoll
from rules.errors import NoSaveError, RulesError
from rules.saves import SaveKind
from table.model import ChannelSettings, Character, Table
from table.savecalc import DifficultyOptions, SaveOptions, party_inputs, save_inputs

ME, YOU = 1001, 1002
VS7 = DifficultyOptions(vs=7)  # Attack Level 7 → Difficulty 85 (Save Rolls Table)

# Every stored number distinct, so a swapped stat or kin shows up.
ARIA = Character("Aria", ME, level=5, fortitude=11, wisdom=13, kin_tsr=3, kin_wsr=7)
BORIN = Character("Borin", YOU, level=9, fortitude=17, wisdom=-2, kin_tsr=19, kin_wsr=-4)


def table(*characters: Character, ties: str = "fail") -> Table:
    return Table(100, 200, settings=ChannelSettings(ties=ties), characters=characters)  # type: ignore[arg-type]


def test_own_character_fills_in_a_wsr() -> None:
    inputs = save_inputs(SaveKind.WSR, SaveOptions(VS7), table(ARIA, BORIN), ME)
    assert (inputs.name, inputs.level, inputs.stat, inputs.kin) == ("Aria", 5, 13, 7)
    assert inputs.difficulty.value == 85
    assert inputs.kind is SaveKind.WSR


def test_own_character_fills_in_a_tsr() -> None:
    inputs = save_inputs(SaveKind.TSR, SaveOptions(VS7), table(ARIA, BORIN), ME)
    assert (inputs.name, inputs.level, inputs.stat, inputs.kin) == ("Aria", 5, 11, 3)


def test_options_override_the_stored_numbers() -> None:
    options = SaveOptions(VS7, level=12, stat=-3, kin=0, mod=-10, per=5)
    inputs = save_inputs(SaveKind.TSR, options, table(ARIA), ME)
    assert (inputs.name, inputs.level, inputs.stat, inputs.kin) == ("Aria", 12, -3, 0)
    assert (inputs.mod, inputs.per) == (-10, 5)


@given(
    level=st.none() | st.integers(1, 100),
    stat=st.none() | st.integers(-100, 100),
    kin=st.none() | st.integers(-100, 100),
)
def test_each_option_wins_when_given(level: int | None, stat: int | None, kin: int | None) -> None:
    options = SaveOptions(VS7, level=level, stat=stat, kin=kin)
    inputs = save_inputs(SaveKind.WSR, options, table(ARIA), ME)
    assert inputs.level == (ARIA.level if level is None else level)
    assert inputs.stat == (ARIA.wisdom if stat is None else stat)
    assert inputs.kin == (ARIA.kin_wsr if kin is None else kin)


def test_a_named_character_is_used_whoever_owns_it() -> None:
    options = SaveOptions(VS7, character="  borin ")
    inputs = save_inputs(SaveKind.TSR, options, table(ARIA, BORIN), ME)
    assert (inputs.name, inputs.level, inputs.stat, inputs.kin) == ("Borin", 9, 17, 19)


def test_an_unknown_name_is_an_error() -> None:
    with pytest.raises(RulesError, match="No character named 'Cora'"):
        save_inputs(SaveKind.TSR, SaveOptions(VS7, character="Cora"), table(ARIA), ME)


def test_no_character_and_no_level_says_what_to_do() -> None:
    with pytest.raises(RulesError, match=r"`level:`.*/character create"):
        save_inputs(SaveKind.WSR, SaveOptions(VS7), table(), ME)
    # Others have characters here (the GM's usual case): name one rather than make one.
    with pytest.raises(RulesError, match=r"`level:`.*`character:`"):
        save_inputs(SaveKind.WSR, SaveOptions(VS7), table(BORIN), ME)


def test_no_character_with_a_level_is_a_plain_roll() -> None:
    inputs = save_inputs(SaveKind.WSR, SaveOptions(VS7, level=3, stat=4), table(BORIN), ME)
    assert (inputs.name, inputs.level, inputs.stat, inputs.kin) == (None, 3, 4, 0)


def test_several_characters_must_be_told_apart() -> None:
    second = Character("Ailin", ME, level=2)
    with pytest.raises(RulesError, match=r"several characters here \(Ailin, Aria\)"):
        save_inputs(SaveKind.WSR, SaveOptions(VS7), table(ARIA, second), ME)
    named = save_inputs(SaveKind.WSR, SaveOptions(VS7, character="ailin"), table(ARIA, second), ME)
    assert (named.name, named.level) == ("Ailin", 2)
    plain = save_inputs(SaveKind.WSR, SaveOptions(VS7, level=4), table(ARIA, second), ME)
    assert (plain.name, plain.level, plain.stat) == (None, 4, 0)


def test_difficulty_sources() -> None:
    assert DifficultyOptions(vs=7).difficulty().value == 85
    assert DifficultyOptions(vs=15).difficulty().value == 110
    assert DifficultyOptions(dc=93).difficulty().value == 93
    assert DifficultyOptions(spell=120).difficulty().value == 75  # 111–120 → 75
    assert DifficultyOptions(spell=51).difficulty().value == 50


def test_no_difficulty_is_an_error() -> None:
    with pytest.raises(RulesError, match=r"`vs:`.*`dc:`.*`spell:`"):
        save_inputs(SaveKind.WSR, SaveOptions(DifficultyOptions()), table(ARIA), ME)


@pytest.mark.parametrize(
    ("against", "named"),
    [
        (DifficultyOptions(vs=3, dc=60), "`vs:` and `dc:`"),
        (DifficultyOptions(dc=60, spell=100), "`dc:` and `spell:`"),
        (DifficultyOptions(vs=3, dc=60, spell=100), "`vs:` and `dc:` and `spell:`"),
    ],
)
def test_two_difficulties_are_an_error(against: DifficultyOptions, named: str) -> None:
    with pytest.raises(RulesError, match="only one") as caught:
        save_inputs(SaveKind.TSR, SaveOptions(against), table(ARIA), ME)
    assert named in str(caught.value)


@pytest.mark.parametrize("spell", [50, 26, 25, -20])
def test_a_weak_spell_gives_no_save(spell: int) -> None:
    with pytest.raises(NoSaveError, match="no Save Roll"):
        save_inputs(SaveKind.WSR, SaveOptions(DifficultyOptions(spell=spell)), table(ARIA), ME)


def test_ties_follow_the_channel_setting() -> None:
    fails = save_inputs(SaveKind.WSR, SaveOptions(VS7), table(ARIA), ME)
    succeeds = save_inputs(SaveKind.WSR, SaveOptions(VS7), table(ARIA, ties="succeed"), ME)
    assert (fails.ties_succeed, succeeds.ties_succeed) == (False, True)
    # Aria's WSR bonus is 25 + 13 + 7 = 45; a roll of 40 ties Difficulty 85.
    tie = OpenEndedRoll.from_dice([40])
    assert fails.resolve(tie).success is False
    assert succeeds.resolve(tie).success is True


def test_inputs_resolve_with_every_piece() -> None:
    options = SaveOptions(VS7, mod=-5, per=10)
    result = save_inputs(SaveKind.TSR, options, table(ARIA), ME).resolve(
        OpenEndedRoll.from_dice([30])
    )
    # Level 5 +25, Fortitude +11, Kin +3, Modifier −5: 30 + 34 = 64 against 85.
    assert result.total == 64
    assert (result.success, result.margin, result.points_of_failure) == (False, -21, 3)


def test_party_rolls_each_character_with_its_own_numbers() -> None:
    everyone = party_inputs(SaveKind.TSR, DifficultyOptions(dc=70), table(BORIN, ARIA), mod=2)
    assert [(i.name, i.level, i.stat, i.kin, i.mod) for i in everyone] == [
        ("Aria", 5, 11, 3, 2),
        ("Borin", 9, 17, 19, 2),
    ]
    assert {i.difficulty.value for i in everyone} == {70}


def test_party_without_characters_is_an_error() -> None:
    with pytest.raises(RulesError, match="no characters"):
        party_inputs(SaveKind.WSR, VS7, table())


def test_party_needs_one_difficulty() -> None:
    with pytest.raises(RulesError, match="only one"):
        party_inputs(SaveKind.WSR, DifficultyOptions(vs=1, dc=2), table(ARIA))


# Special modifiers all distinct from every other stored number.
CARA = Character(
    "Cara",
    ME,
    level=3,
    fortitude=1,
    wisdom=2,
    kin_tsr=4,
    kin_wsr=8,
    special_tsr=16,
    special_wsr=-32,
)


@pytest.mark.parametrize(("kind", "special"), [(SaveKind.TSR, 16), (SaveKind.WSR, -32)])
def test_a_characters_special_modifier_is_its_own_piece_of_every_save(
    kind: SaveKind, special: int
) -> None:
    inputs = save_inputs(kind, SaveOptions(VS7), table(CARA), ME)
    assert inputs.special == special
    result = inputs.resolve(OpenEndedRoll.from_dice([50]))
    assert ("Special", special) in result.pieces
    assert result.bonus == sum(value for _, value in result.pieces)
    # typed stat and kin still leave the character's special modifier in place
    typed = save_inputs(kind, SaveOptions(VS7, stat=0, kin=0), table(CARA), ME)
    assert typed.special == special


def test_a_plain_roll_has_no_special_modifier() -> None:
    inputs = save_inputs(SaveKind.TSR, SaveOptions(VS7, level=4), table(), ME)
    assert inputs.special == 0


def test_a_party_save_uses_each_characters_special_modifier() -> None:
    everyone = party_inputs(SaveKind.WSR, DifficultyOptions(dc=70), table(BORIN, CARA))
    assert [(i.name, i.special) for i in everyone] == [("Borin", 0), ("Cara", -32)]
    results = [i.resolve(OpenEndedRoll.from_dice([40])) for i in everyone]
    # Cara: Level 3 +15, Wisdom +2, Kin +8, Special −32 = −7.
    assert results[1].bonus == 15 + 2 + 8 - 32 and ("Special", -32) in results[1].pieces
    assert all(("Special", 0) not in r.pieces for r in results)  # a zero piece isn't shown
