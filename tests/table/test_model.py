"""The channel's domain model: validation, names, immutability and who may change what."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.fatigue import FatigueSettings, FatigueState
from rules.fatigue import fatigue_level as rules_fatigue_level
from table import initiative
from table.model import (
    PARTS,
    ChannelSettings,
    Character,
    Forbidden,
    Monster,
    Table,
    check_can_change,
    fatigue_level,
    name_key,
)


def ogre(**changes: object) -> Character:
    """The worked example of docs/rules.md#31-fatigue-level: Fighter 5 / Thief 6 Ogre, Con 17."""
    fields: dict[str, object] = {
        "name": "Grok",
        "owner_id": 7,
        "classes": ((10, 5), (6, 6)),
        "combine": "multi",
        "toughness": 3,
        "base_hd": "4+1",
        "kin_hd_size": 8,
    }
    fields.update(changes)
    return Character(**fields)  # type: ignore[arg-type]


# --- ChannelSettings -----------------------------------------------------------------------


def test_channel_settings_defaults_follow_the_rules_page() -> None:
    settings = ChannelSettings()
    assert (settings.ties, settings.round_seconds, settings.rest_rate) == ("fail", 60, 1)
    assert (settings.break_minutes, settings.short_minutes, settings.long_minutes) == (10, 60, 480)
    assert settings.gm_role_id is None
    assert settings.ties_succeed is False
    assert ChannelSettings(ties="succeed").ties_succeed is True


def test_fatigue_settings_carry_each_number_across() -> None:
    settings = ChannelSettings(
        round_seconds=6, rest_rate=3, break_minutes=15, short_minutes=90, long_minutes=600
    )
    assert settings.fatigue_settings() == FatigueSettings(
        round_seconds=6, rest_rate=3, break_minutes=15, short_minutes=90, long_minutes=600
    )


@pytest.mark.parametrize(
    "changes",
    [
        {"ties": "reroll"},
        {"round_seconds": 0},
        {"round_seconds": 1.5},
        {"rest_rate": -1},
        {"break_minutes": 0},
        {"long_minutes": 10**9},
        {"gm_role_id": 0},
        {"gm_role_id": True},
    ],
)
def test_channel_settings_refuse_bad_values(changes: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        ChannelSettings(**changes)  # type: ignore[arg-type]


# --- Character -----------------------------------------------------------------------------


def test_worked_example_has_fatigue_level_20_5() -> None:
    grok = ogre()
    assert grok.fl == Fraction(41, 2)
    assert grok.require_fl() == Fraction(41, 2)


def test_override_wins_and_no_inputs_means_no_fl() -> None:
    assert ogre(fl_override=Fraction(12)).fl == 12
    assert ogre(fl_override=9).fl_override == Fraction(9)  # ints are kept as exact fractions
    assert ogre(fl_override=Fraction(12)).computed_fl() == Fraction(41, 2)
    bare = Character("Ann", 1)
    assert bare.fl is None
    with pytest.raises(RulesError, match="Ann has no Fatigue Level yet"):
        bare.require_fl()
    with pytest.raises(RulesError, match="`/character set name:Ann fatigue_level:"):
        bare.require_fl()
    assert Character("Ann", 1, fl_override=Fraction(15, 2)).fl == Fraction(15, 2)


def test_names_are_trimmed_and_keys_casefolded() -> None:
    grok = ogre(name="  Grok   the\tOgre ")
    assert grok.name == "Grok the Ogre"
    assert grok.key == "grok the ogre"
    assert name_key("GROK  THE ogre") == grok.key
    assert name_key("STRASSE") == name_key("straße")


def test_json_style_lists_become_tuples() -> None:
    grok = ogre(classes=[[10, 5], [6, 6]])
    assert grok.classes == ((10, 5), (6, 6))
    assert hash(grok)  # a frozen value can be hashed once its fields are tuples


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"name": "   "}, "needs a name"),
        ({"name": "x" * 41}, "40 characters or fewer"),
        ({"owner_id": 0}, "Owner"),
        ({"level": 0}, "Level"),
        ({"fortitude": 101}, "Fortitude"),
        ({"kin_wsr": -101}, "Kin WSR"),
        ({"kin_tsr": -101}, "Kin TSR bonus must be between \u2212100 and 100"),  # a true minus
        ({"combine": "multiclass"}, "single, multi or dual"),
        ({"combine": "single"}, "exactly one class"),
        ({"classes": ((7, 1),), "combine": "single"}, "HD size"),
        ({"classes": ((10,),)}, "HD size and a level"),
        ({"toughness": 20}, "Toughness"),
        ({"base_hd": "four"}, "Base HD"),
        ({"fl_override": Fraction(0)}, "Fatigue Level"),
        ({"fl_override": 20.5}, "Fatigue Level"),
        ({"fatigue": {"fp": 1}}, "fatigue state"),
    ],
)
def test_bad_characters_are_refused(changes: dict[str, object], says: str) -> None:
    with pytest.raises(RulesError, match=says):
        ogre(**changes)


