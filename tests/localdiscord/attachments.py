"""Files the bot uploads: multipart bodies (`payload_json` plus `files[n]` parts), checked as
Discord checks them and kept on the message they belong to, so a test can read them back
(`Reply.files`, `Reply.attachments`).

Discord's rules (its "Uploading Files" reference and the OpenAPI description's multipart
schemas, which name `files[0]` to `files[9]`): the JSON goes in `payload_json`, each file in a
`files[n]` part with a filename, and the JSON's `attachments` array holds an entry per file
whose `id` is that n (with its `filename` and `description`, the alt text). On an edit an entry
may instead name an attachment the message already has, by its id; attachments left out are
removed. An embed shows an attached picture by `attachment://<filename>`, a name Discord keeps
only if it is ASCII letters, digits, `_`, `-` and `.` (others it rewrites, and the link breaks).
"""

from __future__ import annotations

import json
import mimetypes
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from aiohttp import BodyPartReader, web

from tests.localdiscord.world import fresh_id

UPLOAD = "_upload"  # the key under which an attachment entry carries its file until stored
MAX_FILES = 10
_PART = re.compile(r"^files\[(\d+)\]$")
SAFE_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")
ATTACHMENT_URL = "attachment://"

Uploads = dict[int, tuple[str, bytes]]  # n of files[n] -> (filename, content)


@dataclass(frozen=True)
class Upload:
    """A file a user attaches to a command's attachment option: Discord's client uploads it to
    the CDN and the interaction carries its attachment object (`resolved.attachments`), whose
    `size` is what Discord declares (None: the data's own length)."""

    filename: str
    data: bytes
    size: int | None = None
    content_type: str = "application/json; charset=utf-8"


async def read_multipart(request: web.Request) -> tuple[Any, Uploads, list[str]]:
    """The JSON in `payload_json`, every `files[n]` part, and what Discord would refuse in the
    form itself (a part it doesn't know, a file without a filename, more than ten files)."""
    body: Any = None
    uploads: Uploads = {}
    problems: list[str] = []
    reader = await request.multipart()
    while (part := await reader.next()) is not None:
        if not isinstance(part, BodyPartReader):
            problems.append("multipart: a nested multipart part")
        elif part.name == "payload_json":
            body = json.loads(await part.text())
        elif part.name and (match := _PART.match(part.name)):
            if not part.filename:
                problems.append(f"multipart: {part.name} has no filename")
            if int(match[1]) >= MAX_FILES:
                problems.append(f"multipart: {part.name}: Discord takes files[0] to files[9]")
            uploads[int(match[1])] = (part.filename or "", bytes(await part.read()))
        else:
            problems.append(f"multipart: unknown form field {part.name!r}")
    if body is None:
        problems.append("multipart body without payload_json")
    return body, uploads, problems


def _entries(body: Any) -> list[dict[str, Any]]:
    """The `attachments` list of a message body, or of an interaction callback's `data`."""
    if not isinstance(body, dict):
        return []
    data = body.get("data")
    holder: dict[str, Any] = data if isinstance(data, dict) else body
    return [e for e in holder.get("attachments") or [] if isinstance(e, dict)]


def check_uploads(body: Any, uploads: Uploads) -> list[str]:
    """What Discord would reject about how files and `attachments` entries pair up: every file
    has its entry. A new upload's entry names its part's index, which Discord takes as a number
    or a string (the OpenAPI description says string only), so the ids are made strings here."""
    named = set()
    for entry in _entries(body):
        if isinstance(entry.get("id"), int):
            entry["id"] = str(entry["id"])
        if str(entry.get("id")).isdigit() and int(entry["id"]) in uploads:
            named.add(int(entry["id"]))
    unnamed = sorted(set(uploads) - named)
    return [f"files {unnamed} have no matching attachments entry"] if unnamed else []


def attach_uploads(body: Any, uploads: Uploads) -> None:
    """Hang each uploaded file on its `attachments` entry, for the message to store."""
    for entry in _entries(body):
        if str(entry.get("id")).isdigit() and int(entry["id"]) in uploads:
            entry[UPLOAD] = uploads[int(entry["id"])]


def unknown_attachments(body: Any, attachments: list[dict[str, Any]]) -> list[str]:
    """Entries Discord refuses: neither a file of this request nor an attachment the message
    (none for a new one) already has."""
    kept = {a["id"] for a in attachments}
    return [
        f"attachments[{i}]: id {e.get('id')!r} is neither a file of this request nor an"
        " attachment of the message"
        for i, e in enumerate(_entries(body))
        if UPLOAD not in e and str(e.get("id")) not in kept
    ]


def broken_pictures(
    embeds: list[dict[str, Any]],
    attachments: list[dict[str, Any]],
    components: Iterable[Any] = (),
) -> list[str]:
    """Pictures a message links (`attachment://…`, in an embed or a Components V2 media gallery
    or thumbnail) and does not carry, or carries under a name Discord rewrites: Discord takes
    the message and shows nothing there."""
    names = {a["filename"] for a in attachments}
    problems = []
    links = [("embed picture", u) for u in _picture_urls(embeds)]
    links += [("media", u) for u in _media_urls(components)]
    for kind, url in links:
        name = url.removeprefix(ATTACHMENT_URL)
        if name not in names:
            problems.append(f"{kind} {url} names no file of the message: nothing shows")
        elif not SAFE_NAME.match(name):
            problems.append(f"{kind} {url}: Discord rewrites that filename, the link breaks")
    return problems


def _picture_urls(embeds: Iterable[Any]) -> list[str]:
    urls = []
    for embed in embeds:
        if not isinstance(embed, dict):
            continue
        for key, field in (("image", "url"), ("thumbnail", "url"), ("author", "icon_url")):
            urls.append((embed.get(key) or {}).get(field))
        urls.append((embed.get("footer") or {}).get("icon_url"))
    return [u for u in urls if isinstance(u, str) and u.startswith(ATTACHMENT_URL)]


def _media_urls(components: Iterable[Any]) -> list[str]:
    """The `attachment://` links of a Components V2 tree: media gallery items, thumbnails."""
    urls = []
    for component in components:
        if not isinstance(component, dict):
            continue
        media = [
            item.get("media") for item in component.get("items") or [] if isinstance(item, dict)
        ]
        media.append(component.get("media"))
        urls += [m.get("url") for m in media if isinstance(m, dict)]
        inner = [*(component.get("components") or []), component.get("accessory")]
        urls += _media_urls(inner)
    return [u for u in urls if isinstance(u, str) and u.startswith(ATTACHMENT_URL)]


def _filename(entry: dict[str, Any]) -> str:
    return str(entry.get("filename") or entry[UPLOAD][0])


def stored_attachment(entry: dict[str, Any], files: dict[str, bytes]) -> dict[str, Any]:
    """An attachment as a message carries it; the bytes go to `files` under its filename."""
    filename = _filename(entry)
    files[filename] = entry.pop(UPLOAD)[1]
    attachment_id = fresh_id()
    stored = {
        "id": str(attachment_id),
        "filename": filename,
        "size": len(files[filename]),
        "url": f"https://cdn.discordapp.com/attachments/{attachment_id}/{filename}",
        "proxy_url": f"https://media.discordapp.net/attachments/{attachment_id}/{filename}",
        "content_type": mimetypes.guess_type(filename)[0],
    }
    if entry.get("description") is not None:
        stored["description"] = entry["description"]
    return stored
