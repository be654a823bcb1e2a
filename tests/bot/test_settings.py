"""Settings from the environment and `.env`, and the entry point's refusal without a token."""

from __future__ import annotations

import dataclasses
import logging
import re
from pathlib import Path

import pytest

from bot.__main__ import main, parse_args
from bot.settings import Settings, SettingsError

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTIzNDU2Nzg5.fake.t0ken-value"
ENV_NAMES = {
    *("DISCORD_TOKEN", "DATABASE_URL", "DISCORD_API_BASE", "DEV_GUILD_ID", "LOG_LEVEL"),
    *("LOG_FORMAT", "SHARD_COUNT", "SHARD_IDS", "HEALTH_PORT", "SQLITE_SYNCHRONOUS"),
    "STARTUP_RETRY_SECONDS",
    *("SOURCE_URL", "RULES_URL", "SUPPORT_URL"),
    *("WEB_PORT", "PUBLIC_URL", "WEB_TRUSTED_PROXIES", "HEALTH_HOST"),
    "ROLL_LOG_KEEP",
}


def test_reads_every_setting() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": TOKEN,
            "DATABASE_URL": "sqlite:////data/tk.db",
            "DISCORD_API_BASE": "http://127.0.0.1:8123/api/v10",
            "DEV_GUILD_ID": "123456789012345678",
            "LOG_LEVEL": "debug",
            "SQLITE_SYNCHRONOUS": "Normal",
            "ROLL_LOG_KEEP": "5000",
        },
        dotenv=False,
    )
    assert settings == Settings(
        token=TOKEN,
        database_url="sqlite:////data/tk.db",
        api_base="http://127.0.0.1:8123/api/v10",
        dev_guild_id=123456789012345678,
        log_level="DEBUG",
        sqlite_synchronous="normal",
        roll_log_keep=5000,
    )
    assert settings.log_level_number == logging.DEBUG


def test_defaults_and_empty_values_mean_unset() -> None:
    settings = Settings.from_env(
        {"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "", "DISCORD_API_BASE": "  "}, dotenv=False
    )
    assert settings.database_url == "sqlite:///tablekeeper.db"
    assert settings.api_base is None
    assert settings.dev_guild_id is None
    assert settings.log_level == "INFO"
    assert settings.sqlite_synchronous == "full"  # an acknowledged change survives power loss
    assert settings.roll_log_keep == 25_000  # more than a year of play (table.roll_log)


@pytest.mark.parametrize("environ", [{}, {"DISCORD_TOKEN": ""}, {"DISCORD_TOKEN": "   "}])
def test_missing_token_is_one_clear_line(environ: dict[str, str]) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_env(environ, dotenv=False)
    assert str(caught.value) == (
        "DISCORD_TOKEN is not set: copy .env.example to .env and paste your bot token"
    )


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("DEV_GUILD_ID", "my-server", "DEV_GUILD_ID must be a number"),
        ("DEV_GUILD_ID", "-5", "DEV_GUILD_ID must be a server id"),
        ("LOG_LEVEL", "LOUD", "LOG_LEVEL must be one of"),
        ("STARTUP_RETRY_SECONDS", "soon", "STARTUP_RETRY_SECONDS must be a number of seconds"),
        ("STARTUP_RETRY_SECONDS", "nan", "STARTUP_RETRY_SECONDS must be a number of seconds"),
        ("STARTUP_RETRY_SECONDS", "-1", "STARTUP_RETRY_SECONDS must be between 0 and 3600"),
        ("DATABASE_URL", "mysql://x/y", "DATABASE_URL must look like sqlite:///"),
        ("DATABASE_URL", "tablekeeper.db", "or postgresql://user:password@host"),
        ("DISCORD_API_BASE", "localhost:8000", "DISCORD_API_BASE must be an http"),
        ("SQLITE_SYNCHRONOUS", "off", "SQLITE_SYNCHRONOUS must be full (survives a power cut)"),
        ("ROLL_LOG_KEEP", "0", "ROLL_LOG_KEEP must be between 100 and 1,000,000"),
        ("ROLL_LOG_KEEP", "many", "ROLL_LOG_KEEP must be a number"),
    ],
)
def test_malformed_settings_name_the_variable(name: str, value: str, says: str) -> None:
    with pytest.raises(SettingsError, match=re.escape(says)) as caught:
        Settings.from_env({"DISCORD_TOKEN": TOKEN, name: value}, dotenv=False)
    assert "\n" not in str(caught.value)
    assert TOKEN not in str(caught.value)


@pytest.mark.parametrize(
    "url", ["postgresql://tk:secret@db.example:5432/tk", "postgres://tk:secret@db.example/tk"]
)
def test_postgres_urls_are_taken_and_their_password_never_shows(url: str) -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url}, dotenv=False)
    assert settings.database_url == url
    assert "secret" not in repr(settings)
    assert "tk:***@db.example" in repr(settings)


def test_token_never_shows(caplog: pytest.LogCaptureFixture) -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN}, dotenv=False)
    assert settings.token == TOKEN
    with caplog.at_level(logging.INFO):
        logging.getLogger("test").info("settings: %s %r", settings, settings)
    for shown in (repr(settings), str(settings), f"{settings}", caplog.text):
        assert TOKEN not in shown
    assert "database_url='sqlite:///tablekeeper.db'" in repr(settings)  # the rest still shows


