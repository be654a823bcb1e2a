"""render.roll: the open-ended d100 and dice-expression replies."""

from __future__ import annotations

from render.common import DESCRIPTION_MAX, NEUTRAL, TITLE_MAX
from render.roll import dice_embed, open_ended_embed
from rules.dice import OpenEndedRoll


def test_open_ended_high_with_a_modifier_shows_every_die() -> None:
    embed = open_ended_embed(OpenEndedRoll.from_dice([97, 99, 43]), mod=5)
    assert embed.title == "d100 (open-ended high): 244"
    assert embed.description == "97 → +99 → +43 = 239\n239 +5 = **244**"
    assert embed.colour == NEUTRAL


def test_open_ended_low_with_a_negative_modifier() -> None:
    embed = open_ended_embed(OpenEndedRoll.from_dice([3, 98, 40]), mod=-10)
    assert embed.title == "d100 (open-ended low): −145"
    assert embed.description == "03 → −98 → −40 = −135\n−135 −10 = **−145**"


def test_a_plain_roll_is_one_bold_number() -> None:
    embed = open_ended_embed(OpenEndedRoll.from_dice([42]))
    assert embed.title == "d100: 42"
    assert embed.description == "**42**"


def test_dice_embed_shows_the_working() -> None:
    embed = dice_embed("2d6+3", "2d6 (2, **6**) + 3 = `11`", 11)
    assert embed.title == "2d6+3: 11"
    assert embed.description == "2d6 (2, **6**) + 3 = `11`"


def test_dice_embed_fits_discords_limits() -> None:
    working = "1000d6 (" + ", ".join(["**6**"] * 1000) + ") = `6000`"
    embed = dice_embed("9" * 100 + "d6", working, -(10**200))
    assert len(embed.description or "") <= DESCRIPTION_MAX
    assert (embed.description or "").endswith(" …")
    assert len(embed.title or "") <= TITLE_MAX
