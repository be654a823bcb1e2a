"""Fatigue on a channel's table: pure `Table -> (Table, report)` steps for the fatigue cogs.

Each function applies `rules.fatigue` to one character or to everyone, and reports what
happened per character so a reply can show the work. Cogs hand these to `Store.apply`; who may
do what is checked by the cog (with `table.model.check_can_change`) before or inside that call.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction

from lang import N_, _
from rules import fatigue
from rules.errors import RulesError
from rules.fatigue import MINUTES_MAX, FatigueEvent, FatigueState, Transition
from rules.gametime import DAY, game_time

from table.model import NO_CHARACTERS, NO_PARTY, Character, Table

ROUNDS_MAX = 10_000  # more rounds than this at once is surely a typo: say minutes instead

Step = Callable[[FatigueState, Fraction], Transition]


@dataclass(frozen=True)
class CharacterChange:
    """One character's fatigue before and after, and the events that explain it."""

    name: str
    fl: Fraction | None  # None only in a reset, which needs no Fatigue Level
    before: FatigueState
    after: FatigueState
    events: tuple[FatigueEvent, ...] = ()


@dataclass(frozen=True)
class PartyReport:
    """What a change to the whole table did: per character, and to the clock."""

    changes: tuple[CharacterChange, ...]  # characters with a Fatigue Level, in table order
    skipped: tuple[str, ...]  # names without a Fatigue Level (their fatigue is untouched)
    clock_before: int
    clock_after: int
    round_after: int | None = None  # the round the clock is in afterwards, counted from 1
    fight_round: int | None = None  # the round of the fight the initiative runs, if one does

    @property
    def seconds(self) -> int:
        return self.clock_after - self.clock_before


def _change_one(table: Table, name: str, step: Step) -> tuple[Table, CharacterChange]:
    character = table.get(name)
    fl = character.require_fl()
    moved = step(character.fatigue, fl)
    change = CharacterChange(character.name, fl, character.fatigue, moved.state, moved.events)
    return table.with_character(character.with_fatigue(moved.state)), change


def _change_all(
    table: Table,
    step: Step,
    clock_after: int | None = None,
    *,
    party_only: bool = False,
    others: Step | None = None,
) -> tuple[Table, PartyReport]:
    """`step` for every character with a Fatigue Level; with `party_only`, for the party's
    alone (`Table.party`): the others are left as they are, or, given `others` (time passing
    while the party rests), go through that and are reported only when it changed them."""
    changes: list[CharacterChange] = []
    skipped: list[str] = []
    characters: list[Character] = []
    for character in table.characters:
        fl = character.fl
        aside = party_only and not character.in_party
        if fl is None or (aside and others is None):
            if not aside:
                skipped.append(character.name)
            characters.append(character)
            continue
        moved = (others if aside and others is not None else step)(character.fatigue, fl)
        if not aside or moved.state != character.fatigue:
            changes.append(
                CharacterChange(character.name, fl, character.fatigue, moved.state, moved.events)
            )
        characters.append(character.with_fatigue(moved.state))
    end = table.clock if clock_after is None else clock_after
    new = replace(table, clock=end, characters=tuple(characters))
    report = PartyReport(
        tuple(changes), tuple(skipped), table.clock, end, new.round_number, _fight(new)
    )
    return new, report


def _fight(table: Table) -> int | None:
    return table.initiative.round or None


def require_characters(table: Table) -> None:
    if not table.characters:
        raise RulesError(_(NO_CHARACTERS))
    if not table.party:
        raise RulesError(_(NO_PARTY))


# --- one character -------------------------------------------------------------------------


def spend(table: Table, name: str, amount: int) -> tuple[Table, CharacterChange]:
    """`name` takes an action costing `amount` FP."""
    return _change_one(table, name, lambda state, fl: fatigue.spend(state, fl, amount))


def recover(table: Table, name: str, amount: int) -> tuple[Table, CharacterChange]:
    """The GM removes `amount` FP from `name` directly (the floor of a cap holds)."""
    return _change_one(table, name, lambda state, fl: fatigue.recover(state, fl, amount))


def temp(
    table: Table, name: str, amount: int, minutes: int | None = None
) -> tuple[Table, CharacterChange]:
    """`name` gains `amount` Temporary FP now on the channel clock, for `minutes` (default:
    the channel's Temporary FP duration)."""
    settings = table.settings.fatigue_settings()
    return _change_one(
        table,
        name,
        lambda state, fl: fatigue.temp(state, fl, amount, table.clock, settings, minutes),
    )


def clear_vp(table: Table, name: str) -> tuple[Table, CharacterChange]:
    """The GM clears `name`'s VP damage tally (applied to the sheet): no rest does."""
    character = table.get(name)
    if not character.fatigue.vp_damage:
        raise RulesError(_("{name} has no VP damage to clear", name=character.name))
    return _change_one(table, name, lambda state, fl: fatigue.clear_vp(state))


def rest_one(
    table: Table, name: str, kind: str, minutes: int | None = None
) -> tuple[Table, CharacterChange]:
    """`name` rests alone: the clock stays where it is, and the character is settled through
    the rest's end, so the clock later passing over that span does not count it again."""
    settings = table.settings.fatigue_settings()
    return _change_one(
        table,
        name,
        lambda state, fl: fatigue.rest(
            state, fl, kind, settings, minutes, now=table.clock, alone=True
        ),
    )


# --- everyone ------------------------------------------------------------------------------


def party_spend(table: Table, amount: int) -> tuple[Table, PartyReport]:
    """Everyone in the party with a Fatigue Level takes an action costing `amount` FP."""
    require_characters(table)
    if all(c.fl is None for c in table.party):
        raise RulesError(_("Nobody here has a Fatigue Level yet: set one with `/character set`"))
    return _change_all(table, lambda state, fl: fatigue.spend(state, fl, amount), party_only=True)