def test_fatigue_inputs_are_checked_even_without_classes() -> None:
    with pytest.raises(RulesError, match="Toughness"):
        Character("Ann", 1, toughness=99)
    with pytest.raises(RulesError, match="Kin HD"):
        Character("Ann", 1, kin_hd_size=5)


def test_characters_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        ogre().level = 3  # type: ignore[misc]


# --- Who may change what -------------------------------------------------------------------


def test_owner_and_gm_may_change_others_may_not() -> None:
    grok = ogre(owner_id=7)
    check_can_change(7, False, grok)
    check_can_change(8, True, grok)
    with pytest.raises(Forbidden) as caught:
        check_can_change(8, False, grok)
    assert str(caught.value) == "You can only change your own characters; ask the GM"
    assert isinstance(caught.value, RulesError)  # so the tree's handler replies with it


# --- Table ---------------------------------------------------------------------------------


def test_get_and_find_ignore_case() -> None:
    table = Table(1, 2).with_character(ogre()).with_character(Character("Ann", 3))
    assert table.get("GROK").name == "Grok"
    assert table.find(" ann ") == Character("Ann", 3)
    assert table.find("Bob") is None


def test_unknown_name_lists_a_few_names() -> None:
    with pytest.raises(RulesError, match=r"^No character named 'Bob' in this channel \(there"):
        Table(1, None).get("Bob")
    table = Table(1, None)
    for name in ["Fay", "Eve", "Dan", "Cat", "Bea", "Ada", "Gus"]:
        table = table.with_character(Character(name, 1))
    with pytest.raises(RulesError) as caught:
        table.get("Bob")
    assert str(caught.value) == (
        "No character named 'Bob' in this channel; here: Ada, Bea, Cat, Dan, Eve, …"
    )


def test_with_character_replaces_by_key_and_keeps_order() -> None:
    table = Table(1, None).with_character(Character("zed", 1)).with_character(ogre())
    table = table.with_character(Character("ann", 2))
    assert [c.name for c in table.characters] == ["ann", "Grok", "zed"]
    replaced = table.with_character(ogre(name="GROK", level=4))
    assert [c.name for c in replaced.characters] == ["ann", "GROK", "zed"]
    assert replaced.get("grok").level == 4
    assert table.get("grok").level == 1  # the old table is untouched


def test_without_removes_or_complains() -> None:
    table = Table(1, None).with_character(ogre()).with_character(Character("Ann", 2))
    assert [c.name for c in table.without("grok").characters] == ["Ann"]
    with pytest.raises(RulesError, match="No character named 'Bob'"):
        table.without("Bob")


def test_table_refuses_duplicates_and_bad_ids() -> None:
    with pytest.raises(RulesError, match="already a character named"):
        Table(1, None, characters=(Character("Ann", 1), Character("ANN", 2)))
    with pytest.raises(RulesError):
        Table(0, None)
    with pytest.raises(RulesError):
        Table(1, None, clock=-1)


