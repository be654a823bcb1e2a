"""`python -m tests.benchmarks.ablate`: what each part of a `/save` reply costs, measured by
taking it away.

`/save wsr level:5 vs:7` goes through the local Discord as in `commands --sections latency`,
in shuffled rounds with the echo bot; in each round it is also sent with one part of the cog's
work replaced by a stand-in (put in just before, taken out just after, so every variant meets
the same machine at the same minutes). A variant's ratio to the echo bot, against the whole
command's, is what that part costs:

- `dispatch, then a word`: the cog answers a fixed word (what remains is discord.py's dispatch of a
  command with this many options, the tree's checks, and the transport);
- `read and inputs, then a word`: the channel's table read and the save's inputs worked out;
- `no button`: everything but the "Roll again" button;
- `button built once`: the button built once and sent every time (what is left of the
  button's cost is discord.py's and the local Discord's);
- `title-only embed`: everything, with an embed of a title alone instead of the working.

The stand-ins are not the bot: they only show where its time goes (see docs/benchmarks.md,
and `phases` for where an interaction's time goes by stage).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import discord

from cogs._reply import reply
from tests.benchmarks import _seed
from tests.benchmarks._bots import checked, forget, pair
from tests.benchmarks._figures import duration, orders, percentile, table
from tests.benchmarks.phases import patched

SAVE = "/save wsr level:5 vs:7"
WHOLE, ECHO = "the whole /save", "/echo (baseline)"
Patch = Callable[[ModuleType], list[tuple[Any, str, Any]]]


def a_word_instead_of(method: str) -> Patch:
    """The cog's `method` (`Saves._one`: all its work; `Saves.reply_one`: what follows the
    read and the inputs) answers a fixed word instead."""

    def patch(saves: ModuleType) -> list[tuple[Any, str, Any]]:
        async def word(self: Any, interaction: discord.Interaction, *args: Any) -> None:
            await reply(interaction, "x")

        return [(saves.Saves, method, word)]

    return patch


def no_button(saves: ModuleType) -> list[tuple[Any, str, Any]]:
    return [
        (saves, "SaveAgain", lambda *args: None),
        (saves, "buttons_view", lambda *buttons: discord.utils.MISSING),
    ]


def button_built_once(saves: ModuleType) -> list[tuple[Any, str, Any]]:
    built: list[discord.ui.View] = []
    make, view = saves.SaveAgain, saves.buttons_view

    def once(*buttons: tuple[Any, ...]) -> discord.ui.View:
        if not built:
            built.append(view(*(make(*args) for args in buttons)))
        return built[0]

    return [(saves, "SaveAgain", lambda *args: args), (saves, "buttons_view", once)]


def title_only_embed(saves: ModuleType) -> list[tuple[Any, str, Any]]:
    return [(saves, "save_embed", lambda result, name=None: discord.Embed(title="Save"))]


VARIANTS: dict[str, Patch] = {
    "dispatch, then a word": a_word_instead_of("_one"),
    "read and inputs, then a word": a_word_instead_of("reply_one"),
    "no button": no_button,
    "button built once": button_built_once,
    "title-only embed": title_only_embed,
}


async def run(rounds: int, seed: int) -> None:
    samples: dict[str, list[float]] = {name: [] for name in (WHOLE, *VARIANTS, ECHO)}
    with tempfile.TemporaryDirectory(prefix="tk-ablate-") as tmp:
        async with pair() as p, p.tablekeeper(f"sqlite:///{Path(tmp) / 'ablate.db'}") as env:
            await _seed.seed_table(env.store, p.tk)
            saves = sys.modules["cogs.saves"]  # the module the bot loaded (an extension)
            patches = {name: make(saves) for name, make in VARIANTS.items()}
            save = p.parse(SAVE)
            for changes in [[], *patches.values()]:  # warm up; each must answer, not refuse
                with patched(changes):
                    if (await p.tk_once(save, p.tk.player)).ephemeral:
                        raise SystemExit(f"{SAVE} answered with an error")
            await p.echo_once()
            checked(p, False)
            for order in orders(list(samples), rounds, seed):
                for name in order:
                    with patched(patches.get(name, [])):
                        start = time.perf_counter()
                        if name == ECHO:
                            await p.echo_once()
                        else:
                            await p.tk_once(save, p.tk.player)
                        samples[name].append(time.perf_counter() - start)
                forget(p.tk)
                forget(p.echo)
    echo, whole = statistics.median(samples[ECHO]), statistics.median(samples[WHOLE])
    rows = [
        [
            name,
            duration(statistics.median(values)),
            duration(percentile(values, 99)),
            f"{statistics.median(values) / echo:.2f}×",
            "" if name == ECHO else f"{(whole - statistics.median(values)) / echo:+.2f}×",
        ]
        for name, values in samples.items()
    ]
    print(f"\n{SAVE}, {rounds} shuffled rounds (SQLite; the echo bot in the same process)")
    print(table(["variant", "median", "p99", "÷ echo", "saved ÷ echo"], rows))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=600)
    parser.add_argument("--seed", type=int, default=20240)
    args = parser.parse_args()
    asyncio.run(run(args.rounds, args.seed))


if __name__ == "__main__":
    main()
