"""Every reply `render` builds reads in Spanish for a Spanish reader, with the English
reply's numbers: history lines for each kind of change (rendered from the stored before/after,
so changes logged before this version read in Spanish too), the sheet, the board, the clock,
settings, initiative, secret rolls, monsters and party saves.

Text that other layers make and the renderer only places (the game time of `rules.gametime`,
a monster's rules notes) is taken out before the check, by value, so this tests the
renderer's own words."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from datetime import UTC, datetime
from fractions import Fraction
from functools import partial
from typing import Any

import discord
import pytest

import lang
from lang import _
from render import (
    cards,
    characters,
    confirm,
    fatigue,
    history,
    initiative,
    monsters,
    saves,
    secret,
)
from render import settings as settings_render
from rules.defense import SPOTS
from rules.dice import OpenEndedRoll
from rules.fatigue import FatigueEvent, FatigueState
from rules.gametime import game_time
from rules.saves import Difficulty, SaveKind, SaveResult, resolve
from table import actions, bestiary
from table.combat import Combatant, Initiative
from table.event import Event
from table.initiative import TurnReport
from table.model import ChannelSettings, Character, Monster, Table
from table.partyops import CharacterChange, PartyReport
from table.sight import GM_ALONE, Sight
from table.snapshot import diff
from table.touched import describe
from table.undo import Undone
from tests.e2e.english import english_words

pytestmark = pytest.mark.usefixtures("shipped_catalogs")

NOW = datetime(2025, 5, 1, 14, 30, tzinfo=UTC)
AT = datetime(2025, 4, 1, 14, 2, tzinfo=UTC)
NAMES = ("Aria", "Bo", "Orc", "Troll", "Pippa")
ARIA = Character(
    "Aria",
    21,
    classes=((10, 5), (8, 2)),
    combine="multi",
    toughness=2,
    base_hd="4+1",
    kin_hd_size=8,
    fatigue=FatigueState(
        fp=85, temp=3, temp_expires=600, shattered_cap=True, exhausted_cap=True, vp_damage=2
    ),
)
ORC = Monster(
    "Orc",
    {
        "rank": 2,
        "armor": "heavy",
        "trade": 2,
        "agility": 3,
        "spots": ["back", {"spot": "left", "revealed": True}],
        "armor_enchantments": [1, 2],
        "weapon_enchantments": [1],
        "order": "miniboss",
    },
    hp_max=30,
    hp=-2,
    facing="E",
)


HIDDEN = Sight(numbers=False, hidden_spots=False)  # the channel's, monster_stats:hidden


def shown(embed: discord.Embed) -> str:
    data: dict[str, Any] = dict(embed.to_dict())
    parts = [(data.get("author") or {}).get("name"), data.get("title"), data.get("description")]
    parts += [f"{f['name']}: {f['value']}" for f in data.get("fields") or []]
    parts.append((data.get("footer") or {}).get("text"))
    return "\n".join(p for p in parts if p)


def card_text(card: cards.Card) -> str:
    """A card's words, top to bottom."""
    return "\n".join([card.heading, *(e.text for e in card.entries), card.notes])


def numbers(text: str) -> list[str]:
    return sorted(re.findall(r"[−-]?\d+(?:[.,]\d+)*%?", text))


def without(text: str, others: list[str]) -> str:
    """`text` without what other layers made (matched by value, longest first)."""
    for piece in sorted(others, key=len, reverse=True):
        text = text.replace(piece, " ")
    return text


def check(make: Callable[[], str], others: Callable[[], list[str]] = list) -> str:
    """The Spanish text: the same numbers as the English, and no English word of its own."""
    english = make()
    with lang.speaking("es-ES"):
        spanish, made_elsewhere = make(), others()
    assert numbers(spanish) == numbers(english), spanish
    assert english_words(without(english, others()), NAMES), english  # the check can fail
    found = english_words(without(spanish, made_elsewhere), NAMES)
    assert not found, f"{found} in:\n{spanish}"
    return spanish


def times(*seconds: int) -> Callable[[], list[str]]:
    return lambda: [game_time(s) for s in seconds]


# --- /history and /undo -------------------------------------------------------------------


def table(*characters: Character, **fields: Any) -> Table:
    return dataclasses.replace(Table(1, 5, characters=characters), **fields)


def event(before: Table, after: Table, action: str = "fatigue spend", **fields: Any) -> Event:
    old, new = diff(before, after)
    base = Event(id=7, actor_id=21, action=action, created_at=AT, before=old, after=new)
    return dataclasses.replace(base, **fields)


def fighting(*names: str, round_: int = 0, turn: int = 0) -> Initiative:
    combatants = tuple(Combatant(n, 10 + i, i) for i, n in enumerate(names))
    return Initiative(combatants, round=round_, turn=turn)


