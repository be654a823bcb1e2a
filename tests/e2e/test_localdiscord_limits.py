"""The limits Discord enforces on Components V2 messages and forms, which the local Discord
must refuse as Discord does (its OpenAPI description alone lets some through)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.localdiscord.attachments import broken_pictures
from tests.localdiscord.limits import COMPONENTS_V2
from tests.localdiscord.validate import validate_request

CALLBACK = "/interactions/1/tok/callback"
EDIT = "/webhooks/1/tok/messages/@original"


def text(content: str = "Aria · 12/40 FP") -> dict[str, Any]:
    return {"type": 10, "content": content}


def button(custom_id: str, label: str = "Spend 1") -> dict[str, Any]:
    return {"type": 2, "style": 2, "label": label, "custom_id": custom_id}


def section(custom_id: str, content: str = "Aria · 12/40 FP") -> dict[str, Any]:
    return {"type": 9, "components": [text(content)], "accessory": button(custom_id)}


def select(custom_id: str) -> dict[str, Any]:
    return {"type": 3, "custom_id": custom_id, "options": [{"label": "a", "value": "a"}]}


def card(*inside: dict[str, Any], **more: Any) -> dict[str, Any]:
    """A V2 message: one container holding `inside`."""
    container = {"type": 17, "accent_color": 0x2ECC71, "components": list(inside)}
    return {"flags": COMPONENTS_V2, "components": [container], **more}


def answer(message: dict[str, Any]) -> dict[str, Any]:
    return {"type": 4, "data": message}


def problems(body: dict[str, Any], path: str = CALLBACK, method: str = "post") -> list[str]:
    return validate_request(method, path, body)


def test_a_card_of_ten_sections_and_a_row_is_accepted() -> None:
    sections = [section(f"tk:s:{n}") for n in range(10)]
    row = {"type": 1, "components": [button("tk:prev", "Previous"), button("tk:next", "Next")]}
    assert problems(answer(card(text("### Party"), *sections, row))) == []
    assert problems(card(text("### Party"), *sections, row), EDIT, "patch") == []


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (card(text(), content="hello"), "can't have content or embeds"),
        (card(text(), embeds=[{"title": "t"}]), "can't have content or embeds"),
        # 1 container + 13 sections of 3 + 1 text = 41 components
        (card(*(section(f"tk:{n}") for n in range(13)), text()), "41 in all (max 40"),
        (card(*(text("x" * 1000) for _ in range(4)), text("y")), "4001 characters of text"),
        # without the flag, only rows, and at most five of them
        ({"components": [text()]}, "need the IS_COMPONENTS_V2 flag"),
        (
            {
                "content": "x",
                "components": [{"type": 1, "components": [button(f"b{n}")]} for n in range(6)],
            },
            "6 rows (max 5",
        ),
        (
            card({"type": 1, "components": [select("tk:pick"), button("tk:go")]}),
            "a select menu shares its row",
        ),
    ],
)
def test_limits_the_description_leaves_out(message: dict[str, Any], expected: str) -> None:
    for found in (problems(answer(message)), problems(message, EDIT, "patch")):
        assert any(expected in p for p in found), found


@pytest.mark.parametrize(
    "broken",
    [
        # two accessories, or a list of them: a section has exactly one
        {"type": 9, "components": [text()], "accessory": [button("a"), button("b")]},
        # a button among a section's texts
        {"type": 9, "components": [text(), button("a")], "accessory": button("b")},
        # no accessory at all
        {"type": 9, "components": [text()]},
        # four texts in one section
        {"type": 9, "components": [text()] * 4, "accessory": button("a")},
    ],
)
def test_a_section_holds_one_to_three_texts_and_one_accessory(broken: dict[str, Any]) -> None:
    assert problems(answer(card(broken)))


def test_a_form_holds_five_fields() -> None:
    field = {"type": 18, "label": "Name", "component": {"type": 4, "custom_id": "n", "style": 1}}

    def form(fields: int) -> dict[str, Any]:
        data = {"custom_id": "f", "title": "New", "components": [field] * fields}
        return {"type": 9, "data": data}

    assert any("max 5" in p for p in problems(form(6)))
    assert not any("max 5" in p for p in problems(form(5)))


def test_a_media_gallery_must_name_a_file_the_message_carries() -> None:
    gallery = {"type": 12, "items": [{"media": {"url": "attachment://chart.png"}}]}
    attached = [{"id": "1", "filename": "chart.png"}]
    (found,) = broken_pictures([], [], [card(gallery)["components"][0]])
    assert "media attachment://chart.png names no file" in found
    assert broken_pictures([], attached, card(gallery)["components"]) == []
    thumbnail = {"type": 9, "components": [text()]}
    thumbnail["accessory"] = {"type": 11, "media": {"url": "attachment://a b.png"}}
    (renamed,) = broken_pictures([], [{"id": "2", "filename": "a b.png"}], [thumbnail])
    assert "Discord rewrites that filename" in renamed
