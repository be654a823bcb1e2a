"""`/init` replies: the turn order with whose turn it is and the round, a turn passing (with
the clock moving at a new round), and the turn order's changes as `/history` lines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord.utils import escape_markdown

from lang import N_, _
from render.common import NEUTRAL, TITLE_MAX, fit_lines
from rules.defense import facing_text
from rules.gametime import game_time
from rules.text import plain, signed
from table.combat import Combatant, Initiative
from table.initiative import Joined, TurnReport, defeated
from table.model import Table
from table.monster import DEFEATED, Monster

TITLE = N_("⚔️ Initiative")
TURN = "▶️"
BACK = "◀️"
KIND_ICON = {"character": "🧑", "monster": "👹", "other": "•"}
DEFEATED_ICON = "💀"
EMPTY = N_("Nobody is in the initiative. Add them with `/init add name:… score:…`.")


def _name(combatant: Combatant) -> str:
    return escape_markdown(combatant.name)


def order_lines(table: Table) -> list[str]:
    """`▶️ 👹 **Troll** · 18` for whose turn it is, the others indented, highest score first;
    a monster with its HP tracked, how hurt it looks (`Monster.wounds`); a defeated monster
    struck through and marked so."""
    initiative = table.initiative
    current = initiative.current
    lines = []
    for combatant in initiative.combatants:
        mark = TURN if combatant == current else "⠀ "
        icon = KIND_ICON[combatant.kind]
        name = f"**{_name(combatant)}**" if combatant == current else _name(combatant)
        line = f"{mark} {icon} {name} · {plain(combatant.score)}"
        monster = table.find_monster(combatant.name) if combatant.kind == "monster" else None
        wounds = None if monster is None else monster.wounds
        if wounds is not None:
            line += f" · {_(wounds)}"
        if defeated(table, combatant):
            line = f"{mark} {DEFEATED_ICON} ~~{name}~~ · {plain(combatant.score)} · {_(DEFEATED)}"
        lines.append(line)
    return lines


def status(initiative: Initiative) -> str:
    current = initiative.current
    if current is None:
        return _("Not started: the GM starts it with `/init start`.")
    return _("Round {round} · {name}'s turn", round=initiative.round, name=_name(current))


def order_embed(
    table: Table, title: str | None = None, *, with_status: bool = True
) -> discord.Embed:
    """`/init show` and the other replies: the round and whose turn (unless the title says
    it already), then the table's order, and the game time."""
    title = _(TITLE) if title is None else title
    initiative = table.initiative
    if not initiative.combatants:
        return discord.Embed(title=title[:TITLE_MAX], description=_(EMPTY), colour=NEUTRAL)
    lines = [status(initiative), "", *order_lines(table)] if with_status else []
    lines = lines or order_lines(table)
    embed = discord.Embed(title=title[:TITLE_MAX], description=fit_lines(lines), colour=NEUTRAL)
    return embed.set_footer(text=f"🕰️ {game_time(table.clock)}")


def joined_embed(table: Table, joined: Sequence[Joined]) -> discord.Embed:
    """`/init add`: who joined at what score (and the dice, when rolled), then the order."""
    new = joined[0].combatant
    if len(joined) == 1:
        title = _("{name} joins the initiative at {score}", name=new.name, score=new.score)
    else:
        names = ", ".join(j.combatant.name for j in joined)
        title = _("{names} join the initiative", names=names)
    embed = order_embed(table, title)
    rolls = [
        f"🎲 {_name(j.combatant)}: {j.roll.working}" if len(joined) > 1 else f"🎲 {j.roll.working}"
        for j in joined
        if j.roll is not None
    ]
    # The last word on each tie (a later join may have tied with an earlier one again).
    ties = {j.combatant.score: j.ties for j in joined if j.ties}
    rolls += [ties_text(tied) for tied in ties.values()]
    if rolls:
        embed.description = "\n".join([*rolls, "", embed.description or ""])
    return embed


