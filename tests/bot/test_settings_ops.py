"""The operations settings: shards over processes, the health port, the log format."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.client import Tablekeeper
from bot.settings import Settings, SettingsError
from store import Store

TOKEN = "MTIzNDU2Nzg5.fake.t0ken-value"


def load(**values: str) -> Settings:
    return Settings.from_env({"DISCORD_TOKEN": TOKEN, **values}, dotenv=False)


def test_unset_means_one_process_runs_every_shard() -> None:
    settings = load()
    assert (settings.shard_count, settings.shard_ids, settings.shards) == (None, None, "all")
    assert (settings.health_port, settings.log_format) == (None, "text")


def test_shards_ports_and_format_are_read() -> None:
    settings = load(SHARD_COUNT="4", SHARD_IDS=" 3, 1", HEALTH_PORT="8080", LOG_FORMAT="JSON")
    assert (settings.shard_count, settings.shard_ids) == (4, (3, 1))
    assert settings.shards == "3,1 of 4"
    assert (settings.health_port, settings.log_format) == (8080, "json")
    assert load(SHARD_COUNT="2").shards == "all 2"


@pytest.mark.parametrize(
    ("values", "says"),
    [
        (
            {"SHARD_COUNT": "2", "SHARD_IDS": "2"},
            "SHARD_IDS must be between 0 and 1 (SHARD_COUNT=2), not 2",
        ),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,0"}, "SHARD_IDS names a shard twice: 0,0"),
        (
            {"SHARD_COUNT": "2", "SHARD_IDS": "zero"},
            "SHARD_IDS must be shard numbers separated by commas, not 'zero'",
        ),
        (
            {"SHARD_COUNT": "2", "SHARD_IDS": "0,-1"},
            "SHARD_IDS must be shard numbers separated by commas",
        ),
        (
            {"SHARD_COUNT": "2", "SHARD_IDS": "0,"},
            "SHARD_IDS must be shard numbers separated by commas",
        ),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a number, not 'two'"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be the total number of shards, 1 or more"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"HEALTH_PORT": "http"}, "HEALTH_PORT must be a number"),
        ({"HEALTH_PORT": "70000"}, "HEALTH_PORT must be a port number from 1 to 65535"),
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT must be one of text, json"),
    ],
)
def test_bad_values_stop_with_one_clear_line(values: dict[str, str], says: str) -> None:
    with pytest.raises(SettingsError, match=re.escape(says)) as caught:
        load(**values)
    assert "\n" not in str(caught.value)


def test_main_refuses_a_bad_shard_with_one_line_and_exit_code_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    for name, value in {"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "2", "SHARD_IDS": "2"}.items():
        monkeypatch.setenv(name, value)
    assert main([]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "SHARD_IDS must be between 0 and 1 (SHARD_COUNT=2), not 2\n"


async def test_the_bot_runs_the_shards_it_is_given(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tk.db'}"
    async with Store.open(url) as store:
        some = Tablekeeper(load(SHARD_COUNT="4", SHARD_IDS="3,1", DATABASE_URL=url), store, cogs=())
        every = Tablekeeper(load(DATABASE_URL=url), store, cogs=())
        assert (some.shard_count, some.shard_ids) == (4, [3, 1])
        assert (every.shard_count, every.shard_ids) == (None, None)  # Discord's suggestion
