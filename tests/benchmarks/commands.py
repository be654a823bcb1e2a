"""`python -m tests.benchmarks.commands`: round trips through the real bot and a local Discord.

The bot runs as in the e2e tests (`tests.e2e.conftest.Env`: a real SQLite file, the gateway and
REST on loopback) with 10 characters at the table. Each round sends, in a shuffled order,
`/save wsr vs:7` (from the caller's character), `/fatigue spend`, `/party show` and
`/roll dice:4d6kh3`, timing each from the interaction's dispatch to its final answer.
Set TK_COGS=cogs.saves,cogs.roll,cogs.characters,cogs.fatigue,cogs.party to load just those.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from rules.fatigue import FatigueState
from table.model import Character, Table
from tests.benchmarks._figures import machine, orders, round_trip_table
from tests.e2e.conftest import Env
from tests.localdiscord.client import LocalDiscord
from tests.localdiscord.commands import parse_command_line

LINES = ("/save wsr vs:7", "/fatigue spend", "/party show", "/roll dice:4d6kh3")
CHEAPEST = "/roll dice:4d6kh3"
PARTY = 10


def party(discord_: LocalDiscord) -> list[Character]:
    """The caller's character and 9 others: the table every command reads."""
    # FL 1000: bands of 1000 FP, so a few hundred spends keep the reply the same kind of reply.
    mine = Character(
        "Aria", discord_.player.id, level=5, wisdom=10, kin_wsr=5, fl_override=Fraction(1000)
    )
    others = [
        Character(
            f"Companion {i}",
            discord_.player2.id,
            level=i,
            classes=((10, i),),
            toughness=i % 3,
            fatigue=FatigueState(fp=7 * i, temp=i % 2, temp_expires=600 if i % 2 else None),
        )
        for i in range(1, PARTY)
    ]
    return [mine, *others]


async def seed(env: Env) -> None:
    channel = env.discord.table
    characters = party(env.discord)

    def put(t: Table) -> tuple[Table, None]:
        for character in characters:
            t = t.with_character(character)
        return t, None

    await env.store.apply(channel.id, channel.guild_id, env.discord.gm.id, "benchmark seed", put)


async def measure(env: Env, rounds: int, seed_: int) -> dict[str, list[float]]:
    d = env.discord
    parsed: dict[str, tuple[str, dict[str, Any]]] = {
        line: parse_command_line(line, d.commands()) for line in LINES
    }
    for line, (path, options) in parsed.items():  # warm up, and refuse to time an error reply
        reply = await d.slash(path, user=d.player, options=options)
        if reply.ephemeral:
            raise SystemExit(f"{line} answered with an error: {reply.text}")
    samples: dict[str, list[float]] = {line: [] for line in LINES}
    for order in orders(LINES, rounds, seed_):
        for line in order:
            path, options = parsed[line]
            start = time.perf_counter()
            await d.slash(path, user=d.player, options=options)
            samples[line].append(time.perf_counter() - start)
    return samples


async def run(rounds: int, seed_: int) -> tuple[dict[str, list[float]], int]:
    """The samples, and Aria's FP at the end: every `/fatigue spend` (warm-up included) must
    have landed, or the figures timed something else."""
    with tempfile.TemporaryDirectory(prefix="tk-bench-") as tmp:
        async with LocalDiscord() as discord_:
            env = Env(discord_, f"sqlite:///{Path(tmp) / 'tablekeeper.db'}")
            await env.start(sync=True)
            try:
                await seed(env)
                samples = await measure(env, rounds, seed_)
                fp = (await env.table()).get("Aria").fatigue.fp
            finally:
                await env.stop()
            discord_.assert_clean()  # nothing the bot sent would Discord have rejected
    return samples, fp


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20240)
    args = parser.parse_args()
    samples, fp = asyncio.run(run(args.rounds, args.seed))

    print(f"Round trips through the bot on a local Discord, {args.rounds} interleaved rounds")
    print(f"{PARTY} characters at the table; ÷ {CHEAPEST}: median of per-round ratios")
    print(machine())
    print(round_trip_table(samples, CHEAPEST))
    print(f"check: Aria's FP is {fp} after {args.rounds + 1} spends of 1 (warm-up included)")


if __name__ == "__main__":
    main()
