"""Save Roll replies: one save with all its working, or a party's saves one line each."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.render.common import FAILURE, MIXED, SUCCESS, outcome_colour, percent, plain, signed
from rules.saves import Difficulty, SaveKind, SaveResult

DESCRIPTION_MAX = 4096  # Discord's limit on an embed description
TITLE_MAX = 256
PASS, FAIL = "✅", "❌"


CHANCE = "Chance before the roll"


def chance_text(odds: float) -> str:
    """`55% to succeed`, `63.45% to succeed`: the exact odds without trailing zeros."""
    shown = percent(odds)
    if shown[0].isdigit() and "." in shown:
        shown = shown[:-1].rstrip("0").rstrip(".") + "%"
    return f"{shown} to succeed"


def outcome(result: SaveResult) -> str:
    return f"{PASS} Success" if result.success else f"{FAIL} Failure"


def bonus_text(result: SaveResult) -> str:
    """`Level 5 +25 · Wisdom +10 · Kin −5 = +30`: each piece, then the whole bonus."""
    pieces = " · ".join(f"{name} {signed(value)}" for name, value in result.pieces)
    return f"{pieces} = {signed(result.bonus)}" if len(result.pieces) > 1 else pieces


def _ties_note(result: SaveResult) -> str | None:
    if result.margin != 0:
        return "Ties succeed at this table." if result.ties_succeed else None
    return "A tie: it succeeds at this table." if result.ties_succeed else "A tie fails."


def save_embed(result: SaveResult, name: str | None = None) -> discord.Embed:
    """One Save Roll: the dice, each piece of the bonus, total, difficulty, outcome and odds."""
    who = f"{name} — " if name else ""
    embed = discord.Embed(
        title=f"{who}{result.kind.full_name}: {outcome(result)}"[:TITLE_MAX],
        colour=outcome_colour(result.success),
    )
    embed.add_field(name="Roll", value=result.roll.describe(), inline=False)
    embed.add_field(name="Bonus", value=bonus_text(result), inline=False)
    embed.add_field(name="Total", value=f"**{plain(result.total)}**")
    embed.add_field(name="Difficulty", value=result.difficulty.label)
    embed.add_field(name="Margin", value=signed(result.margin))
    embed.add_field(name=CHANCE, value=chance_text(result.odds))
    if result.per is not None:
        embed.add_field(
            name="Points of failure", value=f"{result.points_of_failure} (per {result.per})"
        )
    note = _ties_note(result)
    if note:
        embed.set_footer(text=note)
    return embed


def party_line(name: str, result: SaveResult) -> str:
    """Two short lines a phone shows whole: the outcome and margin first, then the working.
    `✅ **Aria** succeeds · margin **+7**` / `╰ 42 +40 = 82 vs 75 · 63.45% to succeed`
    (`· PoF **2**` on the first line when counted)."""
    mark, verdict = (PASS, "succeeds") if result.success else (FAIL, "fails")
    head = f"{mark} **{name}** {verdict} · margin **{signed(result.margin)}**"
    if result.points_of_failure:
        head += f" · PoF **{result.points_of_failure}**"
    working = (
        f"╰ {result.roll.describe()} {signed(result.bonus)} = {plain(result.total)} "
        f"vs {result.difficulty.value} · {chance_text(result.odds)}"
    )
    return f"{head}\n{working}"


def _fit_lines(head: str, lines: Sequence[str], limit: int = DESCRIPTION_MAX) -> str:
    """`head` and as many lines as fit in `limit`, then "…and N more" for the rest."""
    text = head
    for index, line in enumerate(lines):
        left = len(lines) - index - 1
        # Room must remain for this line and, if any follow, the "…and N more" line.
        tail = f"\n…and {left} more" if left else ""
        if len(text) + 1 + len(line) + len(tail) <= limit:
            text += "\n" + line
            continue
        return text + f"\n…and {len(lines) - index} more"
    return text


def party_embed(
    kind: SaveKind,
    difficulty: Difficulty,
    results: Sequence[tuple[str, SaveResult]],
    mod: int = 0,
    per: int | None = None,
) -> discord.Embed:
    """Everyone's save against one difficulty, one line each (name, dice, total, margin, odds)."""
    passed = sum(1 for _, result in results if result.success)
    if passed == len(results):
        colour = SUCCESS
    elif passed == 0:
        colour = FAILURE
    else:
        colour = MIXED
    head = [f"vs **{difficulty.label}**"]
    if mod:
        head.append(f"Modifier {signed(mod)}")
    if per is not None:
        head.append(f"PoF per {per}")
    lines = [party_line(name, result) for name, result in results]
    embed = discord.Embed(
        title=f"Party {kind.full_name}: {passed} of {len(results)} succeed",
        description=_fit_lines(" · ".join(head), lines),
        colour=colour,
    )
    if results and results[0][1].ties_succeed:
        embed.set_footer(text="Ties succeed at this table.")
    return embed
