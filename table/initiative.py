"""`/init`: the changes to a channel's turn order, as pure `Table -> (Table, result)` steps.

Passing the last combatant starts a new round, and the channel clock moves one round by the
very step `/clock round` takes (`partyops.pass_rounds`), so Temporary FP fades the same way.
A monster of the bestiary at 0 HP or below is defeated: it stays in the order, marked, but the
turn passes over it and it is never asked its facing. Who may act is decided by the cog inside
the transaction (`is_gm` is passed in).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace

from lang import N_, _
from rules.dice import DieSource
from rules.errors import RulesError

from table import partyops
from table.bestiary import GM_ONLY, group
from table.combat import COMBATANTS_MAX, ROLLOFF_DIE, Combatant, Initiative, check_score
from table.dice_expr import DiceRoll, roll_expression
from table.lookalikes import channel_names, check_unlike
from table.model import Forbidden, Monster, Table
from table.names import clean_name, name_key
from table.partyops import PartyReport

# Marked messages in English: raised (or shown) through `_()`.
PLAYERS_ADD_OWN = N_(
    "Players add only their own character to the initiative; the GM adds monsters and others"
)
NOBODY = N_("Nobody is in the initiative yet: add them with `/init add name:… score:…`")
NOT_RUNNING = N_("No initiative is running: add names with `/init add`, then `/init start`")
NEEDS_SCORE = N_(
    "A name that is neither a character nor a monster here needs a score: `score:12` or dice"
)
OTHER_HINT = N_("To add a name that is neither, set `other:True`")
ALL_DEFEATED = N_("Everyone in the initiative is defeated: `/init end` ends the fight")


@dataclass(frozen=True)
class TurnReport:
    """What `/init next` did: whose turn ended, whose begins, and a new round's clock move."""

    ended: Combatant
    now: Combatant
    round: int
    new_round: PartyReport | None  # the clock moving one round, when a round began
    facing: Monster | None  # the monster whose turn ended, when it has unarmored spots
    skipped: tuple[Combatant, ...] = ()  # the defeated ones the turn passed over
    back: bool = False  # `/init prev`: the turn went back to `now`


@dataclass(frozen=True)
class Joined:
    """What `/init add` did: who joined, the dice rolled for the score (None for a plain
    number), those it tied with at its score in turn order (itself among them; empty without a
    tie: the bonus, then a roll-off, decides), and whether a monster the GM had kept hidden
    appeared by joining."""

    combatant: Combatant
    roll: DiceRoll | None = None
    ties: tuple[Combatant, ...] = ()
    appeared: bool = False


@dataclass(frozen=True)
class Removal:
    """What `/init remove` did: who left, and the turn passing on when it was theirs."""

    gone: Combatant
    passed: TurnReport | None = None


def _order(table: Table) -> Initiative:
    return table.initiative


def _with(table: Table, initiative: Initiative) -> Table:
    return replace(table, initiative=initiative)


def defeated(table: Table, combatant: Combatant) -> bool:
    """A monster of the bestiary at 0 HP or below: out of the fight, though still listed."""
    if combatant.kind != "monster":
        return False
    monster = table.find_monster(combatant.name)
    return monster is not None and monster.down


def _standing(table: Table) -> list[bool]:
    """For each combatant in turn order, whether it can still take a turn."""
    return [not defeated(table, c) for c in table.initiative.combatants]


def _score(
    table: Table, score: int | str | None, rng: DieSource | None, bonus: int = 0
) -> tuple[int, DiceRoll | None]:
    """A whole number as it is; text rolled as dice (`1d10+3`, as `/roll` reads them; `12`
    is just 12); None rolls the channel's `init_dice` plus the stored `bonus`."""
    if isinstance(score, int):  # a bool is refused here
        return check_score(score), None
    if score is None:
        dice = table.settings.init_dice
        if re.fullmatch(r"[+-]?\d{1,7}", dice):  # a fixed score, as the channel set it
            return check_score(int(dice) + bonus), None
        text = f"{dice}{bonus:+d}" if bonus else dice
    else:
        text = score.replace("\u2212", "-").strip()
    if re.fullmatch(r"[+-]?\d{1,7}", text):
        return check_score(int(text)), None
    if rng is None:  # a bug: the caller rolls nothing without a source of dice
        raise ValueError("initiative dice need a random source")
    rolled = roll_expression(text, rng)
    return check_score(rolled.total), rolled


