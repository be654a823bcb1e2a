"""LOG_FORMAT: plain text by default, coloured only on a terminal; json one object per line."""

from __future__ import annotations

import io
import json
import logging

from bot.logs import formatter, setup_logging


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def record(message: str = "Ready in %d servers", *args: object) -> logging.LogRecord:
    return logging.LogRecord("bot.client", logging.INFO, __file__, 1, message, args or (3,), None)


def test_text_has_no_colour_codes_off_a_terminal() -> None:
    line = formatter("text", io.StringIO()).format(record())
    assert "\x1b[" not in line
    assert line.endswith("[INFO    ] bot.client: Ready in 3 servers")


def test_text_is_coloured_on_a_terminal() -> None:
    assert "\x1b[" in formatter("text", Terminal()).format(record())


def test_json_is_one_object_per_line_even_with_a_traceback() -> None:
    try:
        raise ValueError("boom\nsecond line")
    except ValueError:
        import sys

        failing = record("Failed: %s", "x")
        failing.exc_info = sys.exc_info()
    line = formatter("json", Terminal()).format(failing)  # never coloured, even on a terminal
    assert "\n" not in line
    data = json.loads(line)
    assert data["message"] == "Failed: x"
    assert data["level"] == "INFO" and data["logger"] == "bot.client" and "time" in data
    assert "ValueError: boom" in data["exc_info"]


def test_setup_logging_writes_json_lines_to_the_stream() -> None:
    stream = io.StringIO()
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        setup_logging(logging.INFO, "json", stream)
        logging.getLogger("bot.test").info("hello %s", "table", extra={"shard": 1})
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    (line,) = stream.getvalue().splitlines()
    assert json.loads(line)["message"] == "hello table"
    assert json.loads(line)["shard"] == 1
