"""The benchmarks' own arithmetic (a ratio's bootstrap range, `_figures.ratio_range`), and their
figures files: one per benchmark, named after it, headed by what ran, when and on which commit
(as `python -m tests.benchmarks.record` writes them), each linked from docs/benchmarks.md."""

from __future__ import annotations

import statistics
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.benchmarks._figures import ratio_range
from tests.benchmarks.record import RESULTS, Header, benchmarks, header, read_header

ROOT = Path(__file__).resolve().parents[1]

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


# The figures files: one per benchmark, each as `python -m tests.benchmarks.record` wrote it.


def test_each_benchmark_keeps_one_current_figures_file_named_for_it() -> None:
    kept = sorted(p.name for p in RESULTS.iterdir())
    assert kept == sorted(f"{name}.txt" for name in benchmarks())


@pytest.mark.parametrize("name", benchmarks())
def test_a_figures_file_says_what_ran_when_and_on_which_commit(name: str) -> None:
    found = read_header((RESULTS / f"{name}.txt").read_text(encoding="utf-8"))
    assert found is not None, "run: python -m tests.benchmarks.record " + name
    assert found.name == name and found.command.startswith(f"python -m tests.benchmarks.{name}")
    assert datetime(2026, 1, 1, tzinfo=UTC) < found.when <= datetime.now(UTC)


@pytest.mark.parametrize("name", benchmarks())
def test_the_guide_shows_how_to_run_each_benchmark_and_where_its_figures_are(name: str) -> None:
    guide = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    assert f"python -m tests.benchmarks.{name}" in guide
    assert f"](../tests/benchmarks/results/{name}.txt)" in guide


@given(
    args=st.lists(st.from_regex(r"--[a-z]+(-[a-z]+)?|[0-9]+", fullmatch=True), max_size=4),
    commit=st.from_regex(r"[0-9a-f]{7,40}", fullmatch=True),
    dirty=st.booleans(),
    when=st.datetimes(datetime(2020, 1, 1), datetime(2100, 1, 1), timezones=st.just(UTC)),
    load=st.tuples(st.floats(0, 99), st.floats(0, 99)),
)
def test_a_header_reads_back_as_written(
    args: list[str], commit: str, dirty: bool, when: datetime, load: tuple[float, float]
) -> None:
    command = " ".join(["python -m tests.benchmarks.commands", *args])
    text = header(command, commit, dirty, when, load) + "Tablekeeper against an echo bot\n"
    assert read_header(text) == Header(
        command, "commands", when.replace(second=0, microsecond=0), commit, dirty
    )
