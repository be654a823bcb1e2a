"""`python -m tests.benchmarks.echo_bot`: `_bots.EchoBot` in its own process, run the way
`python -m bot` runs Tablekeeper, for `tests.benchmarks.processes`.

It reads DISCORD_TOKEN and DISCORD_API_BASE from the environment, registers `/echo` as it
starts (it has nothing else to register), freezes what start-up made out of the collector's
generations once ready (as `bot.__main__` does), and closes on SIGTERM.
"""

from __future__ import annotations

import asyncio
import gc
import os
import signal

from bot.api_base import use_api_base
from tests.benchmarks._bots import EchoBot


class EchoProcess(EchoBot):
    async def setup_hook(self) -> None:
        await super().setup_hook()
        await self.tree.sync()

    async def on_ready(self) -> None:
        gc.collect()
        gc.freeze()


async def run() -> None:
    use_api_base(os.environ["DISCORD_API_BASE"])
    async with EchoProcess() as bot:
        asyncio.get_running_loop().add_signal_handler(
            signal.SIGTERM, lambda: asyncio.ensure_future(bot.close())
        )
        await bot.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    asyncio.run(run())
