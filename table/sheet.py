"""Character sheets and channel settings from command options: parse, validate, apply.

Pure glue between the cogs and `table.model`: every function here takes plain values (ids, the
options a command was given) and returns new values or raises `RulesError` with text for the
user. The `Table -> (Table, result)` functions are what the cogs hand to `Store.apply`.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from lang import N_, _
from rules.errors import RulesError
from rules.fatigue import FatigueState, toughness_from_con

from table.lookalikes import channel_names, check_unlike
from table.model import FL_MAX, Character, Forbidden, Table, check_can_change
from table.names import clean_name
from table.settings import SETTING_NAMES, ChannelSettings, check_gm_role, layered, server_layer

# Not a rule: a large open table's roster with room to spare, while what a channel does with all
# its characters at once (a `/party spend` logs every one of them; the web page and `/party
# show` draw them all; an export carries them in every such change) stays small.
CHARACTERS_MAX = 200
CLASSES_MAX = 5  # more classes than this is surely a typo
CLASS_LEVEL_MAX = 100
CLASSES_HELP = N_(
    "Classes look like `10:5` (a d10 class at level 5) or, for several, `10:5 6:6` or "
    "`d10/5 d6/6`: the HD size, then the level, for each class"
)  # English: shown through `_()`
CLEARABLE: tuple[str, ...] = ("fatigue_level", "base_hd", "kin_hd", "classes")


# --- classes ------------------------------------------------------------------------------

_TOKEN = re.compile(r"\d+|[a-z]+|\S")
_SEPARATORS = frozenset({",", ";", "&", "+", "and"})
_JOINERS = frozenset({":", "/", "@", "x", "l", "lv", "lvl", "level", "at"})


def parse_classes(text: str) -> tuple[tuple[int, int], ...]:
    """`10:5 6:6`, `d10/5, d6/6`, `d10 5` ... → ((10, 5), (6, 6)): (HD size, level) pairs.

    Forgiving about spacing and separators; any word it can't place is an error that explains
    the format. HD sizes are checked by the rules later (`Character`)."""
    tokens = _TOKEN.findall(text.lower())
    pairs: list[tuple[int, int]] = []
    i = 0
    while i < len(tokens):
        if tokens[i] in _SEPARATORS:
            i += 1
            continue
        if tokens[i] == "d":
            i += 1
        size, i = _number(tokens, i, _("an HD size"))
        if i < len(tokens) and tokens[i] in _JOINERS:
            i += 1
        if i == len(tokens) or tokens[i] == "d":
            raise RulesError(
                _("The d{size} class needs a level. {help}", size=size, help=_(CLASSES_HELP))
            )
        level, i = _number(tokens, i, _("the level of the d{size} class", size=size))
        if not 1 <= level <= CLASS_LEVEL_MAX:
            raise RulesError(_("A class level must be between 1 and {most}", most=CLASS_LEVEL_MAX))
        pairs.append((size, level))
    if not pairs:
        raise RulesError(_("No classes given. {help}", help=_(CLASSES_HELP)))
    if len(pairs) > CLASSES_MAX:
        raise RulesError(_("A character can have at most {most} classes", most=CLASSES_MAX))
    return tuple(pairs)


def _number(tokens: list[str], i: int, what: str) -> tuple[int, int]:
    """The number at `i` and the index after it; `what` (translated) names it in an error."""
    if i >= len(tokens):
        raise RulesError(_("Expected {what} at the end. {help}", what=what, help=_(CLASSES_HELP)))
    token = tokens[i]
    if not token.isdigit() or len(token) > 3:
        raise RulesError(
            _(
                "Expected {what}, not '{token}'. {help}",
                what=what,
                token=token[:10],
                help=_(CLASSES_HELP),
            )
        )
    return int(token), i + 1


def format_classes(classes: tuple[tuple[int, int], ...]) -> str:
    """The canonical way to write classes back: `d10/5 d6/6`."""
    return " ".join(f"d{size}/{level}" for size, level in classes)


def parse_fl(value: float | int | Fraction) -> Fraction:
    """A Fatigue Level typed as a number (20.5) kept exact: 20.5 → 41/2, never a binary float."""
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        raise RulesError(_("Fatigue Level must be a number such as 20 or 20.5"))
    if isinstance(value, float) and not math.isfinite(value):  # NaN and ∞ have no Fraction
        raise RulesError(_("Fatigue Level must be a number such as 20 or 20.5"))
    # str() of a float is its shortest decimal form, so Fraction("20.3") is 203/10 exactly
    fl = Fraction(str(value)) if isinstance(value, float) else Fraction(value)
    if not 0 < fl <= FL_MAX:
        raise RulesError(_("Fatigue Level must be more than 0 and at most {most}", most=FL_MAX))
    return fl


# --- characters ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetOptions:
    """What `/character create` or `/character set` was given; None means "not given"."""

    level: int | None = None
    fortitude: int | None = None
    wisdom: int | None = None
    kin_tsr: int | None = None
    kin_wsr: int | None = None
    special_tsr: int | None = None
    special_wsr: int | None = None
    classes: str | None = None
    combine: str | None = None
    toughness: int | None = None
    constitution: int | None = None
    base_hd: str | None = None
    kin_hd: int | None = None
    fatigue_level: float | int | Fraction | None = None
    init_bonus: int | None = None  # what `/init add` adds to the channel's initiative dice
    party: bool | None = None  # False: out of party-wide commands (a familiar, an NPC)
    clear: str | None = None  # one of CLEARABLE (set only)

    def given(self) -> bool:
        return any(getattr(self, f.name) is not None for f in dataclasses.fields(self))

    def changes(self, current: Character | None) -> dict[str, Any]:
        """The Character fields these options set (on top of `current` when changing one)."""
        if self.toughness is not None and self.constitution is not None:
            raise RulesError(_("Give Toughness or Constitution, not both"))
        if self.clear is not None and self.clear not in CLEARABLE:
            raise RulesError(_("Only {names} can be cleared", names=", ".join(CLEARABLE)))
        if self.clear is not None and getattr(self, self.clear) is not None:
            raise RulesError(
                _("You both set and cleared {name}: do one or the other", name=self.clear)
            )
        fields: dict[str, Any] = {}
        for name in (
            "level",
            "fortitude",
            "wisdom",
            "kin_tsr",
            "kin_wsr",
            "special_tsr",
            "special_wsr",
            "toughness",
            "init_bonus",
        ):
            if getattr(self, name) is not None:
                fields[name] = getattr(self, name)
        if self.party is not None:
            fields["in_party"] = self.party
        if self.constitution is not None:
            fields["toughness"] = toughness_from_con(self.constitution)
        if self.base_hd is not None:
            fields["base_hd"] = self.base_hd.strip()
        if self.kin_hd is not None:
            fields["kin_hd_size"] = self.kin_hd
        if self.fatigue_level is not None:
            fields["fl_override"] = parse_fl(self.fatigue_level)
        if self.classes is not None:
            fields["classes"] = parse_classes(self.classes)
        cleared = {
            "fatigue_level": "fl_override",
            "base_hd": "base_hd",
            "kin_hd": "kin_hd_size",
            "classes": "classes",
        }
        if self.clear is not None:
            fields[cleared[self.clear]] = () if self.clear == "classes" else None
        combine = self._combine(fields.get("classes"), current)
        if combine is not None:
            fields["combine"] = combine
        return fields

    def _combine(
        self, classes: tuple[tuple[int, int], ...] | None, current: Character | None
    ) -> str | None:
        """How the classes combine: as given; else single for one class; else kept, unless the
        character was single-class and now has several (then we must ask)."""
        if self.combine is not None:
            return self.combine
        if not classes:  # not given, or cleared: nothing to combine, keep what was set
            return None
        if len(classes) == 1:
            return "single"
        if current is not None and current.combine != "single":
            return None  # keep multi or dual
        raise RulesError(
            _(
                "{count} classes: say how they combine with `combine:` "
                "(multi for multiclass, dual for dualclass)",
                count=len(classes),
            )
        )


def new_character(name: str, owner_id: int, options: SheetOptions) -> Character:
    fields = options.changes(None)
    if "level" not in fields and fields.get("classes"):
        fields["level"] = max(level for ignored, level in fields["classes"])  # the highest
    return Character(name=clean_name(name, N_("character")), owner_id=owner_id, **fields)


def create(
    table: Table,
    actor_id: int,
    is_gm: bool,
    name: str,
    owner_id: int,
    options: SheetOptions,
) -> tuple[Table, Character]:
    """Add a character; players make their own, the GM makes anyone's. Names are unique."""
    if owner_id != actor_id and not is_gm:
        raise Forbidden(_("Only the GM can make a character for someone else"))
    character = new_character(name, owner_id, options)
    taken = table.find(character.name)
    if taken is not None:
        raise RulesError(
            _(
                "There is already a character named '{name}' in this channel: "
                "pick another name, or change that one with `/character set`",
                name=taken.name,
            )
        )
    check_unlike(character.name, channel_names(table))
    if len(table.characters) >= CHARACTERS_MAX:  # a table already past it keeps what it has
        raise RulesError(
            _(
                "This channel already has {count} characters, the most it can keep is {most}: "
                "remove one first",
                count=len(table.characters),
                most=CHARACTERS_MAX,
            )
        )
    return table.with_character(character), character


