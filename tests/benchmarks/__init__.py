"""Benchmarks: `python -m tests.benchmarks.NAME` prints figures; `python -m tests.benchmarks.record
NAME` keeps them in `results/`, in the file named after the benchmark (docs/benchmarks.md).

Speed is measured here, never asserted in tests: this machine is noisy, so every script runs
the things it compares side by side, interleaved in one run, and reports ratios between them.
"""