HISTORY = [
    event(table(), table(ARIA), "character create"),
    event(table(ARIA), table(), "character remove", undone_by=9),
    event(table(ARIA), table(dataclasses.replace(ARIA, name="Bo")), "character set"),
    event(
        table(ARIA),
        table(
            dataclasses.replace(
                ARIA,
                owner_id=22,
                level=4,
                fortitude=3,
                wisdom=-1,
                kin_tsr=2,
                kin_wsr=1,
            )
        ),
        "character set",
    ),
    event(
        table(ARIA),
        table(
            dataclasses.replace(
                ARIA,
                special_tsr=5,
                special_wsr=-5,
                classes=((6, 1), (4, 1)),
                combine="dual",
                toughness=-1,
                base_hd="2",
                kin_hd_size=6,
                fl_override=Fraction(41, 2),
            )
        ),
        "character set",
    ),
    event(
        table(ARIA),
        table(
            dataclasses.replace(
                ARIA,
                fatigue=FatigueState(fp=10, temp=1, temp_expires=900, settled=1200),
            )
        ),
        "rest short",
    ),
    event(table(ARIA, clock=60), table(ARIA, clock=660), "clock pass"),
    event(
        table(),
        table(
            settings=ChannelSettings(
                ties="succeed",
                round_seconds=6,
                rest_rate=2,
                break_minutes=5,
                short_minutes=30,
                long_minutes=480,
                gm_role_id=77,
                history_keep=2500,
                threads="own",
            )
        ),
        "settings set",
    ),
    event(table(), table(monsters=(ORC,)), "monster create"),
    event(
        table(monsters=(ORC,)),
        table(monsters=(dataclasses.replace(ORC, hp=12, facing="S", hp_max=40),)),
        "monster hit",
    ),
    event(
        table(monsters=(ORC,)),
        table(
            monsters=(
                dataclasses.replace(
                    ORC, build={**ORC.build, "spots": [{"spot": "back", "revealed": True}, "left"]}
                ),
            )
        ),
        "monster reveal",
    ),
    event(
        table(monsters=(ORC,)),
        table(monsters=(dataclasses.replace(ORC, build={**ORC.build, "trade": 0}),)),
        "monster create",
    ),
    event(table(monsters=(ORC,)), table(), "monster remove", undoes=3),
    event(table(), table(initiative=fighting("Orc", "Bo")), "init add"),
    event(
        table(initiative=fighting("Orc", "Bo")),
        table(initiative=fighting("Orc", "Bo", round_=1, turn=1)),
        "init start",
    ),
    event(
        table(initiative=fighting("Orc", "Bo", round_=1, turn=1)),
        table(initiative=fighting("Orc", round_=2)),
        "init next",
    ),
    event(
        table(initiative=fighting("Orc", "Bo", round_=2)),
        table(initiative=fighting("Orc", "Bo")),
        "init end",
    ),
    event(table(initiative=fighting("Orc", "Bo", round_=2)), table(), "init end"),
    event(table(ARIA), table(ARIA), "undo"),
]


@pytest.mark.parametrize("logged", HISTORY, ids=lambda e: e.action)
def test_each_kind_of_change_reads_in_spanish(logged: Event) -> None:
    check(lambda: history.event_line(logged, NOW, numbers=True), times(60, 660, 600, 900, 1200))


def test_the_history_page_and_an_undo() -> None:
    check(lambda: shown(history.history_embed(HISTORY[:3], NOW, numbers=True)), times(600))
    check(lambda: shown(history.history_embed([], NOW, numbers=True)))
    check(lambda: shown(history.history_embed([], NOW, newest=False, numbers=True)))
    undone = Undone(HISTORY[0], dataclasses.replace(HISTORY[1], undoes=7), table())
    check(lambda: shown(history.undone_embed(undone, NOW, numbers=True)), times(600))


def test_every_logged_action_has_a_spanish_name() -> None:
    with lang.speaking("es-ES"):
        named = {action: actions.action_text(action) for action in actions.ACTIONS}
    assert all(named[action] != action for action in named)
    assert actions.action_text("test seed") == "test seed"  # unknown: as logged


def test_an_undo_refusal_names_the_change_in_the_readers_language() -> None:
    spend = HISTORY[0]
    with lang.speaking("es-ES"):
        named = describe(spend)
        spanish = actions.action_text(spend.action)
    assert spanish != spend.action and named.startswith(f"{spanish} ")


# --- characters, fatigue, the clock -------------------------------------------------------


