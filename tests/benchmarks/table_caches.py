"""`python -m tests.benchmarks.table_caches`: what each functools cache in `table/` saves, by
taking it away in the same run: the work of the read each one serves, kept and not kept.

- `table.model._cached_fatigue_level` (a Character's Fatigue Level, from exact Fractions): every
  read of a channel's party builds its Characters; 10 of them, and 200 (the most a channel
  keeps), as a command that reads them afresh does.
- `table.settings._layered` (a channel's settings, checked, its initiative dice parsed): every
  read of a channel layers its settings.

Each is timed in-process, the best of 7 repeats (the machine's noise is slower runs, never
faster ones). A cache whose saving no user would feel against a command's milliseconds
(`commands`' figures) is not kept: the save difficulties' and the logged Fatigue Levels' were
taken away on these grounds (3 µs a `/save`, 40 µs a page of `/history`).
`python -m tests.benchmarks.record table_caches` keeps its figures (docs/benchmarks.md).
"""

from __future__ import annotations

import timeit
from collections.abc import Callable
from types import ModuleType
from typing import Any

from table import model, settings
from table.model import Character
from table.settings import layered
from tests.benchmarks._figures import machine


def _party(count: int) -> list[dict[str, Any]]:
    return [
        {
            "name": f"C{i}",
            "owner_id": 100 + i,
            "level": i % 20 + 1,
            "classes": ((10, i % 20 + 1), (6, i % 7 + 1)),
            "combine": "multi",
            "toughness": i % 3,
        }
        for i in range(count)
    ]


def _read(party: list[dict[str, Any]]) -> Callable[[], None]:
    def read() -> None:
        for fields in party:
            Character(**fields)

    return read


def _layer() -> None:
    layered({"ties": "succeed", "history_keep": 500}, (("rest_rate", 2), ("init_dice", "1d20")))


def best(work: Callable[[], None], number: int) -> float:
    """Seconds for one `work`, the best of 7 repeats of `number`."""
    return min(timeit.repeat(work, number=number, repeat=7)) / number


def main() -> None:
    print(f"{machine()}: each read's work, with the cache kept and taken away")
    cases: list[tuple[str, Callable[[], None], ModuleType, str, int]] = [
        ("10 characters read", _read(_party(10)), model, "_cached_fatigue_level", 500),
        ("200 characters read", _read(_party(200)), model, "_cached_fatigue_level", 50),
        ("a channel's settings layered", _layer, settings, "_layered", 2000),
    ]
    for label, work, module, name, number in cases:
        cached = getattr(module, name)
        kept = best(work, number)
        setattr(module, name, cached.__wrapped__)
        try:
            without = best(work, max(number // 4, 10))
        finally:
            setattr(module, name, cached)
        print(
            f"- {label} ({module.__name__}.{name}): {kept * 1e6:,.1f} µs kept,"
            f" {without * 1e6:,.1f} µs without: {(without - kept) * 1e6:,.1f} µs saved"
        )


if __name__ == "__main__":
    main()
