"""`/dice report`'s embed: the window and what it counted, each character's saves against the
exact odds with a verdict in plain words and the chance behind it, and the first d100s."""

from __future__ import annotations

import discord

from lang import _, n_
from render.common import FIELD_MAX, NEUTRAL, TITLE_MAX, percent
from rules.luck import FEWEST_D100S, Flatness, FlatTest, Luck
from table.dice_report import LUCK_WORDS, CharacterLuck, DiceReport, flatness_words, tally

SHOWN = 10  # characters with a field of their own; the rest are counted
MARKS = {
    Luck.TOO_FEW: "🤷",
    Luck.VERY_UNLUCKY: "🌧️",
    Luck.UNLUCKY: "☁️",
    Luck.AS_EXPECTED: "⚖️",
    Luck.LUCKY: "🍀",
    Luck.VERY_LUCKY: "🌟",
}


def chance_line(luck: CharacterLuck) -> str:
    """The chance behind the verdict, in words."""
    k = luck.successes
    if luck.luck is Luck.TOO_FEW:
        return _("Even none or all succeeding would not be unusual.")
    if luck.luck in (Luck.UNLUCKY, Luck.VERY_UNLUCKY):
        return _(
            "{k} or fewer come by chance {chance} of the time.", k=k, chance=percent(luck.at_most)
        )
    if luck.luck in (Luck.LUCKY, Luck.VERY_LUCKY):
        return _(
            "{k} or more come by chance {chance} of the time.", k=k, chance=percent(luck.at_least)
        )
    return _(
        "{k} or fewer come by chance {low} of the time, {k} or more {high}.",
        k=k,
        low=percent(luck.at_most),
        high=percent(luck.at_least),
    )


def _field(embed: discord.Embed, luck: CharacterLuck) -> None:
    name = luck.name or _("Saves with numbers given")
    verdict = _(LUCK_WORDS[luck.luck])
    embed.add_field(
        name=f"{MARKS[luck.luck]} {name} · {verdict}"[:TITLE_MAX],
        value=f"{tally(luck)}.\n{chance_line(luck)}"[:FIELD_MAX],
        inline=False,
    )


def _d100s(test: FlatTest) -> str:
    if test.flatness is Flatness.TOO_FEW:
        return _("{flat} (the test needs {n}).", flat=flatness_words(test), n=FEWEST_D100S)
    return _(
        "{flat}: a fair die spreads at least this unevenly {chance} of the time "
        "(chi-square {statistic} over ten bins of ten).",
        flat=flatness_words(test),
        chance=percent(test.p),
        statistic=f"{test.chi_square:.1f}",
    )


def dice_report_embed(report: DiceReport) -> discord.Embed:
    """The report's embed (its picture is attached to it by the caller)."""
    if report.start is not None:
        since = _("Since {start}", start=discord.utils.format_dt(report.start, "f"))
    else:
        since = _("Everything this channel keeps")
    counted = n_("{n} roll counted", "{n} rolls counted", report.rolls)
    description = [f"{since} · {counted}"]
    if report.overall is not None and report.steps:
        last = report.steps[-1]
        description.append(
            _(
                "In all, {tally}: a fair count ends between {low} and {high} at least 90% of "
                "the time.",
                tally=tally(report.overall),
                low=last.low,
                high=last.high,
            )
        )
    embed = discord.Embed(
        title=f"🎲 {report.title()}"[:TITLE_MAX],
        description="\n".join(description),
        colour=NEUTRAL,
    )
    for luck in report.characters[:SHOWN]:
        _field(embed, luck)
    if len(report.characters) > SHOWN:
        more = len(report.characters) - SHOWN
        embed.add_field(
            name=n_("And {n} more", "And {n} more", more),
            value=_("Ask for one with `character:`"),
            inline=False,
        )
    if report.d100s.dice:
        embed.add_field(name=_("First d100s"), value=_d100s(report.d100s), inline=False)
    if report.secret:
        embed.set_footer(text=_("🔒 Secret rolls counted: only you see this"))
    else:
        embed.set_footer(text=_("Secret rolls are not counted"))
    return embed
