"""The lock files pin what pyproject.toml asks for, and everything that installs the project
installs from them: CI (.ci/run), the image (Dockerfile) and Procfile hosts (requirements.txt).

`requirements.lock` is what the bot runs with; `requirements-test.lock` the same versions plus
the test tools (the README's "Dependencies" says how both are made)."""

from __future__ import annotations

import os
import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)$")


def pins(name: str) -> dict[str, str]:
    """A lock file's packages (canonical names) and their exact versions; every line that
    isn't a comment must be such a pin."""
    found: dict[str, str] = {}
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        match = PIN.match(line)
        assert match, f"{name}: {line!r} is not an exact pin"
        found[canonicalize_name(match[1])] = match[2]
    return found


def declared(extra: str | None = None) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = project["optional-dependencies"][extra] if extra else project["dependencies"]
    return [Requirement(text) for text in wanted]


@pytest.mark.parametrize(
    ("lock", "extras"), [("requirements.lock", [None]), ("requirements-test.lock", [None, "test"])]
)
def test_a_lock_pins_every_declared_dependency_within_its_range(
    lock: str, extras: list[str | None]
) -> None:
    pinned = pins(lock)
    for extra in extras:
        for requirement in declared(extra):
            name = canonicalize_name(requirement.name)
            assert name in pinned, f"{lock} lacks {requirement.name}: run pip-compile again"
            assert requirement.specifier.contains(pinned[name], prereleases=True), (
                f"{lock} pins {requirement.name}=={pinned[name]}, outside {requirement.specifier}"
            )


def test_the_test_lock_runs_the_same_versions_as_the_bot() -> None:
    running, tested = pins("requirements.lock"), pins("requirements-test.lock")
    differ = {n: (v, tested.get(n)) for n, v in running.items() if tested.get(n) != v}
    assert not differ, f"requirements-test.lock differs from requirements.lock: {differ}"


def test_ci_the_image_and_procfile_hosts_install_from_the_locks() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^pip install .*-r requirements-test\.lock$", ci, re.MULTILINE)
    assert re.search(r"^pip install .*--no-deps -e \.$", ci, re.MULTILINE)
    docker = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"pip install -r \S+/requirements\.lock", docker)
    assert re.search(r"pip install --no-deps /tmp/tablekeeper", docker)
    lines = (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
    assert "-r requirements.lock" in lines


@pytest.mark.skipif(not os.environ.get("CI"), reason="CI installs from the lock; a dev may not")
def test_ci_runs_exactly_the_locked_versions() -> None:
    """Where CI installed from requirements-test.lock, what runs is what it pins."""
    wrong = {}
    for name, version in pins("requirements-test.lock").items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed = None
        if installed != version:
            wrong[name] = (version, installed)
    assert not wrong, f"installed versions differ from the lock (pinned, installed): {wrong}"
