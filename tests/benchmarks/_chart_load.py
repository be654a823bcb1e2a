"""`/roll` at rest and while 20 `/party chart`s are always in flight, for
`tests.benchmarks.pictures`: the bot as `python -m bot` in a process of its own (its picture
worker as it starts it), on a SQLite file seeded with a party of 10 and 300 changes, against a
local Discord in this process, which sends the load; the CPU a chart takes in the bot's
process and in this one."""

from __future__ import annotations

import asyncio
import contextlib
import os
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docs.examples import party, random_session
from store import Store
from table.model import Table
from tests.benchmarks._bots import forget
from tests.benchmarks._figures import percentile
from tests.benchmarks._profile import profiled
from tests.benchmarks.processes import cpu_seconds
from tests.e2e.test_shards_process import shard_processes
from tests.localdiscord.client import LocalDiscord

AT_ONCE = 20
CHART_WAIT = 120.0  # s: 20 charts queue for one worker; Discord would wait 15 minutes


def seeded_table() -> Callable[[Table], tuple[Table, None]]:
    def put(table: Table) -> tuple[Table, None]:
        for character in party(10).characters:
            table = table.with_character(character)
        return table, None

    return put


async def seed(discord_: LocalDiscord, database_url: str) -> None:
    """The table channel's party of 10 and its 300 changes, through the store, before the bot
    starts."""
    async with Store.open(database_url) as store:
        channel = discord_.table
        await store.apply(channel.id, channel.guild_id, 1, "seed", seeded_table())
        session = random_session(10, 300)
        for event in session.events[1:]:
            step = _replay(event.after)
            await store.apply(channel.id, channel.guild_id, 1, event.action, step)


def _replay(after: dict[str, Any]) -> Callable[[Table], tuple[Table, None]]:
    from table.snapshot import restore

    def step(table: Table) -> tuple[Table, None]:
        return restore(table, after), None

    return step


async def roll_times(discord_: LocalDiscord, rolls: int, gap: float = 0.0) -> list[float]:
    """`rolls` × `/roll`, one after another, `gap` seconds apart: each one's time to its
    answer."""
    times = []
    for _ in range(rolls):
        start = time.perf_counter()
        await discord_.slash("roll", user=discord_.player)
        times.append(time.perf_counter() - start)
        await asyncio.sleep(gap)
    return times


def forget_quietly(discord_: LocalDiscord) -> None:
    """The local Discord's records dropped (it checks them all at every reply), with nothing in
    flight: each phase starts with none kept."""
    discord_.take_violations()
    with contextlib.suppress(AssertionError):
        forget(discord_)


@dataclass
class Load:
    """What one way met: the /roll times at rest and under charts, the charts' times, and the
    bot process's CPU seconds over each side's blocks."""

    at_rest: list[float] = field(default_factory=list)
    busy: list[float] = field(default_factory=list)
    charts: list[float] = field(default_factory=list)  # answered with a picture as /rolls ran
    failed: int = 0  # answered without one as /rolls ran, or not at all
    answered: int = 0  # charts answered in all (before, during and after the /rolls)
    rolling: float = 0.0  # seconds the /rolls under charts took, gaps included
    cpu_rest: float = 0.0
    cpu_busy: float = 0.0
    here_rest: float = 0.0  # this process's (the local Discord's and the load's)
    here_busy: float = 0.0

    def row(self, name: str) -> list[str]:
        rest99, busy99 = percentile(self.at_rest, 99), percentile(self.busy, 99)
        per_roll = self.cpu_rest / len(self.at_rest)
        per_chart = (self.cpu_busy - per_roll * len(self.busy)) / max(self.answered, 1)
        here_roll = self.here_rest / len(self.at_rest)
        here_chart = (self.here_busy - here_roll * len(self.busy)) / max(self.answered, 1)
        charts = self.charts or [float("nan")]
        return [
            name,
            f"{statistics.median(self.at_rest) * 1000:.2f} / {rest99 * 1000:.2f} ms",
            f"{statistics.median(self.busy) * 1000:.2f} / {busy99 * 1000:.2f} ms",
            f"{busy99 / rest99:.2f}×",
            f"{len(self.charts)}" + (f" ({self.failed} failed)" if self.failed else ""),
            f"{statistics.median(charts):.1f} s",
            f"{self.rolling / max(len(self.charts), 1) * 1000:.0f} ms",
            f"{per_chart * 1000:.1f} ms",
            f"{here_chart * 1000:.1f} ms",
        ]


