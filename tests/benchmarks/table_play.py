"""`python -m tests.benchmarks.table_play`: round trips of the table-play commands.

The bot runs as in the e2e tests, with 10 characters and an initiative of 12 running. Each
round sends, shuffled: `/init next` (the GM; every 12th starts a round and moves the clock),
`/init show` in #table and in its thread (which finds the table through the parent channel),
`/roll` and `/roll secret:True` (timed until the roller's private follow-up has arrived too).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from table import initiative
from table.model import Table
from tests.benchmarks._figures import machine, orders, round_trip_table
from tests.benchmarks._seed import party
from tests.e2e.conftest import Env
from tests.localdiscord.client import LocalDiscord

NAMES = ("/init next", "/init show", "/init show (thread)", "/roll", "/roll secret:True")
CHEAPEST = "/roll"
COMBATANTS = 12


async def seed(env: Env) -> None:
    channel, gm = env.discord.table, env.discord.gm.id
    characters = party(env.discord)

    def put(t: Table) -> tuple[Table, None]:
        for character in characters:
            t = t.with_character(character)
        names = [c.name for c in characters] + ["Orc", "Goblin"]
        for index, name in enumerate(names):
            t, _ = initiative.add(
                t,
                actor_id=gm,
                is_gm=True,
                name=name,
                score=index % 7,
                other=True,
                rng=random.Random(0),
            )
        return initiative.start(t)[0], None

    await env.store.apply(channel.id, channel.guild_id, gm, "benchmark seed", put)


async def one(env: Env, name: str) -> None:
    d = env.discord
    if name == "/init next":
        reply = await d.slash("init next", user=d.gm)
    elif name == "/init show":
        reply = await d.slash("init show", user=d.player)
    elif name == "/init show (thread)":
        reply = await d.slash("init show", user=d.player, channel=d.scene)
    elif name == "/roll":
        reply = await d.slash("roll", user=d.player)
    else:
        reply = await d.slash("roll", user=d.player, secret=True)
        while not d.latest(reply).followups:  # the roller's result, after the channel's notice
            await asyncio.sleep(0.0005)
    if reply.ephemeral:
        raise SystemExit(f"{name} answered with an error: {reply.text}")


async def run(rounds: int, seed_: int) -> tuple[dict[str, list[float]], int]:
    with tempfile.TemporaryDirectory(prefix="tk-bench-") as tmp:
        async with LocalDiscord() as discord_:
            env = Env(discord_, f"sqlite:///{Path(tmp) / 'tablekeeper.db'}")
            await env.start(sync=True)
            try:
                await seed(env)
                for name in NAMES:  # warm up
                    await one(env, name)
                samples: dict[str, list[float]] = {name: [] for name in NAMES}
                for order in orders(NAMES, rounds, seed_):
                    for name in order:
                        start = time.perf_counter()
                        await one(env, name)
                        samples[name].append(time.perf_counter() - start)
                turns = (await env.table()).initiative.round
            finally:
                await env.stop()
            discord_.assert_clean()
    return samples, turns


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--seed", type=int, default=20240)
    args = parser.parse_args()
    samples, round_ = asyncio.run(run(args.rounds, args.seed))
    print(f"Table play through the bot on a local Discord, {args.rounds} interleaved rounds")
    print(f"{COMBATANTS} in the initiative; ÷ {CHEAPEST}: median of per-round ratios")
    print(machine())
    print(round_trip_table(samples, CHEAPEST))
    print(f"check: the initiative is in round {round_} after {args.rounds + 1} turns passed")


if __name__ == "__main__":
    main()
