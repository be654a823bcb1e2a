"""`python -m tests.benchmarks.burst`: 1,000 interactions at once at the real bot.

The bot runs as `python -m bot` in its own process (as in production, and so the local Discord
does not share its CPU), on a real SQLite file, against a local Discord on loopback. Each burst
creates 1,000 slash-command interactions at the same instant (Discord's 3-second clock starts
for all of them there) and sends them down the gateway as fast as it will take them: a mix of
`/fatigue spend`, `/roll dice:4d6kh3`, `/save wsr vs:7` and `/party show` from one player,
spread over 50 channels, then all on one channel. It prints, per burst, the fraction of
interactions acknowledged within 3 s (Discord turns any later answer away), the time to
acknowledgement (the first callback, answer or defer) at p50/p99, how many were deferred, and
the time to the final answer. Every `/fatigue spend` must have landed exactly once.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import statistics
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from rules.fatigue import FatigueState
from table.model import Character, Table
from tests.benchmarks._figures import duration, machine, table
from tests.localdiscord.client import LocalDiscord
from tests.localdiscord.commands import parse_command_line
from tests.localdiscord.default_world import build_world
from tests.localdiscord.payloads import interaction_payload
from tests.localdiscord.records import InteractionRecord
from tests.localdiscord.world import Channel

REPO = Path(__file__).resolve().parents[2]
LINES = ("/fatigue spend", "/roll dice:4d6kh3", "/save wsr vs:7", "/party show")
SPEND = LINES[0]
CHANNELS = 50
BURST = 1000
WARM_UP = 100  # connections opened, caches filled: the bursts measure a running bot
DEADLINE = 3.0
SETTINGS = ("DISCORD_TOKEN", "DISCORD_API_BASE", "DATABASE_URL", "LOG_LEVEL", "SQLITE_SYNCHRONOUS")


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]


async def seed(database_url: str, discord_: LocalDiscord, channels: list[Channel]) -> None:
    """The player's character and a companion in every channel, before the bot starts."""
    from store import Store

    async with Store.open(database_url) as store:
        for channel in channels:
            # FL 1000 keeps a few hundred spends in one band: the same kind of reply throughout
            mine = Character(
                "Aria",
                discord_.player.id,
                level=5,
                wisdom=10,
                kin_wsr=5,
                fl_override=Fraction(1000),
            )
            other = Character(
                "Bram",
                discord_.player2.id,
                level=3,
                fatigue=FatigueState(fp=4, temp=1, temp_expires=600),
            )

            def put(t: Table, a: Character = mine, b: Character = other) -> tuple[Table, None]:
                return t.with_character(a).with_character(b), None

            await store.apply(channel.id, channel.guild_id, discord_.gm.id, "seed", put)


async def start_bot(discord_: LocalDiscord, database_url: str, folder: Path) -> Any:
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env |= {
        "DISCORD_TOKEN": discord_.token,
        "DISCORD_API_BASE": discord_.api_base,
        "DATABASE_URL": database_url,
        "LOG_LEVEL": "WARNING",
    }
    with (folder / "bot.err").open("wb") as err:  # the child keeps its own handle
        sync = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "sync", env=env, cwd=folder, stdout=err, stderr=err
        )
    if await sync.wait() != 0:
        raise SystemExit(f"python -m bot sync failed:\n{(folder / 'bot.err').read_text()}")
    discord_.server.gateway.identified.clear()
    with (folder / "bot.err").open("ab") as err:
        bot = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", env=env, cwd=folder, stdout=err, stderr=err
        )
    await discord_.wait_ready(commands=False, timeout=60)
    await asyncio.sleep(1)  # GUILD_CREATE parsed, caches warm
    return bot


