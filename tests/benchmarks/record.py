"""`python -m tests.benchmarks.record NAME [ARGS…]`: run one benchmark and keep what it printed
in `tests/benchmarks/results/`, in the file named after it: that benchmark's current figures.

The file starts with a header: the command as run, then when, on which commit (and whether the
code had uncommitted changes), the machine and its load; then the output, as printed (it shows
on the terminal too, as it comes). A run that fails writes nothing. The figures a new run
replaces stay in git's history; docs/benchmarks.md says how to read each file.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from tests.benchmarks._figures import machine

ROOT = Path(__file__).resolve().parents[2]
RESULTS = Path(__file__).resolve().parent / "results"
# Not benchmarks: the shared helpers (`_…`), the echo bot the others start, and this script.
NOT_BENCHMARKS = {"__init__", "echo_bot", "record"}
# What a change of these can't make faster or slower: left out of "uncommitted changes".
NOT_CODE = ("docs", "README.md", "tests/benchmarks/results")
# What `header` writes; figures kept from before this script wrote them give a date alone.
HEADER = re.compile(
    r"# (?P<command>python -m tests\.benchmarks\.(?P<name>\w+)[^\n]*)\n"
    r"# (?P<date>\d{4}-\d\d-\d\d)(?: (?P<time>\d\d:\d\d) UTC)?, commit (?P<commit>[0-9a-f]{7,40})"
    r"(?P<dirty> with uncommitted changes)?, [^\n]*\n"
)


@dataclass(frozen=True)
class Header:
    command: str
    name: str
    when: datetime
    commit: str
    dirty: bool


def benchmarks() -> list[str]:
    """Every benchmark script's name: what `python -m tests.benchmarks.NAME` runs."""
    here = Path(__file__).resolve().parent
    return sorted(
        p.stem
        for p in here.glob("*.py")
        if not p.stem.startswith("_") and p.stem not in NOT_BENCHMARKS
    )


def header(
    command: str, commit: str, dirty: bool, when: datetime, load: tuple[float, float]
) -> str:
    """Two comment lines: the command; when, the commit, the machine and its load average (the
    one-minute figure, at start and at end: above 0 is others' work sharing the cores)."""
    changes = " with uncommitted changes" if dirty else ""
    stamp = when.astimezone(UTC).strftime("%Y-%m-%d %H:%M")
    where = f"{machine()}, {os.cpu_count()} cores"
    loads = f"load average {load[0]:.2f} at start, {load[1]:.2f} at end"
    return f"# {command}\n# {stamp} UTC, commit {commit}{changes}, {where}, {loads}\n"


def read_header(text: str) -> Header | None:
    """The header `header` wrote at the top of `text`, or None."""
    found = HEADER.match(text)
    if found is None:
        return None
    stamp = f"{found['date']} {found['time'] or '00:00'}"
    when = datetime.strptime(stamp, "%Y-%m-%d %H:%M").replace(tzinfo=UTC)
    return Header(found["command"], found["name"], when, found["commit"], bool(found["dirty"]))


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()


def _code_changed() -> bool:
    """Whether the checkout differs from its commit anywhere the figures could feel it."""
    leave_out = [f":!{path}" for path in NOT_CODE]
    return bool(_git("status", "--porcelain", "--untracked-files=no", "--", ".", *leave_out))


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in benchmarks():
        sys.exit(f"usage: python -m tests.benchmarks.record {{{','.join(benchmarks())}}} [ARGS…]")
    name, args = sys.argv[1], sys.argv[2:]
    command = shlex.join(["python", "-m", f"tests.benchmarks.{name}", *args])
    commit = _git("rev-parse", "--short", "HEAD")
    dirty = _code_changed()
    started, load = datetime.now(UTC), os.getloadavg()[0]
    printed = []
    with subprocess.Popen(
        [sys.executable, "-m", f"tests.benchmarks.{name}", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},  # lines as they come, not at the end
        stdout=subprocess.PIPE,
        text=True,
    ) as run:
        assert run.stdout is not None
        for line in run.stdout:
            sys.stdout.write(line)
            printed.append(line)
    if run.returncode != 0:
        sys.exit(f"{command} failed (exit {run.returncode}): nothing recorded")
    target = RESULTS / f"{name}.txt"
    target.write_text(
        header(command, commit, dirty, started, (load, os.getloadavg()[0])) + "".join(printed),
        encoding="utf-8",
    )
    print(f"\nRecorded in {target.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
