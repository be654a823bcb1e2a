"""render.saves (and the shared formats in render.common): embeds from resolved saves."""

from __future__ import annotations

from collections.abc import Sequence

import discord
import pytest

from render import common
from render.common import DESCRIPTION_MAX
from render.saves import chance_text, party_embed, save_embed
from rules import text as text_module
from rules.dice import OpenEndedRoll
from rules.fatigue import BANDS
from rules.saves import Difficulty, SaveKind, SaveResult, resolve


def save(
    dice: Sequence[int],
    *,
    kind: SaveKind = SaveKind.WSR,
    level: int = 1,
    difficulty: Difficulty | None = None,
    ties_succeed: bool = False,
    **pieces: int | None,
) -> SaveResult:
    return resolve(
        kind,
        level=level,
        difficulty=difficulty or Difficulty.number(55),
        roll=OpenEndedRoll.from_dice(dice),
        ties_succeed=ties_succeed,
        **pieces,  # type: ignore[arg-type]
    )


def fields(embed: discord.Embed) -> dict[str, str]:
    return {f.name or "": f.value or "" for f in embed.fields}


def test_a_success_shows_all_its_working() -> None:
    result = save(
        [97, 99, 43],
        level=5,
        stat=10,
        kin=5,
        mod=-5,
        difficulty=Difficulty.attack_level(7),
    )
    embed = save_embed(result, "Aria")
    assert embed.title == "Aria — Willpower Save Roll: ✅ Success"
    assert embed.colour == common.SUCCESS
    shown = fields(embed)
    assert shown["Roll"] == "97 → +99 → +43 = 239"
    assert shown["Bonus"] == "Level 5 +25 · Wisdom +10 · Kin +5 · Modifier −5 = +35"
    assert shown["Total"] == "**274**"  # 239 + 35
    assert shown["Difficulty"] == "Attack Level 7 → 85"
    assert shown["Margin"] == "+189"
    assert "Points of failure" not in shown  # no "per" given
    assert shown["Chance before the roll"].endswith("% to succeed")
    assert embed.footer.text is None


def test_a_failure_counts_points_of_failure() -> None:
    result = save([42], kind=SaveKind.TSR, difficulty=Difficulty.number(60), per=5)
    embed = save_embed(result)
    assert embed.title == "Toughness Save Roll: ❌ Failure"
    assert embed.colour == common.FAILURE
    shown = fields(embed)
    assert shown["Bonus"] == "Level 1 +5"  # one piece: no sum repeated
    assert shown["Total"] == "**47**"
    assert shown["Margin"] == "−13"
    assert shown["Points of failure"] == "3 (per 5)"  # ceil(13 / 5)


def test_a_low_open_ended_roll_goes_negative() -> None:
    embed = save_embed(save([3, 98, 40], stat=-20))
    shown = fields(embed)
    assert shown["Roll"] == "03 → −98 → −40 = −135"
    assert shown["Bonus"] == "Level 1 +5 · Wisdom −20 = −15"
    assert shown["Total"] == "**−150**"


def test_odds_are_exact_percentages() -> None:
    # Needing 51+ on the open-ended d100: the 45 faces 51–95, and 96–100 (which only add).
    assert fields(save_embed(save([10])))["Chance before the roll"] == "50% to succeed"
    # When a tie succeeds, 50 also counts: 46 + 5 faces.
    assert fields(save_embed(save([10], ties_succeed=True)))["Chance before the roll"] == (
        "51% to succeed"
    )


def test_a_spell_difficulty_is_labelled() -> None:
    embed = save_embed(save([80], difficulty=Difficulty.spell(120)))
    assert fields(embed)["Difficulty"] == "Spell cast 120 → 75"


@pytest.mark.parametrize(
    ("ties_succeed", "title_end", "footer"),
    [(False, "❌ Failure", "A tie fails."), (True, "✅ Success", "A tie: it succeeds")],
)
def test_a_tie_says_how_the_table_counts_it(
    ties_succeed: bool, title_end: str, footer: str
) -> None:
    embed = save_embed(save([50], ties_succeed=ties_succeed))  # 50 + 5 = 55 against 55
    assert (embed.title or "").endswith(title_end)
    assert fields(embed)["Margin"] == "+0"
    assert (embed.footer.text or "").startswith(footer)


