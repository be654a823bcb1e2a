"""`bot.options.check_options` against the bot's own declarations: whatever JSON arrives, it
either passes data that fits or raises BadOptions, never anything else (a TypeError there
would leave the interaction unanswered)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.client import COGS, Tablekeeper
from bot.options import BadOptions, check_fields, check_options
from bot.settings import Settings
from store import Store

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([2**63, -(2**64), 10**400])  # JSON numbers Python reads exactly, any size
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


async def _declarations(db: Path) -> list[dict[str, Any]]:
    config = Settings(token="unused.in.this.test", database_url=f"sqlite:///{db}")
    async with Store.open(config.database_url) as store:
        bot = Tablekeeper(config, store, cogs=COGS)
        await bot.setup_hook()
        return [
            c.to_dict(bot.tree)
            for c in bot.tree.get_commands()
            if c.to_dict(bot.tree).get("type", 1) == 1
        ]


@pytest.fixture(scope="module")
def declarations(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    return asyncio.run(_declarations(tmp_path_factory.mktemp("options") / "t.db"))


def option_like(names: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """An option object with a real or made-up name, any type number and any value."""
    return st.fixed_dictionaries(
        {"name": st.sampled_from(names) | st.text(max_size=5), "type": st.integers(0, 12) | JSON},
        optional={"value": JSON, "options": st.lists(JSON, max_size=2), "focused": JSON},
    )


@settings(max_examples=300, deadline=None)
@given(data=st.data(), autocomplete=st.booleans())
def test_any_json_is_either_fine_or_a_polite_refusal(
    declarations: list[dict[str, Any]], data: st.DataObject, autocomplete: bool
) -> None:
    declared = data.draw(st.sampled_from(declarations))
    names = sorted(_names(declared))
    leaf = st.lists(option_like(names), max_size=4)
    sub = st.fixed_dictionaries(
        {"name": st.sampled_from(names), "type": st.sampled_from([1, 2]), "options": leaf | JSON}
    )
    payload = {
        "name": declared["name"],
        "options": data.draw(leaf | st.lists(sub, max_size=2) | JSON),
        "resolved": data.draw(JSON | st.just({"users": {"1": {}}})),
    }
    try:
        check_options(declared, payload, autocomplete=autocomplete)
    except BadOptions as error:
        assert str(error).endswith(".")  # a sentence for the user


def _names(node: dict[str, Any]) -> set[str]:
    found = {o["name"] for o in node.get("options") or []}
    for option in node.get("options") or []:
        found |= _names(option)
    return found or {"x"}


LEVEL = {"name": "level", "type": 4, "min_value": 1, "max_value": 100}
TOUGHNESS = {"name": "toughness", "type": 4}
NAME = {"name": "name", "type": 3, "min_length": 1, "max_length": 32}
FL = {"name": "fatigue_level", "type": 10, "min_value": 1, "max_value": 1000}
FORM = {"name": "create", "type": 1, "options": [NAME, LEVEL, TOUGHNESS, FL]}


def test_a_forms_fields_are_read_as_their_options_types() -> None:

    fields = {
        "name": ("Name", " Aria "),
        "level": ("Level", "5"),
        "toughness": ("Toughness", "\u22122"),  # a phone keyboard's minus sign
        "fatigue_level": ("Fatigue Level", "20,5"),  # a decimal comma
    }
    assert check_fields(FORM, fields) == {
        "name": "Aria",
        "level": 5,
        "toughness": -2,
        "fatigue_level": 20.5,
    }
    assert check_fields(FORM, {"level": ("Level", "  "), "name": ("Name", "")}) == {}


@pytest.mark.parametrize(
    ("field", "text", "refusal"),
    [
        ("level", "999", "Level must be between 1 and 100."),
        ("level", "five", "Level needs a whole number."),
        ("level", "2.5", "Level needs a whole number."),
        ("name", "x" * 33, "Name must be 1 to 32 characters long."),
        ("name", "A\x07", "Name can't contain control characters"),
        ("fatigue_level", "lots", "Fatigue Level needs a number."),
    ],
)
def test_a_forms_refusal_names_the_field_by_its_label(field: str, text: str, refusal: str) -> None:

    label = {"level": "Level", "name": "Name", "fatigue_level": "Fatigue Level"}[field]
    with pytest.raises(BadOptions) as refused:
        check_fields(FORM, {field: (label, text)})
    assert str(refused.value).startswith(refusal)