def test_the_sheet_roster_and_removal() -> None:
    override = dataclasses.replace(ARIA, fl_override=Fraction(61, 3))
    for hero in (ARIA, override, Character("Bo", 22)):
        check(partial(lambda h: shown(characters.sheet_embed(h)), hero), times(600))
        check(partial(lambda h: shown(characters.created_embed(h)), hero))
    check(lambda: shown(characters.roster_embed(table(ARIA, Character("Bo", 22)))))
    check(lambda: shown(characters.roster_embed(table())))
    check(lambda: shown(characters.confirm_remove_embed(ARIA)))
    check(lambda: shown(characters.removed_embed(ARIA)))
    check(lambda: shown(confirm.cancelled_embed("Aria")))
    check(lambda: shown(confirm.cancelled_embed("Aria", timed_out=True)))


def test_the_board_a_reset_and_the_clock() -> None:
    fresh = Character("Bo", 22, fl_override=Fraction(20), fatigue=FatigueState(fp=3, settled=900))
    party = table(ARIA, fresh, Character("Pippa", 23), clock=60)
    check(lambda: card_text(cards.party_card(party)), times(60, 600, 900))
    check(lambda: card_text(cards.party_card(table())), times(0))
    check(lambda: card_text(cards.character_card(ARIA, 60, 2)), times(60, 600, 900))
    was = FatigueState(fp=60, temp=2, temp_expires=600)
    spent = CharacterChange("Aria", ARIA.fl, was, ARIA.fatigue)
    spent = dataclasses.replace(spent, events=(FatigueEvent("cap_set", "…"),))
    check(lambda: shown(fatigue.change_embed("Aria", spent, 60)), times(60, 600, 900))
    check(lambda: shown(fatigue.clock_embed(party)), times(60, 600, 900))
    change = CharacterChange("Aria", ARIA.fl, ARIA.fatigue, FatigueState())
    report = PartyReport((change,), ("Pippa",), 60, 60, round_after=2)
    check(lambda: shown(fatigue.report_embed("Aria", report, 60, reset=True)), times(60))
    quiet = PartyReport((), (), 0, 600, round_after=11)
    check(lambda: shown(fatigue.report_embed("Aria", quiet, 60, quiet=True)), times(0, 600))
    fight = PartyReport((), (), 0, 600, round_after=11, fight_round=2)
    check(lambda: shown(fatigue.report_embed("Aria", fight, 60, quiet=True)), times(0, 600))
    with lang.speaking("es-ES"), pytest.raises(Exception, match="página"):
        cards.party_card(party, page=3)


# --- settings, initiative, secret rolls ---------------------------------------------------


def test_settings_shown_and_changed() -> None:
    default, changed = (
        ChannelSettings(),
        ChannelSettings(
            ties="succeed", round_seconds=6, history_keep=2500, threads="own", gm_role_id=7
        ),
    )
    sources = {field: "server" for field, _label, _unit in settings_render.ROWS}
    sources["gm_role_id"] = "default"
    check(lambda: shown(settings_render.settings_embed(changed, sources=sources)))
    check(lambda: shown(settings_render.settings_embed(default, scope="server")))
    check(lambda: shown(settings_render.settings_embed(changed, default, "Día 1, 00:00")))
    check(lambda: shown(settings_render.settings_embed(changed, default, scope="server")))
    check(lambda: shown(settings_render.settings_embed(default, default)))
    with lang.speaking("es-ES"):
        labels = [_(label) for _field, label, _unit in settings_render.ROWS]
    assert not english_words(" ".join(labels))


def test_initiative() -> None:
    started = table(initiative=fighting("Orc", "Troll", round_=2, turn=1), clock=60)
    check(lambda: shown(initiative.order_embed(started)), times(60))
    waiting = table(initiative=fighting("Orc", "Troll"), clock=60)
    check(lambda: shown(initiative.order_embed(waiting)), times(60))
    check(lambda: shown(initiative.order_embed(table())))
    down = Monster("Orc", {"rank": 1, "armor": "light"}, hp_max=5, hp=0)
    orc = Combatant("Orc", 12, 0, "monster")
    beaten = table(
        monsters=(down,), initiative=Initiative((orc, Combatant("Troll", 3, 1)), 2, 1), clock=60
    )
    check(lambda: shown(initiative.order_embed(beaten)), times(60))
    back = TurnReport(Combatant("Troll", 3, 1), orc, 2, None, None, (orc,), back=True)
    check(lambda: initiative.turn_title(back) + "\n" + initiative.turn_text(back))
    passed = TurnReport(orc, Combatant("Troll", 3, 1), 2, None, down, (orc,))
    check(lambda: initiative.turn_title(passed) + "\n" + initiative.turn_text(passed))
    fight = table(ARIA, monsters=(down,), initiative=fighting("Aria", "Troll", turn=1), clock=60)
    faded = PartyReport(
        (
            CharacterChange(
                "Aria", ARIA.fl, ARIA.fatigue, ARIA.fatigue, (FatigueEvent("temp_expired", "…"),)
            ),
        ),
        (),
        0,
        60,
    )
    new_round = TurnReport(orc, Combatant("Aria", 9, 0, "character"), 3, faded, None, (orc,))
    check(lambda: shown(initiative.turn_embed(fight, new_round, "Orc")), times(60))
    check(lambda: shown(initiative.start_embed(fight)))
    check(lambda: card_text(cards.order_card(started)), times(60))
    many = table(initiative=fighting(*(f"Orc {n}" for n in range(12)), round_=1), clock=60)
    check(lambda: card_text(cards.order_card(many, 2)), times(60))
    check(lambda: card_text(cards.order_card(beaten)), times(60))
    check(lambda: card_text(cards.order_card(table())), times(0))