def test_party_two_short_lines_each() -> None:
    results = [
        ("Aria", save([60], level=5, difficulty=Difficulty.number(70))),  # 85: pass
        ("Borin", save([20], level=2, difficulty=Difficulty.number(70), per=10)),  # 30: fail
    ]
    embed = party_embed(SaveKind.TSR, Difficulty.number(70), results, per=10)
    assert embed.title == "Party Toughness Save Roll: 1 of 2 succeed"
    assert embed.colour == common.MIXED
    lines = (embed.description or "").splitlines()
    assert lines[0] == "vs **DC 70** · PoF per 10"
    # The outcome and margin stand out first; every number of the working follows.
    assert lines[1] == "✅ **Aria** succeeds · margin **+15**"
    assert lines[2].startswith("╰ 60 +25 = 85 vs 70 · ") and lines[2].endswith("% to succeed")
    assert lines[3] == "❌ **Borin** fails · margin **−40** · PoF **4**"
    assert lines[4].startswith("╰ 20 +10 = 30 vs 70 · ") and lines[4].endswith("% to succeed")
    assert max(len(line) for line in lines[1:]) <= 50  # about a phone's line


@pytest.mark.parametrize(("die", "colour"), [(99, common.SUCCESS), (10, common.FAILURE)])
def test_party_colour_when_all_agree(die: int, colour: discord.Colour) -> None:
    dice = [die, 50] if die >= 96 else [die]
    results = [(name, save(dice, difficulty=Difficulty.number(60))) for name in ("A", "B")]
    embed = party_embed(SaveKind.WSR, Difficulty.number(60), results, mod=-3)
    assert embed.colour == colour
    assert "Modifier −3" in (embed.description or "")


def test_a_big_party_fits_discords_limit() -> None:
    result = save([97, 98, 99, 96, 97, 12], difficulty=Difficulty.number(60))
    names = [f"Adventurer number {i:03d} of the long company" for i in range(200)]
    embed = party_embed(SaveKind.WSR, Difficulty.number(60), [(n, result) for n in names])
    text = embed.description or ""
    assert len(text) <= DESCRIPTION_MAX
    shown = sum(1 for n in names if f"**{n}**" in text)
    assert 0 < shown < len(names)
    assert text.endswith(f"…and {len(names) - shown} more")
    assert embed.title == "Party Willpower Save Roll: 200 of 200 succeed"


def test_a_small_party_is_not_cut() -> None:
    results = [(f"N{i}", save([50])) for i in range(3)]
    text = party_embed(SaveKind.WSR, Difficulty.number(55), results).description or ""
    assert "more" not in text
    assert len(text.splitlines()) == 1 + 2 * 3  # the head, then two lines a character


# --- shared formats (render.common) ------------------------------------------------------


@pytest.mark.parametrize(("number", "text"), [(5, "+5"), (0, "+0"), (-3, "−3")])
def test_signed_uses_a_true_minus(number: int, text: str) -> None:
    assert text_module.signed(number) == text


def test_plain_signs_only_negatives() -> None:
    assert (text_module.plain(7), text_module.plain(-7)) == ("7", "−7")


@pytest.mark.parametrize(
    ("chance", "text"),
    [(0.6345, "63.45%"), (0.0, "0.00%"), (1.0, "100.00%"), (1e-9, "<0.01%"), (0.99999, ">99.99%")],
)
def test_percent(chance: float, text: str) -> None:
    assert common.percent(chance) == text


def test_every_band_has_its_own_colour() -> None:
    colours = [common.band_colour(band) for band in BANDS]
    assert len(set(colours)) == len(BANDS) == 5
    assert common.band_colour("Fresh").g > common.band_colour("Fresh").r  # green
    assert common.band_colour("Exhausted").r > common.band_colour("Exhausted").g  # red


@pytest.mark.parametrize(
    ("chance", "text"),
    [
        (0.55, "55% to succeed"),
        (0.6345, "63.45% to succeed"),
        (0.605, "60.5% to succeed"),
        (0.0, "0% to succeed"),
        (1.0, "100% to succeed"),
        (1e-9, "<0.01% to succeed"),
    ],
)
def test_chance_to_succeed(chance: float, text: str) -> None:
    assert chance_text(chance) == text
