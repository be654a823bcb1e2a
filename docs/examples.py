"""Example pictures, made by the project's own code: `python docs/examples.py docs/` writes
the four PNGs the README shows (`--lang es-ES` for the Spanish ones).

An evening at the table is played through the table's own operations (`table.partyops`), each
change logged as the store logs it (`table.snapshot.diff`), and charted from that log; the odds
and the monster come from `table.savecalc` and a bestiary monster, the dice's report from an
evening of seeded saves and d100s (`table.dice_report`). The picture tests and benchmarks
(`tests/pictures/`, `tests.benchmarks.pictures`) draw from the sessions made here. Beside
`layers.py`: it makes the docs' pictures, and no part of the bot imports it.
"""

from __future__ import annotations

import argparse
import functools
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any

from lang import install, speaking
from lang.catalogs import load
from pictures import Picture
from rules.dice import open_ended
from rules.saves import SaveKind
from table import partyops
from table.dice_report import EVENING, dice_report
from table.event import Event
from table.fatigue_series import SINCE_LONG_REST, Start, fatigue_series
from table.model import Character, Monster, Table
from table.monster_view import monster_view
from table.odds_series import odds_series
from table.roll_log import LoggedRoll, d100_rolled, save_rolled
from table.savecalc import DifficultyOptions, party_inputs
from table.sight import GM_ALONE
from table.snapshot import diff

Change = Callable[[Table], tuple[Table, Any]]
NAMES = ("Aria", "Bórin", "Cael", "Dara", "Eldric", "Fen", "Gwyn", "Hale", "Ilse", "Joss")
_WHEN = datetime(2025, 1, 1, tzinfo=UTC)  # wall time of the logged changes: not charted


