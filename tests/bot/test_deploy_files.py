"""docker-compose.yml, the Dockerfile, the Procfile and requirements.txt say the same thing.

No Docker engine here, so their structure is checked instead of run: the image installs the
project as `pip install` does, from a build context that holds every package the code imports;
PostgreSQL with a volume and a health check, bot processes that wait for it, share its one
database, split the shards between them exactly, and load as valid settings."""

from __future__ import annotations

import ast
import posixpath
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

import pytest
import setuptools  # type: ignore[import-untyped]  # it ships no type hints
import yaml

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = re.compile(r"\$\{(\w+):-([^}]*)\}")  # compose's ${NAME:-default}


def compose() -> dict[str, Any]:
    loaded = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def with_defaults(value: str) -> str:
    return DEFAULT.sub(lambda m: m[2], value)


def bots() -> dict[str, dict[str, Any]]:
    return {name: s for name, s in compose()["services"].items() if "build" in s}


def dockerfile() -> str:
    return (ROOT / "Dockerfile").read_text(encoding="utf-8")


def pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def packages() -> set[str]:
    """The top-level packages `pip install .` installs: what setuptools finds by pyproject's
    [tool.setuptools.packages.find]."""
    find = pyproject()["tool"]["setuptools"]["packages"]["find"]
    found = setuptools.find_packages(
        str(ROOT), include=find.get("include", ("*",)), exclude=find.get("exclude", ())
    )
    return {name.partition(".")[0] for name in found}


def package_files(package: str) -> list[Path]:
    """A package's own files: not the caches tools leave in it (`__pycache__`, `.ruff_cache`)."""
    files = sorted(f.relative_to(ROOT) for f in (ROOT / package).rglob("*") if f.is_file())
    return [
        ROOT / f for f in files if not any(p.startswith(".") or p == "__pycache__" for p in f.parts)
    ]


