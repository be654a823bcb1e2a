"""What the GM keeps behind the screen and the fight's books, through export and import: a
hidden monster, initiative bonuses, a character kept out of the party and a roll-off come in as
they went out, with the changes that made them (`clock set`, `monster bring`, `monster appear`,
`monster hit again`); a value past what the commands allow is refused by the schema, and one
the schema can't see (inside a logged turn order) by the table's own checks, nothing written."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from rules.errors import RulesError
from store import Store
from table import bestiary, initiative, partyops
from table.bestiary import BuildOptions
from table.combat import Combatant
from table.model import Character, Table
from tests.store.conftest import Database
from tests.store.importing import GM, GUILD, PLAYER, checked, exported, without_ids_and_times

SOURCE, TARGET = 101, 202
Step = Any


def _step(fn: Any) -> Step:
    def run(table: Table) -> tuple[Table, None]:
        return fn(table)[0], None

    return run


async def play_behind_the_screen(store: Store, channel: int) -> None:
    """An evening as the commands play it: the clock set, a familiar kept out of the party,
    monsters prepared (one brought from elsewhere), a tie broken by a roll-off, a hit again."""
    familiar = Character("Pip", PLAYER, init_bonus=-2, in_party=False)
    aria = Character("Aria", PLAYER, level=3, init_bonus=2)
    options = BuildOptions(rank=1, armor="light")
    wolf = bestiary.create(Table(9, None), is_gm=True, name="Wolf", options=options)[1]
    rng = random.Random(4)

    def join(name: str) -> dict[str, Any]:  # a tie at 9, both with a bonus of +2
        return {"actor_id": GM, "is_gm": True, "name": name, "score": 9, "rng": rng}

    for action, fn in (
        ("character create", _step(lambda t: (t.with_character(aria), None))),
        ("character create", _step(lambda t: (t.with_character(familiar), None))),
        ("clock set", _step(lambda t: partyops.set_clock(t, 2, "18:00"))),
        (
            "monster create",
            _step(
                lambda t: bestiary.create(
                    t, is_gm=True, name="Goblin", options=options, hp_max=10, count=2, init_bonus=2
                )
            ),
        ),
        ("monster bring", _step(lambda t: bestiary.bring(t, is_gm=True, monsters=wolf))),
        ("monster appear", _step(lambda t: bestiary.appear(t, is_gm=True, name="Goblin 1"))),
        ("init add", _step(lambda t: initiative.add(t, **join("Goblin 1")))),
        ("init add", _step(lambda t: initiative.add(t, **join("Aria")))),
        ("monster hit", _step(lambda t: bestiary.hit(t, is_gm=True, name="Goblin 1", damage=5))),
        (
            "monster hit again",
            _step(lambda t: bestiary.hit(t, is_gm=True, name="Goblin 1", damage=5)),
        ),
    ):
        await store.apply(channel, GUILD, GM, action, fn)


async def test_the_screen_and_the_fights_books_move_with_the_channel(db: Database) -> None:
    async with Store.open(db.url) as store:
        await play_behind_the_screen(store, SOURCE)
        document = await exported(store, SOURCE)
        await store.import_channel(TARGET, GUILD, GM, checked(document))
        source, target = await store.read(SOURCE, GUILD), await store.read(TARGET, GUILD)
        assert target.characters == source.characters and target.monsters == source.monsters
        assert target.initiative == source.initiative
        assert [(m.name, m.hidden, m.init_bonus) for m in target.monsters] == [
            ("Goblin 1", False, 2),
            ("Goblin 2", True, 2),
            ("Wolf", True, 0),
        ]
        assert [c.in_party for c in target.characters] == [True, False]
        tied = [(c.name, c.bonus, c.rolloff > 0) for c in target.initiative.combatants]
        assert tied == [("Aria", 2, True), ("Goblin 1", 2, True)]  # a tie at 9 and +2
        actions = [e.action for e in reversed(await store.history(TARGET, 20))]
        assert actions[2:6] == ["clock set", "monster create", "monster bring", "monster appear"]
        assert actions[-1] == "monster hit again"
        again = await exported(store, TARGET)
        assert without_ids_and_times(again) == without_ids_and_times(document)


def _logged_order(document: dict[str, Any]) -> dict[str, Any]:
    """The turn order the latest `init add` logged (its after), as the file has it."""
    event = next(e for e in reversed(document["history"]) if e["action"] == "init add")
    order: dict[str, Any] = event["after"]["initiative"]["order"]
    return order


@pytest.mark.parametrize(
    ("spoil", "problem"),
    [
        (
            lambda d: d["monsters"][0].update(init_bonus=101),
            "monsters[0].init_bonus: 101 is above 100",
        ),
        (
            lambda d: d["characters"][0].update(init_bonus=-101),
            "characters[0].init_bonus: -101 is below -100",
        ),
        (
            lambda d: d["characters"][1].update(in_party="no"),
            'characters[1].in_party: "no" is not allowed here',
        ),
        (
            lambda d: d["monsters"][1].update(hidden=1),
            "monsters[1].hidden: 1 is not allowed here",
        ),
        (
            lambda d: d["initiative"]["combatants"][0].update(rolloff=101),
            "initiative.combatants[0].rolloff: 101 is above 100",
        ),
        (
            lambda d: d["initiative"]["combatants"][1].update(bonus=500),
            "initiative.combatants[1].bonus: 500 is above 100",
        ),
        (  # inside a logged change, where the schema holds only that it is an object
            lambda d: _logged_order(d)["combatants"][0].update(rolloff=500),
            "history[7].after: Roll-off must be between 0 and 100",
        ),
        (
            lambda d: _logged_order(d)["combatants"][0].update(bonus=-500),
            "history[7].after: Initiative bonus must be between −100 and 100",
        ),
    ],
)
async def test_a_value_no_command_gives_is_refused(spoil: Any, problem: str, db: Database) -> None:
    async with Store.open(db.url) as store:
        await play_behind_the_screen(store, SOURCE)
        document = await exported(store, SOURCE)
        spoil(document)
        with pytest.raises(RulesError) as refused:
            await store.import_channel(TARGET, GUILD, GM, checked(document))
        assert str(refused.value) == problem
        table, events, _rolls = await store.read_with_history(TARGET, GUILD)
        assert (table.characters, table.monsters, events) == ((), (), [])


def test_a_roll_off_is_a_d100_or_none() -> None:
    """The turn order's own check, which an import's logged orders go through."""
    for rolloff in (0, 1, 100):
        assert Combatant("Aria", 9, 0, rolloff=rolloff).rolloff == rolloff
    for rolloff in (-1, 101):
        with pytest.raises(RulesError, match="Roll-off must be between 0 and 100"):
            Combatant("Aria", 9, 0, rolloff=rolloff)
    with pytest.raises(RulesError, match="Initiative bonus must be between −100 and 100"):
        Combatant("Aria", 9, 0, bonus=101)
    assert dataclasses.replace(Combatant("Aria", 9, 0), bonus=-100).bonus == -100
