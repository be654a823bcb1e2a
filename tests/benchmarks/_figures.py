"""Shared by the benchmarks: interleaving orders, median/p95, paired ratios and a table."""

from __future__ import annotations

import math
import platform
import random
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Summary:
    """Seconds per operation over the samples of one contender."""

    median: float
    p95: float
    samples: int


def percentile(samples: Sequence[float], p: float) -> float:
    """Nearest-rank percentile `p` (0–100): a value that was actually observed."""
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def p95(samples: Sequence[float]) -> float:
    return percentile(samples, 95)


def summarize(samples: Sequence[float]) -> Summary:
    if not samples:
        raise ValueError("no samples to summarize")
    return Summary(statistics.median(samples), p95(samples), len(samples))


def paired_ratio(numerator: Sequence[float], denominator: Sequence[float]) -> float:
    """Median of the ratios of paired samples (measured in the same round), so drift in the
    machine's speed between rounds cancels out instead of landing on one side."""
    _check_paired(numerator, denominator)
    return statistics.median(a / b for a, b in zip(numerator, denominator, strict=True))


def _check_paired(numerator: Sequence[float], denominator: Sequence[float]) -> None:
    if len(numerator) != len(denominator) or not numerator:
        raise ValueError("paired ratios need the same, non-zero number of samples on each side")


def ratio_range(
    numerator: Sequence[float],
    denominator: Sequence[float],
    resamples: int = 1000,
    seed: int = 0,
    share: float = 0.95,
) -> tuple[float, float]:
    """Where the ratio of the two medians lies, `share` of the time, had other rounds been
    drawn (a bootstrap over the rounds: each resample keeps a round's two samples together,
    as they met the machine in the same minutes). A goal on the line reads as a range that
    straddles it. It covers the scatter of this run's rounds only: runs minutes apart on a
    shared machine differ by more (its speed drifts), so compare runs too."""
    _check_paired(numerator, denominator)
    rng = random.Random(seed)
    rounds = range(len(numerator))
    ratios = []
    for _ in range(resamples):
        picked = rng.choices(rounds, k=len(numerator))
        top = statistics.median(numerator[i] for i in picked)
        ratios.append(top / statistics.median(denominator[i] for i in picked))
    ratios.sort()
    tail = (1 - share) / 2
    return ratios[int(tail * (resamples - 1))], ratios[math.ceil((1 - tail) * (resamples - 1))]


def orders(names: Sequence[str], rounds: int, seed: int) -> list[list[str]]:
    """One shuffled order of `names` per round, so no contender always runs first (warm caches,
    a CPU boost) or last."""
    rng = random.Random(seed)
    result = []
    for _ in range(rounds):
        order = list(names)
        rng.shuffle(order)
        result.append(order)
    return result


def duration(seconds: float) -> str:
    """A duration with a unit that keeps three significant figures readable."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def ratio(value: float) -> str:
    """Three significant figures, with thousands separators rather than an exponent."""
    return f"{float(f'{value:.3g}'):,.0f}×" if value >= 100 else f"{value:.3g}×"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain-text table: first column left-aligned, the figures right-aligned."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        first, *rest = cells
        parts = [first.ljust(widths[0])]
        parts += [cell.rjust(width) for cell, width in zip(rest, widths[1:], strict=True)]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * width for width in widths)
    return "\n".join([line(headers), rule, *(line(row) for row in rows)])


def machine() -> str:
    return f"Python {sys.version.split()[0]} on {platform.machine()} ({platform.system()})"


def round_trip_table(samples: dict[str, list[float]], cheapest: str) -> str:
    """Median, p95, the per-round ratio to `cheapest` and the count, one row per command."""
    rows = []
    for name, taken in samples.items():
        s = summarize(taken)
        rows.append(
            [
                name,
                duration(s.median),
                duration(s.p95),
                ratio(paired_ratio(taken, samples[cheapest])),
                str(s.samples),
            ]
        )
    return table(["command", "median", "p95", f"÷ {cheapest}", "n"], rows)