async def under_charts(discord_: LocalDiscord, rolls: int, load: Load) -> None:
    """`rolls` /rolls while AT_ONCE `/party chart`s are always in flight, into `load`."""
    rolling = False
    stop = asyncio.Event()

    async def charting() -> None:
        while not stop.is_set():
            start = time.perf_counter()
            reply = await discord_.slash("party chart", user=discord_.player, since="all")
            load.answered += 1
            if rolling and reply.files:
                load.charts.append(time.perf_counter() - start)
            load.failed += rolling and not reply.files

    tasks = [asyncio.create_task(charting()) for _ in range(AT_ONCE)]
    await asyncio.sleep(1.0)  # all of them under way
    rolling, began = True, time.perf_counter()
    load.busy += await roll_times(discord_, rolls, GAP)
    rolling, load.rolling = False, load.rolling + time.perf_counter() - began
    stop.set()
    ended = await asyncio.gather(*tasks, return_exceptions=True)
    load.failed += sum(isinstance(e, BaseException) for e in ended)


BLOCKS = 8  # at rest and under charts in turn, so the machine's other load falls on both
# between one /roll's answer and the next: the /rolls of a block span many charts' answers
GAP = 0.005
THIS_TREE = "this tree"


def ways(against: list[Path]) -> dict[str, dict[str, str]]:
    """The bots to measure side by side, by the settings each runs with: this tree's, and the
    one in each `--against` folder (another checkout of the code, e.g. `git archive` of an
    earlier commit: its `bot` found first on PYTHONPATH, run by this interpreter)."""
    found: dict[str, dict[str, str]] = {THIS_TREE: {}}
    for folder in against:
        found[f"the bot at {folder.name}"] = {"PYTHONPATH": str(folder.resolve())}
    return found


@contextlib.asynccontextmanager
async def bot_process_on(
    settings: dict[str, str], tmp: Path
) -> AsyncIterator[tuple[LocalDiscord, int]]:
    """The bot as `python -m bot` (with `settings` in its environment) on a seeded SQLite file,
    against a local Discord of its own in this process: that Discord and the bot's pid."""
    url = f"sqlite:///{tmp / 'pictures.db'}"
    async with LocalDiscord(timeout=CHART_WAIT) as discord_:
        await seed(discord_, url)
        bots = shard_processes(discord_, url, tmp, [None], shard_count=None, settings=settings)
        async with bots as (bot,):
            discord_.server.check_schemas = False
            await roll_times(discord_, 20)  # warm
            await discord_.slash("party chart", user=discord_.player, since="all")
            yield discord_, bot.process.pid
            forget_quietly(discord_)


async def loop_figures(
    rolls: int, settings: dict[str, dict[str, str]], profile: Path | None
) -> list[list[str]]:
    """Each way's bot up at once (each idle while another is measured): in each of BLOCKS
    rounds, the ways in turn, each `rolls // BLOCKS` /rolls at rest, then as many under
    charts."""
    loads = {name: Load() for name in settings}
    with tempfile.TemporaryDirectory() as folder:
        async with contextlib.AsyncExitStack() as stack:
            bots = {}
            for n, name in enumerate(settings):
                tmp = Path(folder) / str(n)
                tmp.mkdir()
                bots[name] = await stack.enter_async_context(bot_process_on(settings[name], tmp))
            for round_ in range(BLOCKS):
                names = list(settings)
                names = names[round_ % len(names) :] + names[: round_ % len(names)]
                for name in names:
                    (discord_, pid), load = bots[name], loads[name]
                    forget_quietly(discord_)
                    began, here = cpu_seconds(pid), cpu_seconds()
                    load.at_rest += await roll_times(discord_, rolls // BLOCKS, GAP)
                    load.cpu_rest += cpu_seconds(pid) - began
                    load.here_rest += cpu_seconds() - here
                    forget_quietly(discord_)
                    began, here = cpu_seconds(pid), cpu_seconds()
                    sampled = profile if round_ == 0 and name == names[0] else None
                    async with (
                        profiled(sampled, name, pid),
                        profiled(sampled, "the local Discord", os.getpid()),
                    ):
                        await under_charts(discord_, rolls // BLOCKS, load)
                    load.cpu_busy += cpu_seconds(pid) - began
                    load.here_busy += cpu_seconds() - here
    return [load.row(name) for name, load in loads.items()]
