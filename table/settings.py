"""A channel's settings, and how they layer: its own values, else its server's, else the
defaults."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from lang import N_, TABLE_LOCALES, _
from rules.errors import RulesError
from rules.fatigue import FatigueSettings

from table.checks import check_id, check_int
from table.dice_expr import check_dice

# How many of its latest changes a channel keeps for /history and /undo (not a rule either):
# at most HISTORY_KEEP_MAX, what `/settings set` and an import set. A channel set to more before
# that was the most (up to HISTORY_KEEP_EARLIER_MAX) keeps it: it is read, and lowered at will.
HISTORY_KEEP_DEFAULT, HISTORY_KEEP_MIN, HISTORY_KEEP_MAX = 1000, 10, 10_000
HISTORY_KEEP_EARLIER_MAX = 100_000


@dataclass(frozen=True)
class ChannelSettings:
    ties: Literal["fail", "succeed"] = "fail"
    round_seconds: int = 60
    rest_rate: int = 1
    break_minutes: int = 10
    short_minutes: int = 60
    long_minutes: int = 480
    gm_role_id: int | None = None
    # Threads of this channel play at its table ("shared") or each keeps one of its own.
    threads: Literal["shared", "own"] = "shared"
    history_keep: int = HISTORY_KEEP_DEFAULT
    # Players rest their own characters ("allowed"), or only the GM grants rests ("gm"). While
    # an initiative runs, the GM grants them either way (`table.rest_rights`).
    player_rests: Literal["allowed", "gm"] = "allowed"
    init_dice: str = "1d10"  # rolled for a stored combatant's initiative when no score is given
    # Monsters' numbers (HP, Defense, Evasion…) in what the players see, or the GM's alone.
    monster_stats: Literal["shown", "hidden"] = "hidden"
    # The language the table's public replies speak, whoever types (a Discord locale of
    # TABLE_LOCALES); None: each reader's, or a Community server's (`bot.language`).
    language: str | None = None

    def __post_init__(self) -> None:
        if self.ties not in ("fail", "succeed"):
            raise RulesError(_("Ties must either fail or succeed"))
        if self.player_rests not in ("allowed", "gm"):
            raise RulesError(_("Player rests are either allowed or the GM's"))
        if self.threads not in ("shared", "own"):
            raise RulesError(_("Threads either share this channel's table or keep their own"))
        self.fatigue_settings()  # the rules own the ranges of the fatigue numbers
        if self.gm_role_id is not None:
            check_id(self.gm_role_id, N_("GM role"))
        check_int(self.history_keep, N_("History kept"), HISTORY_KEEP_MIN, HISTORY_KEEP_EARLIER_MAX)
        check_dice(self.init_dice)
        if self.monster_stats not in ("shown", "hidden"):
            raise RulesError(_("Monsters' numbers are either shown to the players or hidden"))
        if self.language is not None and self.language not in TABLE_LOCALES:
            raise RulesError(
                _("A table speaks one of {languages}", languages=", ".join(TABLE_LOCALES))
            )

    @property
    def ties_succeed(self) -> bool:
        return self.ties == "succeed"

    def fatigue_settings(self) -> FatigueSettings:
        return FatigueSettings(
            round_seconds=self.round_seconds,
            rest_rate=self.rest_rate,
            break_minutes=self.break_minutes,
            short_minutes=self.short_minutes,
            long_minutes=self.long_minutes,
        )


SETTING_NAMES: tuple[str, ...] = tuple(f.name for f in fields(ChannelSettings))
DEFAULT_SETTINGS = ChannelSettings()
# The settings a server set for all its channels, as sorted (name, value) pairs; a setting the
# server did not set is absent (its channels use their own value, else the default).
ServerLayer = tuple[tuple[str, Any], ...]


def check_gm_role(role_id: int | None, guild_id: int | None) -> None:
    """A GM role must be a role only GMs have: never the server's @everyone (whose id is the
    server's own), which would make every member a GM."""
    if role_id is not None and role_id == guild_id:
        raise RulesError(_("@everyone can't be the GM role: pick a role only GMs have"))


def server_layer(values: Mapping[str, Any]) -> ServerLayer:
    """The server's settings from name → value (None: not set), checked by the same limits
    as a channel's (`ChannelSettings`): one source for every limit."""
    unknown = set(values) - set(SETTING_NAMES)
    if unknown:
        raise RulesError(_("No setting named {name}", name=repr(sorted(unknown)[0])))
    given = {name: value for name, value in values.items() if value is not None}
    ChannelSettings(**given)  # raises the same RulesError a channel would get
    # A server setting the default sets nothing.
    return tuple(sorted((n, v) for n, v in given.items() if v != getattr(DEFAULT_SETTINGS, n)))


def layered(own: Mapping[str, Any], server: ServerLayer) -> ChannelSettings:
    """A channel's settings: its own values, else the server's, else the defaults. Settings are
    immutable, so equal inputs share one, checked once (every read of a channel layers them);
    the key holds each value's type, so a True never passes for a 1 that was checked."""
    try:
        return _layered(_typed(own.items()), _typed(server))
    except TypeError:  # an unhashable value: checked (and refused) the long way
        return replace(ChannelSettings(**dict(server)), **own)


def _typed(items: Iterable[tuple[str, Any]]) -> tuple[tuple[str, type, Any], ...]:
    return tuple(sorted((name, type(value), value) for name, value in items))


@functools.lru_cache(maxsize=1024)
def _layered(
    own: tuple[tuple[str, type, Any], ...], server: tuple[tuple[str, type, Any], ...]
) -> ChannelSettings:
    """A channel's settings, its own over its server's: made once for each pair of layers in
    use, for at most 1,024 pairs (the least recently used forgotten first)."""
    base = ChannelSettings(**{name: value for name, ignored, value in server})
    return replace(base, **{name: value for name, ignored, value in own})
