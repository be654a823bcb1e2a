"""docker-compose.yml, the Dockerfile, the Procfile and requirements.txt say the same thing.

No Docker engine here, so the compose file's structure is checked instead of run: PostgreSQL
with a volume and a health check, bot processes that wait for it, share its one database, split
the shards between them exactly, and load as valid settings."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
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


@pytest.mark.parametrize("name", ["asyncpg", "prometheus-client", "python-json-logger"])
def test_a_host_installing_the_repository_gets_every_driver(name: str) -> None:
    """Procfile hosts install requirements.txt; it installs this project, whose dependencies
    (not an extra nobody can ask for there) include the PostgreSQL driver."""
    lines = (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
    assert [line for line in lines if line and not line.startswith("#")] == ["."]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert any(d.startswith(name + ">=") for d in project["dependencies"])
    assert "pip install ." in dockerfile()  # the image installs the same, no extra needed


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
