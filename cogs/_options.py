"""Option types several commands share, each bounded by the rules' own limit (one source for
every limit: Discord is told the same range the bot checks)."""

from __future__ import annotations

from discord import app_commands

from lang import N_
from render.label import LABEL_MAX
from rules.fatigue import FP_AT_ONCE_MAX, MINUTES_MAX
from table.combat import INIT_BONUS_MAX

Amount = app_commands.Range[int, 1, FP_AT_ONCE_MAX]  # FP spent or recovered at once
Minutes = app_commands.Range[int, 1, MINUTES_MAX]  # game minutes
Label = app_commands.Range[str, 1, LABEL_MAX]  # what a roll is for (`/roll`, `/save`)
# A stored initiative bonus (`/character set`, `/monster create`): what `/init add` adds.
InitBonus = app_commands.Range[int, -INIT_BONUS_MAX, INIT_BONUS_MAX]
INIT_BONUS_HELP = N_("Added to the channel's initiative dice by /init add; breaks ties")