def add(
    table: Table,
    *,
    actor_id: int,
    is_gm: bool,
    name: str,
    score: int | str | None = None,
    other: bool = False,
    rng: DieSource | None = None,
) -> tuple[Table, Joined]:
    """A stored character, a monster of the bestiary, or (the GM, with `other`) a name that is
    neither, at `score`: a number, dice to roll, or (a stored one) None to roll the channel's
    `init_dice` with `rng`. A name that matches nothing is refused with the close matches, so
    a typo never adds a combatant no other command can reach. While the initiative runs,
    whoever has the turn keeps it."""
    order = _order(table)
    character = table.find(name)
    monster = None if character is not None else table.find_monster(name)
    if not is_gm and (character is None or character.owner_id != actor_id):
        raise Forbidden(_(PLAYERS_ADD_OWN))
    if character is None and monster is None and not other:
        raise RulesError(_unknown(table, name))
    if character is None and monster is None and score is None:
        raise RulesError(_(NEEDS_SCORE))
    stored = character or monster
    bonus = 0 if stored is None else stored.init_bonus
    value, rolled = _score(table, score, rng, bonus)
    if character is not None:
        new = Combatant(character.name, value, 0, "character", character.owner_id, bonus)
    elif monster is not None:
        new = Combatant(monster.name, value, 0, "monster", bonus=bonus)
    else:
        new = Combatant(clean_name(name, N_("combatant")), value, 0)
        check_unlike(new.name, channel_names(table))  # a new name: like none in the channel
    check_unlike(new.name, [c.name for c in order.combatants])  # no two alike in a fight
    there = order.find(new.name)
    if there is not None:
        if is_gm:
            raise RulesError(
                _(
                    "{name} is already in the initiative (score {score}): "
                    "`/init remove` it first to change the score",
                    name=there.name,
                    score=there.score,
                )
            )
        raise RulesError(  # `/init remove` is the GM's
            _(
                "{name} is already in the initiative (score {score}): "
                "ask the GM to `/init remove` it first to change the score",
                name=there.name,
                score=there.score,
            )
        )
    if len(order.combatants) >= COMBATANTS_MAX:
        raise RulesError(_("The initiative holds at most {most} names", most=COMBATANTS_MAX))
    added = 1 + max((c.added for c in order.combatants), default=0)
    combatants = _roll_off((*order.combatants, replace(new, added=added)), rng)
    new = combatants[-1]
    current = order.current
    grown = replace(order, combatants=combatants, turn=0)
    if current is not None:  # whoever has the turn keeps it (a roll-off never moves it)
        grown = replace(
            grown, turn=next(i for i, c in enumerate(grown.combatants) if c.key == current.key)
        )
    ties = tuple(c for c in grown.combatants if c.score == new.score)
    appeared = monster is not None and monster.hidden
    if appeared and monster is not None:  # it enters the fight: the players see it now
        table = table.with_monster(replace(monster, hidden=False))
    return _with(table, grown), Joined(new, rolled, ties if len(ties) > 1 else (), appeared)


def _roll_off(combatants: tuple[Combatant, ...], rng: DieSource | None) -> tuple[Combatant, ...]:
    """The last of `combatants` (the newcomer), with a roll-off against those it ties at score
    and bonus: each of them without one rolls a d100, again until no two of them match. The
    rolls are kept, so the order stays the same however often it is read, undone or redone."""
    newcomer = combatants[-1]
    tied = [c for c in combatants[:-1] if c.tie == newcomer.tie]
    if not tied:
        return combatants
    if rng is None:  # a bug: the caller rolls nothing without a source of dice
        raise ValueError("a roll-off needs a random source")
    taken = {c.rolloff for c in tied if c.rolloff}
    rolled: dict[str, Combatant] = {}
    for combatant in [*(c for c in tied if not c.rolloff), newcomer]:
        roll = rng.randint(1, ROLLOFF_DIE)
        while roll in taken:
            roll = rng.randint(1, ROLLOFF_DIE)
        taken.add(roll)
        rolled[combatant.key] = replace(combatant, rolloff=roll)
    others = tuple(rolled.get(c.key, c) for c in combatants[:-1])
    return (*others, rolled[newcomer.key])