def party_reset(table: Table) -> tuple[Table, PartyReport]:
    """Everyone in the party back to fresh: no FP, no Temporary FP, no caps, no VP damage
    counted. Characters without a Fatigue Level are reset too: a fresh state needs none."""
    require_characters(table)
    fresh = FatigueState()
    changes = tuple(CharacterChange(c.name, c.fl, c.fatigue, fresh) for c in table.party)
    characters = tuple(c.with_fatigue(fresh) if c.in_party else c for c in table.characters)
    report = PartyReport(changes, (), table.clock, table.clock, table.round_number, _fight(table))
    return replace(table, characters=characters), report


def party_rest(table: Table, kind: str, minutes: int | None = None) -> tuple[Table, PartyReport]:
    """The whole party rests: each of its characters rests (not those kept out of it, for whom
    the time only passes) and the clock moves on by the rest's length.

    `rules.fatigue.rest` already converts Temporary FP over the rest's minutes, so time passing
    is not applied a second time over the same span; a character who rested alone through part
    of it rests only the rest of it (see `rules.fatigue`'s docstring).
    """
    settings = table.settings.fatigue_settings()
    length = fatigue.rest_minutes(kind, settings, minutes)
    start, end = table.clock, table.clock + 60 * length
    return _change_all(
        table,
        lambda state, fl: fatigue.rest(state, fl, kind, settings, minutes, now=start),
        clock_after=end,
        party_only=True,
        # Those out of the party don't rest: the time passes for them as it would.
        others=lambda state, fl: fatigue.advance(state, fl, start, end, settings),
    )


def pass_seconds(table: Table, seconds: int) -> tuple[Table, PartyReport]:
    """The channel clock moves on by `seconds`; everyone's expired Temporary FP fades by it."""
    if isinstance(seconds, bool) or not isinstance(seconds, int) or seconds < 1:
        raise RulesError(_("Time passing must be 1 second or more"))
    settings = table.settings.fatigue_settings()
    start, end = table.clock, table.clock + seconds
    return _change_all(
        table, lambda state, fl: fatigue.advance(state, fl, start, end, settings), clock_after=end
    )


def pass_rounds(table: Table, count: int) -> tuple[Table, PartyReport]:
    """`count` rounds of the channel's round length pass."""
    _check_count(count, N_("Rounds"), ROUNDS_MAX)
    return pass_seconds(table, count * table.settings.round_seconds)


def pass_minutes(table: Table, minutes: int) -> tuple[Table, PartyReport]:
    """`minutes` of game time pass (not resting: see `party_rest`)."""
    _check_count(minutes, N_("Minutes"), MINUTES_MAX)
    return pass_seconds(table, 60 * minutes)


def _check_count(value: int, what: str, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
        raise RulesError(
            _("{what} must be between {low} and {high}", what=_(what), low=1, high=high)
        )


# --- setting the clock --------------------------------------------------------------------

DAY_MAX = 100_000  # not a rule: a day number past this is surely a typo
_TIME = re.compile(
    r"(?P<hours>\d{1,2})(?:\s*[:.h]\s*(?P<minutes>\d{2})?)?\s*(?:(?P<half>[ap])\.?\s*m\.?)?",
    re.IGNORECASE,
)
TIME_HELP = N_("A time looks like `18:00`, `6:30 pm` or `6pm`")  # shown through `_()`


def parse_time_of_day(text: str) -> int:
    """`18:00`, `6:30 pm`, `6pm`, `18h`, `07.45` → minutes since midnight."""
    found = _TIME.fullmatch(text.strip())
    if found is None:
        raise RulesError(_("'{text}' isn't a time. {help}", text=text[:20], help=_(TIME_HELP)))
    hours, minutes = int(found["hours"]), int(found["minutes"] or 0)
    half = (found["half"] or "").lower()
    if half and not 1 <= hours <= 12:
        raise RulesError(_("With am or pm, the hour is 1 to 12. {help}", help=_(TIME_HELP)))
    if half:
        hours = hours % 12 + (12 if half == "p" else 0)
    if hours > 23 or minutes > 59:
        raise RulesError(_("'{text}' isn't a time. {help}", text=text[:20], help=_(TIME_HELP)))
    return 60 * hours + minutes


def clock_target(table: Table, day: int | None, time: str | None) -> int:
    """The game time `/clock set` means: Day `day` at `time`; without a day, the next time the
    clock reads `time` (today, else tomorrow); without a time, that day at the clock's time of
    day now."""
    if day is None and time is None:
        raise RulesError(_("Say when: `day:`, `time:` or both (`/clock set day:2 time:18:00`)"))
    today, now = divmod(table.clock, DAY)
    of_day = now if time is None else 60 * parse_time_of_day(time)
    if day is not None:
        _check_count(day, N_("Day"), DAY_MAX)
        return (day - 1) * DAY + of_day
    return (today + (of_day <= now)) * DAY + of_day


def set_clock(table: Table, day: int | None, time: str | None) -> tuple[Table, PartyReport]:
    """The clock set to a day and time of the game: the time up to it passes, as `/clock pass`
    lets it (Temporary FP fades by it). The clock never goes back: `/undo` takes a move back."""
    target = clock_target(table, day, time)
    if target <= table.clock:
        raise RulesError(
            _(
                "The clock is at {now}: it only moves forward ({then} is not later). "
                "`/undo` takes back a move made by mistake",
                now=game_time(table.clock),
                then=game_time(target),
            )
        )
    return pass_seconds(table, target - table.clock)
