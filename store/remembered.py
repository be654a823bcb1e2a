"""What the SQLite store remembers between reads and changes: answers (a channel's Table read
with some parts, a page of its history), each with the change stamps of its channel and server
as they were when it was true. An answer is given again while those stamps are unchanged.

The stamps are numbers the database bumps itself (the `change_stamps` migration's triggers, on
every row a channel's Table and history are made of), whoever writes, in whatever process: so
an answer is never stale, and a change to one channel costs no other channel its answers.

Who fills it: a quick read remembers what it read (`QuickReader`); a change, once committed,
what a read of its own parts finds after it (the Table it left), and steps forward the answers
that were true as it began (the newest page of history gains its event; the channel's Tables of
other parts take its row). So a look right after a change, and the next change of the channel,
read nothing again: figures in `Remembered`'s docstring."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Hashable
from typing import Any

from store.backend import Scope

Stamps = tuple[int | None, int | None]  # the channel's and its server's; None: never changed

# The stamps the `change_stamps` migration's triggers keep: NULL until the first change since.
_STAMPS = (
    "SELECT (SELECT stamp FROM channel_stamps WHERE channel_id = ?1),"
    " (SELECT stamp FROM guild_stamps WHERE guild_id ="
    " COALESCE(?2, (SELECT guild_id FROM channels WHERE channel_id = ?1)))"
)
REMEMBERED_MAX = 2048  # answers remembered, at most


def stamps(conn: sqlite3.Connection, scope: Scope) -> Stamps:
    """The scope's change stamps, as the connection sees them now."""
    found: Stamps = conn.execute(_STAMPS, scope).fetchone()
    return found


class Remembered:
    """Answers by key, each with the stamps it is true at: at most 2,048 of them (REMEMBERED_MAX;
    the longest remembered forgotten first), about 1 KB each for a look at a party of ten beyond
    the decoded rows it shares (`codec`).

    It saves a read on nearly every command: `tests.benchmarks.store` reads a channel of ten
    characters in 5 µs against 62 µs afresh (and past REMEMBERED_MAX channels in play, a look
    takes 99 µs instead of 17); in `tests.benchmarks.commands --sections latency`, side by side
    with a store that remembers nothing (four runs each), /party show takes 1.5× the echo bot
    against 1.5–4.7× (median 3.3×), /history 1.7× against 3.4×, and a change needs no load.

    Only the event loop's thread changes it (reads put what they read; a change's answers are
    put as it settles, after its COMMIT); the connection's thread only looks (`get`), so the two
    never need a lock."""

    def __init__(self) -> None:
        self._answers: dict[Hashable, tuple[Any, Stamps]] = {}

    def get(self, key: Hashable, now: Stamps) -> Any:
        """The answer remembered under `key` if it was true at `now`'s stamps; else None."""
        found = self._answers.get(key)
        return found[0] if found is not None and found[1] == now else None

    def put(self, key: Hashable, answer: Any, at: Stamps) -> None:
        """Remember `answer` (immutable: it is shared) as true at the stamps `at`."""
        answers = self._answers
        answers.pop(key, None)
        if len(answers) >= REMEMBERED_MAX:
            del answers[next(iter(answers))]
        answers[key] = answer, at

    def step(self, key: Hashable, began: Stamps, after: Stamps, step: Callable[[Any], Any]) -> None:
        """A committed change moved the stamps from `began` to `after`: the answer under `key`,
        if it was true as the change began, becomes `step(answer)`, true after it."""
        found = self._answers.get(key)
        if found is not None and found[1] == began:
            self.put(key, step(found[0]), after)

    def forget(self) -> None:
        """Forget every answer (a benchmark timing reads afresh)."""
        self._answers.clear()
