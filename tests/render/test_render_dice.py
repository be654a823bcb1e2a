"""render.dice: `/dice report`'s embed, each verdict with the chance behind it, the first d100s,
a long party cut to Discord's limits, and whether secret rolls were counted."""

from __future__ import annotations

from datetime import UTC, datetime
from fractions import Fraction

from render.common import FIELD_MAX, TITLE_MAX
from render.dice import SHOWN, chance_line, dice_report_embed
from rules.luck import Luck, SuccessCount
from table.dice_report import ALL, EVENING, CharacterLuck, dice_report
from table.roll_log import LoggedRoll, Rolled

START = datetime(2026, 3, 6, 19, 0, tzinfo=UTC)


def saves(
    *outcomes: tuple[str | None, bool], chance: Fraction = Fraction(1, 2)
) -> list[LoggedRoll]:
    return [
        LoggedRoll(
            10**18 + i, 0, START, 0, 1, False, Rolled("tsr", n, (40,), 70, None, 80, chance, s)
        )
        for i, (n, s) in enumerate(outcomes)
    ]


def luck_of(successes: int, chances: list[float]) -> CharacterLuck:
    return CharacterLuck.of("Aria", successes, SuccessCount(chances))


def test_each_verdict_says_the_chance_behind_it() -> None:
    unlucky = luck_of(5, [0.5] * 20)
    assert unlucky.luck is Luck.UNLUCKY
    assert chance_line(unlucky) == "5 or fewer come by chance 2.07% of the time."
    lucky = luck_of(16, [0.5] * 20)
    assert chance_line(lucky) == "16 or more come by chance 0.59% of the time."
    even = luck_of(10, [0.5] * 20)
    assert chance_line(even) == "10 or fewer come by chance 58.81% of the time, 10 or more 58.81%."
    few = luck_of(1, [0.5] * 2)
    assert chance_line(few) == "Even none or all succeeding would not be unusual."


def test_the_tables_report() -> None:
    rolls = saves(*[("Aria", i < 4) for i in range(20)], ("Bórin", True), (None, False))
    embed = dice_report_embed(dice_report(rolls, EVENING, START))
    assert embed.title == "🎲 The table's dice"
    assert (embed.description or "").startswith("Since <t:1772823600:f> · 22 rolls counted\n")
    assert "In all, 5 of 22 saves succeeded; the odds expected 11.0" in (embed.description or "")
    names = [field.name for field in embed.fields]
    assert names == [
        "🌧️ Aria · Very unlucky",
        "🤷 Bórin · Too few saves to tell",
        "🤷 Saves with numbers given · Too few saves to tell",
        "First d100s",
    ]
    assert embed.fields[0].value == (
        "4 of 20 saves succeeded; the odds expected 10.0.\n"
        "4 or fewer come by chance 0.59% of the time."
    )
    assert embed.fields[-1].value == (
        "22 first d100s, too few to tell whether they are flat (the test needs 50)."
    )
    assert embed.footer.text == "Secret rolls are not counted"


def test_everything_kept_for_the_gm_and_a_long_party_fits() -> None:
    names = [f"Hero {i} {'x' * 25}" for i in range(30)]
    report = dice_report(saves(*[(n, True) for n in names]), ALL, secret=True)
    embed = dice_report_embed(report)
    assert (embed.description or "").startswith("Everything this channel keeps")
    assert len(embed.fields) == SHOWN + 2  # ten characters, "and 20 more", the d100s
    assert embed.fields[SHOWN].name == "And 20 more"
    assert all(
        len(f.name or "") <= TITLE_MAX and len(f.value or "") <= FIELD_MAX for f in embed.fields
    )
    assert len(embed) <= 6000
    assert embed.footer.text == "🔒 Secret rolls counted: only you see this"


def test_first_d100s_far_from_flat() -> None:
    embed = dice_report_embed(dice_report(saves(*[("Aria", True)] * 60), ALL))
    assert embed.fields[-1].value == (
        "60 first d100s, uneven, as a fair die rarely is: a fair die spreads at least this "
        "unevenly <0.01% of the time (chi-square 540.0 over ten bins of ten)."
    )
