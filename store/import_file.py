"""Reading a file handed to `/import` (or `python -m bot import`) into an export document, or
refusing it with one line that names the first problem and where it is.

In order, each before the next can be fooled: the declared size (`check_size`, before any
download), strict UTF-8, JSON without NaN, Infinity or repeated keys, a bound on nesting, the
format and its version (earlier versions upgraded: `store.import_upgrade`), then the published
JSON Schema (`store/export.schema.json`, also `docs/export.schema.json`). What the schema can't
say (names, the game's ranges, a history that fits the table) is `table.imported`'s, from the
same checks the commands make.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

import jsonschema

from lang import _
from rules.errors import RulesError
from store.export import FORMAT, VERSION
from store.import_upgrade import upgrade
from table.imported import Imported, imported

# The most Discord lets a bot upload (10 MiB): every export the bot sent fits, with room to
# spare (a channel keeping 1,000 changes exports in well under 1 MiB). Larger is refused by the
# size the attachment declares, before a byte is downloaded.
BYTES_MAX = 10 * 2**20
DIGITS_MAX = 100  # parsed, so that the schema can name the bound a long number is past
DEPTH_MAX = 32  # an export nests 7 deep (history → event → after → characters → record → …)
_SHOWN = 40  # characters of a value shown in a refusal


class ImportRefused(RulesError):
    """The file can't be imported; str(error) names the first problem (and its path)."""


def check_size(size: int) -> None:
    """Refuse a file by the size it declares (Discord's attachment `size`), unread."""
    if size > BYTES_MAX:
        raise ImportRefused(
            _(
                "That file is {size:,} bytes: an export is at most {most:,}",
                size=size,
                most=BYTES_MAX,
            )
        )


def read_document(data: bytes) -> dict[str, Any]:
    """The export document in `data`, upgraded to this version and checked against the schema;
    ImportRefused naming the first problem otherwise."""
    check_size(len(data))
    try:
        text = data.decode("utf-8", errors="strict")
    except UnicodeDecodeError as error:
        raise ImportRefused(
            _("That file is not UTF-8 text (byte {at:,})", at=error.start)
        ) from None
    document = _parse(text.removeprefix("\ufeff"))
    if isinstance(document, dict | list):
        _check_shape(document)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ImportRefused(_("That file is JSON, but not a Tablekeeper export"))
    version = document.get("version")
    if type(version) is not int or not 1 <= version <= VERSION:
        raise ImportRefused(
            _(
                "version: {version} is not an export version this bot reads (1 to {newest})",
                version=_shown(version),
                newest=VERSION,
            )
        )
    document = upgrade(document)
    first = jsonschema.exceptions.best_match(_validator().iter_errors(document))
    if first is not None:
        raise ImportRefused(f"{path_text(first.absolute_path)}: {_problem(first)}")
    return document


def _parse(text: str) -> Any:
    try:
        return json.loads(
            text,
            parse_constant=_no_constant,
            parse_float=_no_fraction,
            parse_int=_whole,
            object_pairs_hook=_no_repeated_keys,
        )
    except RecursionError:
        raise ImportRefused(_too_deep()) from None
    except json.JSONDecodeError as error:
        raise ImportRefused(
            _(
                "That file is not JSON (line {line}, column {column}: {problem})",
                line=error.lineno,
                column=error.colno,
                problem=error.msg,
            )
        ) from None


def _no_constant(name: str) -> Any:
    raise ImportRefused(_("That file holds {name}, which is not a number here", name=name))


def _no_fraction(number: str) -> Any:
    """An export's numbers are whole (a Fatigue Level's fraction is text: "41/2")."""
    raise ImportRefused(
        _(
            "That file holds a number with a fraction ({number}): an export's numbers are whole",
            number=number[:_SHOWN],
        )
    )


def _whole(number: str) -> int:
    """A whole number, if it has at most DIGITS_MAX digits (past every bound, yet short enough
    to say which bound by the schema; Python refuses past 4,300 with a ValueError)."""
    if len(number.lstrip("-")) > DIGITS_MAX:
        raise ImportRefused(
            _(
                "That file holds a number of {count:,} digits: no number here has more than 19",
                count=len(number.lstrip("-")),
            )
        )
    return int(number)


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise ImportRefused(_("That file names {key} twice in one object", key=_shown(key)))
        found[key] = value
    return found


def _too_deep() -> str:
    return _("That file nests deeper than an export ever does ({most} levels)", most=DEPTH_MAX)


def _check_shape(document: Any) -> None:
    """Refuse nesting past DEPTH_MAX (walked without recursion, so it can't overflow), and text
    that isn't whole characters (a lone surrogate, `"\\ud800"`: JSON allows it, UTF-8 can't
    hold it, so no database could store it)."""
    level: list[Any] = [document]
    for _depth in range(DEPTH_MAX + 1):
        inner: list[Any] = []
        for value in level:
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                for text in (key, item):
                    if isinstance(text, str) and not _whole_text(text):
                        raise ImportRefused(_("That file holds text that is not Unicode"))
                if isinstance(item, dict | list):
                    inner.append(item)
        level = inner
        if not level:
            return
    raise ImportRefused(_too_deep())


def _whole_text(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@functools.lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The published JSON Schema of the current export version, read once: 1 kept."""
    text = resources.files("store").joinpath("export.schema.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@functools.lru_cache(maxsize=1)
def _validator() -> jsonschema.protocols.Validator:
    """The schema's checker, built once (checking the schema itself on the way): 1 kept."""
    checker = jsonschema.Draft202012Validator
    checker.check_schema(schema())
    return checker(schema())


def path_text(path: Any) -> str:
    """`characters[3].level` for the path ["characters", 3, "level"]; the document itself is
    "(file)"."""
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else str(step))
    return text or _("(file)")


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, int) else str(value)
    if isinstance(value, int) and abs(value) >= 10**12:  # 10**30 reads better than 31 digits
        power = len(str(abs(value))) - 1
        about = "" if abs(value) == 10**power else "~"
        text = f"{'-' if value < 0 else ''}{about}10**{power}"
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _problem(error: jsonschema.ValidationError) -> str:
    """What is wrong at the error's path, in a few words."""
    kind = error.validator
    limit: Any = error.validator_value
    value: Any = error.instance
    schema_here: Any = error.schema
    if kind == "maximum":
        return _("{value} is above {most}", value=_shown(value), most=limit)
    if kind == "minimum":
        return _("{value} is below {least}", value=_shown(value), least=limit)
    if kind == "maxItems":
        return _("{count:,} items, at most {most:,}", count=len(value), most=limit)
    if kind == "maxLength":
        return _("{value} is longer than {most} characters", value=_shown(value), most=limit)
    if kind == "required":
        missing = next((name for name in limit if name not in value), "?")
        return _("{name} is missing", name=missing)
    if kind == "additionalProperties":
        extra = sorted(set(value) - set(schema_here.get("properties", {})))
        return _("{name} is not a field here", name=_shown(extra[0] if extra else "?"))
    if kind in ("type", "oneOf", "enum", "const", "pattern"):
        return _("{value} is not allowed here", value=_shown(value))
    return error.message[:200]


def read_export(data: bytes) -> Imported:
    """A file's export, read, upgraded and checked (`read_document`, `table.imported`): ready
    for `Store.import_channel`. ImportRefused or ImportProblem (both RulesErrors) otherwise."""
    return imported(read_document(data))
