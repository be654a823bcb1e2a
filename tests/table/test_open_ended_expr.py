"""`d100oe` and the bare `d100` as `/roll dice:` reads them."""

from __future__ import annotations

import pytest

from rules.errors import RulesError
from table.open_ended_expr import is_plain_d100, open_ended_modifier


@pytest.mark.parametrize(
    ("typed", "modifier"),
    [
        ("d100oe", 0),
        ("D100OE", 0),
        ("1d100oe", 0),
        ("d100oe+25", 25),
        ("d100oe - 10", -10),
        ("d100oe\u221210", -10),
        ("25", 25),
        ("-7", -7),
        ("d100", None),
        ("2d100oe", None),
        ("d100oe+", None),
        ("d100e", None),
        ("2d6+3", None),
    ],
)
def test_open_ended_modifier(typed: str, modifier: int | None) -> None:
    assert open_ended_modifier(typed, 1000) == modifier


def test_an_open_ended_modifier_past_the_limit_is_refused() -> None:
    with pytest.raises(RulesError, match="between −1000 and \\+1000"):
        open_ended_modifier("d100oe+1001", 1000)


@pytest.mark.parametrize(
    ("typed", "plain"),
    [
        ("d100", True),
        ("1D100", True),
        ("d100 + 5", True),
        ("d100-5", True),
        ("d100oe", False),
        ("2d100", False),
        ("d1000", False),
        ("d100kh1", False),
        ("d10", False),
    ],
)
def test_is_plain_d100(typed: str, plain: bool) -> None:
    assert is_plain_d100(typed) is plain
