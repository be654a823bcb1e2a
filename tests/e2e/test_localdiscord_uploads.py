"""The local Discord takes files as Discord does: a multipart body of `payload_json` and
`files[n]` parts, each file named by an `attachments` entry with the same id (its alt text in
`description`); an edit keeps the attachments it names by id and drops the rest. What Discord
refuses gets its 400 and a violation; a picture an embed links and the message doesn't carry
(Discord takes it and shows nothing) is noted as a violation too."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.localdiscord.client import LocalDiscord
from tests.localdiscord.payloads import interaction_payload
from tests.localdiscord.records import InteractionRecord

MENTIONS: dict[str, Any] = {"allowed_mentions": {"parse": []}}
PNG = b"\x89PNG\r\n\x1a\n-a-picture"


def form(payload: Any, *parts: tuple[str, str | None, bytes]) -> aiohttp.FormData:
    """A multipart body: `payload_json` (unless None), then each (field, filename, content);
    with no filename, a plain text field."""
    data = aiohttp.FormData()
    if payload is not None:
        data.add_field("payload_json", json.dumps(payload), content_type="application/json")
    for name, filename, content in parts:
        if filename is None:
            data.add_field(name, content.decode("latin-1"))
        else:
            data.add_field(name, content, filename=filename, content_type="image/png")
    return data


def picture(url: str = "attachment://map.png") -> dict[str, Any]:
    return {"title": "Map", "image": {"url": url}}


@pytest.fixture
async def local() -> AsyncIterator[tuple[LocalDiscord, aiohttp.ClientSession]]:
    async with LocalDiscord() as d, aiohttp.ClientSession() as http:
        yield d, http


def interaction(d: LocalDiscord) -> InteractionRecord:
    payload = interaction_payload(d.world, 2, d.player, d.table, {"name": "x"})
    rec = InteractionRecord(int(payload["id"]), payload["token"], 2, payload)
    d.server.interactions[rec.id] = rec
    return rec


def callback_url(d: LocalDiscord, rec: InteractionRecord) -> str:
    return f"{d.api_base}/interactions/{rec.id}/{rec.token}/callback"


def webhook_url(d: LocalDiscord, rec: InteractionRecord, tail: str = "") -> str:
    return f"{d.api_base}/webhooks/{d.world.application_id}/{rec.token}{tail}"


async def test_a_file_and_its_entry_make_an_attachment_with_its_alt_text(
    local: tuple[LocalDiscord, aiohttp.ClientSession],
) -> None:
    d, http = local
    rec = interaction(d)
    answer = {
        "type": 4,
        "data": {
            "embeds": [picture()],
            "attachments": [{"id": 0, "filename": "map.png", "description": "A map of the keep"}],
            **MENTIONS,
        },
    }
    async with http.post(callback_url(d, rec), data=form(answer, ("files[0]", "x.png", PNG))) as r:
        assert r.status == 200
    message = d.server.messages[rec.original_id or 0]
    (attachment,) = message.payload()["attachments"]
    assert attachment["filename"] == "map.png"  # the entry's name wins over the part's
    assert (attachment["description"], attachment["size"]) == ("A map of the keep", len(PNG))
    assert attachment["content_type"] == "image/png"
    assert message.files == {"map.png": PNG}
    d.assert_clean()


REFUSED: dict[str, tuple[Any, list[tuple[str, str | None, bytes]], str]] = {
    "a file without its entry": (
        {"attachments": []},
        [("files[0]", "a.png", PNG)],
        "files [0] have no matching attachments entry",
    ),
    "an entry naming no file": (
        {"attachments": [{"id": "0"}, {"id": "1"}]},
        [("files[0]", "a.png", PNG)],
        "attachments[1]: id '1' is neither a file of this request nor an attachment",
    ),
    "an eleventh file": (
        {"attachments": [{"id": "10"}]},
        [("files[10]", "a.png", PNG)],
        "files[10]: Discord takes files[0] to files[9]",
    ),
    "a file without a filename": (
        {"attachments": [{"id": "0"}]},
        [("files[0]", None, PNG)],
        "files[0] has no filename",
    ),
    "a field Discord doesn't know": (
        {"attachments": [{"id": "0"}]},
        [("files[0]", "a.png", PNG), ("file", "b.png", PNG)],
        "unknown form field 'file'",
    ),
    "no payload_json": (None, [("files[0]", "a.png", PNG)], "without payload_json"),
}


@pytest.mark.parametrize("case", REFUSED)
async def test_a_multipart_body_discord_refuses_gets_a_400(
    local: tuple[LocalDiscord, aiohttp.ClientSession], case: str
) -> None:
    d, http = local
    rec = interaction(d)
    data, parts, problem = REFUSED[case]
    answer = None if data is None else {"type": 4, "data": {"content": "x", **MENTIONS, **data}}
    async with http.post(callback_url(d, rec), data=form(answer, *parts)) as response:
        assert response.status == 400
        assert (await response.json())["code"] == 50035
    assert any(problem in v for v in d.take_violations()), problem
    assert rec.callback_type is None  # not answered


async def test_an_edit_keeps_the_attachments_it_names_and_drops_the_rest(
    local: tuple[LocalDiscord, aiohttp.ClientSession],
) -> None:
    d, http = local
    rec = interaction(d)
    async with http.post(callback_url(d, rec), json={"type": 5}) as r:
        assert r.status == 200
    two = {"attachments": [{"id": "0"}, {"id": "1"}], **MENTIONS}
    parts = [("files[0]", "a.csv", b"a"), ("files[1]", "b.csv", b"b")]
    async with http.post(webhook_url(d, rec), data=form(two, *parts)) as r:
        first, _ = (await r.json())["attachments"]
    # Keep a.csv (by its id), drop b.csv, add the map: the new file's entry is files[0]'s.
    edit = {
        "embeds": [picture()],
        "attachments": [{"id": first["id"]}, {"id": "0", "filename": "map.png"}],
    }
    original = webhook_url(d, rec, "/messages/@original")
    async with http.patch(original, data=form(edit, ("files[0]", "map.png", PNG))) as r:
        assert r.status == 200
    message = d.server.messages[rec.original_id or 0]
    assert [a["filename"] for a in message.attachments] == ["a.csv", "map.png"]
    assert message.attachments[0]["id"] == first["id"]
    d.assert_clean()
    unknown = {"attachments": [{"id": "12345"}]}
    async with http.patch(original, json=unknown) as r:
        assert r.status == 400
    assert d.take_violations() == [
        "attachments[0]: id '12345' is neither a file of this request nor an attachment of the"
        " message"
    ]
    # Dropping the map while the embed still shows it leaves a picture that shows nothing.
    async with http.patch(original, json={"attachments": [{"id": first["id"]}]}) as r:
        assert r.status == 200
    assert d.take_violations() == [
        f"message {message.id}: embed picture attachment://map.png names no file of the"
        " message: nothing shows"
    ]


async def test_a_picture_linked_under_a_name_discord_rewrites_shows_nothing(
    local: tuple[LocalDiscord, aiohttp.ClientSession],
) -> None:
    d, http = local
    rec = interaction(d)
    url = "attachment://my map.png"
    answer = {
        "type": 4,
        "data": {
            "embeds": [picture(url)],
            "attachments": [{"id": "0", "filename": "my map.png"}],
            **MENTIONS,
        },
    }
    async with http.post(callback_url(d, rec), data=form(answer, ("files[0]", "x.png", PNG))) as r:
        assert r.status == 200  # Discord takes it
    assert d.take_violations() == [
        f"message {rec.original_id}: embed picture {url}: Discord rewrites that filename,"
        " the link breaks"
    ]