def ties_text(tied: Sequence[Combatant]) -> str:
    """`⚖️ Tied at 7: Aria (bonus +3) · Goblin 1 (bonus +1, roll-off 63) · Goblin 2 (bonus +1,
    roll-off 12)`, in turn order: what settled it."""
    shown = []
    for combatant in tied:
        bonus = _("bonus {bonus}", bonus=signed(combatant.bonus))
        if combatant.rolloff:
            bonus = _("{bonus}, roll-off {roll}", bonus=bonus, roll=combatant.rolloff)
        shown.append(f"{_name(combatant)} ({bonus})")
    return _("⚖️ Tied at {score}: {order}", score=plain(tied[0].score), order=" · ".join(shown))


def mention(combatant: Combatant | None) -> str | None:
    """`<@player>`: the player whose character's turn begins, to be pinged (only them)."""
    if combatant is None or combatant.kind != "character" or combatant.owner_id is None:
        return None
    return _("<@{user}>, it is {name}'s turn", user=combatant.owner_id, name=_name(combatant))


def turn_title(report: TurnReport) -> str:
    if report.back:
        return _(
            "{icon} Round {round} · back to {name}'s turn",
            icon=BACK,
            round=report.round,
            name=report.now.name,
        )
    if report.new_round is not None:
        return _(
            "{icon} Round {round} begins · {name}'s turn",
            icon=TURN,
            round=report.round,
            name=report.now.name,
        )
    return _(
        "{icon} Round {round} · {name}'s turn", icon=TURN, round=report.round, name=report.now.name
    )


def turn_text(report: TurnReport) -> str:
    if report.back:
        lines = [_("{name}'s turn is taken back; the clock stays.", name=_name(report.ended))]
    else:
        lines = [_("{name}'s turn ends.", name=_name(report.ended))]
    if report.skipped:
        names = ", ".join(_name(c) for c in report.skipped)
        lines.append(_("{icon} Defeated, passed over: {names}.", icon=DEFEATED_ICON, names=names))
    return "\n".join(lines)


def facing_embed(monster: Monster) -> discord.Embed:
    """The GM's private question when a monster with unarmored spots ends its turn."""
    return discord.Embed(
        title=_("🧭 {name}'s facing", name=monster.name)[:TITLE_MAX],
        description=_(
            "{name} ends its turn facing {facing}: choose where it faces now, "
            "or leave it as it is. Only you see this.",
            name=escape_markdown(monster.name),
            facing=facing_text(monster.facing),
        ),
        colour=NEUTRAL,
    )


# --- /history -----------------------------------------------------------------------------


def _entries(data: dict[str, Any] | None) -> dict[str, tuple[str, int]]:
    out = {}
    for combatant in (data or {}).get("combatants") or []:
        name = str(combatant.get("name", "?"))
        out[name.casefold()] = (name, combatant.get("score", 0))
    return out


def _whose(data: dict[str, Any]) -> str:
    combatants = data.get("combatants") or []
    turn = data.get("turn", 0)
    if 0 <= turn < len(combatants):
        return escape_markdown(str(combatants[turn].get("name", "?")))
    return "?"


def initiative_change(old: dict[str, Any] | None, new: dict[str, Any] | None) -> str:
    """`initiative: Aria joins (15)`, `initiative round 2: Troll's turn`, `initiative ended`."""
    was, now = _entries(old), _entries(new)
    parts = [
        _("{name} joins ({score})", name=escape_markdown(name), score=plain(score))
        for key, (name, score) in now.items()
        if key not in was
    ]
    parts += [
        _("{name} leaves", name=escape_markdown(name))
        for key, (name, _score) in was.items()
        if key not in now
    ]
    round_was = (old or {}).get("round", 0)
    if new is None and (round_was or len(was) > 1):
        return _("initiative ended")
    new = new or {}
    round_now = new.get("round", 0)
    if round_now and (round_now, new.get("turn")) != (round_was, (old or {}).get("turn")):
        if round_was:
            parts.append(_("round {round}: {name}'s turn", round=round_now, name=_whose(new)))
        else:
            parts.append(
                _("started, round {round}: {name}'s turn", round=round_now, name=_whose(new))
            )
    elif round_was and not round_now:
        parts.append(_("stopped"))
    return _("initiative: {changes}", changes=", ".join(parts) or _("changed"))
