"""rules/ and table/ in Spanish: what they raise and report for a reply (errors, fatigue events,
monster notes, save labels, dice errors) reads in the language of the interaction being answered,
keeps every number, and leaves what code compares (band and cap names) in English."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lang import speaking
from rules import saves
from rules.defense import build_monster, damage_taken, hit
from rules.dice import OpenEndedRoll
from rules.errors import NoSaveError, RulesError
from rules.fatigue import FatigueSettings, FatigueState, recover, rest, spend, temp
from rules.gametime import game_time
from rules.saves import Difficulty, SaveKind
from table import bestiary, initiative, partyops
from table.bestiary import BuildOptions
from table.combat import check_score
from table.dice_expr import roll_expression
from table.model import Character, Monster, Table
from table.names import clean_name
from table.sheet import parse_classes

pytestmark = pytest.mark.usefixtures("shipped_catalogs")

SPANISH = "es-ES"
FL = Fraction(20)  # bands of 20: Exhausted from 61, Shattered from 81, Maximum FP 100
OWNER = 111


def error_of(action: Callable[[], object]) -> str:
    with pytest.raises(RulesError) as raised:
        action()
    return str(raised.value)


def numbers(text: str) -> Counter[str]:
    """The numbers in a text, thousands separators aside ("100,000" and "100000" are one)."""
    return Counter(re.findall(r"\d+", re.sub(r"(?<=\d),(?=\d{3})", "", text)))


def hero(name: str = "Bree", fl: Fraction | None = FL, **fatigue: int) -> Character:
    return Character(name, OWNER, fl_override=fl, fatigue=FatigueState(**fatigue))  # type: ignore[arg-type]


def table(*characters: Character, monsters: tuple[Monster, ...] = ()) -> Table:
    return Table(1, 2, characters=characters, monsters=monsters)


# --- representative messages -------------------------------------------------------------


def test_an_unknown_character_is_named_in_spanish_with_the_names_there() -> None:
    here = table(hero("Bree"), hero("Odo"))
    with speaking(SPANISH):
        text = error_of(lambda: partyops.spend(here, "Bilbo", 3))
        typo = error_of(lambda: partyops.spend(here, "Bre", 3))
    assert text == "No hay ningún personaje llamado 'Bilbo' en este canal; aquí hay: Bree, Odo"
    assert typo == "No hay ningún personaje llamado 'Bre' en este canal: ¿querías decir Bree?"
    # the same call outside the block speaks English again
    assert error_of(lambda: partyops.spend(here, "Bilbo", 3)).startswith("No character named")


def test_fatigue_events_read_in_spanish_and_keep_english_keys() -> None:
    with speaking(SPANISH):
        moved = spend(FatigueState(fp=55), FL, 10)
    texts = [event.text for event in moved.events]
    assert texts == [
        "FP 55 → 65 (+10)",
        "Ahora Agotado (antes Cansado) con 65 FP",
        "Pasa a Agotado: los FP no pueden bajar de 61 hasta una Pausa",
    ]
    band, cap = moved.events[1], moved.events[2]
    assert (band.band_from, band.band_to, cap.cap) == ("Tired", "Exhausted", "Exhausted")


def test_a_rest_held_by_a_cap_says_so_in_spanish() -> None:
    state = FatigueState(fp=90, exhausted_cap=True, shattered_cap=True)
    with speaking(SPANISH):
        moved = rest(state, FL, "break", FatigueSettings())
    texts = [event.text for event in moved.events]
    assert texts[0] == (
        "Tope de Agotado retirado, pero el tope de Destrozado mantiene los FP en 81 hasta "
        "un Descanso corto"
    )
    assert texts[1] == "Hizo una Pausa (10 min): FP 90 → 81"
    assert moved.state.fp == 81


def test_temporary_fp_and_the_game_clock_in_spanish() -> None:
    with speaking(SPANISH):
        granted = temp(FatigueState(fp=1), FL, 4, 125, FatigueSettings(), minutes=3)
        nothing = recover(FatigueState(), FL, 2)
        clock = game_time(86400 + 8 * 3600 + 15 * 60 + 5)
    assert granted.events[0].text == "FP temporales +4: FP 1 → 0, reserva 3 hasta Día 1, 00:05:05"
    assert nothing.events[0].text == "No recupera nada: los FP siguen en 0"
    assert clock == "Día 2, 08:15:05"


def test_save_labels_pieces_and_refusals_in_spanish() -> None:
    roll = OpenEndedRoll.from_dice([42])
    with speaking(SPANISH):
        against = Difficulty.attack_level(7)
        result = saves.resolve(SaveKind.WSR, level=5, stat=2, difficulty=against, roll=roll)
        with pytest.raises(NoSaveError) as no_save:
            Difficulty.spell(20)
        too_high = error_of(lambda: Difficulty.number(5000))
    assert against.label == "Nivel de Ataque 7 → 85"
    assert result.pieces == (("Nivel 5", 25), ("Sabiduría", 2))
    assert str(no_save.value).startswith(
        "Un total de lanzamiento de 20 es un fallo del hechizo (25 o menos)"
    )
    assert too_high == "Dificultad (DC): debe estar entre 1 y 1000."
    # what code reads stays English
    assert (SaveKind.WSR.full_name, SaveKind.WSR.stat_name) == ("Willpower Save Roll", "Wisdom")


def test_a_monster_block_notes_and_spots_in_spanish() -> None:
    with speaking(SPANISH):
        block = build_monster(
            3, "extreme", extra_defense=4, extra_evasion=-2, spots=["back"], armor_enchantments=[1]
        )
        struck = hit(block, 30, "N", "S")
        trade = error_of(lambda: build_monster(2, "medium", trade=-7))
        refused = error_of(lambda: bestiary.create(table(), is_gm=False, name="x", options=None))  # type: ignore[arg-type]
        notes, line, evasion = block.notes, block.spot_lines[0], block.evasion_text
    assert notes[0] == (
        "Armadura extra: +2 de Defensa de sus 4 (la mitad, redondeando hacia abajo), "
        "penalización a la Evasión −2"
    )
    assert notes[1].startswith("Equilibrio: para dañarlo")
    assert line == "back (Difícil de golpear: −2 para golpear)"
    assert evasion == "Modificador de Evasión −8"
    assert struck.taken == 30 - block.defense // 2
    assert trade.startswith(
        "El intercambio −7 va demasiado lejos: Armadura media tiene Defensa 8 y modificador de "
        "Evasión −2, así que el intercambio puede bajar como mucho hasta −2"
    )
    assert refused.startswith("Solo el DJ puede cambiar los monstruos de este canal")
    # built in English, the same block speaks English
    english = build_monster(3, "extreme", extra_defense=4, extra_evasion=-2)
    assert english.notes[0].startswith("Extra armor: +2 Defense of its 4")


def test_names_initiative_and_dice_errors_in_spanish() -> None:
    with speaking(SPANISH):
        long_name = error_of(lambda: clean_name("x" * 40, "monster"))
        score = error_of(lambda: check_score(5000))
        nobody = error_of(lambda: initiative.start(table()))
        dice = error_of(lambda: roll_expression("2d6+", random.Random(1)))
        classes = error_of(lambda: parse_classes("10:5 d"))
    assert long_name == "El nombre de un monstruo debe tener 32 caracteres o menos"
    assert score == "Una puntuación de iniciativa debe estar entre −1000 y 1000"
    assert nobody.startswith("Aún no hay nadie en la iniciativa")
    assert dice.startswith("No puedo leer `2d6+` como dados: se acaba demasiado pronto.")
    assert classes.startswith("Faltaba un tamaño de HD al final. Las clases se escriben como")


def test_a_character_without_a_fatigue_level_is_told_how_in_spanish() -> None:
    with speaking(SPANISH):
        text = error_of(lambda: partyops.spend(table(hero("Nobody", fl=None)), "Nobody", 1))
    assert text == (
        "Nobody aún no tiene Nivel de Fatiga: dale uno con "
        "`/character set name:Nobody fatigue_level:…` o sus clases"
    )


# --- the same numbers, whatever the language ---------------------------------------------


def _fatigue(fp: int, pool: int, amount: int, kind: str) -> list[str]:
    state = FatigueState(fp=fp, temp=pool, temp_expires=600 if pool else None)
    settings_ = FatigueSettings()
    steps = {
        "spend": lambda: spend(state, FL, amount),
        "recover": lambda: recover(state, FL, amount),
        "temp": lambda: temp(state, FL, amount, 60, settings_),
        "break": lambda: rest(state, FL, "break", settings_),
        "minutes": lambda: rest(state, FL, "minutes", settings_, amount),
    }
    return [event.text for event in steps[kind]().events]


OPERATIONS: dict[str, Callable[[int, int, int], object]] = {
    "fatigue spend": lambda a, b, c: _fatigue(a, b, c, "spend"),
    "fatigue recover": lambda a, b, c: _fatigue(a, b, c, "recover"),
    "fatigue temp": lambda a, b, c: _fatigue(a, b, c, "temp"),
    "fatigue break": lambda a, b, c: _fatigue(a, b, c, "break"),
    "fatigue minutes": lambda a, b, c: _fatigue(a, b, c, "minutes"),
    "settings": lambda a, b, c: FatigueSettings(round_seconds=a, rest_rate=b, break_minutes=c),
    "attack level": lambda a, b, c: Difficulty.attack_level(a).label,
    "dc": lambda a, b, c: Difficulty.number(a).label,
    "spell": lambda a, b, c: Difficulty.spell(a).label,
    "save": lambda a, b, c: (
        saves.resolve(
            SaveKind.TSR,
            level=a,
            stat=b,
            mod=c,
            difficulty=Difficulty.number(85),
            roll=OpenEndedRoll.from_dice([50]),
            per=10,
        ).pieces
    ),
    "damage": lambda a, b, c: damage_taken(a, b),
    "monster": lambda a, b, c: (
        lambda block: (block.notes, block.warnings, block.evasion_text, block.spot_lines)
    )(
        build_monster(
            a % 8,
            "heavy",
            trade=b,
            extra_defense=c,
            extra_evasion=-(a % 60),
            agility=b,
            spots=["back"],
            armor_enchantments=[c % 7] * (a % 5),
        )
    ),
    "options": lambda a, b, c: (
        bestiary.build(
            BuildOptions(rank=a % 7, armor="light", armor_enchantments=f"{b} {c}")
        ).warnings
    ),
    "score": lambda a, b, c: check_score(a),
    "classes": lambda a, b, c: parse_classes(f"{a}:{b} {c}"),
    "name": lambda a, b, c: clean_name("ab" * a, "character"),
    "character": lambda a, b, c: Character("Bree", OWNER, level=a, fortitude=b, toughness=c),
    "rest minutes": lambda a, b, c: FatigueSettings(long_minutes=a, short_minutes=b),
    "dice": lambda a, b, c: roll_expression(f"{a % 1500}d{b}/{c % 3}", random.Random(a)).working,
    "dice min": lambda a, b, c: roll_expression(f"{a % 9}d6mi{'<>h'[b % 3]}{c}", random.Random(b)),
}


# English words of these replies that Spanish never keeps (game terms such as FP, Rank, TSR and
# typed values such as `back` or `heavy` it does keep).
ENGLISH_WORDS = re.compile(
    r"\b(Rested|Took|Temporary|left|cap|until|Now|was|Recovered|nothing|stays|pool|Over|Level|"
    r"Attack|Spell|Evasion|Extra|armor|enchantments?|Balance|Hard|must|between|more|less|whole|"
    r"number|name|characters|classes|Expected|score|initiative|Damage|Defense|Trade|Agility|"
    r"dice|many|roll|read|Cannot|valid)\b"
)


def outcome(name: str, a: int, b: int, c: int) -> str:
    """What the operation shows a reader: its error, or the texts it returns."""
    try:
        return repr(OPERATIONS[name](a, b, c))
    except RulesError as error:
        return "error: " + str(error)


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(sorted(OPERATIONS)),
    a=st.integers(-20, 2000),
    b=st.integers(-120, 120),
    c=st.integers(-5, 130),
)
def test_spanish_keeps_every_number_of_the_english(name: str, a: int, b: int, c: int) -> None:
    english = outcome(name, a, b, c)
    with speaking(SPANISH):
        spanish = outcome(name, a, b, c)
    assert english.startswith("error: ") == spanish.startswith("error: ")
    assert numbers(spanish) == numbers(english), (english, spanish)
    if english.startswith("error: "):  # every refusal here has words to translate
        assert spanish != english
    if spanish.startswith(("error: ", "[", "(", "'")):  # not a value's repr (Character(…))
        assert not ENGLISH_WORDS.search(spanish), spanish
