"""`/init` replies: the turn order with whose turn it is and the round, a turn passing (with
the clock moving at a new round), and the turn order's changes as `/history` lines."""

from __future__ import annotations

from typing import Any

import discord
from discord.utils import escape_markdown

from bot.render.common import NEUTRAL, plain
from bot.render.fatigue import fit_lines
from rules.gametime import game_time
from table.combat import Combatant, Initiative
from table.initiative import TurnReport

TITLE = "⚔️ Initiative"
TURN = "▶️"
KIND_ICON = {"character": "🧑", "monster": "👹", "other": "•"}
EMPTY = "Nobody is in the initiative. Add them with `/init add name:… score:…`."


def _name(combatant: Combatant) -> str:
    return escape_markdown(combatant.name)


def order_lines(initiative: Initiative) -> list[str]:
    """`▶️ 👹 **Troll** 18` for whose turn it is, the others indented, highest score first."""
    current = initiative.current
    lines = []
    for combatant in initiative.combatants:
        mark = TURN if combatant == current else "⠀ "
        icon = KIND_ICON[combatant.kind]
        name = f"**{_name(combatant)}**" if combatant == current else _name(combatant)
        lines.append(f"{mark} {icon} {name} · {plain(combatant.score)}")
    return lines


def status(initiative: Initiative) -> str:
    current = initiative.current
    if current is None:
        return "Not started: the GM starts it with `/init start`."
    return f"Round {initiative.round} · {_name(current)}'s turn"


def order_embed(
    initiative: Initiative, clock: int, title: str = TITLE, *, with_status: bool = True
) -> discord.Embed:
    """`/init show` and the other replies: the round and whose turn (unless the title says
    it already), then the order."""
    if not initiative.combatants:
        return discord.Embed(title=title[:256], description=EMPTY, colour=NEUTRAL)
    lines = [status(initiative), "", *order_lines(initiative)] if with_status else []
    lines = lines or order_lines(initiative)
    embed = discord.Embed(title=title[:256], description=fit_lines(lines), colour=NEUTRAL)
    return embed.set_footer(text=f"🕰️ {game_time(clock)}")


def turn_title(report: TurnReport) -> str:
    begins = " begins" if report.new_round is not None else ""
    return f"{TURN} Round {report.round}{begins} · {report.now.name}'s turn"


def turn_text(report: TurnReport) -> str:
    lines = [f"{_name(report.ended)}'s turn ends."]
    if report.facing is not None:
        lines.append(
            f"🧭 GM: {_name(report.ended)} ends its turn facing {report.facing.facing}: "
            "choose its facing (N, NE, E, SE, S, SW, W, NW) below."
        )
    return "\n".join(lines)


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
        f"{escape_markdown(name)} joins ({plain(score)})"
        for key, (name, score) in now.items()
        if key not in was
    ]
    parts += [f"{escape_markdown(name)} leaves" for key, (name, _) in was.items() if key not in now]
    round_was = (old or {}).get("round", 0)
    if new is None and (round_was or len(was) > 1):
        return "initiative ended"
    new = new or {}
    round_now = new.get("round", 0)
    if round_now and (round_now, new.get("turn")) != (round_was, (old or {}).get("turn")):
        started = "started, " if not round_was else ""
        parts.append(f"{started}round {round_now}: {_whose(new)}'s turn")
    elif round_was and not round_now:
        parts.append("stopped")
    return "initiative: " + (", ".join(parts) or "changed")
