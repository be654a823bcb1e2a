"""The roll log on a real SQLite file and a real PostgreSQL: each roll kept once, whatever
writes it again; trimmed to its bound, oldest first; read back as it was rolled; the evening's
window found from the channel's changes and rolls; secret rolls kept apart from the table's
report; and the writer that batches them off the replies' path, across a restart."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import Any

import pytest

from bot.roll_writer import RollWriter
from rules.dice import OpenEndedRoll
from store import Store
from store.errors import DatabaseUnreachable
from store.roll_log import TRIM_EVERY, report_of, roll_of
from table.dice_report import ALL, EVENING
from table.fatigue_series import CLOCK_SET
from table.model import Table
from table.roll_log import LoggedRoll, Rolled, d100_rolled
from tests.store.conftest import Database

CHANNEL, OTHER, GUILD = 101, 202, 22
NIGHT = datetime(2026, 3, 6, 19, 0, tzinfo=UTC)
FIRST_ID = 1_350_000_000_000_000_000  # interaction ids grow with time, as Discord's do


def save(name: str, success: bool, first: int = 50) -> Rolled:
    return Rolled("wsr", name, (first,), first + 35, None, 85, Fraction(1, 2), success)


def roll(
    i: int, rolled: Rolled | None = None, *, hours: float = 0, secret: bool = False
) -> LoggedRoll:
    return LoggedRoll(
        FIRST_ID + i * 1000,
        0,
        NIGHT + timedelta(hours=hours, minutes=i),
        600 + i,
        44,
        secret,
        rolled or d100_rolled(OpenEndedRoll.from_dice((97, 99, 12)), 5),
    )


async def test_rolls_read_back_as_they_were_rolled_each_kept_once(db: Database) -> None:
    party = [
        dataclasses.replace(roll(1, save(n, n == "Aria")), place=p)
        for p, n in enumerate(("Aria", "Bórin"))
    ]
    async with Store.open(db.url) as store:
        await store.log_rolls([(CHANNEL, r) for r in [roll(0), *party]], keep=100)
        again = dataclasses.replace(party[0], rolled=save("Aria", False, 7))  # delivered twice
        await store.log_rolls([(CHANNEL, again), (OTHER, roll(5))], keep=100)
        # The first stays.
        assert (await store.read_with_history(CHANNEL)).rolls == [roll(0), *party]
        assert (await store.read_with_history(OTHER)).rolls == [roll(5)]
    async with Store.open(db.url) as store:  # and after a restart
        assert (await store.read_with_history(CHANNEL)).rolls == [roll(0), *party]


async def test_an_export_reads_table_log_and_rolls_in_one_snapshot(db: Database) -> None:
    async with Store.open(db.url) as store:
        await store.apply(CHANNEL, None, 1, "clock set", lambda t: (replace_clock(t, 600), None))
        await store.log_rolls([(CHANNEL, roll(0))], keep=100)
        reads: list[bool] = []
        store.watch(reads.append)  # told once per read or change that reached the database
        table, events, rolls = await store.read_with_history(CHANNEL)
        assert reads == [False]
        assert (table.clock, [e.action for e in events], rolls) == (600, ["clock set"], [roll(0)])


async def test_a_channel_keeps_its_newest_rolls(db: Database) -> None:
    async with Store.open(db.url) as store:
        await store.log_rolls([(CHANNEL, roll(i)) for i in range(12)], keep=5)
        await store.log_rolls([(OTHER, roll(i)) for i in range(12)], keep=5, trimmed=[CHANNEL])
        assert [r.interaction_id for r in (await store.read_with_history(CHANNEL)).rolls] == [
            FIRST_ID + i * 1000 for i in range(7, 12)
        ]
        # Not trimmed with this write.
        assert len((await store.read_with_history(OTHER)).rolls) == 12


def replace_clock(table: Table, clock: int) -> Table:
    return dataclasses.replace(table, clock=clock)


def at(hours: float) -> datetime:
    return NIGHT + timedelta(hours=hours)


async def test_this_evening_begins_after_four_quiet_hours_of_changes_and_rolls(
    db: Database,
) -> None:
    clock = [at(-30)]

    def now() -> datetime:
        return clock[0]

    async with Store.open(db.url, now=now) as store:
        await store.apply(
            CHANNEL, GUILD, 33, "clock pass", lambda t: (dataclasses.replace(t, clock=60), None)
        )
        clock[0] = at(-1)  # tonight's first change, before any roll
        await store.apply(
            CHANNEL, GUILD, 33, "clock pass", lambda t: (dataclasses.replace(t, clock=120), None)
        )
        rolls = [
            roll(0, save("Aria", True), hours=-29),  # last night
            roll(1, save("Aria", False), hours=0),
            roll(2, save("Aria", True), hours=2, secret=True),
            roll(3, save("Bórin", True), hours=3.5),
        ]
        await store.log_rolls([(CHANNEL, r) for r in rolls], keep=100)

        rows = await store.dice_report_rows(CHANNEL, EVENING, None, secret=False)
        assert rows.start == at(-1)
        assert [r.interaction_id for r in map(roll_of, rows.values)] == [
            FIRST_ID + 1000,
            FIRST_ID + 3000,
        ]
        report = report_of(rows)
        assert [(c.name, c.saves, c.successes) for c in report.characters] == [
            ("Aria", 1, 0),
            ("Bórin", 1, 1),
        ]
        assert not report.secret

        gm = report_of(await store.dice_report_rows(CHANNEL, EVENING, "aria", secret=True))
        assert [(c.name, c.saves, c.successes) for c in gm.characters] == [("Aria", 2, 1)]
        everything = report_of(await store.dice_report_rows(CHANNEL, ALL, None, secret=False))
        assert everything.start is None and everything.overall is not None
        assert everything.overall.saves == 3


async def test_a_clock_set_later_in_the_evening_frames_the_report_as_it_frames_the_chart(
    db: Database,
) -> None:
    """The GM's `/clock set` after the evening began marks its start; undone, it doesn't."""
    clock = [at(-1)]
    async with Store.open(db.url, now=lambda: clock[0]) as store:
        await store.apply(
            CHANNEL, GUILD, 33, "clock pass", lambda t: (dataclasses.replace(t, clock=60), None)
        )
        rolls = [roll(1, save("Aria", True), hours=0), roll(2, save("Aria", False), hours=2)]
        await store.log_rolls([(CHANNEL, r) for r in rolls], keep=100)
        clock[0] = at(1)  # the scene the GM sets, between the two saves
        await store.apply(
            CHANNEL, GUILD, 33, CLOCK_SET, lambda t: (dataclasses.replace(t, clock=600), None)
        )
        rows = await store.dice_report_rows(CHANNEL, EVENING, None, secret=False)
        assert rows.start == at(1) and [s.successes for s in report_of(rows).characters] == [0]
        await store.undo_last(CHANNEL, GUILD, 33, True)
        rows = await store.dice_report_rows(CHANNEL, EVENING, None, secret=False)
        assert rows.start == at(-1) and len(rows.values) == 2


async def test_an_evening_of_rolls_alone(db: Database) -> None:
    """A channel with no table, whose only activity is rolls: the evening is theirs."""
    async with Store.open(db.url) as store:
        await store.log_rolls([(OTHER, roll(0, hours=-10)), (OTHER, roll(1, hours=0))], keep=100)
        rows = await store.dice_report_rows(OTHER, EVENING, None, secret=False)
        assert rows.start == at(0) + timedelta(minutes=1) and len(rows.values) == 1
        empty = await store.dice_report_rows(999, EVENING, None, secret=False)
        assert empty.start is None and empty.values == []
        assert await store.read(OTHER, GUILD) == Table(OTHER, GUILD)  # rolling wrote no table


async def test_the_writer_batches_rolls_and_writes_what_is_left_as_it_closes(db: Database) -> None:
    async with Store.open(db.url) as store:
        writer = RollWriter(store, keep=1000, every=3600)
        writer.start()
        writer.add(CHANNEL, [roll(0), roll(1)])
        await writer.flush()
        assert len((await store.read_with_history(CHANNEL)).rolls) == 2
        writer.add(CHANNEL, [roll(2)])
        await writer.close()  # as the bot stops
    async with Store.open(db.url) as store:
        assert [r.clock for r in (await store.read_with_history(CHANNEL)).rolls] == [600, 601, 602]


async def test_the_writer_writes_on_its_own_every_moment(db: Database) -> None:
    async with Store.open(db.url) as store:
        writer = RollWriter(store, every=0.05)
        writer.start()
        writer.add(CHANNEL, [roll(0)])
        for _ in range(400):  # no timing asserted: it comes within a few ticks
            if (await store.read_with_history(CHANNEL)).rolls:
                break
            await asyncio.sleep(0.05)
        assert (await store.read_with_history(CHANNEL)).rolls == [roll(0)] and writer.waiting == 0
        await writer.close()


class Outage:
    """A store whose database is out for the next `times` writes (what `store.errors` raises
    for a server down or a file locked: the writer's own part is what is tested here)."""

    def __init__(self, store: Store, times: int) -> None:
        self.store, self.times = store, times

    async def log_rolls(self, *args: Any) -> None:
        if self.times:
            self.times -= 1
            raise DatabaseUnreachable("the database is restarting")
        await self.store.log_rolls(*args)


async def test_rolls_wait_while_the_database_is_out(db: Database) -> None:
    async with Store.open(db.url) as store:
        writer = RollWriter(Outage(store, 2), every=3600)  # type: ignore[arg-type]
        for i in range(2):
            writer.add(CHANNEL, [roll(i)])
            with pytest.raises(DatabaseUnreachable):
                await writer.flush()
        writer.add(CHANNEL, [roll(2)])
        assert writer.waiting == 3  # kept, in order, for the next try
        await writer.flush()
        assert (await store.read_with_history(CHANNEL)).rolls == [roll(0), roll(1), roll(2)]
        assert writer.waiting == 0


async def test_rolls_the_database_refuses_are_dropped_not_tried_forever(db: Database) -> None:
    async with Store.open(db.url) as store:
        writer = RollWriter(store, every=3600)
        bad = dataclasses.replace(roll(0), clock=2**70)  # past any integer column
        writer.add(CHANNEL, [bad])
        with pytest.raises(Exception):  # noqa: B017 - whatever the driver says
            await writer.flush()
        writer.add(CHANNEL, [roll(1)])
        await writer.flush()
        assert (await store.read_with_history(CHANNEL)).rolls == [roll(1)]


async def test_the_writer_trims_a_channel_at_its_first_write_and_then_now_and_then(
    db: Database,
) -> None:
    async with Store.open(db.url) as store:
        await store.log_rolls([(CHANNEL, roll(i)) for i in range(30)], keep=1000)
        writer = RollWriter(store, keep=10, every=3600)
        writer.add(CHANNEL, [roll(30)])
        await writer.flush()  # the channel's first write here: trimmed to 10
        assert len((await store.read_with_history(CHANNEL)).rolls) == 10
        for i in range(31, 31 + TRIM_EVERY - 1):
            writer.add(CHANNEL, [roll(i)])
        await writer.flush()
        assert len((await store.read_with_history(CHANNEL)).rolls) == 10 + TRIM_EVERY - 1  # not yet
        writer.add(CHANNEL, [roll(31 + TRIM_EVERY)])
        await writer.flush()
        assert len((await store.read_with_history(CHANNEL)).rolls) == 10


async def test_a_moment_of_many_rolls_in_many_channels(db: Database) -> None:
    """More rolls than one statement takes, over three channels, a few of them twice."""
    rolls = [(CHANNEL + i % 3, roll(i)) for i in range(450)]
    async with Store.open(db.url) as store:
        await store.log_rolls([*rolls, *rolls[:10]], keep=1000)
        await store.log_rolls([rolls[3], rolls[3]], keep=1000)  # twice in one statement
        for channel in (CHANNEL, CHANNEL + 1, CHANNEL + 2):
            kept = (await store.read_with_history(channel)).rolls
            assert kept == [r for c, r in rolls if c == channel]