class Session:
    """A table and the log of its changes, as the store would keep them."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.events: list[Event] = []  # oldest first

    def play(self, action: str, change: Change) -> None:
        before = self.table
        after, _ = change(before)
        old, new = diff(before, after)
        n = len(self.events) + 1
        self.events.append(Event(n, 1, action, _WHEN, old, new, 1, after.clock, seq=n))
        self.table = after

    def newest_first(self) -> list[Event]:
        return self.events[::-1]


def party(size: int, clock: int = 8 * 3600) -> Table:
    """`size` characters of Fatigue Levels 12 to 30, fresh, at 08:00 on Day 1."""
    characters = tuple(
        Character(
            NAMES[i % len(NAMES)] + ("" if i < len(NAMES) else f" {i}"),
            1 + i,
            level=3 + i,
            wisdom=5 * (i % 4),
            kin_wsr=5 * (i % 2),
            fl_override=Fraction(12 + (i * 7) % 19),
        )
        for i in range(size)
    )
    return Table(1, 1, clock=clock, characters=characters)


def evening() -> Session:
    """Four adventurers through a long day: a climb, a fight, a Short Rest, a second fight."""
    session = Session(party(4, clock=7 * 3600))
    s = session.play
    s("rest long", lambda t: partyops.party_rest(t, "long"))  # 07:00 → 15:00: the chart's start
    s("fatigue temp", lambda t: partyops.temp(t, "Bórin", 14, 60))
    for minute in range(6):
        s("fatigue spend", functools.partial(partyops.spend, name="Aria", amount=2 + minute % 2))
        s("fatigue spend", lambda t: partyops.spend(t, "Cael", 3))
        s("party spend", lambda t: partyops.party_spend(t, 2))
        s("clock pass", lambda t: partyops.pass_minutes(t, 10))
    s("fatigue temp", lambda t: partyops.temp(t, "Bórin", 8, 30))
    for _round in range(5):
        s("fatigue spend", lambda t: partyops.spend(t, "Bórin", 4))
        s("fatigue spend", lambda t: partyops.spend(t, "Dara", 5))
        s("fatigue spend", lambda t: partyops.spend(t, "Cael", 4))
        s("clock pass", lambda t: partyops.pass_minutes(t, 5))
    s("fatigue spend", lambda t: partyops.spend(t, "Dara", 30))  # a great spell, over Maximum
    s("fatigue spend", lambda t: partyops.spend(t, "Dara", 4))
    s("clock pass", lambda t: partyops.pass_minutes(t, 5))
    s("rest short", lambda t: partyops.party_rest(t, "short"))
    s("rest break", lambda t: partyops.rest_one(t, "Aria", "break"))
    for _round in range(6):
        s("fatigue spend", lambda t: partyops.spend(t, "Cael", 6))
        s("fatigue spend", lambda t: partyops.spend(t, "Dara", 3))
        s("party spend", lambda t: partyops.party_spend(t, 1))
        s("clock pass", lambda t: partyops.pass_minutes(t, 8))
    return session


def random_session(size: int, changes: int, seed: int = 1) -> Session:
    """`size` characters through `changes` changes of every kind (for the benchmark)."""
    rng = random.Random(seed)
    session = Session(party(size))
    names = [c.name for c in session.table.characters]
    while len(session.events) < changes:
        pick, name = rng.random(), rng.choice(names)
        amount, minutes = rng.randint(1, 4), rng.randint(1, 20)
        if pick < 0.55:
            session.play(
                "fatigue spend", functools.partial(partyops.spend, name=name, amount=amount)
            )
        elif pick < 0.7:
            session.play("clock pass", functools.partial(partyops.pass_minutes, minutes=minutes))
        elif pick < 0.8:
            temp = functools.partial(partyops.temp, name=name, amount=3, minutes=10)
            session.play("fatigue temp", temp)
        elif pick < 0.97:
            session.play("party spend", functools.partial(partyops.party_spend, amount=1))
        else:
            kind = rng.choice(("break", "short"))
            session.play(f"rest {kind}", functools.partial(partyops.party_rest, kind=kind))
    return session


def evening_rolls(seed: int = 6) -> list[LoggedRoll]:
    """Four adventurers' saves and d100 rolls over an evening, with dice from a seeded
    generator: the roll log `/dice report` reads."""
    rng = random.Random(seed)
    table = party(4)
    rolls = []
    for i in range(72):
        when = _WHEN + timedelta(minutes=3 * i)
        if i % 3 == 2:
            rolled = d100_rolled(open_ended(rng))
        else:
            kind = rng.choice((SaveKind.TSR, SaveKind.WSR))
            against = DifficultyOptions(vs=rng.randint(3, 9))
            inputs = party_inputs(kind, against, table)[i % 4]
            rolled = save_rolled(inputs.resolve(open_ended(rng)), inputs.name)
        rolls.append(LoggedRoll(10**18 + i, 0, when, 0, 1, False, rolled))
    return rolls


def troll() -> Monster:
    build = {
        "rank": 3,
        "armor": "heavy",
        "spots": [
            {"spot": "back", "hard_to_hit": True, "revealed": True},
            {"spot": "left", "hard_to_hit": False, "revealed": False},
        ],
    }
    return Monster("Troll", build, hp_max=40, hp=22, facing="E")


def examples() -> dict[str, Picture]:
    """The four pictures the README shows, by file name."""
    from pictures.dice import draw_dice
    from pictures.fatigue import draw_fatigue
    from pictures.monster import draw_monster
    from pictures.odds import draw_odds

    session = evening()
    events = session.newest_first()
    start = Start(events[-1].id, events[-1].clock)  # after the morning's Long Rest
    series = fatigue_series(session.table, events, start, SINCE_LONG_REST)
    everyone = party_inputs(SaveKind.WSR, DifficultyOptions(vs=7), party(4))
    return {
        "chart-fatigue.png": draw_fatigue(series),
        "chart-odds.png": draw_odds(odds_series(everyone, 7)),
        "chart-monster.png": draw_monster(monster_view(troll(), GM_ALONE)),
        "chart-dice.png": draw_dice(dice_report(evening_rolls(), EVENING, _WHEN)),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--lang", default=None, help="a Discord locale, e.g. es-ES")
    args = parser.parse_args(argv)
    install(load())
    suffix = f"-{args.lang}" if args.lang else ""
    with speaking(args.lang):
        for name, picture in examples().items():
            path = args.folder / name.replace(".png", f"{suffix}.png")
            path.write_bytes(picture.png)
            print(f"{path}: {len(picture.png):,} bytes; alt: {picture.alt}")


if __name__ == "__main__":
    main()