def test_settings_are_frozen() -> None:
    settings = Settings(token=TOKEN)
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.token = "other"  # type: ignore[misc]


def test_dotenv_file_is_read_and_environment_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".env").write_text(
        f"DISCORD_TOKEN={TOKEN}\nLOG_LEVEL=WARNING\nDEV_GUILD_ID=42\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    from_file = Settings.from_env({})
    assert (from_file.token, from_file.log_level, from_file.dev_guild_id) == (TOKEN, "WARNING", 42)
    overridden = Settings.from_env({"LOG_LEVEL": "ERROR"})
    assert overridden.log_level == "ERROR"
    assert overridden.token == TOKEN
    assert Settings.from_env({"DISCORD_TOKEN": "x"}, dotenv=False).dev_guild_id is None


def test_env_example_mirrors_the_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    names = set(re.findall(r"^([A-Z_]+)=", example, flags=re.MULTILINE))
    assert names == ENV_NAMES
    # every setting has a comment line just above it
    lines = example.splitlines()
    for i, line in enumerate(lines):
        if re.match(r"^[A-Z_]+=", line):
            assert lines[i - 1].startswith("#"), line
    assert len(ENV_NAMES) == len(dataclasses.fields(Settings))

    # The example, with a token pasted in, loads to the defaults.
    (tmp_path / ".env").write_text(
        example.replace("DISCORD_TOKEN=", f"DISCORD_TOKEN={TOKEN}"), encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    assert Settings.from_env({}) == Settings(token=TOKEN)


def test_main_without_token_exits_2_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main([]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "DISCORD_TOKEN is not set: copy .env.example to .env and paste your bot token\n"


def test_command_line() -> None:
    assert parse_args([]).command is None
    sync = parse_args(["sync", "--guild", "42"])
    assert (sync.command, sync.guild, sync.dev_guild) == ("sync", 42, False)
    assert parse_args(["sync", "--dev-guild"]).dev_guild is True
    with pytest.raises(SystemExit):
        parse_args(["sync", "--guild", "42", "--dev-guild"])


def test_the_durability_setting_reaches_the_store(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    import bot.__main__ as entry

    asked: dict[str, object] = {}

    class Stop(Exception):
        pass

    def fake_open(url: str, **options: object) -> object:
        asked.update(options, url=url)
        raise Stop

    monkeypatch.setattr(entry.Store, "open", fake_open)
    settings = Settings(
        token=TOKEN,
        database_url="sqlite:///x.db",
        sqlite_synchronous="normal",
        startup_retry_seconds=7.5,
    )
    with pytest.raises(Stop):
        asyncio.run(entry.run(settings))
    assert asked == {"url": "sqlite:///x.db", "sqlite_synchronous": "normal", "retry_for": 7.5}


def test_the_web_page_settings() -> None:
    env = {"DISCORD_TOKEN": TOKEN}
    assert Settings.from_env(env, dotenv=False).web_port is None
    assert Settings.from_env({**env, "PORT": "5000"}, dotenv=False).web_port == 5000
    both = Settings.from_env({**env, "PORT": "5000", "WEB_PORT": "8000"}, dotenv=False)
    assert both.web_port == 8000  # WEB_PORT wins over the host's PORT
    url = Settings.from_env({**env, "PUBLIC_URL": "https://t.example.org/tk/"}, dotenv=False)
    assert url.public_url == "https://t.example.org/tk"  # links add /t/<token>
    for bad, says in (
        ({"WEB_PORT": "70000"}, "WEB_PORT"),
        ({"PORT": "web"}, "PORT"),
        ({"WEB_PORT": "8080", "HEALTH_PORT": "8080"}, "must differ"),
        ({"PUBLIC_URL": "tables.example.org"}, "PUBLIC_URL"),
        ({"PUBLIC_URL": "https://t.example.org/?x=1"}, "query"),
    ):
        with pytest.raises(SettingsError, match=says):
            Settings.from_env({**env, **bad}, dotenv=False)


def test_the_ports_addresses() -> None:
    env = {"DISCORD_TOKEN": TOKEN}
    default = Settings.from_env(env, dotenv=False)
    assert default.health_host == "127.0.0.1"  # this machine only, unless asked otherwise
    assert default.web_trusted_proxies == ()  # nobody's X-Forwarded-For is believed
    everywhere = Settings.from_env({**env, "HEALTH_HOST": "0.0.0.0"}, dotenv=False)
    assert everywhere.health_host == "0.0.0.0"
    proxies = Settings.from_env(
        {**env, "WEB_TRUSTED_PROXIES": "10.0.0.0/8, 127.0.0.1 fd00::/8"}, dotenv=False
    ).web_trusted_proxies
    assert [str(p) for p in proxies] == ["10.0.0.0/8", "127.0.0.1/32", "fd00::/8"]
    for bad, says in (
        ({"HEALTH_HOST": "0.0.0.0 8080"}, "HEALTH_HOST must be an address"),
        ({"WEB_TRUSTED_PROXIES": "10.0.0.0/8, my-proxy"}, "'my-proxy' is not an address"),
        ({"WEB_TRUSTED_PROXIES": "10.0.0.0/40"}, "WEB_TRUSTED_PROXIES must be"),
    ):
        with pytest.raises(SettingsError, match=says):
            Settings.from_env({**env, **bad}, dotenv=False)
