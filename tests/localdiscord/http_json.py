"""JSON responses the way Discord sends them.

discord.py parses a body as JSON only when Content-Type is exactly `application/json`
(`discord.http.json_or_text`); aiohttp's json_response appends `; charset=utf-8`.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

# A request's parsed JSON body (payload_json if multipart): any JSON value, or None if empty.
BODY: web.RequestKey[Any] = web.RequestKey("body", object)
# A multipart body's files[n] parts, n -> (filename, content), until joined to its attachments.
UPLOADS: web.RequestKey[dict[int, tuple[str, bytes]]] = web.RequestKey("uploads", dict)
# What Discord would refuse in a multipart form itself (a stray part, a file without a name).
FORM_PROBLEMS: web.RequestKey[list[str]] = web.RequestKey("form_problems", list)


def json_response(data: Any, status: int = 200) -> web.Response:
    body = json.dumps(data).encode()
    return web.Response(body=body, status=status, headers={"Content-Type": "application/json"})


def discord_error(status: int, message: str, code: int = 0) -> web.Response:
    return json_response({"message": message, "code": code}, status=status)
