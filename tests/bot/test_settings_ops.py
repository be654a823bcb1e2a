"""The operations settings: shards over processes, the health port, the log format."""

from __future__ import annotations

import re

import pytest

from bot.settings import Settings, SettingsError

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
