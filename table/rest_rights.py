"""Who may rest a character (docs/rules.md#37-recovery-and-rests): removing FP is something the
GM grants, so a player's own rest is theirs only while the channel allows it
(`player_rests:allowed`, the default) and no fight is running (an initiative between
`/init start` and `/init end`). The whole party's rest is always the GM's (`cogs.rest`)."""

from __future__ import annotations

from lang import N_, _

from table.model import Forbidden, Table

IN_A_FIGHT = N_(
    "A fight is running here (`/init`): only the GM can rest a character until `/init end`"
)
GM_GRANTS_RESTS = N_(
    "In this channel the GM grants rests (`player_rests:gm` in `/settings`): ask the GM"
)


def check_may_rest(table: Table, is_gm: bool) -> None:
    """Refuse a player's rest where the GM grants rests; a GM may always."""
    if is_gm:
        return
    if table.initiative.running:
        raise Forbidden(_(IN_A_FIGHT))
    if table.settings.player_rests == "gm":
        raise Forbidden(_(GM_GRANTS_RESTS))
