"""Writing the roll log off the replies' path: a command hands its rolls over (`add`, no await)
after its reply, and a task of the bot's writes what came in one transaction every `EVERY`
seconds (`store.roll_log.log_rolls`). So a `/save` never waits for the database, and a moment's
rolls cost one commit, not one each. Closing writes what is left.

What it may lose: the rolls of the last moment, if the process dies before they are written;
while the database is out (`DatabaseOutage`) they wait and are tried again, up to `WAITING_MAX`
rolls (the oldest are dropped past that, and the log says so). Rolls the database refuses for
any other reason are dropped with an error in the log: tried again, they would block the rest.

What it keeps in memory is bounded: the rolls waiting (`WAITING_MAX`), and a count of rolls
written since its last trim for at most `CHANNELS_COUNTED` channels: a channel is trimmed to
its bound at its first write and then every `TRIM_EVERY` rolls (one forgotten is trimmed at its
next write again), so a log runs at most that far over its bound between trims.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter, OrderedDict, deque
from collections.abc import Iterable

from store.errors import DatabaseOutage
from store.roll_log import TRIM_EVERY
from store.store import Store
from table.roll_log import KEEP_DEFAULT, LoggedRoll

log = logging.getLogger(__name__)

EVERY = 1.0  # seconds between writes
WAITING_MAX = 20_000  # rolls waiting to be written, at most
CHANNELS_COUNTED = 4096


class RollWriter:
    def __init__(self, store: Store, keep: int = KEEP_DEFAULT, every: float = EVERY) -> None:
        self._store = store
        self.keep = keep  # rolls kept per channel
        self.every = every
        self._waiting: deque[tuple[int, LoggedRoll]] = deque()
        self._written: OrderedDict[int, int] = OrderedDict()  # channel -> rolls since its trim
        self._lock = asyncio.Lock()  # one write at a time: `flush` may be called beside the task
        self._task: asyncio.Task[None] | None = None
        self._failing = False
        self.dropped = 0  # rolls lost to WAITING_MAX

    def add(self, channel_id: int, rolls: Iterable[LoggedRoll]) -> None:
        """Rolls made in the channel (its table's), to be written within `every` seconds."""
        for roll in rolls:
            if len(self._waiting) >= WAITING_MAX:
                self._waiting.popleft()
                self.dropped += 1
                if self.dropped == 1 or self.dropped % 1000 == 0:
                    log.warning("Roll log: %d rolls dropped while it can't write", self.dropped)
            self._waiting.append((channel_id, roll))

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="roll-log-writer")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            with contextlib.suppress(Exception):  # said by `flush`, and tried again
                await self.flush()

    async def flush(self) -> None:
        """Write every roll waiting now, in one transaction; on failure they wait again."""
        async with self._lock:
            if not self._waiting:
                return
            batch = list(self._waiting)
            self._waiting.clear()
            added = Counter(channel for channel, _roll in batch)
            trimmed = [channel for channel, count in added.items() if self._due(channel, count)]
            try:
                await self._store.log_rolls(batch, self.keep, trimmed)
            except DatabaseOutage as error:  # it passes: they wait, and go first next time
                self._waiting.extendleft(reversed(batch))
                while len(self._waiting) > WAITING_MAX:
                    self._waiting.popleft()
                    self.dropped += 1
                for channel in trimmed:
                    self._written.pop(channel, None)  # trimmed at the next write
                if not self._failing:
                    log.warning("Roll log: %d rolls wait for the database (%s)", len(batch), error)
                self._failing = True
                raise
            except Exception:  # not the database's outage: trying the same rolls again won't do
                log.exception(
                    "Roll log: %d rolls could not be written, and are dropped", len(batch)
                )
                raise
            if self._failing:
                log.info("Roll log: writing again")
            self._failing = False

    def _due(self, channel: int, added: int) -> bool:
        """Count `added` rolls written to the channel: whether it is trimmed with them."""
        written = self._written.pop(channel, None)
        due = written is None or written + added >= TRIM_EVERY
        self._written[channel] = 0 if due else (written or 0) + added
        if len(self._written) > CHANNELS_COUNTED:
            self._written.popitem(last=False)
        return due

    async def close(self) -> None:
        """Stop, and write what is waiting (once: a database that is gone loses them)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        try:
            await self.flush()
        except Exception:
            log.warning("Roll log: %d rolls not written as the bot stopped", self.waiting)
