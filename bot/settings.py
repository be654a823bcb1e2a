"""Typed settings read from the environment (and a `.env` file), mirrored in `.env.example`."""

from __future__ import annotations

import dataclasses
import logging
import math
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from dotenv import dotenv_values

from table.roll_log import KEEP_DEFAULT, KEEP_MAX, KEEP_MIN
from web.clients import IPNetwork, proxy_networks

_POSTGRES = ("postgresql://", "postgres://")  # Heroku-style hosts give postgres://
_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
STARTUP_RETRY_MAX = 3600.0
_LOG_FORMATS = ("text", "json")
# FULL: a change Discord saw acknowledged survives a power cut; NORMAL: only a killed process.
SQLITE_SYNCHRONOUS = ("full", "normal")
_HOST = re.compile(r"[A-Za-z0-9.:_-]+")  # an address or a host name, as aiohttp listens on


class SettingsError(Exception):
    """A setting is missing or malformed; str(error) is one line telling the operator what to do."""


@dataclass(frozen=True)
class Settings:
    # repr=False keeps the token out of repr(), str() and therefore out of every log line.
    token: str = field(repr=False)
    database_url: str = "sqlite:///tablekeeper.db"  # shown by __repr__ without its password
    api_base: str | None = None
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    startup_retry_seconds: float = 60.0  # how long to keep trying Discord and PostgreSQL
    log_format: str = "text"  # "json": one JSON object per line
    # Shards: None/None runs every shard Discord suggests in this one process. A count alone
    # runs all of them here; with ids, only those (the rest run in other processes).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    health_port: int | None = None  # GET /healthz and /metrics on HEALTH_HOST:HEALTH_PORT
    # This machine only by default; a container that is scraped from outside sets 0.0.0.0.
    health_host: str = "127.0.0.1"
    # The links /about shows; None: no public page (it says where to look instead).
    source_url: str | None = None
    rules_url: str | None = None  # default: docs/rules.md under SOURCE_URL, if that is GitHub
    support_url: str | None = None
    sqlite_synchronous: str = "full"
    # The table's web page (web/): served on this port (WEB_PORT, else the host's PORT), its
    # links starting with PUBLIC_URL (no trailing slash). /table link needs PUBLIC_URL.
    web_port: int | None = None
    public_url: str | None = None
    # The proxies in front of WEB_PORT whose X-Forwarded-For is believed (web.clients): none.
    web_trusted_proxies: tuple[IPNetwork, ...] = ()
    roll_log_keep: int = KEEP_DEFAULT  # rolls each channel keeps for /dice report

    def __post_init__(self) -> None:
        if not self.token or self.token != self.token.strip():
            raise SettingsError("DISCORD_TOKEN must be the bot token with no spaces around it")
        if not self.database_url.startswith((*_POSTGRES, "sqlite:///")):
            raise SettingsError(
                "DATABASE_URL must look like sqlite:///relative/path.db, sqlite:////absolute.db"
                " or postgresql://user:password@host:5432/database"
            )
        if self.api_base is not None and not self.api_base.startswith(("http://", "https://")):
            raise SettingsError("DISCORD_API_BASE must be an http:// or https:// URL")
        if self.dev_guild_id is not None and self.dev_guild_id <= 0:
            raise SettingsError("DEV_GUILD_ID must be a server id (a positive number)")
        if not 0 <= self.startup_retry_seconds <= STARTUP_RETRY_MAX:
            raise SettingsError(
                f"STARTUP_RETRY_SECONDS must be between 0 and {STARTUP_RETRY_MAX:g} (seconds)"
            )
        if self.log_level not in _LOG_LEVELS:
            raise SettingsError(f"LOG_LEVEL must be one of {', '.join(_LOG_LEVELS)}")
        if self.log_format not in _LOG_FORMATS:
            raise SettingsError(f"LOG_FORMAT must be one of {', '.join(_LOG_FORMATS)}")
        self._check_shards()
        for name in ("source_url", "rules_url", "support_url"):
            url = getattr(self, name)
            if url is not None and (not url.startswith(("https://", "http://")) or " " in url):
                raise SettingsError(f"{name.upper()} must be an https:// link, not {url!r}")
        if self.sqlite_synchronous not in SQLITE_SYNCHRONOUS:
            raise SettingsError(
                "SQLITE_SYNCHRONOUS must be full (survives a power cut) or normal (faster; "
                f"survives a crash of the bot, not of the machine), not {self.sqlite_synchronous!r}"
            )
        if self.health_port is not None and not 1 <= self.health_port <= 65535:
            raise SettingsError("HEALTH_PORT must be a port number from 1 to 65535")
        if not _HOST.fullmatch(self.health_host):
            raise SettingsError(
                "HEALTH_HOST must be an address to listen on, such as 127.0.0.1 (this machine"
                f" only) or 0.0.0.0 (every interface), not {self.health_host!r}"
            )
        self._check_web()
        check_roll_log_keep(self.roll_log_keep)

    def _check_web(self) -> None:
        if self.web_port is not None and not 1 <= self.web_port <= 65535:
            raise SettingsError("WEB_PORT (or PORT) must be a port number from 1 to 65535")
        if self.web_port is not None and self.web_port == self.health_port:
            raise SettingsError(
                "WEB_PORT and HEALTH_PORT must differ: the page and the health checks are"
                " served apart"
            )
        url = self.public_url
        if url is not None:
            parts = urlsplit(url)
            if parts.scheme not in ("http", "https") or not parts.netloc or " " in url:
                raise SettingsError(
                    f"PUBLIC_URL must be where the web page is reached, such as"
                    f" https://tables.example.org, not {url!r}"
                )
            if parts.query or parts.fragment:
                raise SettingsError("PUBLIC_URL must not have a ?query or #fragment")
            object.__setattr__(self, "public_url", url.rstrip("/"))

    def _check_shards(self) -> None:
        count, ids = self.shard_count, self.shard_ids
        if count is not None and count < 1:
            raise SettingsError("SHARD_COUNT must be the total number of shards, 1 or more")
        if ids is None:
            return
        if count is None:
            raise SettingsError("SHARD_IDS needs SHARD_COUNT, the total over all processes")
        if not ids:
            raise SettingsError("SHARD_IDS must name at least one shard, e.g. SHARD_IDS=0,1")
        if len(set(ids)) != len(ids):
            raise SettingsError(f"SHARD_IDS names a shard twice: {_ids(ids)}")
        outside = [i for i in ids if not 0 <= i < count]
        if outside:
            raise SettingsError(
                f"SHARD_IDS must be between 0 and {count - 1} (SHARD_COUNT={count}),"
                f" not {_ids(outside)}"
            )

    @property
    def shards(self) -> str:
        """This process's shards, for the log: "all", "all 4" or "0,1 of 4"."""
        if self.shard_count is None:
            return "all"
        if self.shard_ids is None:
            return f"all {self.shard_count}"
        return f"{_ids(self.shard_ids)} of {self.shard_count}"

    def __repr__(self) -> str:
        shown = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.repr}
        shown["database_url"] = redacted_url(self.database_url)
        return f"Settings({', '.join(f'{name}={value!r}' for name, value in shown.items())})"

    @property
    def log_level_number(self) -> int:
        return logging.getLevelNamesMapping()[self.log_level]

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, dotenv: bool = True) -> Settings:
        """Read the settings; `environ` defaults to os.environ and wins over `./.env`."""
        values = _values(environ, dotenv)

        def get(name: str) -> str | None:
            value = values.get(name, "").strip()
            return value or None  # an empty line in .env means "not set"

        token = get("DISCORD_TOKEN")
        if token is None:
            raise SettingsError(
                "DISCORD_TOKEN is not set: copy .env.example to .env and paste your bot token"
            )
        return cls(
            token=token,
            database_url=get("DATABASE_URL") or cls.database_url,
            api_base=get("DISCORD_API_BASE"),
            dev_guild_id=_int_or_none("DEV_GUILD_ID", get("DEV_GUILD_ID")),
            log_level=(get("LOG_LEVEL") or cls.log_level).upper(),
            startup_retry_seconds=_seconds(
                "STARTUP_RETRY_SECONDS", get("STARTUP_RETRY_SECONDS"), cls.startup_retry_seconds
            ),
            log_format=(get("LOG_FORMAT") or cls.log_format).lower(),
            shard_count=_int_or_none("SHARD_COUNT", get("SHARD_COUNT")),
            shard_ids=_id_list("SHARD_IDS", get("SHARD_IDS")),
            health_port=_int_or_none("HEALTH_PORT", get("HEALTH_PORT")),
            health_host=get("HEALTH_HOST") or cls.health_host,
            source_url=get("SOURCE_URL"),
            rules_url=get("RULES_URL"),
            support_url=get("SUPPORT_URL"),
            sqlite_synchronous=(get("SQLITE_SYNCHRONOUS") or cls.sqlite_synchronous).lower(),
            web_port=_web_port(get),
            public_url=get("PUBLIC_URL"),
            web_trusted_proxies=_proxies(get("WEB_TRUSTED_PROXIES")),
            roll_log_keep=_int_or("ROLL_LOG_KEEP", get("ROLL_LOG_KEEP"), cls.roll_log_keep),
        )


