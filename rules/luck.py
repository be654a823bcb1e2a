"""Were the dice fair? (docs/rules.md#15-the-dices-own-report) Two tests of a table's rolls
against the exact odds, pure standard library.

- **Saves**: each save had its own exact chance to succeed, so the number that succeeded follows
  the Poisson-binomial distribution of those very chances (`SuccessCount`, computed exactly by
  adding one save at a time, not by a normal approximation). How unusual a count is: P(X ≤ k)
  and P(X ≥ k), read against `UNUSUAL` and `RARE` (`luck`).
- **First d100s**: the first die of every open-ended roll is a fair d100; in ten bins of ten,
  Pearson's chi-square against flat, its p-value from the chi-square distribution's survival
  function in closed form (`chi_square_p`).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable
from dataclasses import dataclass

UNUSUAL = 0.05  # a tail this small: lucky or unlucky
RARE = 0.01  # this small: very
BAND = (0.05, 0.95)  # the band the picture draws: the 5th to the 95th percentile
# Counts whose chance falls below this at either end of the distribution are dropped as they
# come (a tail of 1e-20 changes no figure shown): adding a save then costs about 20 standard
# deviations of work, not one step per save made, and 20,000 saves stay quick.
NEGLIGIBLE = 1e-20

BINS = 10  # the first d100s in bins of ten: 1–10, 11–20, …, 91–100
FACES = 100
FEWEST_D100S = 5 * BINS  # Pearson's rule of thumb: at least 5 expected in every bin
UNEVEN = 0.01  # a p-value below this: the d100s look uneven


class SuccessCount:
    """The exact distribution of how many saves succeed, each with its own chance: start empty
    (or with `chances`) and `add` each save in turn."""

    def __init__(self, chances: Iterable[float] = ()) -> None:
        self.saves = 0
        self.expected = 0.0  # the sum of the chances: the mean
        self._low = 0  # the count `_pmf[0]` is the chance of
        self._pmf = [1.0]
        self._cut_low = 0.0  # the chance of a count below `_low` (dropped as negligible)
        for chance in chances:
            self.add(chance)

    def add(self, chance: float) -> None:
        """One more save, which succeeds with `chance` (0 to 1)."""
        if not 0.0 <= chance <= 1.0:
            raise ValueError(f"a chance is between 0 and 1, not {chance}")
        fail = 1.0 - chance
        pmf = self._pmf
        self._pmf = [a * fail + b * chance for a, b in zip([*pmf, 0.0], [0.0, *pmf], strict=True)]
        self.saves += 1
        self.expected += chance
        self._trim()

    def _trim(self) -> None:
        pmf = self._pmf
        start, end = 0, len(pmf)
        while end - start > 1 and pmf[start] < NEGLIGIBLE:
            start += 1
        while end - start > 1 and pmf[end - 1] < NEGLIGIBLE:
            end -= 1
        if start or end < len(pmf):
            self._cut_low += math.fsum(pmf[:start])
            self._low += start
            self._pmf = pmf[start:end]

    def exactly(self, k: int) -> float:
        at = k - self._low
        return self._pmf[at] if 0 <= at < len(self._pmf) else 0.0

    def at_most(self, k: int) -> float:
        """P(X ≤ k)."""
        if k < 0:
            return 0.0
        if k >= self.saves:
            return 1.0
        held = self._pmf[: max(0, k - self._low + 1)]
        return min(1.0, self._cut_low + math.fsum(held))

    def at_least(self, k: int) -> float:
        """P(X ≥ k), summed from its own side (1 − P(X ≤ k−1) would lose a small tail)."""
        if k <= 0:
            return 1.0
        if k > self.saves:
            return 0.0
        return min(1.0, math.fsum(self._pmf[max(0, k - self._low) :]))

    def percentile(self, q: float) -> int:
        """The least count k with P(X ≤ k) ≥ q."""
        total = self._cut_low
        for offset, chance in enumerate(self._pmf):
            total += chance
            if total >= q - 1e-12:  # sums of floats: a hair short of q is q
                return self._low + offset
        return self._low + len(self._pmf) - 1

    def band(self, low: float = BAND[0], high: float = BAND[1]) -> Band:
        """Where the count lands between its `low` and `high` percentiles, and the exact
        chance that it does."""
        first, last = self.percentile(low), self.percentile(high)
        inside = math.fsum(self.exactly(k) for k in range(first, last + 1))
        return Band(first, last, min(1.0, inside))


@dataclass(frozen=True)
class Band:
    low: int
    high: int
    coverage: float  # P(low ≤ X ≤ high): at least high − low of the percentiles, often more


class Luck(enum.Enum):
    TOO_FEW = "too_few"  # no count these saves could make would be unusual
    VERY_UNLUCKY = "very_unlucky"
    UNLUCKY = "unlucky"
    AS_EXPECTED = "as_expected"
    LUCKY = "lucky"
    VERY_LUCKY = "very_lucky"


def luck(successes: int, count: SuccessCount) -> Luck:
    """How `successes` reads against the distribution: unlucky when P(X ≤ k) is `UNUSUAL` or
    less, very so when `RARE` or less; lucky likewise by P(X ≥ k); too few saves to tell when
    even none, or all, succeeding would not be unusual."""
    if not 0 <= successes <= count.saves:
        raise ValueError(f"{successes} successes of {count.saves} saves")
    if count.at_most(0) > UNUSUAL and count.at_least(count.saves) > UNUSUAL:
        return Luck.TOO_FEW
    low, high = count.at_most(successes), count.at_least(successes)
    if low <= RARE:
        return Luck.VERY_UNLUCKY
    if low <= UNUSUAL:
        return Luck.UNLUCKY
    if high <= RARE:
        return Luck.VERY_LUCKY
    if high <= UNUSUAL:
        return Luck.LUCKY
    return Luck.AS_EXPECTED


# --- the first d100s -----------------------------------------------------------------------


class Flatness(enum.Enum):
    TOO_FEW = "too_few"  # fewer than FEWEST_D100S: the test says nothing yet
    FLAT = "flat"
    UNEVEN = "uneven"


@dataclass(frozen=True)
class FlatTest:
    counts: tuple[int, ...]  # how many first d100s fell in each bin of ten
    chi_square: float
    p: float  # the chance a fair d100 spreads at least this unevenly
    flatness: Flatness

    @property
    def dice(self) -> int:
        return sum(self.counts)


def bins(dice: Iterable[int]) -> tuple[int, ...]:
    """How many of `dice` (1–100) fell in each bin of ten."""
    counts = [0] * BINS
    width = FACES // BINS
    for die in dice:
        if not 1 <= die <= FACES:
            raise ValueError(f"a d100 shows 1 to 100, not {die}")
        counts[(die - 1) // width] += 1
    return tuple(counts)


def flat_test(dice: Iterable[int]) -> FlatTest:
    """Pearson's chi-square of the dice against a flat d100, over ten bins of ten."""
    counts = bins(dice)
    total = sum(counts)
    if not total:
        return FlatTest(counts, 0.0, 1.0, Flatness.TOO_FEW)
    expected = total / BINS
    statistic = math.fsum((seen - expected) ** 2 / expected for seen in counts)
    p = chi_square_p(statistic, BINS - 1)
    if total < FEWEST_D100S:
        flatness = Flatness.TOO_FEW
    else:
        flatness = Flatness.UNEVEN if p < UNEVEN else Flatness.FLAT
    return FlatTest(counts, statistic, p, flatness)


def chi_square_p(x: float, df: int) -> float:
    """P(χ² ≥ x) with `df` degrees of freedom: exact, by the closed form for a whole number of
    degrees (from Q(x; 1) = erfc(√(x/2)) or Q(x; 2) = e^(−x/2), each further two degrees adding
    (x/2)^(ν/2) e^(−x/2) / Γ(ν/2 + 1))."""
    if df < 1:
        raise ValueError(f"degrees of freedom are 1 or more, not {df}")
    if x <= 0:
        return 1.0
    half = x / 2
    nu = 2 - df % 2
    total = math.erfc(math.sqrt(half)) if nu == 1 else math.exp(-half)
    while nu < df:
        total += math.exp(nu / 2 * math.log(half) - half - math.lgamma(nu / 2 + 1))
        nu += 2
    return min(1.0, total)