def join(
    table: Table,
    *,
    actor_id: int,
    is_gm: bool,
    name: str,
    score: int | str | None = None,
    other: bool = False,
    rng: DieSource | None = None,
) -> tuple[Table, tuple[Joined, ...]]:
    """`/init add`: as `add`, or for the name of a group of monsters (`Goblin` for `Goblin 1`,
    `Goblin 2`…) each of them not yet in the order, every one rolling its own dice."""
    members = () if table.find(name) or table.find_monster(name) or other else group(table, name)
    if not members:
        step = add(
            table, actor_id=actor_id, is_gm=is_gm, name=name, score=score, other=other, rng=rng
        )
        return step[0], (step[1],)
    # Its living members not yet in the order: a defeated one is out of the fight.
    waiting = [m for m in members if table.initiative.find(m.name) is None and not m.down]
    if not waiting:
        raise RulesError(
            _(
                "Every one of {group} is already in the initiative or defeated",
                group=" ".join(name.split()),
            )
        )
    joined = []
    for monster in waiting:
        table, one = add(
            table, actor_id=actor_id, is_gm=is_gm, name=monster.name, score=score, rng=rng
        )
        joined.append(one)
    return table, tuple(joined)


def _unknown(table: Table, name: str) -> str:
    """No character or monster by that name: the close ones ("did you mean Cave Troll?"),
    and how to add a name that is neither."""
    shown = " ".join(name.split())[:40]
    names = {c.key: c.name for c in table.characters} | {m.key: m.name for m in table.monsters}
    key = name_key(name)
    close = [k for k in names if key and key in k]
    close += difflib.get_close_matches(key, list(names), n=3, cutoff=0.6)
    guesses = list(dict.fromkeys(names[k] for k in close))[:3]
    if not guesses:
        return _(
            "No character or monster named '{name}' here. {hint}", name=shown, hint=_(OTHER_HINT)
        )
    return _(
        "No character or monster named '{name}' here: did you mean {guesses}? {hint}",
        name=shown,
        guesses=(" " + _("or") + " ").join(guesses),
        hint=_(OTHER_HINT),
    )


def remove(table: Table, name: str) -> tuple[Table, Removal]:
    """Take a name out of the order at any time; when it is their turn, the turn passes on
    first (as `/init next`, a new round moving the clock). The last one standing can't leave:
    `/init end` ends the fight."""
    order = _order(table)
    gone = order.find(name)
    if gone is None:
        shown = " ".join(name.split())[:40]
        names = ", ".join(c.name for c in order.combatants[:5]) or _("nobody yet")
        raise RulesError(
            _("No '{name}' in the initiative; in it: {names}", name=shown, names=names)
        )
    current = order.current
    passed = None
    if current is not None and current.key == gone.key:
        others = [
            c for c, up in zip(order.combatants, _standing(table), strict=True) if up and c != gone
        ]
        if not others:  # passing would only give them the next round
            raise RulesError(
                _("{name} is the only one left: `/init end` ends the fight", name=gone.name)
            )
        table, passed = next_turn(table)
        passed = replace(passed, facing=None)  # it leaves: no facing to choose
        order = _order(table)
        current = order.current
    left = tuple(c for c in order.combatants if c.key != gone.key)
    if not left:
        return _with(table, Initiative()), Removal(gone)
    shrunk = replace(order, combatants=left, turn=0)
    if current is not None:
        shrunk = replace(shrunk, turn=shrunk.combatants.index(current))
    return _with(table, shrunk), Removal(gone, passed)


def start(table: Table) -> tuple[Table, Initiative]:
    """Round 1, the highest score's turn (the highest not defeated). The clock does not move."""
    order = _order(table)
    if not order.combatants:
        raise RulesError(_(NOBODY))
    if order.running:
        raise RulesError(
            _(
                "The initiative is already running (round {round}): "
                "`/init next` passes the turn, `/init end` ends it",
                round=order.round,
            )
        )
    standing = _standing(table)
    if not any(standing):
        raise RulesError(_(ALL_DEFEATED))
    started = replace(order, round=1, turn=standing.index(True))
    return _with(table, started), started