def _web_port(get: Callable[[str], str | None]) -> int | None:
    """WEB_PORT, else the PORT a Procfile host gives its web process."""
    port = _int_or_none("WEB_PORT", get("WEB_PORT"))
    return port if port is not None else _int_or_none("PORT", get("PORT"))


def _proxies(value: str | None) -> tuple[IPNetwork, ...]:
    try:
        return proxy_networks(value or "")
    except ValueError as error:
        raise SettingsError(
            f"WEB_TRUSTED_PROXIES must be the addresses of your proxies, or blocks of them,"
            f" separated by commas: {error}"
        ) from None


def _values(environ: Mapping[str, str] | None, dotenv: bool) -> dict[str, str]:
    values: dict[str, str] = {}
    if dotenv:
        found = dotenv_values(Path.cwd() / ".env")
        values.update({k: v for k, v in found.items() if v is not None})
    values.update(os.environ if environ is None else environ)
    return values


def one_setting(name: str, environ: Mapping[str, str] | None = None) -> str | None:
    """One setting, from the environment or `.env`, for the admin's tools that need no token."""
    return _values(environ, dotenv=True).get(name, "").strip() or None


def check_roll_log_keep(keep: int) -> int:
    if not KEEP_MIN <= keep <= KEEP_MAX:
        raise SettingsError(
            f"ROLL_LOG_KEEP must be between {KEEP_MIN:,} and {KEEP_MAX:,} (rolls a channel"
            f" keeps), not {keep:,}"
        )
    return keep


