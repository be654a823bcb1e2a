"""`/redo`'s rules (table.undo), pure: a log kept in memory the way the store keeps it (each
event what `snapshot.diff` says, undo and redo marks as the store sets them), and properties
over random tables and random evenings of changes, undos and redos."""

from __future__ import annotations

import dataclasses
import random
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.fatigue import FatigueState
from table import bestiary, sheet, snapshot
from table.bestiary import BuildOptions
from table.event import Event
from table.model import Character, Forbidden, Monster, Table
from table.sheet import SheetOptions
from table.undo import (
    REDO_ACTION,
    UNDO_ACTION,
    AskFirst,
    ask_first,
    plan_redo,
    plan_undo,
    removes,
    standing,
)

GM, PIP, PER = 11, 21, 22
NAMES = ("Ann", "Bo", "Cy", "Dee")
SEEDS = st.integers(0, 2**32 - 1)
BUILD = bestiary.build(BuildOptions(rank=2, armor="heavy")).to_dict()


class Log:
    """A channel and its log in memory: what the store does around the pure rules."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.events: list[Event] = []

    def _log(self, actor: int, action: str, after: Table, undoes: int | None = None) -> Event:
        old, new = snapshot.diff(self.table, after)
        moment = datetime(2026, 1, 1, tzinfo=UTC)
        event = Event(len(self.events) + 1, actor, action, moment, old, new, 1, undoes=undoes)
        self.events.append(event)
        self.table = after
        return event

    def _mark(self, event: Event, undone_by: int) -> None:
        self.events[event.id - 1] = dataclasses.replace(event, undone_by=undone_by)

    def change(self, actor: int, after: Table) -> None:
        if after != self.table:
            self._log(actor, "change", after)

    def undo(self, actor: int = GM, gm: bool = True) -> Table:
        target = next(
            e
            for e in reversed(self.events)
            if e.undone_by is None and e.undoes is None and (gm or e.actor_id == actor)
        )
        later = self.events[target.id :]
        undone = plan_undo(self.table, target, later, actor, gm)
        undo = self._log(actor, UNDO_ACTION, undone, undoes=target.id)
        self._mark(target, undo.id)
        return self.table

    def redo(self, actor: int = GM, gm: bool = True) -> Table:
        undo = next(
            (
                e
                for e in reversed(self.events)
                if e.undoes is not None and e.undone_by is None and (gm or e.actor_id == actor)
            ),
            None,
        )
        if undo is None or undo.undoes is None:
            raise RulesError("nothing to redo")
        change = self.events[undo.undoes - 1]
        later = self.events[undo.id :]
        redone = plan_redo(self.table, change, undo, later, actor, gm)
        redo = self._log(actor, REDO_ACTION, redone)
        self._mark(undo, redo.id)
        return self.table


def character(rng: random.Random, name: str, owner: int = PIP) -> Character:
    fatigue = FatigueState(fp=rng.randint(0, 90), vp_damage=rng.randint(0, 2))
    return Character(name, owner, level=rng.randint(1, 9), fatigue=fatigue)


def start(rng: random.Random, names: tuple[str, ...] = NAMES) -> Table:
    table = Table(1, 2, clock=rng.randint(0, 1000))
    for name in rng.sample(names, rng.randint(0, len(names) - 1)):
        table = table.with_character(character(rng, name))
    return table


def changed(rng: random.Random, table: Table, names: tuple[str, ...] | None = None) -> Table:
    """Any next state that changes something: the clock, a character created, changed or
    removed, or the Orc; with `names`, one of those characters only."""
    while True:
        roll = 1.0 if names else rng.random()
        if roll < 0.2:
            after = dataclasses.replace(table, clock=rng.randint(0, 10**6))
        elif roll < 0.3:
            orc = Monster("Orc", BUILD, 30, rng.randint(-5, 30), rng.choice("NESW"))
            after = table.without_monster("Orc") if table.find_monster("Orc") else table
            after = after.with_monster(orc) if rng.random() < 0.7 else after
        else:
            name = rng.choice(names or NAMES)
            gone = table.find(name) is not None and rng.random() < 0.3
            after = table.without(name) if gone else table.with_character(character(rng, name))
        if after != table:
            return after


# --- undo then redo ---------------------------------------------------------------------


@given(seed=SEEDS)
def test_undo_then_redo_gives_back_the_table_as_the_change_left_it(seed: int) -> None:
    rng = random.Random(seed)
    log = Log(start(rng))
    before = log.table
    log.change(PIP, changed(rng, before))
    after = log.table
    assert log.undo() == before
    assert log.redo() == after
    with pytest.raises(RulesError):  # that undo is redone: nothing is left to redo
        log.redo()


@given(seed=SEEDS, rounds=st.integers(1, 6))
def test_undo_redo_chains_go_back_and_forth(seed: int, rounds: int) -> None:
    """Undo, redo, undo (the redo), redo (that undo), …: the table alternates between the
    two states, and every step is logged."""
    rng = random.Random(seed)
    log = Log(start(rng))
    before = log.table
    log.change(PIP, changed(rng, before))
    after = log.table
    for _ in range(rounds):
        assert log.undo() == before
        assert log.redo() == after
    assert len(log.events) == 1 + 2 * rounds


@given(seed=SEEDS, count=st.integers(1, 6))
def test_undos_are_redone_newest_first_back_to_the_end(seed: int, count: int) -> None:
    rng = random.Random(seed)
    log = Log(start(rng))
    states = [log.table]
    for _ in range(count):
        log.change(GM, changed(rng, log.table))
        states.append(log.table)
    for state in reversed(states[:-1]):
        assert log.undo() == state
    for state in states[1:]:
        assert log.redo() == state


# --- nothing newer stands on it --------------------------------------------------------------


@given(seed=SEEDS)
def test_redo_is_refused_when_a_later_change_touched_the_same_character(seed: int) -> None:
    rng = random.Random(seed)
    log = Log(start(rng))
    log.change(PIP, changed(rng, log.table, ("Ann",)))
    log.undo(PIP, gm=False)
    log.change(GM, changed(rng, log.table, ("Ann",)))  # built on the table the undo left
    table, events = log.table, list(log.events)
    with pytest.raises(RulesError, match=r"Can't redo change by <@21> .*a later change.*Ann"):
        log.redo()
    assert (log.table, log.events) == (table, events)  # a refusal changes nothing


@given(seed=SEEDS)
def test_redo_is_allowed_when_later_changes_touched_other_characters(seed: int) -> None:
    rng = random.Random(seed)
    log = Log(start(rng, ("Bo", "Cy", "Dee")))
    log.change(PIP, log.table.with_character(character(rng, "Ann")))
    with_ann = log.table.get("Ann")
    log.undo(PIP, gm=False)
    log.change(GM, changed(rng, log.table, ("Bo", "Cy")))
    others = log.table
    assert log.redo(PIP, gm=False) == others.with_character(with_ann)


@given(seed=SEEDS)
def test_a_later_change_undone_stands_no_more_and_one_redone_stands_again(seed: int) -> None:
    rng = random.Random(seed)
    log = Log(start(rng))
    log.change(PIP, changed(rng, log.table, ("Ann",)))
    log.undo(PIP, gm=False)
    log.change(GM, changed(rng, log.table, ("Ann",)))
    log.undo(GM)  # the GM's change on Ann, undone: nothing stands on Pippa's undo now
    log.redo(PIP, gm=False)  # her change is back
    table = log.table
    with pytest.raises(RulesError, match=r"a later change, redo by <@21>.*Ann"):
        log.redo(GM)  # the GM's undo: Pippa's redo stands on Ann since
    assert log.table == table


def test_a_redo_is_itself_undone_by_undo() -> None:
    table = Table(1, 2, characters=(Character("Ann", PIP),))
    log = Log(table)
    log.change(PIP, table.without("Ann"))
    log.undo(PIP, gm=False)
    log.redo(PIP, gm=False)
    assert log.undo(PIP, gm=False) == table  # the player's latest change is the redo
    assert [e.action for e in log.events] == ["change", UNDO_ACTION, REDO_ACTION, UNDO_ACTION]
    assert log.events[2].undone_by == 4 and log.events[1].undone_by == 3


# --- what stands ---------------------------------------------------------------------------


@given(seed=SEEDS, steps=st.integers(1, 25))
def test_every_record_reads_as_the_last_standing_event_that_touched_it(
    seed: int, steps: int
) -> None:
    """Over any evening of changes, undos and redos (each tried; a refusal changes nothing),
    a character reads as the last event that still stands and touched it left it, or as it
    was at the start when none does."""
    rng = random.Random(seed)
    log = Log(start(rng))
    first = log.table
    for _ in range(steps):
        kind = rng.random()
        try:
            if kind < 0.5:
                log.change(GM, changed(rng, log.table))
            elif kind < 0.75:
                log.undo()
            else:
                log.redo()
        except (RulesError, StopIteration):
            pass
    stands = standing(0, log.events)
    for name in NAMES:
        key = name.casefold()
        last = [e.after["characters"][key] for e in stands if key in e.after["characters"]]
        at_start = first.find(name)
        expected = last[-1] if last else at_start and snapshot.character_to_dict(at_start)
        now = log.table.find(name)
        assert (now and snapshot.character_to_dict(now)) == expected, name


def test_standing_pairs_each_event_with_what_cancels_it() -> None:
    def event(id_: int, undone_by: int | None = None) -> Event:
        return Event(id_, GM, "x", datetime(2026, 1, 1, tzinfo=UTC), {}, {}, undone_by=undone_by)

    # 1 undone by 2, 2 redone by 3, 3 undone by 4; 5 stands alone
    chain = [event(1, 2), event(2, 3), event(3, 4), event(4), event(5)]
    assert [e.id for e in standing(0, chain)] == [5]
    assert [e.id for e in standing(1, chain)] == [4, 5]  # 2 cancels what is not among them
    assert [e.id for e in standing(2, chain)] == [5]
    assert [e.id for e in standing(3, chain[:3])] == []


# --- who may redo -----------------------------------------------------------------------------


def test_a_player_redoes_only_their_own_undo_and_the_gm_anyones() -> None:
    table = Table(1, 2, characters=(Character("Ann", PIP), Character("Bo", PER)))
    log = Log(table)
    log.change(PER, table.with_character(Character("Bo", PER, level=5)))
    log.undo(GM)
    with pytest.raises(RulesError, match="nothing to redo"):
        log.redo(PER, gm=False)  # the GM's undo is not Perrin's to redo
    undo = log.events[-1]
    with pytest.raises(Forbidden, match="only redo what you undid yourself"):
        plan_redo(log.table, log.events[0], undo, [], PER, is_gm=False)
    assert log.redo(GM).get("Bo").level == 5


def test_a_player_may_not_redo_an_undo_that_touched_someone_elses_character() -> None:
    table = Table(1, 2, characters=(Character("Bo", PER),))
    log = Log(table)
    log.change(PIP, table.with_character(Character("Bo", PER, level=5)))  # made as a GM then
    log.undo(PIP, gm=True)
    with pytest.raises(Forbidden, match=r"Only the GM can redo change by <@21>.*Bo"):
        log.redo(PIP, gm=False)


# --- asking first -------------------------------------------------------------------------


def test_taking_a_character_or_monster_away_is_asked_first_and_a_rename_is_not() -> None:
    ann, orc = Character("Ann", PIP), Monster("Orc", BUILD, 5, 5, "N")
    table = Table(1, 2, characters=(ann,), monsters=(orc,))
    assert removes(table, table.without("Ann").without_monster("Orc")) == ("Ann", "Orc")
    renamed = sheet.change(table, PIP, False, "Ann", SheetOptions(), new_name="Anna")[0]
    assert removes(table, renamed) == ()
    assert removes(table, table.with_character(dataclasses.replace(ann, level=3))) == ()

    change = Event(7, PIP, "character create", datetime(2026, 1, 1, tzinfo=UTC), {}, {})
    with pytest.raises(AskFirst) as asked:
        ask_first(table, table.without("Ann"), change, 7, redo=False)
    assert (asked.value.removes, asked.value.expect, asked.value.redo) == (("Ann",), 7, False)
    assert asked.value.after == {"characters": {"ann": None}}
    ask_first(table, renamed, change, 7, redo=False)  # nothing taken away: no question