@given(seed=st.integers(0, 2**32 - 1))
def test_table_behaves_like_a_dict_of_names(seed: int) -> None:
    rng = random.Random(seed)
    names = ["Ann", "ann", "Bob", "BOB", "Cy", "Dee", "ÉLA", "éla"]
    table = Table(1, None)
    model: dict[str, Character] = {}
    for _ in range(rng.randint(0, 30)):
        name = rng.choice(names)
        if rng.random() < 0.7:
            character = Character(name, rng.randint(1, 5), level=rng.randint(1, 20))
            table = table.with_character(character)
            model[name.casefold()] = character
        elif name.casefold() in model:
            table = table.without(name)
            del model[name.casefold()]
        else:
            with pytest.raises(RulesError):
                table.without(name)
    assert [c.key for c in table.characters] == sorted(model)
    assert {c.key: c for c in table.characters} == model


@given(
    seed=st.integers(0, 2**32 - 1),
    fp=st.integers(0, 200),
    temp=st.integers(0, 50),
    vp=st.integers(0, 9),
    caps=st.tuples(st.booleans(), st.booleans()),
)
def test_the_quick_changes_equal_the_checked_ones(
    seed: int, fp: int, temp: int, vp: int, caps: tuple[bool, bool]
) -> None:
    """`with_fatigue` and `with_character` (replacing a name) skip `__post_init__`: what they
    give equals what a full construction gives, its kept key and Fatigue Level included."""
    rng = random.Random(seed)
    names = ["Ann", "bob", "Cy", "ÉLA"]
    table = Table(1, 2)
    for name in rng.sample(names, rng.randint(1, len(names))):
        table = table.with_character(ogre(name=name, level=rng.randint(1, 20)))
    expires = 3600 if temp else None
    state = FatigueState(fp, temp, expires, caps[0], caps[1], vp_damage=vp)
    hero = rng.choice(table.characters)
    quick = hero.with_fatigue(state)
    checked = dataclasses.replace(hero, fatigue=state)
    assert quick == checked and quick.fatigue is state
    assert (quick.key, quick.computed_fl(), quick.fl) == (
        checked.key,
        checked.computed_fl(),
        checked.fl,
    )
    renamed = ogre(name=hero.name.upper(), level=rng.randint(1, 20), fatigue=state)
    for new in (quick, renamed):
        changed = table.with_character(new)
        others = [c for c in table.characters if c.key != new.key]
        assert changed == Table(1, 2, characters=(*others, new))
        assert changed.get(new.name) is new and table.get(hero.name) is hero
    with pytest.raises(RulesError):
        hero.with_fatigue("fresh")  # type: ignore[arg-type]


def test_fatigue_state_defaults_to_fresh() -> None:
    assert ogre().fatigue == FatigueState()


def test_a_name_typed_without_its_accents_finds_the_only_match() -> None:
    table = Table(1, None).with_character(Character("Bórin", 1)).with_character(Character("Ann", 2))
    assert table.get("borin").name == "Bórin"
    assert table.get("BORIN").name == "Bórin"


def test_an_exact_name_wins_over_an_unaccented_one() -> None:
    table = Table(1, None).with_character(Character("Aria", 1)).with_character(Character("Ária", 2))
    assert table.get("aria").name == "Aria"
    assert table.get("ária").name == "Ária"


def test_two_unaccented_matches_are_not_guessed() -> None:
    table = Table(1, None).with_character(Character("Ária", 1)).with_character(Character("Aríà", 2))
    with pytest.raises(RulesError, match="No character named 'aria'"):
        table.get("aria")


