"""A channel's table: its clock, settings and characters. Pure values, no Discord, no SQL.

Cogs pass functions `Table -> (Table, result)` to `Store.apply`; everything here is immutable so
such a function can only return a new Table, never half-change the old one.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from lang import N_, _
from rules.errors import RulesError
from rules.fatigue import COMBINES, FatigueState
from rules.fatigue import fatigue_level as _fatigue_level
from rules.gametime import round_number
from rules.saves import MODIFIER_LIMIT

from table.checks import check_id, check_int
from table.combat import INIT_BONUS_MAX, Initiative
from table.monster import Monster
from table.names import NAME_MAX, name_key, named
from table.parts import PARTS
from table.settings import DEFAULT_SETTINGS, SETTING_NAMES, ChannelSettings, ServerLayer, layered

LEVEL_MAX = 100
FL_MAX = 1000
# One wording wherever a command needs characters and the channel has none.
NO_CHARACTERS = N_(
    "There are no characters in this channel yet: make one with `/character create`"
)  # English: raise it (or show it) through `_()`
# And where party-wide commands find none in the party (`Character.in_party`).
NO_PARTY = N_("Nobody here is in the party: `/character set party:True` puts a character in it")


@functools.lru_cache(maxsize=4096)
def _cached_fatigue_level(*inputs: Any) -> Fraction:
    """A Fatigue Level worked out once per set of inputs (`fatigue_level`'s), not on every load
    of every character (exact Fractions are slow); errors are never kept. At most 4,096 sets of
    inputs are kept, the least recently used forgotten first. Only inputs of exactly the types
    the rules take come here: a key compares True == 1 == 1.0, and the rules refuse True."""
    return _fatigue_level(*inputs)


def fatigue_level(
    classes: tuple[tuple[int, int], ...],
    combine: str,
    toughness: int,
    base_hd: str | None,
    kin_hd_size: int | None,
) -> Fraction:
    if _plain_inputs(classes, combine, toughness, base_hd, kin_hd_size):
        return _cached_fatigue_level(classes, combine, toughness, base_hd, kin_hd_size)
    return _fatigue_level(classes, combine, toughness, base_hd, kin_hd_size)  # the rules say


def _plain_inputs(
    classes: object, combine: object, toughness: object, base_hd: object, kin_hd_size: object
) -> bool:
    """Each input of exactly its type (an int, not a bool or a float): safe as a cache key."""
    return (
        type(classes) is tuple
        and all(
            type(pair) is tuple and len(pair) == 2 and all(type(n) is int for n in pair)
            for pair in classes
        )
        and type(combine) is str
        and type(toughness) is int
        and (base_hd is None or type(base_hd) is str)
        and (kin_hd_size is None or type(kin_hd_size) is int)
    )


class Forbidden(RulesError):
    """The actor may not do this (not the owner, not the GM)."""


@dataclass(frozen=True)
class Character:
    name: str
    owner_id: int
    level: int = 1
    fortitude: int = 0
    wisdom: int = 0
    kin_tsr: int = 0
    kin_wsr: int = 0
    special_tsr: int = 0  # the character's own special modifiers (a ring, a blessing), used
    special_wsr: int = 0  # by every save it makes, alone or in a party save
    classes: tuple[tuple[int, int], ...] = ()  # (HD size, level) per class
    combine: str = "single"
    toughness: int = 0
    base_hd: str | None = None
    kin_hd_size: int | None = None
    fl_override: Fraction | None = None
    # The one its player chose with `/character use`: their commands without `character:` use
    # it when they play several here (`table.active`).
    active: bool = False
    init_bonus: int = 0  # what `/init add` adds to the channel's initiative dice
    # In the party: party-wide commands (`/save party`, a party rest, `/party spend`) take it.
    # A familiar or an NPC the GM tracks is out of it (`/character set party:False`).
    in_party: bool = True
    fatigue: FatigueState = field(default_factory=FatigueState)

    def __post_init__(self) -> None:
        for flag, refusal in (
            ("active", N_("A character is in use or not")),
            ("in_party", N_("A character is in the party or not")),
        ):
            value = getattr(self, flag)
            if value not in (0, 1):  # also takes SQLite's 0/1, kept as a real bool
                raise RulesError(_(refusal))
            object.__setattr__(self, flag, bool(value))
        name = " ".join(self.name.split()) if isinstance(self.name, str) else ""
        if not name:
            raise RulesError(_("A character needs a name"))
        if len(name) > NAME_MAX:
            raise RulesError(
                _("A character's name must be {most} characters or fewer", most=NAME_MAX)
            )
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "_key", name_key(name))  # not a field: compared via the name
        check_id(self.owner_id, N_("Owner"))
        check_int(self.level, N_("Level"), 1, LEVEL_MAX)
        for what, value in (
            (N_("Fortitude"), self.fortitude),
            (N_("Wisdom"), self.wisdom),
            (N_("Kin TSR bonus"), self.kin_tsr),
            (N_("Kin WSR bonus"), self.kin_wsr),
            (N_("TSR special modifier"), self.special_tsr),
            (N_("WSR special modifier"), self.special_wsr),
        ):
            check_int(value, what, -MODIFIER_LIMIT, MODIFIER_LIMIT)
        check_int(self.init_bonus, N_("Initiative bonus"), -INIT_BONUS_MAX, INIT_BONUS_MAX)
        if self.combine not in COMBINES:
            raise RulesError(_("Classes combine as single, multi or dual"))
        try:  # lists (from JSON) become the tuples a frozen value needs
            classes = tuple((size, level) for size, level in self.classes)
        except (TypeError, ValueError):
            raise RulesError(_("Each class needs an HD size and a level")) from None
        object.__setattr__(self, "classes", classes)
        if self.fl_override is not None:
            if isinstance(self.fl_override, bool) or not isinstance(
                self.fl_override, int | Fraction
            ):
                raise RulesError(_("Fatigue Level must be a whole number or a fraction"))
            override = Fraction(self.fl_override)
            if not 0 < override <= FL_MAX:
                raise RulesError(
                    _("Fatigue Level must be more than 0 and at most {most}", most=FL_MAX)
                )
            object.__setattr__(self, "fl_override", override)
        if not isinstance(self.fatigue, FatigueState):
            raise RulesError(_("Fatigue must be a fatigue state"))
        # Bad fatigue inputs fail here, not on some later command; without classes, a stand-in
        # d10 class lets the rules check toughness, Base HD and kin HD all the same.
        computed = fatigue_level(
            self.classes or ((10, 1),),
            self.combine if self.classes else "single",
            self.toughness,
            self.base_hd,
            self.kin_hd_size,
        )
        # The inputs are frozen: their Fatigue Level is kept, not looked up on every `fl`.
        object.__setattr__(self, "_computed_fl", computed if self.classes else None)

    def with_fatigue(self, fatigue: FatigueState) -> Character:
        """This character with another fatigue state: the one path every spend, rest and
        recovery takes."""
        return replace(self, fatigue=fatigue)

    @property
    def key(self) -> str:
        key: str = self._key  # type: ignore[attr-defined]  # set once, in __post_init__
        return key

    def computed_fl(self) -> Fraction | None:
        """The Fatigue Level from the inputs (ignoring the override); None without classes."""
        computed: Fraction | None = self._computed_fl  # type: ignore[attr-defined]  # __post_init__
        return computed

    @property
    def fl(self) -> Fraction | None:
        """The GM's override, else computed from the inputs, else None (nothing to go on)."""
        return self.fl_override if self.fl_override is not None else self.computed_fl()

    def require_fl(self) -> Fraction:
        fl = self.fl
        if fl is None:
            raise RulesError(
                _(
                    "{name} has no Fatigue Level yet: give one with "
                    "`/character set name:{name} fatigue_level:…` or its classes",
                    name=self.name,
                )
            )
        return fl


def check_can_change(actor_id: int, is_gm: bool, character: Character) -> None:
    """Players change their own characters; the GM changes anyone's."""
    if not is_gm and actor_id != character.owner_id:
        raise Forbidden(_("You can only change your own characters; ask the GM"))


@dataclass(frozen=True)
class Table:
    channel_id: int
    guild_id: int | None
    clock: int = 0  # game seconds on this channel's clock
    settings: ChannelSettings = field(default_factory=ChannelSettings)
    characters: tuple[Character, ...] = ()
    monsters: tuple[Monster, ...] = ()
    # Where the rounds of today's length start counting: `round_first` rounds had gone by at game
    # time `round_start` (0 and 0 until the GM first changes `round_seconds`).
    round_start: int = 0
    round_first: int = 0
    # The settings this channel set itself (the rest come from the server, else the defaults);
    # a setting whose value differs from what it would inherit is counted as set here anyway.
    own: frozenset[str] = frozenset()
    server: ServerLayer = ()  # the server's settings (`server_layer`)
    initiative: Initiative = field(default_factory=Initiative)  # the turn order, if any

    def __post_init__(self) -> None:
        # What the channel would read without values of its own (this checks the server's).
        inherited = layered({}, self.server) if self.server else DEFAULT_SETTINGS
        differ = {n for n in SETTING_NAMES if getattr(self.settings, n) != getattr(inherited, n)}
        if not set(self.own) <= set(SETTING_NAMES):
            unknown = sorted(set(self.own) - set(SETTING_NAMES))
            raise RulesError(_("Unknown settings: {names}", names=unknown))
        object.__setattr__(self, "own", frozenset(self.own) | differ)
        check_id(self.channel_id, N_("Channel"))
        if self.guild_id is not None:
            check_id(self.guild_id, N_("Server"))
        check_int(self.clock, N_("Game time (seconds)"), 0, 2**62)
        check_int(self.round_start, N_("Round start (seconds)"), 0, 2**62)
        check_int(self.round_first, N_("Rounds gone by"), 0, 2**62)
        characters = tuple(sorted(self.characters, key=lambda c: c.key))
        for first, second in itertools.pairwise(characters):
            if first.key == second.key:
                raise RulesError(
                    _("There is already a character named '{name}' here", name=second.name)
                )
        object.__setattr__(self, "characters", characters)
        monsters = tuple(sorted(self.monsters, key=lambda m: m.key))
        for earlier, later in itertools.pairwise(monsters):
            if earlier.key == later.key:
                raise RulesError(
                    _("There is already a monster named '{name}' here", name=later.name)
                )
        object.__setattr__(self, "monsters", monsters)

    @property
    def round_number(self) -> int:
        """The round the clock is in, counted from 1 (see `rules.gametime.round_number`)."""
        length = self.settings.round_seconds
        return round_number(self.clock, length, self.round_start, self.round_first)

    def with_settings(
        self,
        settings: ChannelSettings,
        *,
        own: frozenset[str] | None = None,
        server: ServerLayer | None = None,
    ) -> Table:
        """New settings (and which of them the channel set itself, and the server's); a new
        round length keeps the round the clock is in (docs/rules.md#38-the-game-clock): rounds
        of the new length count on from this moment."""
        own = self.own if own is None else own
        server = self.server if server is None else server
        if settings.round_seconds == self.settings.round_seconds:
            return replace(self, settings=settings, own=own, server=server)
        first = self.round_number - 1
        return replace(
            self,
            settings=settings,
            round_start=self.clock,
            round_first=first,
            own=own,
            server=server,
        )

    def counted_at(self, length: int) -> Table:
        """This table, whose rounds were last counted at `length` seconds each (as its row was
        last written). If its round length changed since without a write here (the server's
        changed), the round it was in is kept and rounds of the new length count on from now,
        as `with_settings` does for a change made here: its clock can't have moved since."""
        if length == self.settings.round_seconds:
            return self
        first = round_number(self.clock, length, self.round_start, self.round_first) - 1
        return replace(self, round_start=self.clock, round_first=first)

    def own_settings(self) -> dict[str, Any]:
        """The values this channel set itself."""
        return {name: getattr(self.settings, name) for name in sorted(self.own)}

    def relayered(self, own: Mapping[str, Any], server: ServerLayer | None = None) -> Table:
        """The channel with exactly these settings of its own (and these of the server's)."""
        server = self.server if server is None else server
        return self.with_settings(layered(own, server), own=frozenset(own), server=server)

    def source(self, name: str) -> str:
        """Where the channel's `name` setting comes from: "channel", "server" or "default"."""
        if name in self.own:
            return "channel"
        return "server" if name in dict(self.server) else "default"

    @property
    def party(self) -> tuple[Character, ...]:
        """The characters party-wide commands take: all but those kept out of the party (a
        familiar, an NPC: `Character.in_party`)."""
        return tuple(c for c in self.characters if c.in_party)

    def find(self, name: str) -> Character | None:
        key = name_key(name)
        return next((c for c in self.characters if c.key == key), None)

    def get(self, name: str) -> Character:
        return named(self.characters, name, N_("character"))

    def with_parts(self, **parts: Any) -> Table:
        """This channel with whole parts (`characters`, `monsters`, `initiative`) as another Table
        of it has them, or as any Table read without them has them (empty)."""
        if not parts.keys() <= set(PARTS):
            raise ValueError(f"not parts of a Table: {sorted(parts.keys() - set(PARTS))}")
        return replace(self, **parts)

    def with_character(self, character: Character) -> Table:
        """Insert, or replace the character with the same name (case-insensitive)."""
        for i, c in enumerate(self.characters):
            if c.key == character.key:  # in its place: still sorted, still one per name
                characters = (*self.characters[:i], character, *self.characters[i + 1 :])
                return replace(self, characters=characters)
        return replace(self, characters=(*self.characters, character))

    def without(self, name: str) -> Table:
        gone = self.get(name)
        others = tuple(c for c in self.characters if c.key != gone.key)
        return replace(self, characters=others)

    def find_monster(self, name: str) -> Monster | None:
        key = name_key(name)
        return next((m for m in self.monsters if m.key == key), None)

    def get_monster(self, name: str) -> Monster:
        return named(self.monsters, name, N_("monster"))

    def with_monster(self, monster: Monster) -> Table:
        """Insert, or replace the monster with the same name (case-insensitive)."""
        others = tuple(m for m in self.monsters if m.key != monster.key)
        return replace(self, monsters=(*others, monster))

    def without_monster(self, name: str) -> Table:
        gone = self.get_monster(name)
        return replace(self, monsters=tuple(m for m in self.monsters if m.key != gone.key))
