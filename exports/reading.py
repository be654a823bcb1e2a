"""Reading a file handed to `/import` (or `python -m bot import`) into a checked export, or
refusing it with one line that names the first problem and where it is.

In order, each before the next can be fooled: the declared size (`check_size`, before any
download), strict UTF-8, JSON without NaN, Infinity or repeated keys, a bound on nesting, the
format and its version (earlier versions upgraded: `exports.upgrade`); then the table's
parts, against the published JSON Schema (`exports/export.schema.json`, also
`docs/export.schema.json`) and then by the commands' own checks (`table.imported`); then the
history, change by change, and the roll log, roll by roll, each against the schema and then
those checks: each part once, so the time grows with the file, not with its changes times its
characters, and the first problem is the one named. Each change is then made ready to be logged
(`Prepared`): its snapshots as JSON text, the keys it touched; each roll the row it is written
as (`store.roll_log.roll_values`); so what is held until it is written (and while a GM is asked
whether to replace a table) is about the file's size, not the document's.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from importlib import resources
from typing import Any

import jsonschema_rs

from exports.document import BYTES_MAX, FORMAT, VERSION, vouches
from exports.upgrade import upgrade
from lang import _
from rules.errors import RulesError
from store.event_log import PRUNE_EVERY
from store.roll_log import TRIM_EVERY, roll_values
from table.imported import IMPORT, Imported, history, rolls, table_part
from table.imported_history import Prepared
from table.roll_log import KEEP_MAX
from table.settings import HISTORY_KEEP_MAX

DIGITS_MAX = 100  # parsed, so that the schema can name the bound a long number is past
DEPTH_MAX = 32  # an export nests 7 deep (history → event → after → characters → record → …)
# The most changes a file may hold: an export of a channel that keeps the most it may
# (HISTORY_KEEP_MAX), with the few more a channel holds between two prunings, and for each
# undo among them the change it took back, kept with it. An import keeps only what the channel
# keeps (`store.import_write`).
HISTORY_ITEMS_MAX = 2 * (HISTORY_KEEP_MAX + PRUNE_EVERY)
# The most rolls a file may hold: an export of a channel whose roll log keeps the most it may
# (ROLL_LOG_KEEP at KEEP_MAX), with the few more it holds between two trims. An import keeps
# only the newest the channel keeps (`store.import_write`), as for the history.
ROLLS_ITEMS_MAX = KEEP_MAX + TRIM_EVERY
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


def read_document(data: bytes, key: bytes | None = None) -> tuple[dict[str, Any], bool, bool]:
    """The export document in `data`, read and upgraded to this version, not yet checked
    against the schema; whether its text may hold a control character (`_CONTROLS`); and
    whether it is this bot's own export, unchanged (`vouches` with `key`, of the file as
    written: an upgrade changes the document). ImportRefused naming the first problem
    otherwise."""
    check_size(len(data))
    try:
        text = data.decode("utf-8", errors="strict")
    except UnicodeDecodeError as error:
        raise ImportRefused(
            _("That file is not UTF-8 text (byte {at:,})", at=error.start)
        ) from None
    text = text.removeprefix("\ufeff")
    document = _parse(text)
    if isinstance(document, dict | list):
        _check_shape(document, _HALVES.search(text) is not None)
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
    return upgrade(document), _CONTROLS.search(text) is not None, vouches(document, key)


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


def _check_shape(document: Any, halves: bool) -> None:
    """Refuse nesting past DEPTH_MAX (walked without recursion, so it can't overflow), and, if
    the file escapes any surrogate (`halves`), text that isn't whole characters (a lone one,
    `"\\ud800"`: JSON allows it, UTF-8 can't hold it, so no database could store it)."""
    level: list[Any] = [document]
    for _depth in range(DEPTH_MAX + 1):
        inner: list[Any] = []
        for value in level:
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                if halves and not (_whole_text(key) and _whole_text(item)):
                    raise ImportRefused(_("That file holds text that is not Unicode"))
                if isinstance(item, dict | list):
                    inner.append(item)
        level = inner
        if not level:
            return
    raise ImportRefused(_too_deep())


def _whole_text(text: Any) -> bool:
    if not isinstance(text, str):
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# What in a file's text can become a surrogate, or a control character (`table.checks`), in
# its strings: an escape that makes one, or (where JSON lets it stand as it is) the character
# itself. A file without any has none, and is not walked for them: most files. (An escaped
# backslash before such a letter matches too: that file is walked, and found clean.)
_HALVES = re.compile(r"\\u[dD][89a-fA-F]")
_CONTROLS = re.compile(
    r"\\(?:[bfnrt]|u00[01][0-9a-fA-F]|u007[fF]|u00[89][0-9a-fA-F]|u202[89a-eA-E]|u206[6-9])"
    "|[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)


@functools.lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The published JSON Schema of the current export version, read once: 1 kept."""
    text = resources.files("exports").joinpath("export.schema.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@functools.lru_cache(maxsize=1)
def _validators() -> tuple[Any, ...]:
    """The schema's checkers, built once (checking the schema itself on the way): of the
    document but its history's changes and its rolls, of its history as a list, of one change,
    of its rolls as a list, of one roll. 1 kept."""
    whole = schema()
    jsonschema_rs.meta.validate(whole)
    schemas = [whole]
    for part, item in (("history", "event"), ("rolls", "roll")):
        schemas.append({k: v for k, v in whole["properties"][part].items() if k != "items"})
        schemas.append({"$ref": f"#/$defs/{item}", "$defs": whole["$defs"]})
    return tuple(jsonschema_rs.Draft202012Validator(s) for s in schemas)


def _schema_check(validator: Any, value: Any, path: Sequence[str | int] = ()) -> None:
    """Refuse `value` by the first problem `validator` finds, named by its path."""
    first = next(validator.iter_errors(value), None)
    if first is not None:
        first = _deepest(first)
        where = [*path, *first.instance_path]
        raise ImportRefused(f"{path_text(where)}: {_problem(first)}")


def _deepest(error: Any) -> Any:
    """Of a value none of whose alternatives fit (`oneOf`: a record or null), the problem of
    the alternative it came closest to: the one that went deepest into it."""
    while error.kind.name in ("oneOf", "anyOf") and error.kind.context:
        inner = [e for branch in error.kind.context for e in branch]
        if not inner:
            break
        error = max(inner, key=lambda e: len(e.instance_path))
        if error.kind.name not in ("oneOf", "anyOf"):
            break
    return error


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


def _problem(error: Any) -> str:
    """What is wrong at the error's path, in a few words."""
    kind = error.kind.name
    found = error.kind.as_dict()
    value: Any = error.instance
    if kind == "maximum":
        return _("{value} is above {most}", value=_shown(value), most=found["limit"])
    if kind == "minimum":
        return _("{value} is below {least}", value=_shown(value), least=found["limit"])
    if kind == "maxItems":
        return _("{count:,} items, at most {most:,}", count=len(value), most=found["limit"])
    if kind == "maxLength":
        return _(
            "{value} is longer than {most} characters", value=_shown(value), most=found["limit"]
        )
    if kind == "required":
        return _("{name} is missing", name=found["property"])
    if kind == "additionalProperties":
        extra = sorted(found["unexpected"])
        return _("{name} is not a field here", name=_shown(extra[0] if extra else "?"))
    if kind in ("type", "oneOf", "anyOf", "enum", "const", "pattern"):
        return _("{value} is not allowed here", value=_shown(value))
    return str(error.message)[:200]


def _prepared(event: Any) -> Prepared:
    after = event.after
    starts = None
    if IMPORT in after:
        starts = int(after[IMPORT]["history"]["from"]) - 1
        after = {part: value for part, value in after.items() if part != IMPORT}
    return Prepared(
        event.actor_id,
        event.action,
        event.created_at,
        event.clock,
        json.dumps(event.before, ensure_ascii=False, sort_keys=True),
        json.dumps(after, ensure_ascii=False, sort_keys=True),
        event.undoes,
        event.undone_by,
        starts,
    )


def _check_change(i: int, data: Any) -> None:
    _schema_check(_validators()[2], data, ("history", i))


def _check_roll(i: int, data: Any) -> None:
    _schema_check(_validators()[4], data, ("rolls", i))


def read_export(
    data: bytes, guild_id: int | None, key: bytes | None = None, now: datetime | None = None
) -> Imported:
    """A file's export for a channel of `guild_id`, read, upgraded and checked
    (`read_document`, the schema, `table.imported`), each change ready to be logged and each
    roll to be written: for `Store.import_channel`. `key`: this bot's
    (`exports.document.export_key`), to know its own export. ImportRefused or ImportProblem (both
    RulesErrors) otherwise."""
    document, controls, vouched = read_document(data, key)
    whole, listed, _change, listed_rolls, _roll = _validators()
    # The lists checked item by item after the table, each as a list first: the rest now.
    _schema_check(whole, document | {part: [] for part in ("history", "rolls") if part in document})
    _schema_check(listed, document["history"], ("history",))
    _schema_check(listed_rolls, document["rolls"], ("rolls",))
    checked = table_part(document, guild_id, vouched, controls)
    now = datetime.now(UTC) if now is None else now  # the import's time: nothing is later
    changes = tuple(map(_prepared, history(document, checked, _check_change, now)))
    rows = tuple(map(roll_values, rolls(document, checked, _check_roll, now)))
    return dataclasses.replace(checked.imported, history=changes, rolls=rows)