def test_a_typo_gets_a_suggestion() -> None:
    table = Table(1, None)
    for name in ["Ada", "Bea", "Cat", "Dan", "Eve", "Fay", "Thorin Oakenshield"]:
        table = table.with_character(Character(name, 1))
    with pytest.raises(RulesError) as caught:
        table.get("thorin oakenshild")
    assert str(caught.value) == (
        "No character named 'thorin oakenshild' in this channel: did you mean Thorin Oakenshield?"
    )


def test_a_monster_typo_gets_a_suggestion_too() -> None:
    troll = Monster("Cave Troll", {"rank": 3, "armor": "heavy"})
    table = Table(1, None).with_monster(troll)
    assert table.get_monster("cave troll").name == "Cave Troll"
    with pytest.raises(RulesError, match="did you mean Cave Troll"):
        table.get_monster("cave trol")


def _outcome(fn: object, *args: object) -> object:
    try:
        return fn(*args)  # type: ignore[operator]
    except RulesError as error:
        return f"refused: {error}"


# Numbers as an int, or as a value equal to it that the rules refuse (True == 1 == 1.0).
_like_an_int = st.integers(0, 7).flatmap(
    lambda n: st.sampled_from([n, float(n)] + ([bool(n)] if n in (0, 1) else []))
)


@given(
    size=st.sampled_from([4, 6, 8, 10, 12]),
    level=st.integers(1, 20),
    toughness=_like_an_int,
    kin=st.one_of(st.none(), st.sampled_from([4, 6, 8, 10, 12])),
)
def test_the_cached_fatigue_level_answers_as_the_rules_whatever_was_cached_first(
    size: int, level: int, toughness: object, kin: object
) -> None:
    """The table's Fatigue Level is cached by its inputs; an input equal to a cached one but of
    another type (True for 1, 1.0 for 1) still gets the rules' own answer, a refusal."""
    plain = int(toughness)  # type: ignore[call-overload]
    kin_plain = None if kin is None else int(kin)  # type: ignore[call-overload]
    fatigue_level(((size, level),), "single", plain, None, kin_plain)  # cached first
    args = (((size, level),), "single", toughness, None, kin)
    assert _outcome(fatigue_level, *args) == _outcome(rules_fatigue_level, *args)
    assert _outcome(fatigue_level, ((size, True),), "single", plain, None, None) == _outcome(
        rules_fatigue_level, ((size, True),), "single", plain, None, None
    )


@given(seed=st.integers(0, 2**32 - 1), taken=st.sets(st.sampled_from(PARTS)))
def test_a_table_with_parts_of_another_equals_the_checked_one(seed: int, taken: set[str]) -> None:
    """`with_parts` skips `__post_init__`: two Tables of one channel, each with its own
    characters, monsters, turn order, clock and settings; the first with the `taken` parts of
    the second equals the Table constructed, and checked, from the same fields."""
    rng = random.Random(seed)

    def some_table(clock: int) -> Table:
        table = Table(1, 2, clock=clock).relayered({"rest_rate": rng.randint(1, 3)})
        for name in rng.sample(["Ann", "bob", "Cy", "ÉLA"], rng.randint(0, 4)):
            table = table.with_character(ogre(name=name, level=rng.randint(1, 20)))
        for name in rng.sample(["Troll", "orc"], rng.randint(0, 2)):
            table = table.with_monster(Monster(name, {"rank": rng.randint(0, 3), "armor": "light"}))
        if rng.random() < 0.5:
            table, _ = initiative.add(
                table, actor_id=9, is_gm=True, name="Foe", score=5, other=True, rng=random.Random(0)
            )
        return table

    first, second = some_table(60), some_table(120)
    quick = first.with_parts(**{part: getattr(second, part) for part in taken})
    fields = {f.name: getattr(first, f.name) for f in dataclasses.fields(Table)}
    checked = Table(**(fields | {part: getattr(second, part) for part in taken}))
    assert quick == checked
    assert (quick.clock, quick.settings) == (first.clock, first.settings)
    with pytest.raises(ValueError):
        first.with_parts(clock=5)
