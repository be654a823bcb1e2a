"""The local Discord's forms: what a form the bot sends may hold (Discord's description and the
limits it documents beside it), and what Discord's client lets a user submit, in the shapes it
submits radio groups, checkbox groups and select menus inside Labels."""

from __future__ import annotations

from typing import Any

import pytest

from tests.localdiscord.commands import CommandLineError
from tests.localdiscord.reply import fill_modal, picked
from tests.localdiscord.validate import validate_request

CALLBACK = "/interactions/1/token/callback"


def _options(*values: str, default: str | None = None) -> list[dict[str, Any]]:
    return [{"label": v.title(), "value": v, "default": v == default} for v in values]


def text(custom_id: str = "name", **more: Any) -> dict[str, Any]:
    return {"type": 4, "custom_id": custom_id, "style": 1, **more}


def radio(custom_id: str = "rank", **more: Any) -> dict[str, Any]:
    return {"type": 21, "custom_id": custom_id, "options": _options("1", "2", "3"), **more}


def checks(custom_id: str = "spots", **more: Any) -> dict[str, Any]:
    return {"type": 22, "custom_id": custom_id, "options": _options("back", "left"), **more}


def select(custom_id: str = "armor", **more: Any) -> dict[str, Any]:
    return {"type": 3, "custom_id": custom_id, "options": _options("light", "heavy"), **more}


def label(component: dict[str, Any], text: str = "Field") -> dict[str, Any]:
    return {"type": 18, "label": text, "component": component}


def modal(*components: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": 9,
        "data": {"custom_id": "tk:form:1", "title": "A form", "components": [*components]},
    }


TWO_DEFAULTS = [{"label": v, "value": v, "default": True} for v in ("a", "b")]


def no_resolve(kind: int, value: Any) -> str:
    raise AssertionError("nothing to resolve in these forms")


MONSTER = [
    label(text(required=True, max_length=32), "Name"),
    label(radio(), "Rank"),
    label(select(min_values=0, required=False), "Armor"),
    label(checks(min_values=0, max_values=2, required=False), "Spots"),
]


def test_a_form_of_labelled_groups_and_menus_is_accepted() -> None:
    assert validate_request("post", CALLBACK, modal(*MONSTER)) == []


@pytest.mark.parametrize(
    ("components", "expected"),
    [
        ([label(text())] * 6, "6 components (max 5)"),
        ([radio()], "outside a Label"),
        ([{"type": 1, "components": [checks()]}], "outside a Label"),
        ([label(checks(min_values=0))], "min_values 0 needs required false"),
        ([label(select(max_values=3))], "1 to 3 picks of 2 options"),
        ([label(checks(min_values=2, max_values=1))], "2 to 1 picks"),
        ([label(radio(options=TWO_DEFAULTS))], "2 options chosen by default (max 1)"),
        ([label(select(options=TWO_DEFAULTS))], "2 options chosen by default (max 1)"),
        ([label(select(disabled=True))], "disabled"),
        ([label(radio(options=_options("1")))], "is too short"),  # Discord's description: 2 to 10
    ],
)  # fmt: skip
def test_a_form_discord_would_refuse_is_a_violation(
    components: list[dict[str, Any]], expected: str
) -> None:
    problems = validate_request("post", CALLBACK, modal(*components))
    assert any(expected in p for p in problems), problems


def test_a_message_menu_must_offer_what_it_takes() -> None:
    row = {"type": 1, "components": [select(max_values=5)]}
    body = {"type": 4, "data": {"content": "pick", "components": [row]}}
    assert any("1 to 5 picks of 2 options" in p for p in validate_request("post", CALLBACK, body))


def test_a_submission_has_discords_shapes() -> None:
    filled = fill_modal(
        MONSTER,
        {"name": "Troll", "rank": "2", "armor": ["heavy"], "spots": ["back", "left"]},
        no_resolve,
    )
    inner = [c["component"] for c in filled]
    assert [c["type"] for c in filled] == [18, 18, 18, 18]
    assert all(isinstance(c["id"], int) for c in filled + inner)
    assert inner[0] == {"type": 4, "id": inner[0]["id"], "custom_id": "name", "value": "Troll"}
    assert inner[1] == {"type": 21, "id": inner[1]["id"], "custom_id": "rank", "value": "2"}
    assert inner[2]["values"] == ["heavy"] and inner[3]["values"] == ["back", "left"]
    assert inner[3]["type"] == 22


def test_a_field_left_alone_is_submitted_as_the_form_showed_it() -> None:
    shown = [
        label(text(value="Troll")),
        label(radio(options=_options("1", "2", default="2"))),
        label(checks(options=_options("back", "left", default="left"), required=False)),
    ]
    inner = [c["component"] for c in fill_modal(shown, {}, no_resolve)]
    assert (inner[0]["value"], inner[1]["value"], inner[2]["values"]) == ("Troll", "2", ["left"])


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({"rank": "2"}, "^Name is required$"),  # left empty; named by its label, as shown
        ({"name": "T" * 33, "rank": "2"}, "takes 0 to 32"),
        ({"name": "Troll"}, "^Rank: choose one of"),  # a required radio group left unchosen
        ({"name": "Troll", "rank": "9"}, "choose one of"),
        ({"name": "Troll", "rank": "2", "spots": ["front"]}, "^Spots: .* not all among"),
        ({"name": "Troll", "rank": "2", "armor": ["light", "heavy"]}, "^Armor takes 0 to 1 picks"),
    ],
)
def test_what_discords_client_would_not_submit_is_refused(
    values: dict[str, Any], expected: str
) -> None:
    with pytest.raises(CommandLineError, match=expected):
        fill_modal(MONSTER, values, no_resolve)


def test_a_menu_in_a_message_takes_what_it_offers_and_as_many() -> None:
    multi = select(min_values=1, max_values=2)
    assert picked(multi, ["light", "heavy"], no_resolve) == ["light", "heavy"]
    with pytest.raises(CommandLineError, match="takes 1 to 1 picks"):
        picked(select(), ["light", "heavy"], no_resolve)
    with pytest.raises(CommandLineError, match="offers only"):
        picked(select(), ["mithril"], no_resolve)
