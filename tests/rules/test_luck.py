"""The dice's own report, its statistics (docs/rules.md#15-the-dices-own-report): the exact
Poisson-binomial distribution of a count of successes against brute-force enumeration, its band
against 10,000 simulated fair evenings, the verdict's thresholds, and the chi-square test of the
first d100s against its published critical values and against integrating its density."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.luck import (
    FEWEST_D100S,
    NEGLIGIBLE,
    Flatness,
    Luck,
    SuccessCount,
    bins,
    chi_square_p,
    flat_test,
    luck,
)
from rules.saves import success_probability

# Chances as saves have them (exact fractions), up to 12 saves: every one of the 2**12 ways the
# saves can fall is enumerated, by exact arithmetic.
chances = st.lists(
    st.one_of(
        st.integers(0, 1000).map(lambda n: Fraction(n, 1000)),
        st.builds(success_probability, st.integers(-100, 200), st.integers(1, 300)),
    ),
    max_size=12,
)


def enumerated(odds: list[Fraction]) -> list[Fraction]:
    """P(X = k) for every k, by walking every outcome of every save."""
    exact = [Fraction(0)] * (len(odds) + 1)
    for outcome in itertools.product((False, True), repeat=len(odds)):
        chance = Fraction(1)
        for success, p in zip(outcome, odds, strict=True):
            chance *= p if success else 1 - p
        exact[sum(outcome)] += chance
    return exact


@given(chances)
@settings(max_examples=150, deadline=None)
def test_the_tails_are_those_of_every_outcome_enumerated(odds: list[Fraction]) -> None:
    exact = enumerated(odds)
    count = SuccessCount(float(p) for p in odds)
    assert count.saves == len(odds)
    assert count.expected == pytest.approx(float(sum(odds)), abs=1e-12)
    for k in range(-1, len(odds) + 2):
        at_most = sum(exact[: max(0, k + 1)], Fraction(0))
        at_least = sum(exact[max(0, k) :], Fraction(0))
        # Only counts whose own chance is below NEGLIGIBLE are ever dropped.
        slack = 1e-12 + len(odds) * NEGLIGIBLE
        assert count.at_most(k) == pytest.approx(float(at_most), abs=slack)
        assert count.at_least(k) == pytest.approx(float(at_least), abs=slack)
        if 0 <= k <= len(odds):
            assert count.exactly(k) == pytest.approx(float(exact[k]), abs=slack)


@given(chances, st.sampled_from([0.01, 0.05, 0.25, 0.5, 0.95, 0.99]))
@settings(max_examples=100, deadline=None)
def test_percentiles_are_the_least_count_reaching_them(odds: list[Fraction], q: float) -> None:
    exact = enumerated(odds)
    below = list(itertools.accumulate(exact))
    wanted = next(k for k, total in enumerate(below) if total >= Fraction(q) - Fraction(1, 10**12))
    assert SuccessCount(float(p) for p in odds).percentile(q) == wanted


def test_a_long_evening_keeps_only_the_counts_that_matter() -> None:
    count = SuccessCount([0.5] * 20_000)
    assert count.at_most(10_000) == pytest.approx(0.5 + count.exactly(10_000) / 2, abs=1e-9)
    assert len(count._pmf) < 2_000  # ± about 20 standard deviations (71), not 20,001 counts
    band = count.band()
    assert (band.low, band.high) == (9884, 10116)  # ±1.645 × 70.7, as the normal curve says


# Seeded fair evenings: how often the count lands in the band of its own saves' chances must be
# what the bands' exact coverages add up to. Each evening's landing is a coin with its band's
# coverage (at least 90%); their sum's standard deviation is √(Σ c(1 − c)), about 30 for 10,000
# evenings: a miss by more than 4 of them comes by chance about once in 16,000 runs.
EVENINGS = 10_000
TOLERANCE = 4  # standard deviations


def test_ten_thousand_fair_evenings_land_in_the_band_as_often_as_it_claims() -> None:
    rng = random.Random(20240601)
    landed, claimed, variance = 0, 0.0, 0.0
    at_step = [0, 0]  # the band after a save in the middle of the evening, landed of asked
    for _evening in range(EVENINGS):
        saves = [
            float(success_probability(rng.randint(5, 120), rng.randint(55, 160)))
            for _save in range(rng.randint(1, 40))
        ]
        count, successes = SuccessCount(), 0
        middle = rng.randrange(len(saves))
        for index, chance in enumerate(saves):
            count.add(chance)
            successes += rng.random() < chance
            if index == middle:
                band = count.band()
                at_step[0] += band.low <= successes <= band.high
                at_step[1] += 1
        band = count.band()
        assert band.coverage >= 0.9 - 1e-9
        landed += band.low <= successes <= band.high
        claimed += band.coverage
        variance += band.coverage * (1 - band.coverage)
    assert abs(landed - claimed) <= TOLERANCE * math.sqrt(variance), (landed, claimed)
    assert at_step[0] >= 0.9 * at_step[1] - TOLERANCE * math.sqrt(at_step[1] * 0.09)


def test_an_unfair_evening_leaves_the_band() -> None:
    """The test can fail: dice that succeed a tenth less often than the odds land outside."""
    rng = random.Random(7)
    outside = 0
    for _evening in range(500):
        count, successes = SuccessCount(), 0
        for _save in range(200):
            chance = rng.uniform(0.3, 0.9)
            count.add(chance)
            successes += rng.random() < chance - 0.1
        band = count.band()
        outside += not band.low <= successes <= band.high
    assert outside > 400


@pytest.mark.parametrize(
    ("chances", "successes", "verdict"),
    [
        ([0.5] * 3, 0, Luck.TOO_FEW),  # none of three: 1 in 8, not unusual
        ([0.5] * 3, 3, Luck.TOO_FEW),
        ([0.5] * 20, 10, Luck.AS_EXPECTED),
        ([0.5] * 20, 5, Luck.UNLUCKY),  # P(X ≤ 5) = 2.1%
        ([0.5] * 20, 4, Luck.VERY_UNLUCKY),  # 0.59%
        ([0.5] * 20, 15, Luck.LUCKY),
        ([0.5] * 20, 16, Luck.VERY_LUCKY),
        ([0.5] * 20, 14, Luck.AS_EXPECTED),  # 5.8%: not quite
        ([0.99] * 5, 3, Luck.VERY_UNLUCKY),  # all but certain saves, two failed
        ([0.99] * 5, 5, Luck.AS_EXPECTED),  # only bad luck could stand out here
    ],
)
def test_the_verdicts_thresholds(chances: list[float], successes: int, verdict: Luck) -> None:
    assert luck(successes, SuccessCount(chances)) is verdict


def test_a_count_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError):
        luck(4, SuccessCount([0.5] * 3))
    with pytest.raises(ValueError):
        SuccessCount([1.5])


# --- the first d100s -----------------------------------------------------------------------

# P(χ² ≥ x) for the critical values printed in every table (NIST/SEMATECH e-Handbook 1.3.6.7.4).
CRITICAL = [
    (9, 14.684, 0.10),
    (9, 16.919, 0.05),
    (9, 21.666, 0.01),
    (9, 27.877, 0.001),
    (1, 3.841, 0.05),
    (2, 5.991, 0.05),
    (3, 7.815, 0.05),
    (10, 23.209, 0.01),
]


@pytest.mark.parametrize(("df", "x", "p"), CRITICAL)
def test_chi_square_p_values_are_the_tables(df: int, x: float, p: float) -> None:
    assert chi_square_p(x, df) == pytest.approx(p, rel=2e-3)


def _density(t: float, df: int) -> float:
    return math.exp((df / 2 - 1) * math.log(t) - t / 2 - df / 2 * math.log(2) - math.lgamma(df / 2))


@given(st.floats(0.5, 60), st.integers(4, 20))
@settings(max_examples=60, deadline=None)
def test_chi_square_p_is_the_integral_of_its_density(x: float, df: int) -> None:
    """Simpson's rule over [0, x] (smooth enough there from 4 degrees on; fewer have their
    critical values above): 1 minus it."""
    steps = 4000
    h = x / steps
    inside = _density(x, df)  # and 0 at 0
    inside += sum((4 if i % 2 else 2) * _density(i * h, df) for i in range(1, steps))
    assert chi_square_p(x, df) == pytest.approx(1 - inside * h / 3, abs=1e-7)


def test_the_bins_and_the_test_of_the_first_d100s() -> None:
    assert bins([1, 10, 11, 100, 91, 55]) == (2, 1, 0, 0, 0, 1, 0, 0, 0, 2)
    flat = flat_test(list(range(1, 101)) * 2)
    assert flat.counts == (20,) * 10 and flat.chi_square == 0 and flat.p == 1
    assert flat.flatness is Flatness.FLAT and flat.dice == 200
    low = flat_test([3, 7, 14, 22] * 25)  # a hundred dice, none above 30
    assert low.flatness is Flatness.UNEVEN and low.p < 1e-50
    few = flat_test([1] * (FEWEST_D100S - 1))
    assert few.flatness is Flatness.TOO_FEW
    with pytest.raises(ValueError):
        bins([0])


def test_fair_d100s_are_called_uneven_about_once_in_a_hundred() -> None:
    rng = random.Random(99)
    uneven = sum(
        flat_test(rng.randint(1, 100) for _ in range(200)).flatness is Flatness.UNEVEN
        for _test in range(2000)
    )
    assert 5 <= uneven <= 40  # 20 expected: binomial(2000, 0.01) lies here 99.99% of the time
