"""Checks JSON request bodies against Discord's OpenAPI description, plus limits it leaves out.

`validate_request(method, path, body)` returns readable problems, empty when Discord would
accept the body. Paths are relative to the API base (`/interactions/1/tok/callback`).
"""

from __future__ import annotations

import json
import re
from functools import cache, lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from tests.localdiscord.limits import extra_checks

SPEC_FILE = Path(__file__).parent / "discord-api-spec" / "openapi.json"
SPEC_URI = "urn:discord-api-spec:openapi.json"
METHODS = ("get", "put", "post", "patch", "delete")


@cache
def spec() -> dict[str, Any]:
    return json.loads(SPEC_FILE.read_text(encoding="utf-8"))


@cache
def _templates() -> list[tuple[re.Pattern[str], str]]:
    # Fewer parameters first, so `/messages/@original` wins over `/messages/{message_id}`.
    out = []
    for template in sorted(spec()["paths"], key=lambda t: t.count("{")):
        pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template))
        out.append((re.compile(f"^{pattern}$"), template))
    return out


def find_template(method: str, path: str) -> str | None:
    """The spec's path template for a concrete path, if that method exists there."""
    for pattern, template in _templates():
        if pattern.match(path) and method.lower() in spec()["paths"][template]:
            return template
    return None


@cache
def _validator(method: str, template: str) -> Draft202012Validator | None:
    body = spec()["paths"][template][method].get("requestBody", {})
    if "application/json" not in body.get("content", {}):
        return None
    escaped = template.replace("~", "~0").replace("/", "~1")
    pointer = f"/paths/{escaped}/{method}/requestBody/content/application~1json/schema"
    resource = Resource.from_contents(spec(), default_specification=DRAFT202012)
    registry = Registry().with_resource(SPEC_URI, resource)
    return Draft202012Validator({"$ref": f"{SPEC_URI}#{quote(pointer)}"}, registry=registry)


def _where(error: ValidationError) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path) or "."


def _leaves(error: ValidationError) -> list[ValidationError]:
    if not error.context:
        return [error]
    return [leaf for sub in error.context for leaf in _leaves(sub)]


def _describe(error: ValidationError) -> str:
    # Inside anyOf/oneOf the deepest failure is in the branch that was meant; "type"/"enum"
    # misses at the same depth are the other branches.
    weak = ("type", "enum", "const", "required", "additionalProperties")
    error = max(_leaves(error), key=lambda e: (len(e.absolute_path), e.validator not in weak))
    if len(error.message) < 120:
        return f"{_where(error)}: {error.message}"
    size = f" (length {len(error.instance)})" if hasattr(error.instance, "__len__") else ""
    shown = repr(error.instance)[:40]
    return f"{_where(error)}: {shown}...{size} violates {error.validator} {error.validator_value}"


def validate_request(method: str, path: str, body: Any) -> list[str]:
    """Problems Discord would reject this request for (an empty list if none)."""
    method = method.lower()
    template = find_template(method, path)
    if template is None:
        return [f"{method.upper()} {path}: no such operation in Discord's API"]
    where = f"{method.upper()} {template}"
    if _validator(method, template) is None:
        return [] if body is None else [f"{where}: takes no JSON body"]
    problems = _schema_problems(method, template, json.dumps(body, sort_keys=True))
    return [f"{where} {p}" for p in (*problems, *extra_checks(template, body))]


@lru_cache(maxsize=256)
def _schema_problems(method: str, template: str, body_json: str) -> tuple[str, ...]:
    # Every test's bot registers the same ~12 commands: the same body is checked once.
    validator = _validator(method, template)
    assert validator is not None
    return tuple(_describe(e) for e in validator.iter_errors(json.loads(body_json)))
