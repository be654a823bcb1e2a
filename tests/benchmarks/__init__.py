"""Benchmarks: `python -m tests.benchmarks.<odds|store|commands>` prints a table of figures.

Speed is measured here, never asserted in tests: this machine is noisy, so every script runs
the things it compares side by side, interleaved in one run, and reports ratios between them.
"""