def imported(folder: Path) -> set[str]:
    """The top-level names the Python files under `folder` import (absolute imports only)."""
    names = set()
    for file in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {alias.name.partition(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.partition(".")[0])
    return names


class Step(NamedTuple):
    instruction: str  # COPY, RUN, …
    arguments: str
    workdir: str  # where it runs: the last WORKDIR before it


def steps() -> list[Step]:
    """The Dockerfile's instructions, continuation lines joined, comments dropped."""
    lines = [line for line in dockerfile().splitlines() if not line.lstrip().startswith("#")]
    found: list[Step] = []
    workdir = "/"
    for text in re.sub(r"\\\n", " ", "\n".join(lines)).splitlines():
        instruction, _, arguments = text.strip().partition(" ")
        if instruction.upper() == "WORKDIR":
            workdir = posixpath.join(workdir, arguments.strip())
        elif instruction:
            found.append(Step(instruction.upper(), arguments.strip(), workdir))
    return found


def copies() -> list[tuple[list[str], str]]:
    """Each COPY from the build context: (its sources, where they land, absolute)."""
    found = []
    for step in steps():
        if step.instruction == "COPY" and "--from" not in step.arguments:
            *sources, target = [w for w in shlex.split(step.arguments) if not w.startswith("--")]
            found.append((sources, posixpath.join(step.workdir, target)))
    return found


def dockerignored(path: str) -> bool:
    """Whether .dockerignore leaves `path` (from the context's root) out of the build context.
    Docker's rules: a pattern is matched against the path and against each folder holding it
    (a folder left out takes its contents along); `**` spans folders, `*` and `?` stay within
    one; `!pattern` takes back what an earlier pattern left out; the last match decides."""
    lines = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    parts = path.split("/")
    within = ["/".join(parts[:n]) for n in range(1, len(parts) + 1)]
    left_out = False
    for line in (line.strip() for line in lines):
        if not line or line.startswith("#"):
            continue
        keep, pattern = line.startswith("!"), line.removeprefix("!").strip("/")
        tokens = re.split(r"(\*\*/|\*\*|\*|\?|\[[^]]*\])", pattern)
        regex = "".join(
            {"**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}.get(t)
            or (t if t.startswith("[") else re.escape(t))
            for t in tokens
        )
        if any(re.fullmatch(regex, folder) for folder in within):
            left_out = not keep
    return left_out


def in_image(path: str) -> str | None:
    """Where the Dockerfile copies `path` of the repository to, or None if it never does."""
    if dockerignored(path):
        return None
    for sources, target in copies():
        for source in (posixpath.normpath(s) for s in sources):
            if source == ".":  # the context's contents, into the target folder
                return posixpath.normpath(posixpath.join(target, path))
            if path.startswith(source + "/"):  # a folder's contents, into the target folder
                return posixpath.normpath(posixpath.join(target, path[len(source) + 1 :]))
            if path == source:  # a file: into a folder (target/ or several), or as the target
                into = target.endswith("/") or len(sources) > 1
                return posixpath.normpath(posixpath.join(target, path) if into else target)
    return None


def installed_from() -> list[str]:
    """The folders the Dockerfile's RUN steps `pip install` (absolute)."""
    found = []
    for step in steps():
        if step.instruction == "RUN":
            for target in re.findall(r"pip install ((?:-\S+ )*)(\S+)", step.arguments):
                options = set(target[0].split())
                if options & {"-r", "--requirement"}:
                    continue  # the locked versions (test_locks.py), not the project
                editable = {"-e", "--editable"} & options
                assert not editable, "the image installs the project, never links to its sources"
                found.append(posixpath.normpath(posixpath.join(step.workdir, target[1])))
    return found


def test_postgres_keeps_its_data_on_a_volume_and_reports_health() -> None:
    file = compose()
    db = file["services"]["db"]
    assert db["image"].startswith("postgres:")
    volume, _, mount = db["volumes"][0].partition(":")
    assert mount == "/var/lib/postgresql/data" and volume in file["volumes"]
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert {"POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB"} <= set(db["environment"])


def test_bots_share_the_one_database_and_split_the_shards_exactly() -> None:
    db = compose()["services"]["db"]["environment"]
    found: list[int] = []
    counts = set()
    assert len(bots()) >= 2
    for name, service in bots().items():
        env = {k: with_defaults(str(v)) for k, v in service["environment"].items()}
        settings = Settings.from_env({"DISCORD_TOKEN": "x.y.z", **env}, dotenv=False)
        url = urlsplit(settings.database_url)
        assert url.hostname == "db", name
        assert url.username == db["POSTGRES_USER"]
        assert url.password == with_defaults(db["POSTGRES_PASSWORD"])
        assert url.path == "/" + db["POSTGRES_DB"]
        assert settings.shard_ids is not None and settings.shard_count is not None
        found += settings.shard_ids
        counts.add(settings.shard_count)
        assert service["depends_on"]["db"]["condition"] == "service_healthy"
        assert service["healthcheck"]["test"] == ["CMD", "python", "-m", "bot", "health"]
        assert settings.health_port is not None
        assert service["stop_grace_period"] == "10s"  # SIGTERM, then 10 s to finish
    assert len(counts) == 1
    assert sorted(found) == list(range(counts.pop()))  # each shard in exactly one process


def test_every_compose_setting_is_a_documented_setting() -> None:
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    documented = set(re.findall(r"^([A-Z_]+)=", example, flags=re.MULTILINE))
    for service in bots().values():
        assert set(service["environment"]) <= documented


def test_dockerfile_procfile_and_compose_run_the_same_command() -> None:
    procfile = (ROOT / "Procfile").read_text(encoding="utf-8").strip()
    assert procfile == "worker: python -m bot"
    cmd = re.search(r"^CMD (\[.*\])$", dockerfile(), flags=re.MULTILINE)
    assert cmd is not None and yaml.safe_load(cmd[1]) == ["python", "-m", "bot"]
    for service in bots().values():
        assert "command" not in service  # the image's CMD, i.e. the Procfile's command
        assert service["build"] == "."
    assert 'CMD ["python", "-m", "bot", "health"]' in dockerfile()
    port = re.search(r"^ENV HEALTH_PORT=(\d+)$", dockerfile(), flags=re.MULTILINE)
    assert port is not None
    assert {s["environment"]["HEALTH_PORT"] for s in bots().values()} == {port[1]}
    # A container's health port is reached from outside it: every interface, there only.
    assert re.search(r"^ENV HEALTH_HOST=0\.0\.0\.0$", dockerfile(), flags=re.MULTILINE)
    assert {s["environment"]["HEALTH_HOST"] for s in bots().values()} == {"0.0.0.0"}


@pytest.mark.parametrize("name", ["asyncpg", "prometheus-client", "python-json-logger"])
def test_a_host_installing_the_repository_gets_every_driver(name: str) -> None:
    """Procfile hosts install requirements.txt; it installs this project, whose dependencies
    (not an extra nobody can ask for there) include the PostgreSQL driver."""
    lines = (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
    assert [line for line in lines if line and not line.startswith("#")] == [
        "-r requirements.lock",
        ".",
    ]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert any(d.startswith(name + ">=") for d in project["dependencies"])
    assert installed_from() == [posixpath.dirname(in_image("pyproject.toml") or "")]


def test_the_package_ships_every_package_the_code_imports() -> None:
    found = packages()
    assert "bot" in found  # what the image runs: python -m bot
    for package in found:
        local = {n for n in imported(ROOT / package) if (ROOT / n / "__init__.py").is_file()}
        assert local <= found, f"{package} imports {local - found}, which pip would not install"


def test_the_image_installs_the_project_with_every_package() -> None:
    """Every file of every package, and what building the package reads, reaches the folder
    the image installs from: a new package needs no new line in the Dockerfile."""
    project = posixpath.dirname(in_image("pyproject.toml") or "")
    assert project and installed_from() == [project]
    needed = ["pyproject.toml", pyproject()["project"]["readme"]]
    for package in packages():
        needed += [file.relative_to(ROOT).as_posix() for file in package_files(package)]
    for path in needed:
        assert in_image(path) == posixpath.join(project, path), path
    assert not any(in_image(path) for path in ("tests/conftest.py", ".env", "tablekeeper.db"))


def test_every_file_the_packages_read_is_installed_with_them() -> None:
    """Migrations and translation catalogs are package data; only the tools' own files
    (lint settings, the catalogs' template and extraction rules) stay behind."""
    data = pyproject()["tool"]["setuptools"]["package-data"]
    for package in packages():
        for file in package_files(package):
            if file.suffix == ".py" or file.name in {"ruff.toml", "babel.cfg", "messages.pot"}:
                continue
            inside = file.relative_to(ROOT / package)
            assert any(inside.match(glob) for glob in data.get(package, ())), file


@pytest.mark.parametrize(
    ("path", "left_out"),
    [
        ("store/__pycache__/codec.cpython-311.pyc", True),
        ("__pycache__/x.pyc", True),
        ("tests/e2e/test_process.py", True),
        ("tablekeeper.egg-info/PKG-INFO", True),
        ("data/tablekeeper.db-wal", True),
        (".mypy_cache/3.11/x.json", True),
        (".env", True),
        (".env.example", False),
        ("store/migrations/sqlite/V1__init.sql", False),
        ("README.md", False),
    ],
)
def test_the_build_context_leaves_out_tests_caches_and_secrets(path: str, left_out: bool) -> None:
    assert dockerignored(path) is left_out


def test_readme_documents_every_setting_and_the_scale_out_steps() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    for name in re.findall(r"^([A-Z_]+)=", example, flags=re.MULTILINE):
        assert f"| `{name}` |" in readme, name
    scale = readme.split("## Scale out", 1)[1].split("\n## ", 1)[0]
    for needed in (
        "DATABASE_URL=postgresql://",
        "python -m bot copy-db sqlite:///",
        "SHARD_COUNT=2 SHARD_IDS=0",
        "SHARD_COUNT=2 SHARD_IDS=1",
        "(server_id >> 22) % SHARD_COUNT",
        "python -m bot sync",
        "HEALTH_PORT",
        "docker compose up",
        "one SQLite file",
    ):
        assert needed in scale, needed
    assert "python -m bot backup" in readme