async def burst(
    discord_: LocalDiscord, channels: list[Channel], size: int
) -> list[InteractionRecord]:
    """Create `size` interactions at one instant, send them all, wait for every final answer."""
    parsed = {line: parse_command_line(line, discord_.commands()) for line in LINES}
    payloads = []
    for i in range(size):
        channel = channels[i % len(channels)]
        path, options = parsed[LINES[(i // len(channels)) % len(LINES)]]
        data = discord_._command_data(path, channel, options, None)
        payloads.append(interaction_payload(discord_.world, 2, discord_.player, channel, data))
    server = discord_.server
    created = time.monotonic()
    records = []
    for payload in payloads:
        rec = InteractionRecord(int(payload["id"]), payload["token"], 2, payload, sent_at=created)
        server.interactions[rec.id] = rec
        records.append(rec)
    for payload in payloads:
        await server.gateway.dispatch("INTERACTION_CREATE", payload)
    sent = time.monotonic() - created
    while time.monotonic() - created < 30:
        if all(LocalDiscord._done(rec, None, 0) for rec in records):
            break
        await asyncio.sleep(0.05)
    print(f"  (the local Discord took {duration(sent)} to send the burst down the gateway)")
    return records


def summary(name: str, records: list[InteractionRecord], finals: dict[int, float]) -> list[str]:
    acked = [r.answered_at - r.sent_at for r in records if r.answered_at is not None]
    in_time = sum(1 for t in acked if t <= DEADLINE)
    final = [finals[r.id] - r.sent_at for r in records if r.id in finals]
    deferred = sum(1 for r in records if r.callback_type in (5, 6))
    return [
        name,
        f"{in_time / len(records):.1%}",
        duration(statistics.median(acked)) if acked else "-",
        duration(p99(acked)) if acked else "-",
        f"{deferred}",
        duration(statistics.median(final)) if final else "-",
        duration(p99(final)) if final else "-",
        f"{len(records) - len(acked)}",
    ]


async def watch_finals(
    discord_: LocalDiscord, finals: dict[int, float], stop: asyncio.Event
) -> None:
    """Note when each interaction's final answer lands (a reply, or a deferral's follow-up),
    to within the 5 ms this polls at."""
    while not stop.is_set():
        for rec in discord_.server.interactions.values():
            if rec.id not in finals and LocalDiscord._done(rec, None, 0):
                finals[rec.id] = time.monotonic()
        await asyncio.sleep(0.005)


async def run(folder: Path, size: int) -> None:
    world = build_world()
    spread = [world.guild.add_channel(f"table-{i}") for i in range(CHANNELS - 1)]
    spread.insert(0, world.table)
    database_url = f"sqlite:///{folder / 'tablekeeper.db'}"
    rows = []
    async with LocalDiscord(world) as discord_:
        await seed(database_url, discord_, spread)
        bot = await start_bot(discord_, database_url, folder)
        try:
            print("warm-up: 100 interactions, not counted")
            await burst(discord_, spread, WARM_UP)
            await asyncio.sleep(2)
            for name, channels in ((f"{CHANNELS} channels", spread), ("1 channel", [world.table])):
                print(f"burst of {size} on {name}")
                stop, finals = asyncio.Event(), dict[int, float]()
                watcher = asyncio.create_task(watch_finals(discord_, finals, stop))
                records = await burst(discord_, channels, size)
                stop.set()
                await watcher
                rows.append(summary(name, records, finals))
                await asyncio.sleep(2)  # let stragglers finish before the next burst
            violations = discord_.take_violations()
            late = [v for v in violations if "after" in v or "unanswered" in v]
            other = [v for v in violations if v not in late]
        finally:
            bot.terminate()
            await bot.wait()
        spends = await count_spends(database_url, discord_, spread)
    print()
    print(f"{size} interactions created at once, mixed {', '.join(LINES)}")
    print(machine())
    headers = ["burst", "ack ≤ 3 s", "ack p50", "ack p99", "deferred", "final p50", "final p99"]
    print(table([*headers, "no ack"], rows))
    print(f"check: {spends}")
    print(f"late or unanswered (as the local Discord saw them): {len(late)}")
    print(f"anything else Discord would reject: {len(other)}", *other[:5], sep="\n  ")


async def count_spends(database_url: str, discord_: LocalDiscord, channels: list[Channel]) -> str:
    """Aria's FP over every channel against the /fatigue spend interactions sent (each 1 FP)."""
    from store import Store

    sent = sum(
        r.payload["data"]["name"] == "fatigue" for r in discord_.server.interactions.values()
    )
    fp = 0
    async with Store.open(database_url) as store:
        for channel in channels:
            fp += (await store.read(channel.id, channel.guild_id)).get("Aria").fatigue.fp
    return f"{fp} FP spent for {sent} /fatigue spend sent"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=BURST, help="interactions per burst")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tk-burst-") as tmp:
        asyncio.run(run(Path(tmp), args.size))


if __name__ == "__main__":
    main()