def change(
    table: Table,
    actor_id: int,
    is_gm: bool,
    name: str,
    options: SheetOptions,
    new_name: str | None = None,
    owner_id: int | None = None,
) -> tuple[Table, Character]:
    """Change only what was given; players their own characters, the GM anyone's."""
    if not options.given() and new_name is None and owner_id is None:
        raise RulesError(_("Say what to change: give at least one option besides the name"))
    old = table.get(name)
    check_can_change(actor_id, is_gm, old)
    if owner_id is not None and owner_id != old.owner_id and not is_gm:
        raise Forbidden(_("Only the GM can give a character to someone else"))
    fields = options.changes(old)
    if new_name is not None:
        fields["name"] = clean_name(new_name, N_("character"))
        taken = table.find(fields["name"])
        if taken is not None and taken.key != old.key:
            raise RulesError(_("There is already a character named '{name}' here", name=taken.name))
        check_unlike(fields["name"], channel_names(table, but=old.name))
    if owner_id is not None:
        fields["owner_id"] = owner_id
        if owner_id != old.owner_id:
            fields["active"] = False  # its new player hasn't chosen it (`/character use`)
    new = replace(old, **fields)
    if new.fl is not None and new.fl != old.fl:
        new = replace(new, fatigue=caps_for_new_fl(new.fatigue, new.fl))
    order = table.initiative.follow(old.name, new.name, new.owner_id)
    return replace(table.without(old.name).with_character(new), initiative=order), new


