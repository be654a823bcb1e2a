"""The benchmarks' own arithmetic: a ratio's bootstrap range (`_figures.ratio_range`)."""

from __future__ import annotations

import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.benchmarks._figures import ratio_range

times = st.lists(st.floats(0.5, 5.0), min_size=1, max_size=60)


@given(echo=times, factor=st.floats(0.5, 3.0))
def test_rounds_that_differ_by_one_factor_give_that_factor_alone(
    echo: list[float], factor: float
) -> None:
    low, high = ratio_range([e * factor for e in echo], echo, resamples=200)
    assert low == pytest.approx(factor) and high == pytest.approx(factor)


@given(pairs=st.lists(st.tuples(st.floats(0.5, 5.0), st.floats(0.5, 5.0)), min_size=2))
def test_the_range_stays_within_the_ratios_the_samples_allow(
    pairs: list[tuple[float, float]],
) -> None:
    top, bottom = [a for a, _ in pairs], [b for _, b in pairs]
    low, high = ratio_range(top, bottom, resamples=400)
    assert low <= high
    everything = [a / b for a in top for b in bottom]
    assert min(everything) <= low and high <= max(everything)


def test_more_rounds_narrow_the_range() -> None:
    noisy = [1.0 + (i * 7919 % 100) / 100 for i in range(400)]  # 1.00-1.99, spread evenly
    steady = [1.5] * 400
    few = ratio_range(noisy[:20], steady[:20], seed=1)
    many = ratio_range(noisy, steady, seed=1)
    assert few[0] <= many[0] <= statistics.median(noisy) / 1.5 <= many[1] <= few[1]
    assert many[1] - many[0] < few[1] - few[0]


def test_unpaired_samples_are_refused() -> None:
    with pytest.raises(ValueError, match="same, non-zero number"):
        ratio_range([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="same, non-zero number"):
        ratio_range([], [])