def next_turn(table: Table) -> tuple[Table, TurnReport]:
    """The next combatant's turn, passing over the defeated; after the last, a new round, and
    the clock moves one round (the same step as `/clock round`). A monster ending its turn is
    asked its facing, unless it is defeated."""
    order = _order(table)
    ended = order.current
    if ended is None:
        raise RulesError(_(NOT_RUNNING))
    turn, round_, skipped = _seek(table, 1)
    report = None
    if round_ > order.reached:  # a round come to again after `/init prev` took its step once
        table, report = partyops.pass_rounds(table, 1)
    moved = replace(order, round=round_, turn=turn)
    monster = table.find_monster(ended.name) if ended.kind == "monster" else None
    facing = monster if monster is not None and monster.block.spots and not monster.down else None
    result = TurnReport(ended, moved.combatants[turn], round_, report, facing, skipped)
    return _with(table, moved), result


def _seek(table: Table, step: int) -> tuple[int, int, tuple[Combatant, ...]]:
    """The turn and round `step` (1 or -1) turns away from the current one, past the
    defeated, and the defeated passed over. Nobody standing, or nothing before the fight's
    first turn, is refused."""
    order = _order(table)
    standing = _standing(table)
    if not any(standing):
        raise RulesError(_(ALL_DEFEATED))
    turn, round_ = order.turn, order.round
    skipped: list[Combatant] = []
    while True:
        turn += step
        if turn == len(order.combatants):
            turn, round_ = 0, round_ + 1
        elif turn < 0:
            if round_ == 1:
                raise RulesError(_("This is the fight's first turn: there is none before it"))
            turn, round_ = len(order.combatants) - 1, round_ - 1
        if standing[turn]:
            return turn, round_, tuple(skipped)
        skipped.append(order.combatants[turn])


def previous_turn(table: Table) -> tuple[Table, TurnReport]:
    """Back to the turn before (for the GM's slip), passing over the defeated; from a round's
    first turn, back into the round before. The clock stays: the round it moved for is not
    taken again when the fight comes to it once more."""
    order = _order(table)
    current = order.current
    if current is None:
        raise RulesError(_(NOT_RUNNING))
    turn, round_, skipped = _seek(table, -1)
    moved = replace(order, round=round_, turn=turn)
    result = TurnReport(current, moved.combatants[turn], round_, None, None, skipped, back=True)
    return _with(table, moved), result


def end(table: Table) -> tuple[Table, Initiative]:
    """Everyone out of the order; the clock stays where it is. Returns the order as it was."""
    order = _order(table)
    if not order.combatants:
        raise RulesError(_("There is no initiative to end here"))
    return _with(table, Initiative()), order


@dataclass(frozen=True)
class Cleared:
    """What `/monster remove defeated:True` did: the defeated monsters gone from the bestiary
    (and the turn order), and the turn passing on when it was one of theirs."""

    gone: tuple[Monster, ...]
    passed: TurnReport | None = None


def clear_defeated(table: Table, *, is_gm: bool) -> tuple[Table, Cleared]:
    """Every defeated monster out of the bestiary and the turn order, in one change. On a
    defeated monster's own turn (it fell on it), the turn passes on first, as `/init remove`
    does it; when nobody is left standing in the order, the order goes with them."""
    if not is_gm:
        raise Forbidden(_(GM_ONLY))
    gone = tuple(m for m in table.monsters if m.down)
    if not gone:
        raise RulesError(_("No monster here is defeated: nothing to clear"))
    keys = {m.key for m in gone}
    order = _order(table)
    passed = None
    if all(c.key in keys for c in order.combatants):
        table = _with(table, Initiative())
    else:
        for combatant in order.combatants:
            if combatant.key in keys:
                table, removal = remove(table, combatant.name)
                passed = passed or removal.passed
    for monster in gone:
        table = table.without_monster(monster.name)
    return table, Cleared(gone, passed)
