"""`python -m tests.benchmarks.odds`: exact save odds versus a seeded Monte-Carlo estimate.

Every round times, in a shuffled order, over the same spread of bonus/difficulty pairs:
`rules.saves.success_chance` with every cache cleared first (cold), the same with its caches warm,
and a Monte-Carlo estimate from `rules.dice.open_ended` with enough rolls for ±0.5 points.
The largest gap between exact and simulated odds is printed as a sanity figure, not a test.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from rules import dice, saves
from tests.benchmarks._figures import (
    duration,
    machine,
    orders,
    paired_ratio,
    ratio,
    summarize,
    table,
)

# (1.96 / 0.005)² · ¼: a 95% interval of ±0.5 percentage points at p = ½, the widest case.
ROLLS = 38_416
# (bonus, difficulty): needed rolls from a near-certain −49 through the low chains (4) and the
# plain range to the high chains (101, 196), with the Save Rolls Table's typical bonuses.
PAIRS: tuple[tuple[int, int], ...] = (
    (95, 98),
    (0, 85),
    (0, 150),
    (25, 55),
    (25, 100),
    (40, 85),
    (40, 140),
    (70, 70),
    (70, 120),
    (110, 60),
    (-30, 55),
    (5, 200),
)
WARM_REPEATS = 1000  # calls per warm sample: one call alone is below the timer's resolution
CONTENDERS = ("exact, cold cache", "exact, warm cache", f"Monte-Carlo, {ROLLS:,} rolls")


def clear_caches() -> None:
    """Forget every memoised step of the exact odds, down to the chain counts."""
    dice.chance_at_least.cache_clear()
    dice._chain_at_least.cache_clear()


def simulate(bonus: int, difficulty: int, rng: random.Random) -> float:
    """The share of ROLLS open-ended rolls that beat `difficulty` (ties fail, the default)."""
    wins = sum(dice.open_ended(rng).total + bonus > difficulty for _ in range(ROLLS))
    return wins / ROLLS


def cold_samples() -> list[float]:
    """Seconds for one call per pair, every cache cleared (untimed) before each."""
    spent = []
    for bonus, difficulty in PAIRS:
        clear_caches()
        start = time.perf_counter()
        saves.success_chance(bonus, difficulty)
        spent.append(time.perf_counter() - start)
    return spent


def warm_samples() -> list[float]:
    """Seconds per call per pair, averaged over WARM_REPEATS calls once the pair is cached."""
    spent = []
    for bonus, difficulty in PAIRS:
        saves.success_chance(bonus, difficulty)
        start = time.perf_counter()
        for _ in range(WARM_REPEATS):
            saves.success_chance(bonus, difficulty)
        spent.append((time.perf_counter() - start) / WARM_REPEATS)
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=20240)
    args = parser.parse_args()

    gaps: list[float] = []

    def monte_carlo_samples(round_index: int) -> list[float]:
        spent = []
        for index, (bonus, difficulty) in enumerate(PAIRS):
            rng = random.Random(args.seed * 1000 + round_index * len(PAIRS) + index)
            start = time.perf_counter()
            estimate = simulate(bonus, difficulty, rng)
            spent.append(time.perf_counter() - start)
            gaps.append(abs(estimate - saves.success_chance(bonus, difficulty)))
        return spent

    samples: dict[str, list[float]] = {name: [] for name in CONTENDERS}
    for round_index, order in enumerate(orders(CONTENDERS, args.rounds, args.seed)):
        run: dict[str, Callable[[], list[float]]] = {
            CONTENDERS[0]: cold_samples,
            CONTENDERS[1]: warm_samples,
            CONTENDERS[2]: lambda: monte_carlo_samples(round_index),  # noqa: B023 (called now)
        }
        for name in order:  # one sample per pair; pairs line up across contenders
            samples[name].extend(run[name]())

    print(f"Save odds, {len(PAIRS)} bonus/difficulty pairs, {args.rounds} interleaved rounds")
    print(machine())
    rows = []
    for name in CONTENDERS:
        s = summarize(samples[name])
        rows.append([name, duration(s.median), duration(s.p95), str(s.samples)])
    print(table(["per call", "median", "p95", "samples"], rows))
    cold, warm, simulated = (samples[name] for name in CONTENDERS)
    print()
    print("ratios (median over the same pair in the same round)")
    print(
        table(
            ["compared", "ratio"],
            [
                ["Monte-Carlo / exact cold", ratio(paired_ratio(simulated, cold))],
                ["Monte-Carlo / exact warm", ratio(paired_ratio(simulated, warm))],
                ["exact cold / exact warm", ratio(paired_ratio(cold, warm))],
            ],
        )
    )
    within = sum(gap <= 0.005 for gap in gaps)
    print()
    print(
        f"max |exact − simulated| over {len(gaps)} estimates: {100 * max(gaps):.3f} points "
        f"({within}/{len(gaps)} within ±0.5; about 95% are expected to be)"
    )


if __name__ == "__main__":
    main()