def roll_log_keep(environ: Mapping[str, str] | None = None) -> int:
    """ROLL_LOG_KEEP, from the environment or `.env`, for the admin's tools that need no token."""
    value = one_setting("ROLL_LOG_KEEP", environ)
    return check_roll_log_keep(_int_or("ROLL_LOG_KEEP", value, KEEP_DEFAULT))


def redacted_url(url: str) -> str:
    """The URL with its password, if any, shown as ***: safe for logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{netloc}"))


def _int_or_none(name: str, value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        raise SettingsError(f"{name} must be a number, not {value!r}") from None


def _int_or(name: str, value: str | None, default: int) -> int:
    number = _int_or_none(name, value)
    return default if number is None else number


def _seconds(name: str, value: str | None, default: float) -> float:
    if value is None:
        return default
    try:
        seconds = float(value)
    except ValueError:
        raise SettingsError(f"{name} must be a number of seconds, not {value!r}") from None
    if not math.isfinite(seconds):
        raise SettingsError(f"{name} must be a number of seconds, not {value!r}")
    return seconds


def _id_list(name: str, value: str | None) -> tuple[int, ...] | None:
    """ "0,1, 2" -> (0, 1, 2); anything but comma-separated whole numbers is refused."""
    if value is None:
        return None
    parts = [part.strip() for part in value.split(",")]
    if not all(part.isdigit() for part in parts):
        raise SettingsError(f"{name} must be shard numbers separated by commas, not {value!r}")
    return tuple(int(part) for part in parts)


def _ids(ids: tuple[int, ...] | list[int]) -> str:
    return ",".join(map(str, ids))