def test_secret_rolls() -> None:
    check(lambda: shown(secret.notice_embed("Pippa", "WSR", "Poison")))
    check(lambda: shown(secret.notice_embed("Pippa", "WSR", revealed=True)))
    check(lambda: secret.private_text("Pippa", "TSR", yours=True))
    check(lambda: secret.private_text("Pippa", "TSR", yours=False))


# --- monsters and saves -------------------------------------------------------------------


def test_every_spot_name_is_marked() -> None:
    assert monsters.SPOT_NAMES == SPOTS
    with lang.speaking("es-ES"):
        assert not english_words(" ".join(monsters.spot_name(spot) for spot in SPOTS))


def test_monster_blocks_and_hits() -> None:
    rules_text = lambda: [*ORC.block.notes, *ORC.block.warnings]  # noqa: E731 - rules' words
    public = Sight(numbers=True, hidden_spots=False)
    for seen in (GM_ALONE, public, HIDDEN):
        check(lambda: shown(monsters.monster_embed(ORC, sight=seen)), rules_text)  # noqa: B023
        check(lambda: card_text(cards.monster_card(ORC, seen)), rules_text)  # noqa: B023
        check(lambda: shown(monsters.roster_embed([ORC], seen)))  # noqa: B023
        check(lambda: shown(monsters.created_embed([ORC], seen)), rules_text)  # noqa: B023
    check(lambda: shown(monsters.gm_copy(monsters.monster_embed(ORC, sight=GM_ALONE))), rules_text)
    check(lambda: shown(monsters.block_embed(ORC.block, title="Orc")), rules_text)
    check(lambda: shown(monsters.roster_embed([], HIDDEN)))
    orc = dataclasses.replace(ORC, hp=None)
    hits = [
        bestiary.hit(Table(1, 5, monsters=(orc,)), is_gm=True, name="Orc", damage=d, from_square=f)[
            1
        ]
        for d, f in ((12, "W"), (12, "N"), (40, "E"), (3, None))
    ]
    hits.append(bestiary.hit(Table(1, 5, monsters=(ORC,)), is_gm=True, name="Orc", damage=5)[1])
    for hit in hits:
        for seen in (GM_ALONE, public, HIDDEN):
            check(lambda: shown(monsters.hit_embed(hit, seen)))  # noqa: B023
    check(lambda: shown(monsters.confirm_remove_embed(ORC)))
    check(lambda: monsters.hidden_count(1))
    check(lambda: monsters.hidden_count(2))
    impervious = Monster("Troll", {"rank": 1, "armor": "impervious", "extra_evasion": -2})
    notes = lambda: list(impervious.block.notes)  # noqa: E731 - rules' words
    check(lambda: shown(monsters.monster_embed(impervious, sight=GM_ALONE)), notes)


def save(difficulty: Callable[[], Difficulty], ties: bool) -> SaveResult:
    """A save resolved in the current language (the rules name its pieces and Difficulty)."""
    return resolve(
        SaveKind.TSR,
        level=3,
        stat=5,
        kin=-2,
        special=1,
        mod=4,
        difficulty=difficulty(),
        roll=OpenEndedRoll.from_dice([3, 97, 40]),
        per=5,
        ties_succeed=ties,
    )


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize(
    "difficulty",
    [
        partial(Difficulty.attack_level, 7),
        partial(Difficulty.number, 80),
        partial(Difficulty.spell, 150),
    ],
    ids=["level", "dc", "spell"],
)
def test_saves_alone_and_for_the_party(difficulty: Callable[[], Difficulty], ties: bool) -> None:
    def rules_text() -> list[str]:  # the Difficulty's label and the Level piece: rules' words
        result = save(difficulty, ties)
        return [result.difficulty.label, result.pieces[0][0]]

    def alone() -> str:
        return shown(saves.save_embed(save(difficulty, ties), "Aria"))

    def party() -> str:
        result = save(difficulty, ties)
        everyone = [("Aria", result), ("Bo", result)]
        return shown(saves.party_embed(SaveKind.WSR, result.difficulty, everyone, mod=4, per=5))

    check(alone, rules_text)
    check(party, rules_text)
