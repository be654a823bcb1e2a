"""Save Roll replies: one save with all its working, or a party's saves one line each."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from lang import N_, _
from render.common import (
    DESCRIPTION_MAX,
    FAILURE,
    MIXED,
    SUCCESS,
    TITLE_MAX,
    fit_lines,
    outcome_colour,
    percent,
)
from rules.saves import Difficulty, SaveKind, SaveResult
from rules.text import plain, signed

PASS, FAIL = "✅", "❌"


CHANCE = N_("Chance before the roll")
TIES_SUCCEED = N_("Ties succeed at this table.")


def kind_name(kind: SaveKind) -> str:
    """`Willpower Save Roll`, in the reader's language (the rules name it in English)."""
    return _(kind.full_name)


def chance_text(odds: float) -> str:
    """`55% to succeed`, `63.45% to succeed`: the exact odds without trailing zeros."""
    shown = percent(odds)
    if shown[0].isdigit() and "." in shown:
        shown = shown[:-1].rstrip("0").rstrip(".") + "%"
    return _("{chance} to succeed", chance=shown)


def outcome(result: SaveResult) -> str:
    return _("{mark} Success", mark=PASS) if result.success else _("{mark} Failure", mark=FAIL)


def bonus_text(result: SaveResult) -> str:
    """`Level 5 +25 · Wisdom +10 · Kin −5 = +30`: each piece, then the whole bonus."""
    pieces, bonus = result.pieces, result.bonus
    shown = " · ".join(f"{name} {signed(value)}" for name, value in pieces)
    return f"{shown} = {signed(bonus)}" if len(pieces) > 1 else shown


def _ties_note(result: SaveResult) -> str | None:
    if result.margin != 0:
        return _(TIES_SUCCEED) if result.ties_succeed else None
    return _("A tie: it succeeds at this table.") if result.ties_succeed else _("A tie fails.")


def save_embed(result: SaveResult, name: str | None = None) -> discord.Embed:
    """One Save Roll: the dice, each piece of the bonus, total, difficulty, outcome and odds."""
    who = f"{name} — " if name else ""
    embed = discord.Embed(
        title=f"{who}{kind_name(result.kind)}: {outcome(result)}"[:TITLE_MAX],
        colour=outcome_colour(result.success),
    )
    embed.add_field(name=_("Roll"), value=result.roll.describe(), inline=False)
    embed.add_field(name=_("Bonus"), value=bonus_text(result), inline=False)
    embed.add_field(name=_("Total"), value=f"**{plain(result.total)}**")
    embed.add_field(name=_("Difficulty"), value=result.difficulty.label)
    embed.add_field(name=_("Margin"), value=signed(result.margin))
    embed.add_field(name=_(CHANCE), value=chance_text(result.odds))
    if result.per is not None:
        embed.add_field(
            name=_("Points of failure"),
            value=_("{points} (per {per})", points=result.points_of_failure, per=result.per),
        )
    note = _ties_note(result)
    if note:
        embed.set_footer(text=note)
    return embed


def party_line(name: str, result: SaveResult) -> str:
    """Two short lines a phone shows whole: the outcome and margin first, then the working.
    `✅ **Aria** succeeds · margin **+7**` / `╰ 42 +40 = 82 vs 75 · 63.45% to succeed`
    (`· PoF **2**` on the first line when counted)."""
    margin = signed(result.margin)
    if result.success:
        head = _(
            "{mark} **{name}** succeeds · margin **{margin}**", mark=PASS, name=name, margin=margin
        )
    else:
        head = _(
            "{mark} **{name}** fails · margin **{margin}**", mark=FAIL, name=name, margin=margin
        )
    if result.points_of_failure:
        head += _(" · PoF **{points}**", points=result.points_of_failure)
    working = _(
        "╰ {roll} {bonus} = {total} vs {difficulty} · {chance}",
        roll=result.roll.describe(),
        bonus=signed(result.bonus),
        total=plain(result.total),
        difficulty=result.difficulty.value,
        chance=chance_text(result.odds),
    )
    return f"{head}\n{working}"


def _under(head: str, lines: Sequence[str]) -> str:
    """`head`, then as many lines as fit under it in a description (`fit_lines`)."""
    if not lines:
        return head
    return f"{head}\n{fit_lines(lines, DESCRIPTION_MAX - len(head) - 1)}"


def party_embed(
    kind: SaveKind,
    difficulty: Difficulty,
    results: Sequence[tuple[str, SaveResult]],
    mod: int = 0,
    per: int | None = None,
) -> discord.Embed:
    """Everyone's save against one difficulty, one line each (name, dice, total, margin, odds)."""
    passed = sum(1 for _name, result in results if result.success)
    if passed == len(results):
        colour = SUCCESS
    elif passed == 0:
        colour = FAILURE
    else:
        colour = MIXED
    head = [_("vs **{difficulty}**", difficulty=difficulty.label)]
    if mod:
        head.append(_("Modifier {mod}", mod=signed(mod)))
    if per is not None:
        head.append(_("PoF per {per}", per=per))
    lines = [party_line(name, result) for name, result in results]
    embed = discord.Embed(
        title=_(
            "Party {kind}: {passed} of {count} succeed",
            kind=kind_name(kind),
            passed=passed,
            count=len(results),
        ),
        description=_under(" · ".join(head), lines),
        colour=colour,
    )
    if results and results[0][1].ties_succeed:
        embed.set_footer(text=_(TIES_SUCCEED))
    return embed
