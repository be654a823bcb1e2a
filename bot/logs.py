"""Logging for `python -m bot`: plain text lines by default, coloured only on a terminal
(discord.py's own setup also colours inside Docker, which fills log files with escape codes),
or `LOG_FORMAT=json`: one JSON object per line, by python-json-logger."""

from __future__ import annotations

import logging
import sys
from typing import TextIO

import discord.utils
from pythonjsonlogger.json import JsonFormatter

TEXT = "[{asctime}] [{levelname:<8}] {name}: {message}"
DATE = "%Y-%m-%d %H:%M:%S"


def formatter(log_format: str, stream: TextIO) -> logging.Formatter:
    if log_format == "json":
        # Each line: {"time": ..., "level": ..., "logger": ..., "message": ...} plus any
        # `extra=` fields and, for errors, "exc_info" with the traceback.
        return JsonFormatter(
            "{asctime}{levelname}{name}{message}",
            style="{",
            rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
            json_ensure_ascii=False,
        )
    if stream.isatty():
        return discord.utils._ColourFormatter()  # the colours discord.py users know
    return logging.Formatter(TEXT, DATE, style="{")


def setup_logging(level: int, log_format: str, stream: TextIO | None = None) -> None:
    """One handler on the root logger, to stderr unless told otherwise."""
    stream = sys.stderr if stream is None else stream
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter(log_format, stream))
    root = logging.getLogger()
    root.setLevel(level)
    root.addHandler(handler)
