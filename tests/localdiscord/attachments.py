"""Files the bot uploads: multipart bodies (`payload_json` plus `files[n]` parts), kept on the
message they belong to so a test can read them back (`Reply.files`)."""

from __future__ import annotations

import json
import re
from typing import Any

from aiohttp import BodyPartReader, web

from tests.localdiscord.world import fresh_id

UPLOAD = "_upload"  # the key under which an attachment entry carries its file until stored
_PART = re.compile(r"^files\[(\d+)\]$")


async def read_multipart(request: web.Request) -> tuple[Any, dict[int, tuple[str, bytes]]]:
    """The JSON in `payload_json` and every `files[n]` part as n -> (filename, bytes)."""
    body: Any = None
    uploads: dict[int, tuple[str, bytes]] = {}
    reader = await request.multipart()
    while (part := await reader.next()) is not None:
        if not isinstance(part, BodyPartReader):
            continue
        if part.name == "payload_json":
            body = json.loads(await part.text())
        elif part.name and (match := _PART.match(part.name)):
            uploads[int(match[1])] = (part.filename or "", bytes(await part.read()))
    return body, uploads


def _entries(body: Any) -> list[dict[str, Any]]:
    """The `attachments` list of a message body, or of an interaction callback's `data`."""
    if not isinstance(body, dict):
        return []
    data = body.get("data")
    holder: dict[str, Any] = data if isinstance(data, dict) else body
    return list(holder.get("attachments") or [])


def check_uploads(body: Any, uploads: dict[int, tuple[str, bytes]]) -> list[str]:
    """What Discord would reject about how files and `attachments` entries pair up. A new
    upload's entry names its part's index, which Discord takes as a number or a string (the
    OpenAPI description says string only), so the ids are made strings here."""
    if not isinstance(body, dict):
        return ["multipart body without payload_json"] if uploads else []
    named = set()
    for entry in _entries(body):
        if isinstance(entry.get("id"), int):
            entry["id"] = str(entry["id"])
        if str(entry.get("id")).isdigit() and int(entry["id"]) in uploads:
            named.add(int(entry["id"]))
    unnamed = sorted(set(uploads) - named)
    return [f"files {unnamed} have no matching attachments entry"] if unnamed else []


def attach_uploads(body: Any, uploads: dict[int, tuple[str, bytes]]) -> None:
    """Hang each uploaded file on its `attachments` entry, for the message to store."""
    for entry in _entries(body):
        if str(entry.get("id")).isdigit() and int(entry["id"]) in uploads:
            entry[UPLOAD] = uploads[int(entry["id"])]


def stored_attachment(entry: dict[str, Any], files: dict[str, bytes]) -> dict[str, Any]:
    """An attachment as a message carries it; the bytes go to `files` under its filename."""
    filename, data = entry.pop(UPLOAD, (entry.get("filename", ""), b""))
    filename = entry.get("filename") or filename
    files[filename] = data
    attachment_id = fresh_id()
    stored = {
        "id": str(attachment_id),
        "filename": filename,
        "size": len(data),
        "url": f"https://cdn.discordapp.com/attachments/{attachment_id}/{filename}",
        "proxy_url": f"https://media.discordapp.net/attachments/{attachment_id}/{filename}",
        "content_type": "application/json" if filename.endswith(".json") else None,
    }
    if entry.get("description"):  # the alt text a screen reader reads for it
        stored["description"] = entry["description"]
    return stored