def caps_for_new_fl(state: FatigueState, fl: Fraction) -> FatigueState:
    """After the Fatigue Level changes, drop a cap whose floor is now above the character's FP.

    The rules are silent here; a cap that holds FP at a floor it is already below would only
    stop every rest from recovering anything (FP 30 held "at 4001" after FL 7 → 1000)."""
    shattered = state.shattered_cap and FatigueState(shattered_cap=True).floor(fl) <= state.fp
    exhausted = state.exhausted_cap and FatigueState(exhausted_cap=True).floor(fl) <= state.fp
    return replace(state, exhausted_cap=exhausted, shattered_cap=shattered)


def remove(table: Table, actor_id: int, is_gm: bool, name: str) -> tuple[Table, Character]:
    gone = table.get(name)
    check_can_change(actor_id, is_gm, gone)
    return table.without(gone.name), gone


# --- settings -----------------------------------------------------------------------------


RESET_ALL = "all"


@dataclass(frozen=True)
class SettingsOptions:
    """What `/settings set` or `/settings server` was given; None means "not given"."""

    ties: str | None = None
    round_seconds: int | None = None
    rest_rate: int | None = None
    break_minutes: int | None = None
    short_minutes: int | None = None
    long_minutes: int | None = None
    gm_role_id: int | None = None
    clear_gm_role: bool = False
    history_keep: int | None = None
    threads: str | None = None
    player_rests: str | None = None
    init_dice: str | None = None
    monster_stats: str | None = None
    reset: str | None = None  # a setting's name (or "all") to forget at this scope

    def given(self) -> bool:
        values = [getattr(self, f.name) for f in dataclasses.fields(self)]
        return any(v is not None and v is not False for v in values)

    def applied_to(self, values: dict[str, Any]) -> dict[str, Any]:
        """One scope's own settings (name → value) with these options applied: `reset` and
        `clear_gm_role` forget a value (the next scope's applies), the rest set one."""
        if not self.given():
            raise RulesError(_("Say what to change: give at least one setting"))
        if self.gm_role_id is not None and self.clear_gm_role:
            raise RulesError(_("Set a GM role or clear it, not both"))
        forget = set(SETTING_NAMES) if self.reset == RESET_ALL else {self.reset}
        if self.reset is not None and not forget <= set(SETTING_NAMES):
            raise RulesError(_("There is no setting {name} to reset", name=repr(self.reset)))
        given = {n: getattr(self, n) for n in SETTING_NAMES if getattr(self, n) is not None}
        if forget & set(given):
            raise RulesError(_("Set a setting or reset it, not both"))
        if self.clear_gm_role:
            forget.add("gm_role_id")
        kept = {n: v for n, v in values.items() if n not in forget}
        return kept | given


def change_settings(
    table: Table, options: SettingsOptions
) -> tuple[Table, tuple[ChannelSettings, ChannelSettings]]:
    """The channel's own settings with the given options changed, checked by `ChannelSettings`;
    what it doesn't set itself comes from the server, else the defaults. The result is (old
    settings, new settings) for the reply."""
    check_gm_role(options.gm_role_id, table.guild_id)
    own = options.applied_to(table.own_settings())
    # A value the channel already reads (from the server or the defaults) changes nothing.
    own = {n: v for n, v in own.items() if n in table.own or v != getattr(table.settings, n)}
    new = table.relayered(own)
    return new, (table.settings, new.settings)


def change_server_settings(
    table: Table, options: SettingsOptions
) -> tuple[Table, tuple[ChannelSettings, ChannelSettings]]:
    """The server's settings with the given options changed, by the same limits as a
    channel's; this channel (the one the change is made from) reads them at once, and every
    channel of the server that set nothing of its own does on its next read. The result is the
    server's settings before and after, the defaults filling what it doesn't set."""
    if table.guild_id is None:
        raise RulesError(_("Server settings need a server"))
    check_gm_role(options.gm_role_id, table.guild_id)
    server = server_layer(options.applied_to(dict(table.server)))
    new = table.relayered(table.own_settings(), server)
    return new, (layered({}, table.server), layered({}, server))
