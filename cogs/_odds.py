"""The odds as a picture: the "Odds" buttons of `/save` replies and `chart:True`. The series is
`table.odds_series` (the reply's own working and odds), drawn off the event loop."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from cogs._picture import job, reply_picture
from lang import N_, _
from render.common import NEUTRAL
from rules.errors import RulesError
from table.odds_series import odds_series
from table.savecalc import DifficultyOptions, SaveInputs

SECRET_CHART = N_(
    "A secret save comes without a chart (it would be shown to the channel): roll it with "
    "`secret:` alone, and ask for the odds of a save that isn't secret"
)


def no_secret_chart(secret: bool, chart: bool) -> None:
    if secret and chart:
        raise RulesError(_(SECRET_CHART))


def given(against: DifficultyOptions) -> int:
    """The difficulty option's own value: the Attack Level, DC or casting total typed."""
    for value in (against.vs, against.dc, against.spell):
        if value is not None:
            return value
    raise ValueError("a save always has a difficulty")


async def reply_odds(
    interaction: discord.Interaction,
    everyone: Sequence[SaveInputs],
    against: DifficultyOptions,
    *,
    embed: discord.Embed | None = None,
    private: bool | None = None,
    view: discord.ui.View | None = None,
) -> None:
    """Reply with the odds' picture: inside `embed` (a save's own reply, `chart:True`), or in an
    embed of its own (the "Odds" button)."""
    series = odds_series(everyone, given(against))
    if embed is None:
        names = ", ".join(i.name for i in everyone if i.name)
        title = _("Odds: {names}", names=names) if names else _("Odds")
        embed = discord.Embed(title=title[:256], colour=NEUTRAL)
        embed.description = everyone[0].difficulty.label
    picture = job(interaction, "odds", series)
    await reply_picture(interaction, embed, picture, private=private, view=view)
